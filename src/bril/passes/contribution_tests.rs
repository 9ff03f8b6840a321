//! What each pass contributes, over the bundled suite and the community
//! benchmarks that run in under 3 million instructions, outputs checked:
//! how many programs it changes, and the static and dynamic instruction
//! counts it saves alone, after `-O2`, and inserted into random sequences.
//! Run with
//! `cargo test --release --lib contribution -- --ignored --nocapture`;
//! `PASSES="-sink -pre"` measures only those passes, `PIPELINE="-inline ..."`
//! compares a pipeline with `-O2` program by program.

use crate::bril::interp::{run, Limits};
use crate::bril::ir::Program;
use crate::bril::passes::testing::corpus;
use crate::bril::passes::{registry, run_flags, run_pipeline};
use std::time::{Duration, Instant};

/// The passes whose contribution is measured by default: all but the first 18.
const FIRST_NEW: usize = 18;

/// What `-O2` and every measurement end with: constants, copies and dead code.
const CLEANUP: &[&str] = &["-sccp", "-copy-prop", "-dce", "-adce", "-simplify-cfg", "-dce"];

struct Measured {
    name: String,
    program: Program,
    args: Vec<String>,
    output: (String, bool),
}

fn programs() -> Vec<Measured> {
    corpus(0)
        .into_iter()
        .map(|c| {
            let output = outcome(&c.program, &c.args).2;
            Measured { name: c.name, program: c.program, args: c.args, output }
        })
        .collect()
}

/// Static count, dynamic count and output.
fn outcome(p: &Program, args: &[String]) -> (usize, u64, (String, bool)) {
    let o = run(p, args, &Limits::default());
    (p.instr_count(), o.dyn_inst, (o.stdout, o.result.is_ok()))
}

/// `p` after `flags` (a pipeline name counts as one flag), checked.
fn after(m: &Measured, p: &Program, flags: &[&str]) -> (Program, usize, u64) {
    let mut q = p.clone();
    for flag in flags {
        if flag.starts_with("-O") {
            run_pipeline(&mut q, flag).unwrap();
        } else {
            run_flags(&mut q, &[flag]).unwrap();
        }
    }
    let (s, d, out) = outcome(&q, &m.args);
    assert_eq!(out, m.output, "{} {flags:?} changed the output", m.name);
    (q, s, d)
}

/// Geometric mean of `after / before` over pairs with both positive.
fn geomean(pairs: &[(f64, f64)]) -> f64 {
    let logs: Vec<f64> =
        pairs.iter().filter(|(b, a)| *b > 0.0 && *a > 0.0).map(|(b, a)| (a / b).ln()).collect();
    if logs.is_empty() {
        1.0
    } else {
        (logs.iter().sum::<f64>() / logs.len() as f64).exp()
    }
}

fn pct(ratio: f64) -> String {
    format!("{:+.2}%", 100.0 * (ratio - 1.0))
}

fn measured_passes() -> Vec<&'static str> {
    match std::env::var("PASSES") {
        Ok(list) => {
            registry().iter().map(|p| p.flag).filter(|f| list.split_whitespace().any(|x| x == *f)).collect()
        }
        Err(_) => registry()[FIRST_NEW..].iter().map(|p| p.flag).collect(),
    }
}

