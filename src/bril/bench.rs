//! Interpreter throughput: dynamic instructions per second.
//!
//! The clock is the caller's (`std::time::Instant` natively, `performance.now()`
//! in a browser), so the same measurement runs on both.

use super::compile::{Engine, Ran, Tier, Tiered};
use super::interp::{Executable, Limits};
use super::ir::Program;
use crate::error::{Error, ErrorKind, Result};

/// One throughput measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    /// Dynamic instructions of one run.
    pub dyn_inst: u64,
    /// Runs timed.
    pub runs: u32,
    /// Total seconds of the timed runs.
    pub seconds: f64,
}

impl Throughput {
    /// Dynamic instructions per second.
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.dyn_inst as f64 * f64::from(self.runs) / self.seconds
        } else {
            0.0
        }
    }
}

/// Runs `program` (after one untimed warm-up run) until `min_seconds` have
/// passed on `now`, a clock in seconds, and at least once.
pub fn measure(
    program: &Program,
    args: &[String],
    min_seconds: f64,
    now: &mut dyn FnMut() -> f64,
) -> Result<Throughput> {
    let exe = Executable::new(program)?;
    let limits = Limits::default();
    let warm = exe.run(args, &limits);
    warm.result.clone()?;
    let start = now();
    let mut runs = 0u32;
    loop {
        let o = exe.run(args, &limits);
        o.result?;
        runs += 1;
        let elapsed = now() - start;
        if elapsed >= min_seconds || runs == u32::MAX {
            return Ok(Throughput { dyn_inst: warm.dyn_inst, runs, seconds: elapsed });
        }
    }
}

/// The compiling tier's throughput on `engine`, measured as [`measure`]
/// measures the interpreter's, and the seconds of the first run (compiling
/// and instantiating included). A program the tier leaves to the
/// interpreter, or a run that falls back, is an error saying so.
pub fn measure_compiled(
    program: &Program,
    args: &[String],
    min_seconds: f64,
    now: &mut dyn FnMut() -> f64,
    engine: &mut dyn Engine,
) -> Result<(Throughput, f64)> {
    let tiered = Tiered::new(program)?;
    if let Err(why) = tiered.module() {
        return Err(Error::new(ErrorKind::Value, format!("not compiled: {why}")));
    }
    let limits = Limits::default();
    let mut once = || -> Result<u64> {
        let run = tiered.run(args, &limits, Tier::Compiled, engine);
        run.outcome.result?;
        if run.ran != Ran::Compiled {
            return Err(Error::new(ErrorKind::Value, "the compiled run fell back to the interpreter"));
        }
        Ok(run.outcome.dyn_inst)
    };
    let start = now();
    let dyn_inst = once()?;
    let first = now() - start;
    let start = now();
    let mut runs = 0u32;
    loop {
        once()?;
        runs += 1;
        let elapsed = now() - start;
        if elapsed >= min_seconds || runs == u32::MAX {
            return Ok((Throughput { dyn_inst, runs, seconds: elapsed }, first));
        }
    }
}

/// Microseconds to parse `text` once, averaged over runs lasting `min_seconds`.
pub fn parse_time(text: &str, min_seconds: f64, now: &mut dyn FnMut() -> f64) -> Result<f64> {
    super::parse_text(text)?;
    let start = now();
    let mut runs = 0u64;
    loop {
        super::parse_text(text)?;
        runs += 1;
        let elapsed = now() - start;
        if elapsed >= min_seconds {
            return Ok(elapsed * 1e6 / runs as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_with_the_given_clock() {
        let p = crate::bril::parse_text("@main {\n  x: int = const 1;\n  print x;\n}").unwrap();
        let mut t = 0.0;
        let mut clock = || {
            t += 0.25;
            t
        };
        let m = measure(&p, &[], 1.0, &mut clock).unwrap();
        assert_eq!(m.dyn_inst, 2);
        assert_eq!(m.runs, 4);
        assert_eq!(m.per_second(), 8.0);
    }
}
