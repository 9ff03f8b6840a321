//! `compgym`: the native command line over the compgym core.
//!
//! ```text
//! compgym run [-p] [FILE|-] [ARGS...]   run a Bril program (text or JSON)
//! compgym json [-p|-pp] [FILE|-]        Bril text to JSON (with source positions)
//! compgym text [FILE|-]                 Bril JSON to text
//! compgym verify [FILE|-]               check a program is well formed
//! compgym opt --passes "FLAGS" [--json] [FILE|-] | --list
//!                                       optimise with passes and pipelines
//! compgym features [--dot] [FILE|-]      program features as JSON (or CFG as DOT)
//! compgym bench-interp [--seconds S] [PATH...]
//!                                       interpreter throughput
//! compgym bench-spaces [--seconds S] [--json]
//!                                       space sampling and checking rates
//! compgym bench-passes [PATH...]        what the pipelines cut, outputs checked
//! compgym bench-datasets [DIR]          what -O2, -Oz and each pass do to generated
//!                                       and hand-written datasets
//! compgym generate URI                  print the program a generator URI names
//! compgym bench-pass-speed [--seconds S] [--only FLAG]
//!                                       time per pass and for all features
//! compgym bench-env [--seconds S] [--json]  environment steps/s, fork and observation latency
//! compgym leaderboard [OPTIONS]         every agent on code size and runtime, one table
//! compgym train [OPTIONS]               train a policy, print its curve, save it as JSON
//! compgym shape NAME SIZE [SEED]          a generated program of a shape and size
//! compgym bench-scaling [--sizes N,N..] [--only NAME] [--seconds S] [--markdown]
//!                                       time against program size and growth exponents
//! ```

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use compgym::bril::{self, interp, Program};

