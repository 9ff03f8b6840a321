//! The compiling tier: Bril programs compiled to WebAssembly at run time,
//! run by a host [`Engine`] (the JS face's `WebAssembly.Instance`), with the
//! interpreter as the reference and the fallback.
//!
//! ```
//! use compgym::bril::compile::{Engine, Module, Tier, Tiered};
//! use compgym::bril::{interp::Limits, parse_text};
//! let p = parse_text("@main(n: int) { two: int = const 2; x: int = mul n two; print x; }").unwrap();
//! let tiered = Tiered::new(&p).unwrap();
//! assert!(tiered.module().is_ok()); // the tier covers it
//! // Natively there is no engine: the interpreter runs.
//! let run = tiered.run(&["21".to_string()], &Limits::default(), Tier::Auto, &mut compgym::bril::compile::NoEngine);
//! assert_eq!((run.outcome.stdout.as_str(), run.outcome.dyn_inst), ("42\n", 3));
//! ```
//!
//! **What the tier covers**: every verified program without `undef`: ints,
//! bools, floats, chars and pointers; arithmetic, comparisons, logic, `id`,
//! `const`, `nop`, `jmp`, `br`, calls (recursion included), `ret`, `print`,
//! `set`/`get`, and memory (`alloc`, `load`, `store`, `ptradd`, `free`) with
//! the interpreter's checks: bounds, reads of cells never written, frees off
//! the base or twice, leaks at the end, the cell limit. Allocations are
//! bumped in the module's memory and never reused within a run, so a program
//! that allocates and frees far more than it holds at once may run out of
//! memory and fall back. Programs with `undef` (and no `@main`) stay with the
//! interpreter ([`Tiered::module`] says why).
//!
//! **The fallback rule**: the compiled run is used only when it ends
//! normally within the limits; anything else (an instruction not covered, a
//! trap of any kind: division by zero, a bad char, a variable read unassigned,
//! a memory error, fuel, call depth, stack or heap cells exhausted, the
//! host's own stack or memory, an output past its limit, the host unable to
//! compile) reruns the
//! interpreter from scratch, so errors, partial output and counts on error
//! are always the interpreter's. The compiled checks are never looser than
//! the interpreter's (a run the interpreter fails traps), so a compiled run
//! that ends normally has the interpreter's output and count exactly.
//!
//! The dynamic count is `brili -p`'s: each block adds its instructions (up to
//! its terminator) on entry. Output is a list of typed records in the
//! module's memory (`layout`), formatted afterwards by the interpreter's own
//! printing, so floats print identically.

mod emit;
mod layout;

use crate::bril::interp::{parse_arg, Executable, Limits, Outcome};
use crate::bril::Program;
use crate::error::{Error, ErrorKind, Result};
use std::cell::RefCell;

/// A program compiled to a WebAssembly module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    bytes: Vec<u8>,
    /// `@main`'s parameter types, to read the arguments.
    params: Vec<crate::bril::Type>,
}

impl Module {
    /// Compiles `program` (verified and lowered as `exe`); `Err` says what
    /// the tier does not cover.
    fn new(program: &Program, exe: &Executable) -> std::result::Result<Module, String> {
        let bytes = emit::module(program, &exe.frame_cells())?;
        let main = program.main().ok_or("no @main")?;
        let params = program.function(main).params.iter().map(|p| p.ty).collect();
        Ok(Module { bytes, params })
    }

    /// The module's binary: it exports `memory` and `run() -> i32`.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Runs compiled modules: what the host (the browser, Node) provides.
pub trait Engine {
    /// Instantiates `module` (or reuses an instance of it), writes `input` at
    /// address 0 of its memory, calls its `run` export and returns its memory
    /// from address 0 up to the address `run` returned. `None` when anything
    /// fails: a trap, the host's stack, the module refused.
    fn run(&mut self, module: &Module, input: &[u8]) -> Option<Vec<u8>>;

    /// Whether this engine runs modules at all.
    fn available(&self) -> bool {
        true
    }
}

/// No engine: every run is the interpreter's (the native default).
pub struct NoEngine;

impl Engine for NoEngine {
    fn run(&mut self, _: &Module, _: &[u8]) -> Option<Vec<u8>> {
        None
    }

    fn available(&self) -> bool {
        false
    }
}

/// Which tier runs a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// The interpreter for short runs; the compiled module once a run
    /// passes [`TRIAL_FUEL`] instructions.
    Auto,
    /// The compiled module whenever the program is covered.
    Compiled,
    /// The interpreter always.
    Interpreter,
}

impl Tier {
    /// `auto`, `compiled` or `interpreter`.
    pub fn parse(name: &str) -> Result<Tier> {
        match name {
            "auto" => Ok(Tier::Auto),
            "compiled" => Ok(Tier::Compiled),
            "interpreter" => Ok(Tier::Interpreter),
            _ => Err(Error::new(
                ErrorKind::Value,
                format!("unknown tier {name:?}: expected 'auto', 'compiled' or 'interpreter'"),
            )),
        }
    }
}

/// How many instructions [`Tier::Auto`] lets the interpreter run before it
/// compiles: about 3 ms of interpretation, beside a compile of about a
/// millisecond, so short runs never pay for compiling.
pub const TRIAL_FUEL: u64 = 1_000_000;

