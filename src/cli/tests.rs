//! The command line on an in-memory host: usage, errors and exit statuses,
//! and every command on a few programs.

use super::memory::Memory;
use super::{run, usage, BAD_INPUT, FAILED, OK};
use wasm_bindgen_test::wasm_bindgen_test;

const PROGRAM: &str =
    "# ARGS: 4\n@main(n: int) {\n  one: int = const 1;\n  m: int = add n one;\n  print m;\n}\n";
const CRASH: &str = "@main {\n  a: int = const 1;\n  print a;\n  z: int = const 0;\n  q: int = div a z;\n}\n";
const REDUNDANT: &str = "@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  d: int = add a b;\n  unused: int = mul c d;\n  e: int = add c d;\n  print e;\n}\n";

/// What one command line printed and its status.
#[derive(Debug)]
struct Ran {
    stdout: String,
    stderr: String,
    status: i32,
}

/// Runs `args` on `io` with `stdin`, taking what it printed out of `io`.
fn on(io: &mut Memory, args: &[&str], stdin: &str) -> Ran {
    on_bytes(io, args, stdin.as_bytes())
}

fn on_bytes(io: &mut Memory, args: &[&str], stdin: &[u8]) -> Ran {
    io.stdin = stdin.to_vec();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let status = run(&args, io);
    Ran { stdout: std::mem::take(&mut io.stdout), stderr: std::mem::take(&mut io.stderr), status }
}

fn cli(args: &[&str], stdin: &str) -> Ran {
    on(&mut Memory::default(), args, stdin)
}