const USAGE: &str = "usage:
  compgym run [-p] [FILE|-] [ARGS...]   run a Bril program (text or JSON); without
                                        ARGS, the program's `# ARGS:` line is used;
                                        -p prints total_dyn_inst on stderr
  compgym json [-p|-pp] [FILE|-]        print a program as Bril JSON; -p adds each
                                        function's, label's and instruction's start
                                        (pos), -pp its end too (pos_end), as bril2json
  compgym text [FILE|-]                 print a program as Bril text
  compgym verify [FILE|-]               check that a program is well formed
  compgym opt --passes FLAGS [--json] [FILE|-]
                                        optimise: pass flags and pipelines (-O1, -O2,
                                        -Oz) in order; prints the program
  compgym opt --list                    every pass flag with its description
  compgym run --passes FLAGS [-p] FILE [ARGS...]
                                        optimise, then run
  compgym features [--dot] [FILE|-]      print the program's features (InstCount,
                                        Autophase, ProGraML graph, CFG, IrSha1) as
                                        JSON; --dot prints the CFG as Graphviz DOT
  compgym leaderboard [--quick] [--steps N] [--seconds S] [--agents LIST]
                      [--tasks size,runtime] [--suite N] [--large N] [--generated N] [--size N]
                      [--from-scratch] [--policy FILE] [--seed N] [--json]
                                        every agent (random, greedy, beam, explore, policy)
                                        on code size (vs -Oz) and runtime (vs -O2) over
                                        the suite, large-v0 (when the compiler has it)
                                        and 100 generated programs the policy never
                                        saw; per program a budget of steps and/or
                                        seconds (default 5000 steps, 10 s; --no-step-limit,
                                        --no-time-limit); searches start from the
                                        baseline's passes unless --from-scratch; the
                                        policy is the bundled one unless --policy FILE;
                                        --quick: 4 suite, 2 large and 4 generated
                                        programs, 200 steps
  compgym train [--seconds S] [--updates N] [--seed N] [--out FILE]
                [--episode-length N] [--batch N] [--learning-rate X] [--hidden 64,64]
                [--programs URI,...] [--program-share X]
                                        train a policy (REINFORCE) on generated programs
                                        and, for a share X of episodes, on the benchmarks
                                        or listed datasets given; print its curve, save
                                        it as JSON (default policy.json)
  compgym bench-interp [--seconds S] [--json] [PATH...]
                                        interpreter throughput on the 8 largest .bril
                                        files given or in folders given (default: the
                                        bundled suite)
  compgym bench-spaces [--seconds S] [--json]
                                        space sampling and checking rates (the
                                        native side of bench/spaces.mjs)
  compgym bench-passes [PATH...]        static and dynamic instruction counts under
                                        -O0/-O1/-O2/-Oz, outputs checked (default:
                                        the bundled suite)
  compgym bench-datasets [DIR]          per dataset (random-v0 and random-v1, 100 programs
                                        each; suite-v0; large-v0; the community programs
                                        in DIR, default data/bril-community): the static
                                        share -O2 and -Oz remove, the dynamic share -O2
                                        leaves, the share folded to constants, and how
                                        often each pass changes a program alone
  compgym generate URI                  print the program generator://random-v0/SEED?size=N
                                        or generator://random-v1/SEED?size=N names
  compgym bench-pass-speed [--seconds S] [--only FLAG]
                                        microseconds per pass (on a fresh program and
                                        at the pass's fixpoint) and for all features
                                        on the median suite program
  compgym bench-env [--seconds S] [--json]
                                        environment steps per second (IrInstructionCount
                                        reward, random actions), fork and observation
                                        latency on the median suite program (the native
                                        side of bench/env.mjs)
  compgym shape NAME SIZE [SEED]        print a generated program of a shape
                                        (straight-line, loop-heavy, call-heavy,
                                        block-chain, call-chain) with about SIZE
                                        static instructions
  compgym bench-scaling [--sizes N,N..] [--shapes NAME,..] [--only NAME] [--seconds S] [--markdown]
                                        milliseconds per pass, pipeline, feature, reader,
                                        writer and the verifier on generated programs of
                                        each shape (straight-line, loop-heavy, call-heavy,
                                        block-chain, call-chain) at each size (default
                                        1000,10000,100000 instructions), and the growth
                                        exponent (slope of log time against log size)";

/// Writes to stdout, ignoring a closed pipe (`compgym ... | head` is fine).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// A failure: the message and the exit code.
struct Failure(String, u8);

fn usage_error(message: impl Into<String>) -> Failure {
    Failure(format!("{}\n{USAGE}", message.into()), 1)
}

/// A command: its arguments (after its name) to what it printed or why it failed.
type Command = fn(&[String]) -> Result<(), Failure>;

fn command(name: &str) -> Option<Command> {
    Some(match name {
        "run" => cmd_run,
        "json" => cmd_json,
        "text" => |args| cmd_convert(args, bril::to_text),
        "verify" => cmd_verify,
        "opt" => cmd_opt,
        "features" => cmd_features,
        "bench-interp" => cmd_bench_interp,
        "bench-spaces" => cmd_bench_spaces,
        "bench-passes" => cmd_bench_passes,
        "bench-datasets" => cmd_bench_datasets,
        "generate" => cmd_generate,
        "bench-pass-speed" => cmd_bench_pass_speed,
        "bench-env" => cmd_bench_env,
        "leaderboard" => cmd_leaderboard,
        "train" => cmd_train,
        "bench-scaling" => cmd_bench_scaling,
        "shape" => cmd_shape,
        _ => return None,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `compgym run --help` asks for the usage, as `compgym --help` does (no
    // command takes `-h` or `--help` as a file, a flag or a Bril argument).
    let asks_for_help = |rest: &[String]| rest.iter().any(|a| a == "-h" || a == "--help");
    let result = match args.first().map(String::as_str) {
        Some("help" | "-h" | "--help") => {
            say!("{USAGE}");
            Ok(())
        }
        Some(name) => match command(name) {
            Some(_) if asks_for_help(&args[1..]) => {
                say!("{USAGE}");
                Ok(())
            }
            Some(run) => run(&args[1..]),
            None => Err(usage_error(format!("unknown command {name:?}"))),
        },
        None => Err(usage_error("missing command")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message, code)) => {
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}

/// The program text from a file, or from stdin for `None` and `-`.
fn read_source(file: Option<&str>) -> Result<String, Failure> {
    match file {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| Failure(format!("reading stdin: {e}"), 1))?;
            Ok(s)
        }
        Some(path) => std::fs::read_to_string(path).map_err(|e| Failure(format!("{path}: {e}"), 1)),
    }
}

fn load(file: Option<&str>) -> Result<Program, Failure> {
    let src = read_source(file)?;
    bril::parse_any(&src).map_err(|e| Failure(e.to_string(), 1))
}

fn single_file(args: &[String]) -> Result<Option<&str>, Failure> {
    match args {
        [] => Ok(None),
        [file] => Ok(Some(file)),
        _ => Err(usage_error("expected at most one file")),
    }
}

fn cmd_convert(args: &[String], print: impl Fn(&Program) -> String) -> Result<(), Failure> {
    let program = load(single_file(args)?)?;
    let _ = std::io::stdout().write_all(print(&program).as_bytes());
    Ok(())
}

fn cmd_json(args: &[String]) -> Result<(), Failure> {
    // `-p` once for starts, twice (`-pp` or `-p -p`) for ends too, as bril2json counts it.
    let mut level = 0;
    let mut rest = Vec::new();
    for a in args {
        match a.as_str() {
            "-p" => level += 1,
            "-pp" => level += 2,
            _ => rest.push(a.clone()),
        }
    }
    let src = read_source(single_file(&rest)?)?;
    let out = bril::source_to_json(&src, level).map_err(|e| Failure(e.to_string(), 1))?;
    let _ = std::io::stdout().write_all(out.as_bytes());
    say!("");
    Ok(())
}

fn cmd_verify(args: &[String]) -> Result<(), Failure> {
    let program = load(single_file(args)?)?;
    bril::verify(&program).map_err(|e| Failure(e.to_string(), 1))?;
    say!("ok");
    Ok(())
}

fn cmd_features(args: &[String]) -> Result<(), Failure> {
    let dot = args.iter().any(|a| a == "--dot");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--dot").cloned().collect();
    let program = load(single_file(&rest)?)?;
    let out = if dot {
        bril::features::cfg::to_dot(&program)
    } else {
        let json = bril::features::to_json(&program);
        serde_json::to_string_pretty(&json).map_err(|e| Failure(e.to_string(), 1))? + "\n"
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
    Ok(())
}

/// Takes `--passes "FLAGS"` out of `args`: the flags, split on whitespace.
fn take_passes(args: &[String]) -> Result<(Option<Vec<String>>, Vec<String>), Failure> {
    let mut passes = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--passes" {
            let flags = it.next().ok_or_else(|| usage_error("--passes needs a list of flags"))?;
            passes = Some(flags.split_whitespace().map(String::from).collect());
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((passes, rest))
}

/// Applies pass flags and pipelines (`-O1`, `-O2`, `-Oz`) in order.
fn optimise(program: &mut Program, flags: &[String]) -> Result<(), Failure> {
    compgym::bril::passes::run_command_line(program, flags).map(drop).map_err(|e| Failure(e.to_string(), 1))
}

fn cmd_opt(args: &[String]) -> Result<(), Failure> {
    if args.iter().any(|a| a == "--list") {
        for p in compgym::bril::passes::registry() {
            say!("{:<18} {}", p.flag, p.description);
        }
        for name in compgym::bril::passes::pipelines() {
            say!("{name:<18} the {name} pipeline");
        }
        return Ok(());
    }
    let json = args.iter().any(|a| a == "--json");
    let args: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    let (passes, rest) = take_passes(&args)?;
    let mut program = load(single_file(&rest)?)?;
    optimise(&mut program, &passes.unwrap_or_default())?;
    let out = if json { bril::to_json(&program) + "\n" } else { bril::to_text(&program) };
    let _ = std::io::stdout().write_all(out.as_bytes());
    Ok(())
}

fn cmd_run(args: &[String]) -> Result<(), Failure> {
    let (passes, args) = take_passes(args)?;
    let profile = args.iter().any(|a| a == "-p");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "-p").collect();
    let file = rest.first().map(|s| s.as_str());
    let mut program = load(file)?;
    optimise(&mut program, &passes.unwrap_or_default())?;
    let mut main_args: Vec<String> = rest.iter().skip(1).map(|s| s.to_string()).collect();
    if main_args.is_empty() {
        main_args = program.main_args();
    }
    let exe = interp::Executable::new(&program).map_err(|e| Failure(e.to_string(), 1))?;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut sink = |s: &str| {
        let _ = lock.write_all(s.as_bytes());
    };
    let outcome = exe.run_streaming(&main_args, &interp::Limits::default(), Some(&mut sink));
    let _ = lock.flush();
    drop(lock);
    outcome.result.map_err(|e| Failure(e.to_string(), 2))?;
    if profile {
        eprintln!("total_dyn_inst: {}", outcome.dyn_inst);
    }
    Ok(())
}

/// `.bril` files named, or found in folders named (one level of subfolders).
fn collect_bril_files(paths: &[String]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    fn visit(dir: &Path, depth: u32, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() && depth > 0 {
                visit(&path, depth - 1, files)?;
            } else if path.extension().is_some_and(|e| e == "bril") {
                files.push(path);
            }
        }
        Ok(())
    }
    for p in paths {
        let path = PathBuf::from(p);
        if path.is_dir() {
            visit(&path, 2, &mut files).map_err(|e| Failure(format!("{p}: {e}"), 1))?;
        } else {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn cmd_bench_interp(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 1.0;
    let mut paths = Vec::new();
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--json" {
            json = true;
        } else if a == "--seconds" {
            seconds = it
                .next()
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|s| *s > 0.0)
                .ok_or_else(|| usage_error("--seconds needs a positive number"))?;
        } else {
            paths.push(a.clone());
        }
    }

    // (name, program): files given, or the bundled suite.
    let mut programs: Vec<(String, Program)> = Vec::new();
    if paths.is_empty() {
        for b in bril::suite::all() {
            let p = b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 1))?;
            programs.push((b.name.to_string(), p));
        }
    } else {
        for f in collect_bril_files(&paths)? {
            let name = f.display().to_string();
            let p = load(Some(&name))?;
            programs.push((name, p));
        }
    }

    let start = Instant::now();
    let mut now = move || start.elapsed().as_secs_f64();
    // Rank by dynamic size with one quick run, then time the largest few.
    let mut sized: Vec<(u64, String, Program)> = Vec::new();
    for (name, p) in programs {
        let args = p.main_args();
        let o = interp::run(&p, &args, &interp::Limits::default());
        if o.result.is_ok() {
            sized.push((o.dyn_inst, name, p));
        }
    }
    sized.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut total_inst = 0.0;
    let mut total_secs = 0.0;
    if !json {
        say!("{:>14} {:>8} {:>10}  program", "instr/s", "runs", "dyn_inst");
    }
    let mut rates = serde_json::Map::new();
    for (_, name, p) in sized.iter().take(8) {
        let m = bril::bench::measure(p, &p.main_args(), seconds / 8.0, &mut now)
            .map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        total_inst += m.dyn_inst as f64 * f64::from(m.runs);
        total_secs += m.seconds;
        if json {
            rates.insert(name.clone(), m.per_second().into());
        } else {
            say!("{:>14.0} {:>8} {:>10}  {name}", m.per_second(), m.runs, m.dyn_inst);
        }
    }
    if json {
        say!("{}", serde_json::Value::Object(rates));
        return Ok(());
    }
    if total_secs > 0.0 {
        say!("{:>14.0} overall", total_inst / total_secs);
    }
    if let Some((_, name, p)) = sized.iter().max_by_key(|(_, _, p)| p.instr_count()) {
        let text = bril::to_text(p);
        let us =
            bril::bench::parse_time(&text, 0.2, &mut now).map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        say!("parse: {us:.1} us for {} static instructions ({name})", p.instr_count());
    }
    Ok(())
}