#[test]
#[ignore]
fn contribution() {
    let progs = programs();
    println!("{} programs (suite and community benchmarks under 3M instructions)", progs.len());
    let o2: Vec<(Program, usize, u64)> = progs.iter().map(|m| after(m, &m.program, &["-O2"])).collect();
    let base: Vec<(Program, usize, u64)> =
        progs.iter().zip(&o2).map(|(m, o)| after(m, &o.0, CLEANUP)).collect();
    let mut rng = crate::rng::Rng::seed_from_u64(2026);
    let old: Vec<&str> = registry()[..FIRST_NEW].iter().map(|p| p.flag).collect();
    let sequences: Vec<Vec<&str>> =
        (0..12).map(|_| (0..10).map(|_| old[rng.index(old.len())]).collect()).collect();
    let small: Vec<usize> = (0..progs.len()).filter(|&i| o2[i].2 < 300_000).collect();
    let seq_base: Vec<Vec<(usize, u64)>> = sequences
        .iter()
        .map(|s| {
            small
                .iter()
                .map(|&i| {
                    let r = after(&progs[i], &progs[i].program, s);
                    (r.1, r.2)
                })
                .collect()
        })
        .collect();
    println!(
        "{:<16} {:>8} {:>9} {:>9} | {:>8} {:>9} {:>9} | {:>9} {:>9} {:>7}",
        "pass",
        "alone:ch",
        "static",
        "dynamic",
        "-O2:ch",
        "static",
        "dynamic",
        "seq:stat",
        "dynamic",
        "better"
    );
    let unoptimised: Vec<(usize, u64)> = progs
        .iter()
        .map(|m| {
            let o = outcome(&m.program, &m.args);
            (o.0, o.1)
        })
        .collect();
    for flag in measured_passes() {
        let (mut changed, mut st, mut dy) = (0, Vec::new(), Vec::new());
        for (m, &(s0, d0)) in progs.iter().zip(&unoptimised) {
            let (q, s, d) = after(m, &m.program, &[flag]);
            changed += usize::from(crate::bril::to_text(&q) != crate::bril::to_text(&m.program));
            st.push((s0 as f64, s as f64));
            dy.push((d0 as f64, d as f64));
        }
        let (mut changed_o2, mut st2, mut dy2) = (0, Vec::new(), Vec::new());
        for (k, m) in progs.iter().enumerate() {
            let (q, _, _) = after(m, &o2[k].0, &[flag]);
            changed_o2 += usize::from(crate::bril::to_text(&q) != crate::bril::to_text(&o2[k].0));
            let (_, s, d) = after(m, &q, CLEANUP);
            st2.push((base[k].1 as f64, s as f64));
            dy2.push((base[k].2 as f64, d as f64));
        }
        let (mut st3, mut dy3, mut better, mut total) = (Vec::new(), Vec::new(), 0, 0);
        for (s, seq) in sequences.iter().enumerate() {
            let at = (s * 7 + flag.len()) % (seq.len() + 1);
            let mut with: Vec<&str> = seq.clone();
            with.insert(at, flag);
            for (j, &i) in small.iter().enumerate() {
                let (_, s1, d1) = after(&progs[i], &progs[i].program, &with);
                let (s0, d0) = seq_base[s][j];
                st3.push((s0 as f64, s1 as f64));
                dy3.push((d0 as f64, d1 as f64));
                better += usize::from(d1 < d0 || (d1 == d0 && s1 < s0));
                total += 1;
            }
        }
        println!(
            "{:<16} {:>8} {:>9} {:>9} | {:>8} {:>9} {:>9} | {:>9} {:>9} {:>6.1}%",
            flag,
            changed,
            pct(geomean(&st)),
            pct(geomean(&dy)),
            changed_o2,
            pct(geomean(&st2)),
            pct(geomean(&dy2)),
            pct(geomean(&st3)),
            pct(geomean(&dy3)),
            100.0 * better as f64 / total.max(1) as f64
        );
    }
}

