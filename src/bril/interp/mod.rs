//! The Bril interpreter, with `brili`'s semantics and dynamic instruction count.
//!
//! ```
//! use compgym::bril::{interp, parse_text};
//! let p = parse_text("@main(n: int) { two: int = const 2; x: int = mul n two; print x; }").unwrap();
//! let run = interp::run(&p, &["21".to_string()], &interp::Limits::default());
//! assert_eq!(run.stdout, "42\n");
//! assert_eq!(run.dyn_inst, 3);
//! assert!(run.result.is_ok());
//! ```
//!
//! A program is verified and lowered once into an [`Executable`], which can
//! then run any number of times. Runs are bounded by [`Limits`]: exceeding one
//! is an [`ErrorKind::Limit`] error, never a hang or a panic.

mod args;
mod code;
mod format;
mod heap;
mod lower;
mod machine;
mod tags;

pub use args::{parse_arg, parse_float, parse_int};
pub use format::{format_float, write_float};

use crate::bril::ir::{Op, Program};
use crate::error::{Error, ErrorKind, Result};
use code::Lowered;
use lower::Typing;
use machine::{Output, Run};

/// Resource bounds of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most dynamic instructions to execute.
    pub fuel: u64,
    /// Most 64-bit cells held at once: heap cells (plus one per allocation
    /// made), and separately the register stack of all live frames.
    pub max_memory_cells: u64,
    /// Deepest call nesting.
    pub max_call_depth: u32,
    /// Most bytes of output.
    pub max_output_bytes: u64,
}

impl Default for Limits {
    /// Generous bounds: a billion instructions, 2^24 cells (128 MiB), calls
    /// 10 000 deep, 16 MiB of output.
    fn default() -> Self {
        Limits {
            fuel: 1_000_000_000,
            max_memory_cells: 1 << 24,
            max_call_depth: 10_000,
            max_output_bytes: 16 << 20,
        }
    }
}

/// What a run did: its output and dynamic instruction count so far, and
/// whether it ended normally.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Everything printed (empty when the output went to a sink).
    pub stdout: String,
    /// Instructions executed, counted as `brili -p` counts them.
    pub dyn_inst: u64,
    pub result: Result<()>,
}

impl Outcome {
    pub fn is_ok(&self) -> bool {
        self.result.is_ok()
    }

    /// The output when the run succeeded.
    pub fn into_stdout(self) -> Result<String> {
        self.result.map(|()| self.stdout)
    }
}

/// A verified program lowered for the interpreter, ready to run many times.
pub struct Executable {
    lowered: Lowered,
    main: Option<u32>,
}

impl Executable {
    /// Verifies and lowers `program`.
    pub fn new(program: &Program) -> Result<Executable> {
        crate::bril::verify::verify(program)?;
        Executable::new_unverified(program)
    }

    /// Lowers `program` without verifying its types. Running an ill-typed
    /// program gives meaningless results but never panics or escapes its limits.
    pub fn new_unverified(program: &Program) -> Result<Executable> {
        Executable::lowered(program, Typing::Static)
    }

    /// Lowers any program that parses to run as `brili` runs it: nothing is
    /// checked before, each value keeps its type, and an instruction checks
    /// its operands when it runs, failing with `brili`'s words (`add argument
    /// 0 must be a int`, `undefined variable x`). Slower than the fast path.
    pub fn new_dynamic(program: &Program) -> Result<Executable> {
        Executable::lowered(program, Typing::Dynamic)
    }

    /// Lowers `program` to behave exactly as `brili` would: a verified
    /// program without `undef` takes the fast path (on it no check `brili`
    /// makes can fail but those the fast path makes too, with the same
    /// words); any other takes [`Executable::new_dynamic`].
    pub fn like_brili(program: &Program) -> Result<Executable> {
        let has_undef = program.functions.iter().any(|f| f.instrs().any(|i| i.op == Op::Undef));
        if !has_undef && crate::bril::verify::verify(program).is_ok() {
            Executable::new_unverified(program)
        } else {
            Executable::new_dynamic(program)
        }
    }

    /// Register cells each function's frame takes (its slots), which the
    /// stack limit of [`Limits::max_memory_cells`] counts.
    pub(crate) fn frame_cells(&self) -> Vec<u64> {
        self.lowered.functions.iter().map(|f| u64::from(f.slots)).collect()
    }

    fn lowered(program: &Program, typing: Typing) -> Result<Executable> {
        Ok(Executable { lowered: lower::lower(program, typing)?, main: program.main().map(|f| f.0) })
    }

    /// Runs `@main` with `args` (strings, parsed as brili parses them).
    pub fn run(&self, args: &[String], limits: &Limits) -> Outcome {
        self.run_streaming(args, limits, None)
    }

    /// Like [`Executable::run`], handing output to `sink` as it is produced.
    pub fn run_streaming(
        &self,
        args: &[String],
        limits: &Limits,
        sink: Option<&mut dyn FnMut(&str)>,
    ) -> Outcome {
        let mut run = Run {
            prog: &self.lowered,
            limits: *limits,
            heap: heap::Heap::new(limits.max_memory_cells),
            out: Output { text: String::new(), sink, written: 0, max_bytes: limits.max_output_bytes },
            count: 0,
        };
        let result = self.start(&mut run, args);
        run.out.flush();
        Outcome { stdout: std::mem::take(&mut run.out.text), dyn_inst: run.count, result }
    }

    fn start(&self, run: &mut Run<'_, '_>, args: &[String]) -> Result<()> {
        // Like brili, a program without @main does nothing.
        let Some(main) = self.main else {
            return Ok(());
        };
        let f = &self.lowered.functions[main as usize];
        if args.len() != f.params.len() {
            return Err(Error::new(
                ErrorKind::Value,
                format!("mismatched main argument arity: expected {}; got {}", f.params.len(), args.len()),
            ));
        }
        let values =
            f.params.iter().zip(args).map(|(&(_, ty), s)| parse_arg(s, ty)).collect::<Result<Vec<_>>>()?;
        run.exec(main, &values)?;
        if run.heap.live_allocations() > 0 {
            return Err(Error::new(
                ErrorKind::Runtime,
                "Some memory locations have not been freed by end of execution.",
            ));
        }
        Ok(())
    }
}

/// Writes a value of type `ty` held in the word `bits` as `print` does.
pub(crate) fn write_value(text: &mut String, bits: u64, ty: crate::bril::Type) {
    machine::write_value(text, bits, code::Kind::of(ty));
}

/// Verifies, lowers and runs `program` once.
pub fn run(program: &Program, args: &[String], limits: &Limits) -> Outcome {
    match Executable::new(program) {
        Ok(exe) => exe.run(args, limits),
        Err(e) => Outcome { stdout: String::new(), dyn_inst: 0, result: Err(e) },
    }
}

#[cfg(test)]
mod tests;
