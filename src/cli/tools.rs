//! The Bril tools: `json` (as `bril2json`), `text` (as `bril2txt`),
//! `verify`, `features`, `opt` and `generate`.

use super::args::{single_file, take_passes};
use super::files::{load, read_source};
use super::{Failure, Io};
use crate::bril::{self, passes, Program};

/// Applies pass flags and pipelines (`-O1`, `-O2`, `-Oz`) in order.
pub(super) fn optimise(program: &mut Program, flags: &[String]) -> Result<(), Failure> {
    passes::run_command_line(program, flags).map(drop).map_err(|e| Failure::input(e.to_string()))
}

/// `json [-p|-pp] [FILE|-]`.
pub(super) fn json(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
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
    let source = read_source(io, single_file(&rest)?)?;
    let out = bril::source_to_json(&source, level).map_err(|e| Failure::input(e.to_string()))?;
    io.stdout(&(out + "\n"));
    Ok(())
}

/// `text [FILE|-]`.
pub(super) fn text(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let program = load(io, single_file(args)?)?;
    io.stdout(&bril::to_text(&program));
    Ok(())
}

/// `verify [FILE|-]`: `ok`, or the first problem.
pub(super) fn verify(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let program = load(io, single_file(args)?)?;
    bril::verify(&program).map_err(|e| Failure::input(e.to_string()))?;
    io.stdout("ok\n");
    Ok(())
}

/// `features [--dot] [FILE|-]`.
pub(super) fn features(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let dot = args.iter().any(|a| a == "--dot");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--dot").cloned().collect();
    let program = load(io, single_file(&rest)?)?;
    let out = if dot {
        bril::features::cfg::to_dot(&program)
    } else {
        let json = bril::features::to_json(&program);
        serde_json::to_string_pretty(&json).map_err(|e| Failure::input(e.to_string()))? + "\n"
    };
    io.stdout(&out);
    Ok(())
}

/// `opt --passes FLAGS [--json] [FILE|-]`, or `opt --list`.
pub(super) fn opt(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    if args.iter().any(|a| a == "--list") {
        let mut out = String::new();
        for p in passes::registry() {
            out += &format!("{:<18} {}\n", p.flag, p.description);
        }
        for name in passes::pipelines() {
            out += &format!("{name:<18} the {name} pipeline\n");
        }
        io.stdout(&out);
        return Ok(());
    }
    let json = args.iter().any(|a| a == "--json");
    let args: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    let (flags, rest) = take_passes(&args)?;
    let mut program = load(io, single_file(&rest)?)?;
    optimise(&mut program, &flags.unwrap_or_default())?;
    let out = if json { bril::to_json(&program) + "\n" } else { bril::to_text(&program) };
    io.stdout(&out);
    Ok(())
}

/// `generate URI`: the program a generator URI names, as text.
pub(super) fn generate(args: &[String], io: &mut dyn Io) -> Result<(), Failure> {
    let [uri] = args else { return Err(Failure::usage("expected one generator URI")) };
    let program = bril::generator::from_uri(uri).map_err(|e| Failure::input(e.to_string()))?;
    io.stdout(&bril::to_text(&program));
    Ok(())
}