/// `PIPELINE="..." cargo test --release --lib pipeline_against_o2 -- --ignored --nocapture`;
/// `BASELINE` replaces `-O2` as the reference, and `SIZE=1` lists the
/// programs that come out larger instead of slower.
#[test]
#[ignore]
fn pipeline_against_o2() {
    let pipeline = std::env::var("PIPELINE").unwrap_or_else(|_| "-O2".into());
    let flags: Vec<&str> = pipeline.split_whitespace().collect();
    let baseline = std::env::var("BASELINE").unwrap_or_else(|_| "-O2".into());
    let reference: Vec<&str> = baseline.split_whitespace().collect();
    let progs = programs();
    let (mut st, mut dy) = (Vec::new(), Vec::new());
    let (mut better, mut worse) = (0, 0);
    for m in &progs {
        let (_, s0, d0) = after(m, &m.program, &reference);
        let (_, s1, d1) = after(m, &m.program, &flags);
        st.push((s0 as f64, s1 as f64));
        dy.push((d0 as f64, d1 as f64));
        if d1 > d0 || (std::env::var("SIZE").is_ok() && s1 > s0) {
            worse += 1;
            println!("  worse: {:<60} dynamic {d0} -> {d1}, static {s0} -> {s1}", m.name);
        }
        better += usize::from(d1 < d0);
    }
    println!(
        "{pipeline}\n  against {baseline} over {} programs: dynamic {} static {}; {better} faster, {worse} slower",
        progs.len(),
        pct(geomean(&dy)),
        pct(geomean(&st))
    );
}

/// The programs the timing tables run on: three generated programs at
/// each of four sizes.
fn timing_programs() -> Vec<Vec<Program>> {
    [250u32, 500, 1000, 2000]
        .iter()
        .map(|&size| (0..3).map(|seed| crate::bril::generator::generate(seed, size).unwrap()).collect())
        .collect()
}

/// Prints one row of a timing table: for each group of `programs`, the
/// fastest of three runs of `run` (which times what it measures itself, so
/// its set-up can stay outside) in nanoseconds per instruction.
fn print_time_row(name: &str, programs: &[Vec<Program>], run: impl Fn(&[Program]) -> Duration) {
    let per: Vec<String> = programs
        .iter()
        .map(|ps| {
            let total: usize = ps.iter().map(Program::instr_count).sum();
            let best = (0..3).map(|_| run(ps)).min().unwrap_or_default();
            format!("{:>10.0}", best.as_nanos() as f64 / total as f64)
        })
        .collect();
    println!("{:<16} {}", name, per.join(" "));
}

/// Time per instruction of each measured pass on generated programs of
/// growing size (the fastest of three runs each): near-linear passes keep
/// it roughly flat.
/// `cargo test --release --lib pass_time_per_instruction -- --ignored --nocapture`.
#[test]
#[ignore]
fn pass_time_per_instruction() {
    let programs = timing_programs();
    let header: Vec<String> = programs
        .iter()
        .map(|ps| {
            format!("{:>10}", format!("{} instrs", ps.iter().map(Program::instr_count).sum::<usize>() / 3))
        })
        .collect();
    println!("{:<16} {}  (ns per instruction)", "pass", header.join(" "));
    for flag in measured_passes() {
        let pass = crate::bril::passes::by_flag(flag).unwrap().run;
        print_time_row(flag, &programs, |ps| {
            let start = Instant::now();
            for p in ps {
                let mut q = p.clone();
                pass(&mut q).unwrap();
            }
            start.elapsed()
        });
    }
}

/// The analyses the passes build on, timed the same way.
#[test]
#[ignore]
fn analysis_time_per_instruction() {
    use crate::bril::analysis::{
        cfg::Cfg, definite::Definite, dom::Dominators, liveness::Liveness, loops::find_loops,
    };
    let programs = timing_programs();
    type Analysis = fn(&Program);
    let analyses: [(&str, Analysis); 7] = [
        ("cfg", |p| p.functions.iter().for_each(|f| drop(Cfg::new(f)))),
        ("dominators", |p| p.functions.iter().for_each(|f| drop(Dominators::new(&Cfg::new(f))))),
        ("loops", |p| {
            p.functions.iter().for_each(|f| {
                let c = Cfg::new(f);
                drop(find_loops(&c, &Dominators::new(&c)))
            })
        }),
        ("definite", |p| {
            p.functions.iter().for_each(|f| {
                let c = Cfg::new(f);
                drop(Definite::new(f, &c, &Liveness::new(f, &c)))
            })
        }),
        ("liveness", |p| p.functions.iter().for_each(|f| drop(Liveness::new(f, &Cfg::new(f))))),
        ("verify", |p| drop(crate::bril::verify(p))),
        ("prints-same", |p| {
            p.functions.iter().for_each(|f| assert!(crate::bril::print::function_prints_same(p, f, f)))
        }),
    ];
    for (name, analysis) in analyses {
        print_time_row(name, &programs, |ps| {
            let start = Instant::now();
            ps.iter().for_each(analysis);
            start.elapsed()
        });
    }
}

