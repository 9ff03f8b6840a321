//! `run` and `brili`: run a Bril program as `brili` does. Nothing is checked
//! before the program runs (a bad instruction on a path never taken is
//! harmless); what goes wrong while it runs is reported in `brili`'s words,
//! `error: division by zero`, with status 2. Output is streamed to the host
//! as the program prints it, and `-p` prints `total_dyn_inst: N` on
//! standard error after a run that succeeded.
//!
//! `brili [-p] [ARGS...]` takes `brili`'s command line exactly: the program
//! on standard input, every argument but the first `-p` an argument of
//! `@main`. `run [--passes FLAGS] [-p] [FILE|-] [ARGS...]` takes a file and,
//! without `ARGS`, the program's `# ARGS:` line; with `--passes` the program
//! must verify, as the passes need it well formed.

use super::args::take_passes;
use super::files::load;
use super::tools::optimise;
use super::{Failure, Io};
use crate::bril::interp::{parse_float, Executable, Limits};
use crate::bril::Program;
use crate::error::{Error, ErrorKind};

/// `run [--passes FLAGS] [-p] [FILE|-] [ARGS...]`.
pub(super) fn run(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let (flags, args) = take_passes(args)?;
    let profile = args.iter().any(|a| a == "-p");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "-p").collect();
    let file = rest.first().map(|s| s.as_str());
    let mut program = load(io, file).map_err(|e| hint_brili(e, file))?;
    // The passes verify the program first: they need it well formed.
    optimise(&mut program, &flags.unwrap_or_default())?;
    let mut main_args: Vec<String> = rest.iter().skip(1).map(|s| s.to_string()).collect();
    if main_args.is_empty() {
        main_args = program.main_args();
    }
    execute(&program, &main_args, profile, io)
}

/// `run -p 5 < prog.json` takes `5` for the file: say how brili's command
/// line is spelled here.
fn hint_brili(failure: Failure, file: Option<&str>) -> Failure {
    let looks_like_an_argument = file.is_some_and(|f| parse_float(f).is_ok() || f == "true" || f == "false");
    if !looks_like_an_argument {
        return failure;
    }
    let hint = "(for brili's command line, with the program on stdin: compgym brili [-p] ARGS...)";
    Failure { message: format!("{}\n{hint}", failure.message), ..failure }
}

/// `brili [-p] [ARGS...]`, with the program on standard input.
pub(super) fn brili(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    // As brili does: the first `-p` asks for the count, the rest go to @main.
    let mut main_args = args.to_vec();
    let profile = match main_args.iter().position(|a| a == "-p") {
        Some(at) => {
            main_args.remove(at);
            true
        }
        None => false,
    };
    let program = load(io, None)?;
    execute(&program, &main_args, profile, io)
}

/// Runs `program` as brili does and reports as brili does.
fn execute(program: &Program, args: &[String], profile: bool, io: &mut dyn Io) -> Result<(), Failure> {
    if program.main().is_none() {
        return Err(Failure::failed("no function of name main found"));
    }
    let executable = Executable::like_brili(program).map_err(|e| Failure::input(e.to_string()))?;
    let mut sink = |text: &str| io.stdout(text);
    let outcome = executable.run_streaming(args, &Limits::default(), Some(&mut sink));
    outcome.result.map_err(failed_run)?;
    if profile {
        io.stderr(&format!("total_dyn_inst: {}\n", outcome.dyn_inst));
    }
    Ok(())
}

/// A run that failed: brili's own errors in its words (`division by zero`,
/// `mismatched main argument arity: ...`); a limit brili does not have keeps
/// its kind (`LimitError: fuel exhausted: ...`).
fn failed_run(e: Error) -> Failure {
    match e.kind() {
        ErrorKind::Runtime | ErrorKind::Value => Failure::failed(e.message()),
        _ => Failure::failed(e.to_string()),
    }
}