fn cmd_bench_spaces(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 0.5;
    let mut json = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--seconds" => {
                seconds = rest
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| usage_error("--seconds needs a number"))?
            }
            other => return Err(usage_error(format!("unknown option {other:?}"))),
        }
    }
    let start = Instant::now();
    let mut clock = move || start.elapsed().as_secs_f64();
    let results = compgym::spaces::bench::run_benchmarks(&mut clock, seconds);
    if json {
        let rates: serde_json::Map<String, serde_json::Value> =
            results.iter().map(|r| (r.name.to_string(), r.per_second.into())).collect();
        say!("{}", serde_json::Value::Object(rates));
    } else {
        say!("{}", compgym::spaces::bench::format_results(&results).trim_end());
    }
    Ok(())
}

fn cmd_bench_passes(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::passes::quality::{geomean_ratio, measure};
    let mut results = Vec::new();
    let mut programs: Vec<(String, Program)> = Vec::new();
    if args.is_empty() {
        for b in bril::suite::all() {
            programs.push((b.uri(), b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 2))?));
        }
    } else {
        for f in collect_bril_files(args)? {
            let name = f.display().to_string();
            programs.push((name.clone(), load(Some(&name))?));
        }
    }
    let limits = interp::Limits::default();
    let pipelines: Vec<&str> = compgym::bril::passes::pipelines().collect();
    say!("{:<44} {}", "program (static / dynamic instructions)", pipelines.join("            "));
    let mut broken = 0;
    for (name, p) in &programs {
        let q = measure(name, p, &p.main_args(), &limits).map_err(|e| Failure(format!("{name}: {e}"), 2))?;
        let cells: Vec<String> = q
            .measures
            .iter()
            .map(|(_, m)| {
                format!("{:>5} / {:<9}{}", m.static_count, m.dyn_count, if m.same_output { " " } else { "!" })
            })
            .collect();
        broken += q.measures.iter().filter(|(_, m)| !m.same_output).count();
        say!("{:<44} {}", short(name), cells.join(" "));
        results.push(q);
    }
    say!("");
    for pipeline in &pipelines[1..] {
        let dynamic = 1.0 - geomean_ratio(&results, pipeline, |m| m.dyn_count as f64);
        let size = 1.0 - geomean_ratio(&results, pipeline, |m| m.static_count as f64);
        say!(
            "{pipeline}: geometric mean cut {:>5.1}% dynamic, {:>5.1}% static",
            100.0 * dynamic,
            100.0 * size
        );
    }
    say!("programs whose output changed (marked !): {broken}");
    if broken > 0 {
        return Err(Failure(format!("{broken} optimised programs changed their output"), 2));
    }
    Ok(())
}

