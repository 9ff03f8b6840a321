//! The `compgym` command line, written once: parsing, dispatch, printing,
//! error texts and exit statuses. The native binary (`src/bin/compgym.rs`)
//! and `npx compgym` (`src/js/npm/cli.js` over the wasm export `runCli`)
//! are shells that lend their host's files and streams as an [`Io`] and
//! call [`run`]; so both print the same bytes and exit with the same status
//! by construction.
//!
//! | command | file |
//! |---|---|
//! | `run` (a file, `# ARGS:`, `--passes`) and `brili` (`brili`'s own command line) | [`run`](mod@run) |
//! | `json`, `text`, `verify`, `features`, `opt`, `generate` | [`tools`] |
//! | `leaderboard` | [`leaderboard`] |
//! | `train` | [`train`] |
//!
//! Exit statuses: [`OK`], [`BAD_INPUT`] (bad input or usage), [`FAILED`]
//! (a program that failed while running, or an agent that failed).
//! Benchmark drivers are not here: they are `compgym-bench`'s.

mod args;
mod files;
mod io;
mod leaderboard;
mod run;
mod tools;
mod train;
mod usage;

#[cfg(test)]
mod memory;
#[cfg(test)]
mod tests;

pub use io::Io;
pub use usage::usage;

/// The command did what it was asked.
pub const OK: i32 = 0;
/// Bad input or usage: a file that cannot be read, a program that does not
/// parse or verify, an unknown command or flag.
pub const BAD_INPUT: i32 = 1;
/// A program that failed while running, or an agent or training that failed.
pub const FAILED: i32 = 2;

/// Why a command stopped: the text for standard error (after `error: `) and
/// the exit status.
#[derive(Debug)]
pub(crate) struct Failure {
    message: String,
    status: i32,
}

impl Failure {
    /// Bad input: status [`BAD_INPUT`].
    fn input(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), status: BAD_INPUT }
    }

    /// A usage error: the message, then the usage; status [`BAD_INPUT`].
    fn usage(message: impl Into<String>) -> Failure {
        Failure::input(format!("{}\n{}", message.into(), usage()))
    }

    /// A failure while running: status [`FAILED`].
    fn failed(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), status: FAILED }
    }
}

/// A command: its arguments (after its name) and the host.
type Command = fn(&[String], &mut dyn Io) -> Result<(), Failure>;

fn command(name: &str) -> Option<Command> {
    Some(match name {
        "run" => run::run,
        "brili" => run::brili,
        "json" => tools::json,
        "text" => tools::text,
        "verify" => tools::verify,
        "opt" => tools::opt,
        "features" => tools::features,
        "generate" => tools::generate,
        "leaderboard" => leaderboard::leaderboard,
        "train" => train::train,
        _ => return None,
    })
}

fn help(io: &mut dyn Io) -> Result<(), Failure> {
    io.stdout(&format!("{}\n", usage()));
    Ok(())
}

/// The package's version, the same in both shells (the crate and the npm
/// package are released together under one version).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

fn version(io: &mut dyn Io) -> Result<(), Failure> {
    io.stdout(&format!("compgym {VERSION}\n"));
    Ok(())
}

/// The command line a shell runs when it was started under the name
/// `invoked_as` (a path, or its last component): `brili ARGS...` when that
/// name is `brili`, so a link named `brili` to either shell is a drop-in for
/// it; `args` otherwise.
pub fn args_for(invoked_as: &str, args: Vec<String>) -> Vec<String> {
    let name = invoked_as.rsplit(['/', '\\']).next().unwrap_or("");
    let stem = name.strip_suffix(".exe").or_else(|| name.strip_suffix(".js")).unwrap_or(name);
    if stem == "brili" {
        std::iter::once("brili".to_string()).chain(args).collect()
    } else {
        args
    }
}

/// Runs one command line (`args` without the program's name) on `io`: what
/// it prints goes to `io`'s streams, and the exit status is returned.
pub fn run(args: &[String], io: &mut dyn Io) -> i32 {
    // `compgym run --help` asks for the usage, as `compgym --help` does (no
    // command takes `-h` or `--help` as a file, a flag or a Bril argument).
    let asks_for_help = |rest: &[String]| rest.iter().any(|a| a == "-h" || a == "--help");
    let result = match args.first().map(String::as_str) {
        Some("help" | "-h" | "--help") => help(io),
        Some("--version") => version(io),
        Some(name) => match command(name) {
            Some(_) if asks_for_help(&args[1..]) => help(io),
            Some(command) => command(&args[1..], io),
            None => Err(Failure::usage(format!("unknown command {name:?}"))),
        },
        None => Err(Failure::usage("missing command")),
    };
    match result {
        Ok(()) => OK,
        Err(Failure { message, status }) => {
            io.stderr(&format!("error: {message}\n"));
            status
        }
    }
}
