//! `compgym-bench`: the benchmark drivers, apart from the user's `compgym`
//! (whose commands are the core's `compgym::cli`). Native only; the numbers
//! they print are the ones `docs/` and the Makefile's `bench-*` targets cite.
//!
//! ```text
//! compgym-bench interp [--seconds S] [--json] [PATH...]   interpreter throughput
//! compgym-bench spaces [--seconds S] [--json]             space sampling and checking rates
//! compgym-bench passes [PATH...]                          what the pipelines cut, outputs checked
//! compgym-bench datasets [DIR]                            what -O2, -Oz and each pass do per dataset
//! compgym-bench pass-speed [--seconds S] [--only FLAG]    time per pass and for all features
//! compgym-bench pass-walk [--seconds S] [--rounds N] [--only FLAG]   time per pass on random-walk states
//! compgym-bench env [--seconds S] [--json]                environment steps/s, fork and observation latency
//! compgym-bench scaling [--sizes N,N..] [--shapes NAME,..] [--only NAME] [--seconds S] [--markdown]
//!                                                         time against program size, growth exponents
//! compgym-bench shape NAME SIZE [SEED]                    a generated program of a shape and size
//! ```

/// mimalloc, for speed (docs/benchmarks.md, "The native allocator"), with
/// the settings of `compgym::native_allocator`.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use compgym::bril::{self, Program};

/// Writes to stdout, ignoring a closed pipe (`compgym-bench ... | head` is fine).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod datasets;
mod environment;
mod interp;
mod passes;
mod scaling;

const USAGE: &str = "usage:
  compgym-bench interp [--seconds S] [--json] [PATH...]
                                        interpreter throughput on the 8 largest .bril
                                        files given or in folders given (default: the
                                        bundled suite)
  compgym-bench spaces [--seconds S] [--json]
                                        space sampling and checking rates (the
                                        native side of bench/spaces.mjs)
  compgym-bench passes [PATH...]        static and dynamic instruction counts under
                                        -O0/-O1/-O2/-Oz, outputs checked (default:
                                        the bundled suite)
  compgym-bench datasets [DIR]          per dataset (random-v0 and random-v1, 100 programs
                                        each; suite-v0; large-v0; the community programs
                                        in DIR, default data/bril-community): the static
                                        share -O2 and -Oz remove, the dynamic share -O2
                                        leaves, the share folded to constants, and how
                                        often each pass changes a program alone
  compgym-bench pass-speed [--seconds S] [--only FLAG]
                                        microseconds per pass (on a fresh program and
                                        at the pass's fixpoint) and for all features
                                        on the median suite program
  compgym-bench pass-walk [--seconds S] [--rounds N] [--only FLAG]
                                        microseconds per pass on the 2,000 states of
                                        seeded random walks from the median suite
                                        program; --rounds N runs N untimed rounds per
                                        pass, for counting instructions with a profiler
  compgym-bench env [--seconds S] [--json]
                                        environment steps per second (IrInstructionCount
                                        reward, random actions), fork and observation
                                        latency on the median suite program (the native
                                        side of bench/env.mjs)
  compgym-bench shape NAME SIZE [SEED]  print a generated program of a shape
                                        (straight-line, loop-heavy, call-heavy,
                                        block-chain, call-chain, one-variable) with about SIZE
                                        static instructions
  compgym-bench scaling [--sizes N,N..] [--shapes NAME,..] [--only NAME] [--seconds S] [--markdown]
                                        milliseconds per pass, pipeline, feature, reader,
                                        writer and the verifier on generated programs of
                                        each shape (straight-line, loop-heavy, call-heavy,
                                        block-chain, call-chain, one-variable) at each size (default
                                        1000,10000,100000 instructions), and the growth
                                        exponent (slope of log time against log size)";

/// A failure: the message and the exit code (1 bad input or usage, 2 a
/// program or measurement that failed).
pub struct Failure(pub String, pub u8);

pub fn usage_error(message: impl Into<String>) -> Failure {
    Failure(format!("{}\n{USAGE}", message.into()), 1)
}

/// A command: its arguments (after its name) to what it printed or why it failed.
type Command = fn(&[String]) -> Result<(), Failure>;

fn command(name: &str) -> Option<Command> {
    Some(match name {
        "interp" => interp::interp,
        "spaces" => environment::spaces,
        "passes" => passes::passes,
        "datasets" => datasets::datasets,
        "pass-speed" => passes::pass_speed,
        "pass-walk" => passes::pass_walk,
        "env" => environment::env,
        "scaling" => scaling::scaling,
        "shape" => scaling::shape,
        _ => return None,
    })
}

fn main() -> ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    compgym::native_allocator::configure();
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let result = match args.first().map(String::as_str) {
        Some("help" | "-h" | "--help") => {
            say!("{USAGE}");
            Ok(())
        }
        Some(name) => match command(name) {
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

/// The program in the file at `path`.
pub fn load(path: &str) -> Result<Program, Failure> {
    let source = std::fs::read_to_string(path).map_err(|e| Failure(format!("{path}: {e}"), 1))?;
    bril::parse_any(&source).map_err(|e| Failure(e.to_string(), 1))
}

/// `.bril` files named, or found in folders named (two levels of subfolders).
pub fn collect_bril_files(paths: &[String]) -> Result<Vec<PathBuf>, Failure> {
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