fn cmd_bench_datasets(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::passes::dataset_stats::{
        at_most, builtin_datasets, format_by_size, format_tables, measure_dataset, summarise, Dataset,
        HAND_WRITTEN_SIZE,
    };
    let dir = match args {
        [] => "data/bril-community".to_string(),
        [dir] => dir.clone(),
        _ => return Err(usage_error("expected at most one folder")),
    };
    let mut datasets = builtin_datasets().map_err(|e| Failure(e.to_string(), 2))?;
    let mut community = Dataset { name: "community".into(), programs: Vec::new() };
    for f in collect_bril_files(&[dir])? {
        let name = f.display().to_string();
        community.programs.push((name.clone(), load(Some(&name))?));
    }
    datasets.push(community);
    let limits = interp::Limits::default();
    let mut stats = Vec::new();
    let mut broken = Vec::new();
    let mut by_size = String::new();
    for d in &datasets {
        let (summary, programs) =
            measure_dataset(d, &limits).map_err(|e| Failure(format!("{}: {e}", d.name), 2))?;
        broken.extend(programs.iter().filter(|p| !p.outputs_kept).map(|p| p.name.clone()));
        stats.push(summary);
        if d.name.starts_with("random-") {
            // The generated programs as large as hand-written ones.
            let name = format!("{} (≤ {HAND_WRITTEN_SIZE} instrs)", d.name);
            stats.push(summarise(&name, &at_most(&programs, HAND_WRITTEN_SIZE)));
            by_size += &format!("\n{} by size:\n\n{}", d.name, format_by_size(&programs));
        }
    }
    say!("{}", format_tables(&stats).trim_end());
    say!("{}", by_size.trim_end());
    if !broken.is_empty() {
        return Err(Failure(format!("optimisation changed the output of: {}", broken.join(", ")), 2));
    }
    Ok(())
}

