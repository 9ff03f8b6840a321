//! The `compgym` binary, driven as a user would.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn compgym(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_compgym"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const PROGRAM: &str =
    "# ARGS: 4\n@main(n: int) {\n  one: int = const 1;\n  m: int = add n one;\n  print m;\n}\n";

#[test]
fn run_from_stdin_with_profile() {
    let o = compgym(&["run", "-p", "-", "41"], PROGRAM);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "42\n");
    assert_eq!(text(&o.stderr), "total_dyn_inst: 3\n");
}

#[test]
fn run_uses_the_args_line_and_reads_json() {
    let o = compgym(&["run"], PROGRAM);
    assert_eq!(text(&o.stdout), "5\n");
    let json = compgym(&["json"], PROGRAM);
    assert!(json.status.success());
    let o = compgym(&["run", "-", "9"], &text(&json.stdout));
    assert_eq!(text(&o.stdout), "10\n");
}

#[test]
fn json_and_text_round_trip() {
    let json = text(&compgym(&["json"], PROGRAM).stdout);
    let back = compgym(&["text"], &json);
    assert!(back.status.success());
    // JSON has no `# ARGS:` line; everything else comes back as written.
    assert_eq!(text(&back.stdout), PROGRAM.replace("# ARGS: 4\n", ""));
}

#[test]
fn errors_exit_nonzero_with_a_message() {
    let parse = compgym(&["run"], "@main {\n  x: int = bogus;\n}");
    assert_eq!(parse.status.code(), Some(1));
    assert!(text(&parse.stderr).contains("2:12"), "{}", text(&parse.stderr));

    let runtime =
        compgym(&["run"], "@main {\n  a: int = const 1;\n  z: int = const 0;\n  q: int = div a z;\n}");
    assert_eq!(runtime.status.code(), Some(2));
    assert!(text(&runtime.stderr).contains("division by zero"));

    let verify = compgym(&["verify"], "@main {\n  print nothing;\n}");
    assert_eq!(verify.status.code(), Some(1));
    assert!(text(&verify.stderr).contains("VerifyError"));

    let usage = compgym(&["frobnicate"], "");
    assert_eq!(usage.status.code(), Some(1));
    assert!(text(&usage.stderr).contains("usage"));

    let missing = compgym(&["run", "/nonexistent/file.bril"], "");
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn every_command_prints_the_usage_for_help() {
    for args in
        [&["--help"][..], &["help"], &["run", "--help"], &["leaderboard", "--quick", "-h"], &["opt", "-h"]]
    {
        let help = compgym(args, "");
        assert_eq!(help.status.code(), Some(0), "{args:?}");
        assert!(text(&help.stdout).starts_with("usage:\n"), "{args:?}: {}", text(&help.stdout));
        assert!(help.stderr.is_empty(), "{args:?}");
    }
    let unknown = compgym(&["frobnicate", "--help"], "");
    assert_eq!(unknown.status.code(), Some(1));
    assert!(text(&unknown.stderr).starts_with("error: unknown command \"frobnicate\""));
}

#[test]
fn verify_accepts_a_good_program() {
    let o = compgym(&["verify"], PROGRAM);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "ok\n");
}

const REDUNDANT: &str = "@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  d: int = add a b;\n  unused: int = mul c d;\n  e: int = add c d;\n  print e;\n}\n";

#[test]
fn opt_lists_every_pass_and_pipeline() {
    let o = compgym(&["opt", "--list"], "");
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), compgym::bril::passes::registry().len() + 4);
    assert!(out.lines().any(|l| l.starts_with("-dce ") && l.len() > 20), "{out}");
    assert!(out.lines().any(|l| l.starts_with("-O2 ")));
}

#[test]
fn opt_optimises_and_keeps_the_output() {
    let o = compgym(&["opt", "--passes", "-lvn -dce"], REDUNDANT);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let optimised = text(&o.stdout);
    assert!(optimised.lines().count() < REDUNDANT.lines().count(), "{optimised}");
    assert!(!optimised.contains("unused"));
    assert_eq!(text(&compgym(&["run"], &optimised).stdout), "10\n");
    let json = compgym(&["opt", "--passes", "-O2", "--json"], REDUNDANT);
    assert!(text(&json.stdout).trim_start().starts_with('{'));
}

#[test]
fn run_with_passes_counts_fewer_instructions() {
    let plain = compgym(&["run", "-p"], REDUNDANT);
    let optimised = compgym(&["run", "--passes", "-O2", "-p"], REDUNDANT);
    assert_eq!(text(&plain.stdout), text(&optimised.stdout));
    let count =
        |o: &Output| text(&o.stderr).trim().trim_start_matches("total_dyn_inst: ").parse::<u64>().unwrap();
    assert!(count(&optimised) < count(&plain));
}

#[test]
fn opt_with_an_unknown_pass_fails_clearly() {
    let o = compgym(&["opt", "--passes", "-nope"], REDUNDANT);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("LookupError"), "{}", text(&o.stderr));
}

#[test]
fn file_errors_are_the_hosts_words() {
    let o = compgym(&["run", "/nonexistent/file.bril"], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), "error: /nonexistent/file.bril: No such file or directory (os error 2)\n");
}