#[wasm_bindgen_test(unsupported = test)]
fn help_prints_the_usage_on_stdout() {
    for args in [&["help"][..], &["--help"], &["-h"], &["run", "--help"], &["leaderboard", "--quick", "-h"]] {
        let r = cli(args, "");
        assert_eq!(
            (r.status, r.stdout.as_str(), r.stderr.as_str()),
            (OK, format!("{}\n", usage()).as_str(), ""),
            "{args:?}"
        );
    }
    assert!(!usage().contains("bench"), "benchmark drivers are compgym-bench's");
    for flag in
        ["--programs", "--split", "--own", "--dev", "--epochs", "--minibatch", "--task", "--validate-every"]
    {
        assert!(usage().contains(flag), "{flag}");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn usage_errors_name_the_problem_then_print_the_usage() {
    let cases: [(&[&str], &str); 6] = [
        (&[], "missing command"),
        (&["frobnicate"], "unknown command \"frobnicate\""),
        (&["frobnicate", "--help"], "unknown command \"frobnicate\""),
        (&["\t\"x\"\\\n\u{1}"], "unknown command \"\\t\\\"x\\\"\\\\\\n\\u{1}\""),
        (&["bench-interp"], "unknown command \"bench-interp\""),
        (&["json", "a", "b"], "expected at most one file"),
    ];
    for (args, message) in cases {
        let r = cli(args, "");
        assert_eq!(r.status, BAD_INPUT, "{args:?}");
        assert_eq!(r.stderr, format!("error: {message}\n{}\n", usage()), "{args:?}");
        assert!(r.stdout.is_empty());
    }
    let r = cli(&["run", "--passes"], PROGRAM);
    assert!(r.stderr.starts_with("error: --passes needs a list of flags\nusage:\n"), "{r:?}");
}

#[wasm_bindgen_test(unsupported = test)]
fn run_is_brili_compatible() {
    let r = cli(&["run", "-p", "-", "41"], PROGRAM);
    assert_eq!((r.status, r.stdout.as_str(), r.stderr.as_str()), (OK, "42\n", "total_dyn_inst: 3\n"));
    assert_eq!(cli(&["run", "-", "41", "-p"], PROGRAM).stderr, "total_dyn_inst: 3\n", "-p anywhere");
    assert_eq!(cli(&["run"], PROGRAM).stdout, "5\n", "the # ARGS: line");
    let json = cli(&["json"], PROGRAM).stdout;
    assert_eq!(cli(&["run", "-", "9"], &json).stdout, "10\n", "JSON on stdin");
    let mut io = Memory::default();
    io.add("prog.bril", PROGRAM);
    assert_eq!(on(&mut io, &["run", "prog.bril", "1"], "").stdout, "2\n", "from a file");
}

#[wasm_bindgen_test(unsupported = test)]
fn brili_takes_brilis_command_line() {
    let json = cli(&["json"], PROGRAM).stdout;
    let r = cli(&["brili", "-p", "41"], &json);
    assert_eq!((r.status, r.stdout.as_str(), r.stderr.as_str()), (OK, "42\n", "total_dyn_inst: 3\n"));
    let r = cli(&["brili", "41"], PROGRAM);
    assert_eq!((r.status, r.stdout.as_str(), r.stderr.as_str()), (OK, "42\n", ""), "text too, no -p");
    // Only brili's flag is taken: a file name or a second -p goes to @main.
    let r = cli(&["brili", "-p", "prog.json"], &json);
    assert_eq!(
        (r.status, r.stderr.as_str()),
        (FAILED, "error: int argument to main is not a number: \"prog.json\"\n")
    );
    let r = cli(&["brili"], PROGRAM);
    let arity = "error: mismatched main argument arity: expected 1; got 0\n";
    assert_eq!((r.status, r.stderr.as_str()), (FAILED, arity), "no # ARGS: line, as brili");
    let r = cli(&["run", "-p", "5"], &json);
    let hint = "(for brili's command line, with the program on stdin: compgym brili [-p] ARGS...)";
    assert_eq!(r.stderr, format!("error: 5: no such file\n{hint}\n"), "run takes a file first");
    let r = cli(&["brili"], "@f {\n}\n");
    assert_eq!((r.status, r.stderr.as_str()), (FAILED, "error: no function of name main found\n"));
    let r = cli(&["brili"], "{\"functions\": ");
    assert_eq!(r.status, BAD_INPUT, "what brili cannot parse: status 1");
    assert!(r.stderr.starts_with("error: ParseError: invalid JSON"), "{r:?}");
}

#[wasm_bindgen_test(unsupported = test)]
fn run_checks_nothing_before_the_program_runs() {
    // brili runs these; what goes wrong is found when it happens.
    let unreachable =
        "@main {\n  one: int = const 1;\n  jmp .end;\n.dead:\n  print x;\n.end:\n  print one;\n}\n";
    let int_in_bool = "@main(x: int) {\n  y: bool = add x x;\n  print y;\n}\n";
    for command in ["run", "brili"] {
        let r = cli(&[command, "-p"], unreachable);
        assert_eq!((r.status, r.stdout.as_str(), r.stderr.as_str()), (OK, "1\n", "total_dyn_inst: 3\n"));
        let args: &[&str] = if command == "run" { &["run", "-", "3"] } else { &["brili", "3"] };
        let r = cli(args, int_in_bool);
        assert_eq!((r.status, r.stdout.as_str()), (OK, "6\n"), "{r:?}");
        let r = cli(&[command], "@main {\n  b: bool = const true;\n  one: int = const 1;\n  print one;\n  x: int = add one b;\n}\n");
        assert_eq!(
            (r.status, r.stdout.as_str(), r.stderr.as_str()),
            (FAILED, "1\n", "error: add argument 1 must be a int\n")
        );
    }
    let limit = cli(&["run"], "@main {\n.l:\n  jmp .l;\n}\n");
    assert!(
        limit.stderr.starts_with("error: LimitError: fuel exhausted"),
        "a limit brili lacks keeps its kind"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn version_is_the_packages() {
    let r = cli(&["--version"], "");
    let line = format!("compgym {}\n", super::VERSION);
    assert_eq!((r.status, r.stdout.as_str(), r.stderr.as_str()), (OK, line.as_str(), ""));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_shell_started_as_brili_runs_brilis_command_line() {
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for name in ["brili", "/usr/local/bin/brili", "C:\\bin\\brili.exe"] {
        assert_eq!(super::args_for(name, args(&["-p", "5"])), args(&["brili", "-p", "5"]), "{name}");
    }
    for name in ["compgym", "/x/brili/compgym", "brilirs"] {
        assert_eq!(super::args_for(name, args(&["run"])), args(&["run"]), "{name}");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn run_fails_with_status_1_before_running_and_2_while_running() {
    let crash = cli(&["run", "-p"], CRASH);
    assert_eq!(crash.status, FAILED);
    assert_eq!(crash.stdout, "1\n", "the output before the failure");
    assert_eq!(crash.stderr, "error: division by zero\n", "brili's words");
    let bad_argument = cli(&["run", "-", "x"], PROGRAM);
    assert_eq!(bad_argument.status, FAILED, "{bad_argument:?}");
    let parse = cli(&["run"], "@main {\n  x: int = bogus;\n}");
    assert_eq!(parse.status, BAD_INPUT);
    assert!(parse.stderr.starts_with("error: ParseError: ") && parse.stderr.contains("2:12"), "{parse:?}");
    let missing = cli(&["run", "gone.bril"], "");
    assert_eq!((missing.status, missing.stderr.as_str()), (BAD_INPUT, "error: gone.bril: no such file\n"));
    let unknown_pass = cli(&["run", "--passes", "-nope"], PROGRAM);
    assert_eq!(unknown_pass.status, BAD_INPUT);
    assert!(unknown_pass.stderr.starts_with("error: LookupError: "), "{unknown_pass:?}");
}

#[wasm_bindgen_test(unsupported = test)]
fn json_and_text_round_trip_with_positions_as_bril2json() {
    let json = cli(&["json"], PROGRAM);
    assert_eq!(json.status, OK);
    assert!(json.stdout.starts_with('{') && json.stdout.ends_with("}\n"));
    assert_eq!(cli(&["text"], &json.stdout).stdout, PROGRAM.replace("# ARGS: 4\n", ""));
    let starts = cli(&["json", "-p"], PROGRAM).stdout;
    assert!(starts.contains("\"pos\"") && !starts.contains("\"pos_end\""), "{starts}");
    let ends = cli(&["json", "-pp"], PROGRAM).stdout;
    assert!(ends.contains("\"pos_end\""));
    assert_eq!(cli(&["json", "-p", "-p"], PROGRAM).stdout, ends, "twice -p is -pp");
    let not_utf8 = on_bytes(&mut Memory::default(), &["text"], &[0x40, 0xff, 0xfe]);
    assert_eq!(not_utf8.stderr, "error: reading stdin: stream did not contain valid UTF-8\n");
}

#[wasm_bindgen_test(unsupported = test)]
fn verify_says_ok_or_what_is_wrong() {
    assert_eq!(cli(&["verify"], PROGRAM).stdout, "ok\n");
    let bad = cli(&["verify"], "@main {\n  print nothing;\n}");
    assert_eq!(bad.status, BAD_INPUT);
    assert!(bad.stderr.starts_with("error: VerifyError: "), "{bad:?}");
}

#[wasm_bindgen_test(unsupported = test)]
fn opt_lists_optimises_and_keeps_the_output() {
    let list = cli(&["opt", "--list"], "");
    let passes = crate::bril::passes::registry().len() + crate::bril::passes::pipelines().count();
    assert_eq!(list.stdout.lines().count(), passes);
    assert!(list.stdout.lines().any(|l| l.starts_with("-O2 ")));
    let optimised = cli(&["opt", "--passes", "-lvn -dce"], REDUNDANT).stdout;
    assert!(!optimised.contains("unused") && optimised.lines().count() < REDUNDANT.lines().count());
    assert_eq!(cli(&["run"], &optimised).stdout, "10\n");
    let json = cli(&["opt", "--passes", "-O2", "--json"], REDUNDANT).stdout;
    assert!(json.starts_with('{') && json.ends_with("}\n"));
    let plain = cli(&["run", "-p"], REDUNDANT);
    let fast = cli(&["run", "--passes", "-O2", "-p"], REDUNDANT);
    assert_eq!(plain.stdout, fast.stdout);
    let count = |r: &Ran| r.stderr.trim().trim_start_matches("total_dyn_inst: ").parse::<u64>().unwrap();
    assert!(count(&fast) < count(&plain));
}

#[wasm_bindgen_test(unsupported = test)]
fn features_print_json_or_the_cfg_as_dot() {
    let json: serde_json::Value = serde_json::from_str(&cli(&["features"], PROGRAM).stdout).unwrap();
    for key in ["inst_count", "autophase", "programl", "cfg", "ir_sha1"] {
        assert!(json.get(key).is_some(), "{key}: {json}");
    }
    assert!(cli(&["features", "--dot", "-"], PROGRAM).stdout.starts_with("digraph"));
}

#[wasm_bindgen_test(unsupported = test)]
fn generate_prints_the_program_a_generator_uri_names() {
    let uri = "generator://random-v1/7?size=30";
    let printed = cli(&["generate", uri], "");
    assert_eq!((printed.status, printed.stderr.as_str()), (OK, ""));
    assert_eq!(printed.stdout, crate::bril::to_text(&crate::bril::generator::from_uri(uri).unwrap()));
    assert_eq!(cli(&["run"], &printed.stdout).status, OK, "a generated program runs");
    assert_eq!(cli(&["generate", "generator://random-v9/1"], "").status, BAD_INPUT);
    assert_eq!(cli(&["generate"], "").status, BAD_INPUT);
}

#[wasm_bindgen_test(unsupported = test)]
fn the_host_keeps_working_after_an_error() {
    let mut io = Memory::default();
    assert_eq!(on(&mut io, &["run"], CRASH).status, FAILED);
    assert_eq!(on(&mut io, &["frobnicate"], "").status, BAD_INPUT);
    assert_eq!(on(&mut io, &["run"], PROGRAM).stdout, "5\n");
}

/// The data rows of a leaderboard table, split into cells.
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .skip(2)
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn a_small_leaderboard_over_own_programs_prints_its_table_and_progress() {
    let mut io = Memory::default();
    io.add("mine/a/redundant.bril", REDUNDANT);
    io.add("mine/args.bril", PROGRAM);
    let args = ["leaderboard", "--tasks", "size", "--agents", "greedy", "--suite", "1", "--large", "0"];
    let more = ["--generated", "1", "--steps", "30", "--no-time-limit", "--programs", "mine"];
    let r = on(&mut io, &[&args[..], &more[..]].concat(), "");
    assert_eq!(r.status, OK, "{}", r.stderr);
    let rows = rows(&r.stdout);
    let datasets: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(datasets[..2], ["suite-v0", "mine"], "a dataset named after the folder: {}", r.stdout);
    assert!(datasets[2].starts_with("random-v1"), "{}", r.stdout);
    assert_eq!(rows[1][7], "2/2", "both own programs replay and behave: {:?}", rows[1]);
    assert!(r.stderr.starts_with("[1/4] code size suite-v0 greedy "), "{}", r.stderr);
    assert!(r.stderr.ends_with("\n") && r.stderr.contains("[4/4] "));
    let json = on(&mut io, &[&args[..], &more[..], &["--json"]].concat(), "");
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(parsed.as_array().map(Vec::len), Some(3));
}

#[test]
fn leaderboard_flags_are_checked() {
    // Unknown names are usage errors, whose message lists the known ones.
    let r = cli(&["leaderboard", "--agents", "greedy,oracle"], "");
    let agents = "random, greedy, beam, explore, guided, policy, fixed";
    let message =
        format!("error: leaderboard: unknown agent \"oracle\"; the agents are {agents}\n{}\n", usage());
    assert_eq!((r.status, r.stderr.as_str()), (BAD_INPUT, message.as_str()));
    let r = cli(&["leaderboard", "--tasks", "speed"], "");
    assert_eq!(r.status, BAD_INPUT);
    assert!(r
        .stderr
        .starts_with("error: leaderboard: unknown task \"speed\"; the tasks are size and runtime\nusage:"));
    let r = cli(&["leaderboard", "--steps", "many"], "");
    assert_eq!(r.status, BAD_INPUT);
    assert!(r.stderr.starts_with("error: --steps needs a value of the right kind\nusage:"));
    let r = cli(&["leaderboard", "--policy", "no.json"], "");
    assert_eq!((r.status, r.stderr.as_str()), (BAD_INPUT, "error: no.json: no such file\n"));
    let r = cli(&["leaderboard", "--split", "sideways"], "");
    assert_eq!(r.status, BAD_INPUT);
    assert!(r.stderr.starts_with("error: leaderboard: unknown split \"sideways\"; the splits are"), "{r:?}");
    let r = cli(&["leaderboard", "--bogus"], "");
    assert!(r.stderr.starts_with("error: leaderboard: unknown argument \"--bogus\"\nusage:"));
}

#[test]
fn a_trained_policy_is_written_through_the_host_and_joins_the_leaderboard() {
    let mut io = Memory::default();
    io.add("own/redundant.bril", REDUNDANT);
    let train = [
        "train",
        "--updates",
        "2",
        "--batch",
        "2",
        "--episode-length",
        "3",
        "--hidden",
        "4",
        "--validate-every",
        "1",
        "--epochs",
        "1",
        "--minibatch",
        "4",
        "--own",
        "own",
        "--out",
        "p.json",
    ];
    let r = on(&mut io, &train, "");
    assert_eq!(r.status, OK, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "update episodes steps seconds mean_return entropy validation");
    assert_eq!(lines.len(), 4, "a curve point per update, then the summary: {}", r.stdout);
    assert!(lines[1].starts_with("1 2 "), "{}", lines[1]);
    let saved = io.text("p.json").expect("the policy is written through the host");
    assert!(lines[3].starts_with(&format!("saved p.json ({} bytes, ", saved.len())), "{}", lines[3]);
    assert!(lines[3].contains("validation (held-out)"));
    let board = on(
        &mut io,
        &[
            "leaderboard",
            "--quick",
            "--agents",
            "greedy",
            "--tasks",
            "size",
            "--suite",
            "1",
            "--large",
            "0",
            "--generated",
            "1",
            "--policy",
            "p.json",
        ],
        "",
    );
    assert_eq!(board.status, OK, "{}", board.stderr);
    assert_eq!(rows(&board.stdout).iter().filter(|r| r[2] == "policy").count(), 2, "{}", board.stdout);
    let again = on(&mut io, &train, "");
    assert_eq!(again.stdout, r.stdout, "the same seed, the same curve (the host's clock stands still)");
}

#[test]
fn train_flags_are_checked() {
    let r = cli(&["train", "--hidden", "big"], "");
    assert_eq!(r.status, BAD_INPUT);
    assert!(r.stderr.starts_with("error: --hidden takes sizes like 64,64\nusage:"));
    let r = cli(&["train", "--batch", "0", "--updates", "1"], "");
    assert_eq!(r.status, FAILED, "{r:?}");
    assert!(r.stderr.starts_with("error: train: ValueError: "), "{r:?}");
    let r = cli(&["train", "--task", "speed"], "");
    assert_eq!(r.status, BAD_INPUT);
    assert!(r
        .stderr
        .starts_with("error: train: unknown task \"speed\"; the tasks are size and runtime\nusage:"));
    let mut io = Memory::default();
    io.add("p.json/inside", "a folder");
    let r = on(
        &mut io,
        &[
            "train",
            "--updates",
            "1",
            "--batch",
            "1",
            "--episode-length",
            "2",
            "--hidden",
            "4",
            "--out",
            "p.json",
        ],
        "",
    );
    assert_eq!(r.status, BAD_INPUT);
    assert!(r.stderr.ends_with("error: p.json: is a folder\n"), "{r:?}");
}