fn cmd_generate(args: &[String]) -> Result<(), Failure> {
    let [uri] = args else { return Err(usage_error("expected one generator URI")) };
    let program = bril::generator::from_uri(uri).map_err(|e| Failure(e.to_string(), 1))?;
    let _ = std::io::stdout().write_all(bril::to_text(&program).as_bytes());
    Ok(())
}

/// The last two path components: enough to name a benchmark in a table.
fn short(name: &str) -> String {
    let parts: Vec<&str> = name.rsplit('/').take(2).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

/// Seconds per call of `f`: the fastest mean over batches of 64 calls, run
/// for at least `min_seconds` (on a shared machine the fastest batch is the
/// one least disturbed by other work).
fn time_per_call(min_seconds: f64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    while start.elapsed().as_secs_f64() < min_seconds {
        let batch = Instant::now();
        for _ in 0..64 {
            f();
        }
        best = best.min(batch.elapsed().as_secs_f64() / 64.0);
    }
    best
}

/// The median-size program of the bundled suite: (instructions, name, program).
fn median_suite_program() -> Result<(usize, &'static str, Program), Failure> {
    let mut programs: Vec<(usize, &'static str, Program)> = Vec::new();
    for b in bril::suite::all() {
        let p = b.program().map_err(|e| Failure(format!("{}: {e}", b.name), 2))?;
        programs.push((p.instr_count(), b.name, p));
    }
    programs.sort_by_key(|(n, name, _)| (*n, *name));
    let middle = programs.len() / 2;
    Ok(programs.swap_remove(middle))
}

fn cmd_bench_pass_speed(args: &[String]) -> Result<(), Failure> {
    const USAGE_PASS_SPEED: &str = "usage: compgym bench-pass-speed [--seconds S] [--only FLAG]";
    let mut seconds = 0.1;
    let mut only: Option<&str> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match (arg.as_str(), rest.next()) {
            ("--seconds", Some(s)) => {
                seconds = s.parse().map_err(|_| usage_error("--seconds needs a number"))?
            }
            ("--only", Some(flag)) => only = Some(flag),
            _ => return Err(usage_error(USAGE_PASS_SPEED)),
        }
    }
    let (count, name, program) = &median_suite_program()?;
    say!("median suite program: {name} ({count} instructions); time per call, clone excluded");
    say!("  fresh: the pass on a fresh copy of the program; fixpoint: on the program it has already");
    say!("  brought to its fixpoint (a pass that changes nothing more)");
    say!("{:>9}  {:>9}", "fresh", "fixpoint");
    let clone = time_per_call(seconds, || drop(std::hint::black_box(program.clone())));
    for pass in compgym::bril::passes::registry() {
        if only.is_some_and(|flag| flag != pass.flag) {
            continue;
        }
        let fresh = time_per_call(seconds, || {
            let mut p = program.clone();
            let _ = std::hint::black_box((pass.run)(&mut p));
        });
        // At most a few rounds: every pass settles in one or two.
        let mut settled = program.clone();
        for _ in 0..8 {
            if !(pass.run)(&mut settled).unwrap_or(false) {
                break;
            }
        }
        let fixpoint = time_per_call(seconds, || {
            let mut p = settled.clone();
            let _ = std::hint::black_box((pass.run)(&mut p));
        });
        say!(
            "{:>9.2}  {:>9.2} us  {}",
            (fresh - clone).max(0.0) * 1e6,
            (fixpoint - clone).max(0.0) * 1e6,
            pass.flag
        );
    }
    if only.is_some() {
        return Ok(());
    }
    let features = time_per_call(seconds, || drop(std::hint::black_box(bril::features::observe(program))));
    say!("{:>9.2} us  all features (InstCount, Autophase, ProGraML graph, IrSha1, counts)", features * 1e6);
    Ok(())
}

fn cmd_bench_env(args: &[String]) -> Result<(), Failure> {
    let mut seconds = 1.0;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--seconds" => {
                seconds = it
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .filter(|s| *s > 0.0)
                    .ok_or_else(|| usage_error("--seconds needs a positive number"))?
            }
            other => return Err(usage_error(format!("bench-env: unknown argument {other:?}"))),
        }
    }
    let fail = |e: compgym::Error| Failure(format!("bench-env: {e}"), 2);
    let config = compgym::compilers::bench::default_config(seconds).map_err(fail)?;
    let start = Instant::now();
    let mut clock = move || start.elapsed().as_secs_f64();
    let r = compgym::compilers::bench::run(&config, &mut clock).map_err(fail)?;
    if json {
        say!("{}", r.to_json());
    } else {
        say!("{} ({}-step episodes, IrInstructionCount reward)", r.benchmark, r.episode_length);
        say!("{:>12.0} steps/s", r.steps_per_second);
        say!("{:>12.0} steps/s on first visits (every pass runs)", r.first_visit_steps_per_second);
        say!("{:>12.2} us per reset (once per episode)", r.reset_us);
        say!("{:>12.2} us per fork", r.fork_us);
        say!("{:>12.2} us per Autophase observation", r.autophase_us);
        say!("{:>12.2} us per Ir observation", r.ir_us);
    }
    Ok(())
}

