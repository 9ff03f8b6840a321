//! Interpreter throughput: dynamic instructions per second.
//!
//! The clock is the caller's (`std::time::Instant` natively, `performance.now()`
//! in a browser), so the same measurement runs on both.

use super::interp::{Executable, Limits};
use super::ir::Program;
use crate::error::Result;

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