/// The per-function transformations of the new passes alone, without the
/// verification `rewrite_functions` runs on every changed function.
#[test]
#[ignore]
fn transform_time_per_instruction() {
    use crate::bril::ir::Function;
    use crate::bril::passes::{jump_thread, loop_deletion, loop_rotate, pre, reassociate, sink, unroll_by};
    let programs = timing_programs();
    type Transform = fn(&mut Function);
    let transforms: [(&str, Transform); 7] = [
        ("-loop-rotate", loop_rotate::rotate_function),
        ("-jump-thread", |f| drop(jump_thread::thread_function(f))),
        ("-pre", pre::pre_function),
        ("-reassociate", reassociate::reassociate_function),
        ("-sink", sink::sink_function),
        ("-loop-deletion", |f| drop(loop_deletion::delete_round(f))),
        ("-loop-unroll=4", |f| unroll_by::unroll_function(f, 4)),
    ];
    for (name, transform) in transforms {
        print_time_row(name, &programs, |ps| {
            let mut copies: Vec<Program> = ps.to_vec();
            let start = Instant::now();
            copies.iter_mut().flat_map(|p| p.functions_mut()).for_each(transform);
            start.elapsed()
        });
    }
}

/// How many of 200 generated programs each measured pass changes, alone
/// and after `-O2`, and the dynamic count it saves after `-O2` (outputs checked).
#[test]
#[ignore]
fn generated_programs_changed() {
    let progs: Vec<Measured> = (0..200)
        .map(|seed| {
            let program = crate::bril::generator::generate(seed, 60).unwrap();
            let args = program.main_args();
            let output = outcome(&program, &args).2;
            Measured { name: format!("generator://random-v0/{seed}"), program, args, output }
        })
        .collect();
    let o2: Vec<(Program, usize, u64)> = progs.iter().map(|m| after(m, &m.program, &["-O2"])).collect();
    println!("{:<16} {:>6} {:>8} {:>9}", "pass", "alone", "-O2", "dynamic");
    for flag in measured_passes() {
        let alone = progs
            .iter()
            .filter(|m| {
                crate::bril::to_text(&after(m, &m.program, &[flag]).0) != crate::bril::to_text(&m.program)
            })
            .count();
        let (mut changed, mut dy) = (0, Vec::new());
        for (m, o) in progs.iter().zip(&o2) {
            let (q, _, d) = after(m, &o.0, &[flag]);
            changed += usize::from(crate::bril::to_text(&q) != crate::bril::to_text(&o.0));
            dy.push((o.2 as f64, d as f64));
        }
        println!("{:<16} {:>6} {:>8} {:>9}", flag, alone, changed, pct(geomean(&dy)));
    }
}

/// Every measured pass alone on every community benchmark, however long it
/// runs, checked like the unit tests check the corpus:
/// `cargo test --release --lib every_pass_alone_on_every_community_benchmark -- --ignored`.
#[test]
#[ignore]
fn every_pass_alone_on_every_community_benchmark() {
    use crate::bril::passes::testing::{check_pass_on, Case, Rerun};
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/bril-community"));
    let mut files: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).into_iter().flatten())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bril"))
        .collect();
    files.sort();
    assert!(files.len() >= 80);
    for path in files {
        let program = crate::bril::parse_text(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let args = program.main_args();
        let case = Case { name: path.display().to_string(), program, args };
        for flag in measured_passes() {
            check_pass_on(&case, &|p| run_flags(p, &[flag]), Rerun::MayChange);
        }
    }
}