fn cmd_shape(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::shapes::{generate_text, Shape};
    let (name, size, seed) = match args {
        [name, size] => (name, size, "1"),
        [name, size, seed] => (name, size, seed.as_str()),
        _ => return Err(usage_error("shape needs a NAME and a SIZE")),
    };
    let shape = Shape::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| usage_error(format!("unknown shape {name:?}")))?;
    let size: usize = size.parse().map_err(|_| usage_error(format!("bad size {size:?}")))?;
    let seed: u64 = seed.parse().map_err(|_| usage_error(format!("bad seed {seed:?}")))?;
    let _ = std::io::stdout().write_all(generate_text(shape, size, seed).as_bytes());
    Ok(())
}

/// Splits `a,b,c` into parsed items.
fn comma_list<T: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<T>, Failure> {
    s.split(',').map(|x| x.trim().parse().map_err(|_| usage_error(format!("bad {what} {x:?}")))).collect()
}

fn cmd_bench_scaling(args: &[String]) -> Result<(), Failure> {
    use compgym::bril::scaling::{workloads, Input};
    use compgym::bril::shapes::{self, Shape};
    let mut sizes: Vec<usize> = vec![1_000, 10_000, 100_000];
    let mut shape_list: Vec<Shape> = Shape::ALL.to_vec();
    let mut only: Option<String> = None;
    let mut seconds = 0.05;
    let mut markdown = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| usage_error(format!("{name} needs a value")));
        match arg.as_str() {
            "--sizes" => sizes = comma_list(value("--sizes")?, "size")?,
            "--shapes" => {
                let names: Vec<String> = comma_list(value("--shapes")?, "shape")?;
                shape_list = Shape::ALL.into_iter().filter(|s| names.iter().any(|n| n == s.name())).collect();
            }
            "--only" => only = Some(value("--only")?.clone()),
            "--seconds" => seconds = comma_list::<f64>(value("--seconds")?, "number")?[0],
            "--markdown" => markdown = true,
            other => return Err(usage_error(format!("bench-scaling: unknown argument {other:?}"))),
        }
    }
    let chosen: Vec<_> =
        workloads().into_iter().filter(|w| only.as_deref().is_none_or(|o| o == w.name)).collect();
    if chosen.is_empty() || sizes.is_empty() || shape_list.is_empty() {
        return Err(usage_error("bench-scaling: nothing to measure"));
    }
    let mut now = cpu_seconds;
    let fail = |e: compgym::Error| Failure(format!("bench-scaling: {e}"), 2);
    // times[shape][workload][size], in seconds
    let mut times = vec![vec![vec![0.0; sizes.len()]; chosen.len()]; shape_list.len()];
    for (si, &shape) in shape_list.iter().enumerate() {
        if !markdown {
            let header: Vec<String> = sizes.iter().map(|n| format!("{:>10}", format!("{n} ms"))).collect();
            say!("\n{:<20}{}  exponent", shape.name(), header.join(""));
        }
        let inputs: Vec<Input> = sizes
            .iter()
            .map(|&n| shapes::generate(shape, n, 1).map(Input::new))
            .collect::<Result<_, _>>()
            .map_err(fail)?;
        for (wi, w) in chosen.iter().enumerate() {
            for (ni, input) in inputs.iter().enumerate() {
                times[si][wi][ni] = w.best_time(input, 3, seconds, &mut now).map_err(fail)?;
            }
            if !markdown {
                let cells: Vec<String> = times[si][wi].iter().map(|t| format!("{:>10.3}", t * 1e3)).collect();
                say!("{:<20}{}  {}", w.name, cells.join(""), exponent_cell(&sizes, &times[si][wi]));
            }
        }
    }
    let Some(largest) = sizes.iter().max() else { return Ok(()) };
    let last = sizes.iter().position(|n| n == largest).unwrap_or(0);
    if markdown {
        let heads: Vec<String> =
            shape_list.iter().map(|s| format!("{} ms @ {largest} (exp.)", s.name())).collect();
        say!("| work | {} |", heads.join(" | "));
        say!("|---|{}", "---:|".repeat(shape_list.len()));
        for (wi, w) in chosen.iter().enumerate() {
            let cells: Vec<String> = (0..shape_list.len())
                .map(|si| {
                    let t = &times[si][wi];
                    format!("{:.2} ({})", t[last] * 1e3, exponent_cell(&sizes, t).trim())
                })
                .collect();
            say!("| `{}` | {} |", w.name, cells.join(" | "));
        }
    }
    say!("\nms of CPU time (the thread's; wall time where the platform has no thread clock); sizes in static instructions;");
    say!("best of at least 3 runs and {seconds} s per cell; exponent: slope of log time against log size");
    let slowest = (0..shape_list.len())
        .flat_map(|si| (0..chosen.len()).map(move |wi| (si, wi)))
        .filter(|&(_, wi)| matches!(chosen[wi].work, compgym::bril::scaling::Work::Pass(_)))
        .max_by(|a, b| times[a.0][a.1][last].total_cmp(&times[b.0][b.1][last]));
    if let Some((si, wi)) = slowest {
        say!(
            "slowest pass at {largest}: {} on {} ({:.1} ms)",
            chosen[wi].name,
            shape_list[si].name(),
            times[si][wi][last] * 1e3
        );
    }
    Ok(())
}