/// Which tier produced an outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    Compiled,
    Interpreter,
}

/// An outcome and the tier that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct TieredRun {
    pub outcome: Outcome,
    pub ran: Ran,
}

/// A verified program ready for both tiers.
pub struct Tiered {
    exe: Executable,
    module: std::result::Result<Module, String>,
}

impl Tiered {
    /// Verifies and lowers `program`, and compiles it when the tier covers it.
    pub fn new(program: &Program) -> Result<Tiered> {
        let exe = Executable::new(program)?;
        let module = Module::new(program, &exe);
        Ok(Tiered { exe, module })
    }

    /// The compiled module, or why the program stays with the interpreter.
    pub fn module(&self) -> std::result::Result<&Module, &str> {
        self.module.as_ref().map_err(String::as_str)
    }

    /// The interpreter's executable.
    pub fn executable(&self) -> &Executable {
        &self.exe
    }

    /// Runs `@main` on `args` under `limits` with `tier`, compiled runs on
    /// `engine`; the outcome is always the interpreter's (see the module
    /// doc's fallback rule).
    pub fn run(&self, args: &[String], limits: &Limits, tier: Tier, engine: &mut dyn Engine) -> TieredRun {
        let interpreted = |outcome| TieredRun { outcome, ran: Ran::Interpreter };
        let Ok(module) = &self.module else {
            return interpreted(self.exe.run(args, limits));
        };
        match tier {
            Tier::Interpreter => return interpreted(self.exe.run(args, limits)),
            _ if !engine.available() => return interpreted(self.exe.run(args, limits)),
            Tier::Auto => {
                if let Some(outcome) = short_run(&self.exe, args, limits) {
                    return interpreted(outcome);
                }
            }
            Tier::Compiled => {}
        }
        match compiled(module, args, limits, engine) {
            Some(outcome) => TieredRun { outcome, ran: Ran::Compiled },
            None => interpreted(self.exe.run(args, limits)),
        }
    }
}

/// The interpreter's run when it ends within [`TRIAL_FUEL`] instructions
/// (or the limits give no more); `None` for a long run.
fn short_run(exe: &Executable, args: &[String], limits: &Limits) -> Option<Outcome> {
    if limits.fuel <= TRIAL_FUEL {
        return Some(exe.run(args, limits));
    }
    let trial = exe.run(args, &Limits { fuel: TRIAL_FUEL, ..*limits });
    // Fuel only matters once the count passes it: a trial that never did is
    // the full run.
    (trial.dyn_inst <= TRIAL_FUEL || trial.result.is_ok()).then_some(trial)
}

thread_local! {
    /// The engine [`run_program`] compiles long runs on: none until the host
    /// injects one (the JS face does when its module starts).
    static HOST_ENGINE: RefCell<Option<Box<dyn Engine>>> = const { RefCell::new(None) };
}

/// Sets the engine [`run_program`] uses; returns the one it replaces.
pub fn set_host_engine(engine: Option<Box<dyn Engine>>) -> Option<Box<dyn Engine>> {
    HOST_ENGINE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => std::mem::replace(&mut *slot, engine),
        Err(_) => engine,
    })
}

/// Verifies and runs `program` as [`crate::bril::interp::run`] does, with
/// the same outcome; a long run is compiled on the injected engine, if any
/// ([`Tier::Auto`]). What the environments' runtime observations use.
pub fn run_program(program: &Program, args: &[String], limits: &Limits) -> Outcome {
    let exe = match Executable::new(program) {
        Ok(exe) => exe,
        Err(e) => return Outcome { stdout: String::new(), dyn_inst: 0, result: Err(e) },
    };
    // Without an engine (natively) there is nothing to try first: one run.
    let engine_given = HOST_ENGINE
        .with(|cell| cell.try_borrow().is_ok_and(|slot| slot.as_ref().is_some_and(|e| e.available())));
    if !engine_given {
        return exe.run(args, limits);
    }
    if let Some(outcome) = short_run(&exe, args, limits) {
        return outcome;
    }
    let from_engine = HOST_ENGINE.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let engine = slot.as_mut()?;
        let module = Module::new(program, &exe).ok()?;
        compiled(&module, args, limits, engine.as_mut())
    });
    from_engine.unwrap_or_else(|| exe.run(args, limits))
}

/// The compiled run's outcome, or `None` when the interpreter must decide.
fn compiled(module: &Module, args: &[String], limits: &Limits, engine: &mut dyn Engine) -> Option<Outcome> {
    if args.len() != module.params.len() {
        return None;
    }
    let words =
        module.params.iter().zip(args).map(|(&ty, s)| parse_arg(s, ty).ok()).collect::<Option<Vec<_>>>()?;
    let memory = engine.run(module, &layout::input(&words, limits))?;
    let (count, stdout) = layout::output(&memory, words.len(), limits.max_output_bytes)?;
    // The interpreter checks fuel only at jumps and calls; past the fuel at
    // the end, let it say whether it noticed.
    (count <= limits.fuel).then_some(Outcome { stdout, dyn_inst: count, result: Ok(()) })
}

#[cfg(test)]
mod tests;