#[test]
fn benchmark_drivers_are_compgym_bench_commands() {
    let o = compgym(&["bench-interp"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).starts_with("error: unknown command \"bench-interp\"\nusage:\n"));
    assert!(!text(&compgym(&["--help"], "").stdout).contains("bench"));

    let bench =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_compgym-bench")).args(args).output().unwrap();
    let shape = bench(&["shape", "loop-heavy", "60", "3"]);
    assert!(shape.status.success(), "{}", text(&shape.stderr));
    let program = text(&shape.stdout);
    assert_eq!(compgym(&["verify"], &program).status.code(), Some(0), "{program}");
    let walk = bench(&["pass-walk", "--rounds", "1", "--only", "-dce"]);
    assert!(walk.status.success(), "{}", text(&walk.stderr));
    assert!(
        text(&walk.stdout).starts_with("2000 states of 100 random 20-pass walks"),
        "{}",
        text(&walk.stdout)
    );
    let no_pass = bench(&["pass-walk", "--only", "-frobnicate"]);
    assert_eq!(no_pass.status.code(), Some(1));
    assert!(
        text(&no_pass.stderr).starts_with("error: --only: no pass \"-frobnicate\""),
        "{}",
        text(&no_pass.stderr)
    );
    let unknown = bench(&["frobnicate"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(text(&unknown.stderr).contains("compgym-bench scaling"));
}

/// Programs that parse but are not well formed: `id` and `not` with no argument.
const UNVERIFIED: [&str; 2] =
    ["@main {\n  x: int = id;\n  print x;\n}\n", "@main {\n  b: bool = not;\n  print b;\n}\n"];

#[test]
fn passes_on_a_program_that_is_not_well_formed_are_a_verify_error() {
    for src in UNVERIFIED {
        for flags in ["-lvn", "-peephole", "-dce -copy-prop", "-O1", "-O2", "-Oz"] {
            for command in ["opt", "run"] {
                let o = compgym(&[command, "--passes", flags], src);
                let stderr = text(&o.stderr);
                assert_eq!(o.status.code(), Some(1), "{command} {flags}: {stderr}");
                assert!(stderr.contains("VerifyError") && stderr.contains("takes 1 argument"), "{stderr}");
            }
        }
    }
}

mod common;

/// `brili`'s way, as a course script calls it: `bril2json < f.bril | brili
/// -p ARGS` (the JSON is bril2json's own, beside each program), through
/// `compgym brili` and through a link named `brili`. Output, the count on
/// stderr and the status are brili's (`.out`, `.prof`).
#[test]
fn every_community_program_runs_through_brilis_command_line() {
    let link_dir = std::env::temp_dir().join(format!("compgym-brili-{}", std::process::id()));
    std::fs::create_dir_all(&link_dir).unwrap();
    let link = link_dir.join("brili");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_compgym"), &link).unwrap();
    let as_brili = |args: &[&str], stdin: &str| {
        let mut child = Command::new(&link)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let mut ran = 0;
    for (i, bench) in common::community::bench_files().into_iter().enumerate() {
        let Some(count) = bench.reference_dyn else { continue };
        let json = std::fs::read_to_string(bench.path.with_extension("json")).unwrap();
        let out = std::fs::read_to_string(bench.path.with_extension("out")).unwrap();
        let args = compgym::bril::parse_text(&bench.source).unwrap().main_args();
        let mut command: Vec<&str> = vec!["brili", "-p"];
        command.extend(args.iter().map(String::as_str));
        let o = if i % 2 == 0 { compgym(&command, &json) } else { as_brili(&command[1..], &json) };
        let got = (o.status.code(), text(&o.stdout), text(&o.stderr));
        assert_eq!(got, (Some(0), out, format!("total_dyn_inst: {count}\n")), "{}", bench.path.display());
        ran += 1;
    }
    assert!(ran >= 80, "{ran}");
    std::fs::remove_dir_all(&link_dir).unwrap();
}

/// What brili reports, with its status: 2 and its words for what goes wrong
/// while running, nothing checked before.
#[test]
fn brilis_errors_and_statuses() {
    let cases: [(&[&str], &str, i32, &str, &str); 5] = [
        (
            &["brili"],
            "@main {\n  a: int = const 1;\n  print a;\n  z: int = const 0;\n  q: int = div a z;\n}",
            2,
            "1\n",
            "error: division by zero\n",
        ),
        (
            &["brili", "-p", "2"],
            "@main(x: int) {\n  y: bool = add x x;\n  print y;\n  jmp .e;\n.d:\n  print nowhere;\n.e:\n}",
            0,
            "4\n",
            "total_dyn_inst: 3\n",
        ),
        (
            &["brili", "1", "2"],
            "@main(x: int) {\n}",
            2,
            "",
            "error: mismatched main argument arity: expected 1; got 2\n",
        ),
        (
            &["brili"],
            "@main {\n  x: int = const 1;\n  b: bool = not x;\n}",
            2,
            "",
            "error: not argument 0 must be a bool\n",
        ),
        (
            &["run", "-"],
            "@main {\n  c: bool = const true;\n  br c .a .b;\n.a:\n  print u;\n.b:\n}",
            2,
            "",
            "error: undefined variable u\n",
        ),
    ];
    for (args, program, status, stdout, stderr) in cases {
        let o = compgym(args, program);
        let got = (o.status.code(), text(&o.stdout), text(&o.stderr));
        assert_eq!(got, (Some(status), stdout.to_string(), stderr.to_string()), "{args:?} {program}");
    }
}

#[test]
fn version_and_unknown_agents() {
    let v = compgym(&["--version"], "");
    assert_eq!(
        (v.status.code(), text(&v.stdout)),
        (Some(0), format!("compgym {}\n", env!("CARGO_PKG_VERSION")))
    );
    let agents = compgym(&["leaderboard", "--agents", "nope"], "");
    assert_eq!(agents.status.code(), Some(1), "a usage error");
    assert!(text(&agents.stderr).starts_with(
        "error: leaderboard: unknown agent \"nope\"; the agents are random, greedy, beam, explore, guided, policy, fixed\nusage:"
    ));
}