/// The thread's CPU seconds where the platform has a thread clock, else
/// wall-clock seconds.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    compgym::bril::scaling::thread_cpu_seconds()
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed().as_secs_f64())
}

/// The fitted growth exponent of one row, or `-` when it cannot be fitted.
fn exponent_cell(sizes: &[usize], times: &[f64]) -> String {
    let points: Vec<(f64, f64)> = sizes.iter().zip(times).map(|(&n, &t)| (n as f64, t)).collect();
    compgym::bril::scaling::growth_exponent(&points).map_or("-".into(), |e| format!("{e:>8.2}"))
}

/// The value after a flag, parsed.
fn flag_value<T: std::str::FromStr>(it: &mut std::slice::Iter<String>, flag: &str) -> Result<T, Failure> {
    it.next()
        .and_then(|s| s.parse::<T>().ok())
        .ok_or_else(|| usage_error(format!("{flag} needs a value of the right kind")))
}

fn agent_failure(command: &str) -> impl Fn(compgym::Error) -> Failure + '_ {
    move |e| Failure(format!("{command}: {e}"), 2)
}

fn read_policy(path: &str) -> Result<compgym::agents::policy::Policy, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure(format!("{path}: {e}"), 1))?;
    compgym::agents::policy::Policy::from_json(&text).map_err(|e| Failure(format!("{path}: {e}"), 1))
}

