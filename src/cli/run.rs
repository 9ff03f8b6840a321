//! `run`: runs a Bril program as `brili` does (`-p` prints
//! `total_dyn_inst` on standard error; the program from a file or standard
//! input; its arguments from the command line or its `# ARGS:` line),
//! optionally after `--passes`. Output is streamed to the host as the
//! program prints it.

use super::args::take_passes;
use super::files::load;
use super::tools::optimise;
use super::{Failure, Io};
use crate::bril::interp::{Executable, Limits};

/// `run [--passes FLAGS] [-p] [FILE|-] [ARGS...]`.
pub(super) fn run(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let (flags, args) = take_passes(args)?;
    let profile = args.iter().any(|a| a == "-p");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "-p").collect();
    let mut program = load(io, rest.first().map(|s| s.as_str()))?;
    optimise(&mut program, &flags.unwrap_or_default())?;
    let mut main_args: Vec<String> = rest.iter().skip(1).map(|s| s.to_string()).collect();
    if main_args.is_empty() {
        main_args = program.main_args();
    }
    let executable = Executable::new(&program).map_err(|e| Failure::input(e.to_string()))?;
    let mut sink = |text: &str| io.stdout(text);
    let outcome = executable.run_streaming(&main_args, &Limits::default(), Some(&mut sink));
    outcome.result.map_err(|e| Failure::failed(e.to_string()))?;
    if profile {
        io.stderr(&format!("total_dyn_inst: {}\n", outcome.dyn_inst));
    }
    Ok(())
}