fn cmd_leaderboard(args: &[String]) -> Result<(), Failure> {
    use compgym::agents::leaderboard::{table, to_json, Leaderboard};
    use compgym::agents::request::LeaderboardRequest;
    let mut request = LeaderboardRequest::default();
    let (mut policy, mut json) = (None, false);
    let list = |text: String| text.split(',').filter(|n| !n.is_empty()).map(String::from).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => {
                request = LeaderboardRequest {
                    tasks: request.tasks,
                    agents: request.agents,
                    from_baseline: request.from_baseline,
                    seed: request.seed,
                    ..LeaderboardRequest::quick()
                }
            }
            "--steps" => request.steps = Some(Some(flag_value(&mut it, a)?)),
            "--seconds" => request.seconds = Some(Some(flag_value(&mut it, a)?)),
            "--no-step-limit" => request.steps = Some(None),
            "--no-time-limit" => request.seconds = Some(None),
            "--agents" => request.agents = list(flag_value(&mut it, a)?),
            "--tasks" => request.tasks = list(flag_value(&mut it, a)?),
            "--suite" => request.suite = Some(flag_value(&mut it, a)?),
            "--large" => request.large = Some(flag_value(&mut it, a)?),
            "--generated" => request.generated = flag_value(&mut it, a)?,
            "--size" => request.size = flag_value(&mut it, a)?,
            "--from-scratch" => request.from_baseline = false,
            "--policy" => policy = Some(flag_value::<String>(&mut it, a)?),
            "--seed" => request.seed = flag_value(&mut it, a)?,
            "--json" => json = true,
            other => return Err(usage_error(format!("leaderboard: unknown argument {other:?}"))),
        }
    }
    let fail = agent_failure("leaderboard");
    if let Some(path) = &policy {
        request.policy = Some(std::rc::Rc::new(read_policy(path)?));
    }
    let options = request.options().map_err(&fail)?;
    let mut board = Leaderboard::new(options);
    let total = board.progress().1;
    let mut done = 0;
    board
        .run(|row, entry| {
            done += 1;
            if entry.invalid.is_some() || row.entries.len() == 1 || done % 20 == 0 || done == total {
                eprintln!(
                    "[{done}/{total}] {} {} {} {}: {:.3}x{}",
                    row.task.name(),
                    row.dataset,
                    row.agent,
                    entry.benchmark,
                    entry.ratio(),
                    entry.invalid.as_deref().map(|e| format!(" INVALID: {e}")).unwrap_or_default()
                );
            }
        })
        .map_err(&fail)?;
    if json {
        say!("{}", to_json(board.rows()));
    } else {
        let _ = std::io::stdout().write_all(table(board.rows()).as_bytes());
    }
    Ok(())
}

fn cmd_train(args: &[String]) -> Result<(), Failure> {
    use compgym::agents::policy::train::{TrainOptions, Trainer};
    let mut options = TrainOptions::default();
    let (mut seconds, mut updates, mut out) = (None, None, "policy.json".to_string());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => seconds = Some(flag_value::<f64>(&mut it, a)?),
            "--updates" => updates = Some(flag_value::<u64>(&mut it, a)?),
            "--seed" => options.seed = flag_value(&mut it, a)?,
            "--out" => out = flag_value(&mut it, a)?,
            "--episode-length" => options.episode_length = flag_value(&mut it, a)?,
            "--batch" => options.batch = flag_value(&mut it, a)?,
            "--learning-rate" => options.learning_rate = flag_value(&mut it, a)?,
            "--entropy" => options.entropy = flag_value(&mut it, a)?,
            "--validate-every" => options.validate_every = flag_value(&mut it, a)?,
            "--programs" => {
                let list: String = flag_value(&mut it, a)?;
                options.programs = list.split(',').map(str::to_string).collect();
            }
            "--program-share" => options.program_share = flag_value(&mut it, a)?,
            "--hidden" => {
                let list: String = flag_value(&mut it, a)?;
                options.hidden = list
                    .split(',')
                    .map(|n| n.parse().map_err(|_| usage_error("--hidden takes sizes like 64,64")))
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(usage_error(format!("train: unknown argument {other:?}"))),
        }
    }
    if seconds.is_none() && updates.is_none() {
        seconds = Some(60.0);
    }
    let fail = agent_failure("train");
    let mut trainer = Trainer::new(options).map_err(&fail)?;
    say!("update episodes steps seconds mean_return entropy validation");
    loop {
        let p = trainer.train_batch().map_err(&fail)?.clone();
        if let Some(v) = p.validation {
            say!(
                "{} {} {} {:.1} {:.4} {:.3} {:.4}",
                p.update,
                p.episodes,
                p.steps,
                p.seconds,
                p.mean_return,
                p.entropy,
                v
            );
        }
        if seconds.is_some_and(|s| p.seconds >= s) || updates.is_some_and(|u| p.update >= u) {
            break;
        }
    }
    let validation = trainer.validate().map_err(&fail)?;
    let policy = trainer.trained_policy();
    let text = policy.to_json().map_err(&fail)?;
    std::fs::write(&out, &text).map_err(|e| Failure(format!("{out}: {e}"), 1))?;
    say!(
        "saved {out} ({} bytes, {} parameters); validation {:.4}x -Oz",
        text.len(),
        policy.network.parameters(),
        validation
    );
    Ok(())
}
