//! Micro benchmarks of the space core, callable from a native binary
//! (`cargo run --release --bin bench_spaces`) and from wasm.
//!
//! The clock is passed in because `std::time::Instant` does not exist on
//! `wasm32-unknown-unknown`: natively it is `Instant`, in JS `performance.now()`.

use super::{BoxSpace, DictSpace, Discrete, Space, TextSpace};
use crate::value::{DType, Value};
use std::hint::black_box;

/// One benchmark's result.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    pub name: &'static str,
    /// What `per_second` counts: `"samples"`, `"checks"` or `"values"`.
    pub unit: &'static str,
    pub per_second: f64,
    /// How many units were measured, over `seconds`.
    pub count: u64,
    pub seconds: f64,
}

/// Values per `sample_batch` call in the batch benchmark.
pub const BATCH_ROWS: usize = 4096;

/// The spaces measured, by benchmark name, so other harnesses (JS,
/// Gymnasium through `to_gym_space`) can measure the very same spaces.
pub fn bench_spaces() -> Vec<(&'static str, Space)> {
    let boxed = || BoxSpace::uniform("box", 0.0, 1.0, Some(vec![64]), DType::F32).unwrap();
    let dict = DictSpace::new(
        "dict",
        vec![
            ("action".into(), Discrete::new("action", 124, 0).unwrap().into()),
            (
                "features".into(),
                BoxSpace::uniform("features", -1.0, 1.0, Some(vec![8]), DType::F32).unwrap().into(),
            ),
            ("flag".into(), Discrete::new("flag", 2, 0).unwrap().into()),
        ],
        true,
    )
    .unwrap();
    vec![
        ("Discrete(124).sample", Discrete::new("discrete", 124, 0).unwrap().into()),
        ("Box(float32,[64]).sample", boxed().into()),
        ("Dict(Discrete,Box,Discrete).sample", dict.into()),
        ("Text(16).sample", TextSpace::new("text", 1, 16, None).unwrap().into()),
        ("Box(float32,[64]).contains", boxed().into()),
        ("Box(float32,[64]).sample_batch", boxed().into()),
    ]
}

/// Calls `step` (which does `units_per_step` units of work) until at least
/// `min_seconds` have passed.
fn measure(
    clock: &mut dyn FnMut() -> f64,
    min_seconds: f64,
    units_per_step: u64,
    mut step: impl FnMut(),
) -> (u64, f64) {
    let start = clock();
    let mut steps = 0u64;
    let mut chunk = 1u64;
    loop {
        for _ in 0..chunk {
            step();
        }
        steps += chunk;
        let elapsed = clock() - start;
        if elapsed >= min_seconds {
            return (steps * units_per_step, elapsed);
        }
        // Grow the chunk so reading the clock costs nothing measurable.
        chunk = (chunk * 2).min(1 << 20);
    }
}

/// Runs every benchmark for at least `min_seconds` each. `clock` returns seconds.
pub fn run_benchmarks(clock: &mut dyn FnMut() -> f64, min_seconds: f64) -> Vec<BenchResult> {
    let mut results = Vec::new();
    for (name, mut space) in bench_spaces() {
        space.seed(0);
        let (unit, (count, seconds)) = if name.ends_with(".contains") {
            let v: Value = space.sample();
            (
                "checks",
                measure(clock, min_seconds, 1, || {
                    black_box(space.contains(black_box(&v)));
                }),
            )
        } else if name.ends_with(".sample_batch") {
            let per_call = (BATCH_ROWS * 64) as u64;
            (
                "values",
                measure(clock, min_seconds, per_call, || {
                    black_box(space.sample_batch(BATCH_ROWS).expect("small batch"));
                }),
            )
        } else {
            (
                "samples",
                measure(clock, min_seconds, 1, || {
                    black_box(space.sample());
                }),
            )
        };
        results.push(BenchResult { name, unit, per_second: count as f64 / seconds, count, seconds });
    }
    results
}

/// A plain-text table of results.
pub fn format_results(results: &[BenchResult]) -> String {
    let mut out = String::new();
    for r in results {
        out.push_str(&format!("{:<40} {:>14.0} {}/s\n", r.name, r.per_second, r.unit));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_with_a_fake_clock() {
        // A clock that advances 1 ms per reading: every benchmark stops quickly.
        let mut t = 0.0;
        let mut clock = || {
            t += 0.001;
            t
        };
        let results = run_benchmarks(&mut clock, 0.002);
        assert_eq!(results.len(), 6);
        assert!(results.iter().all(|r| r.count > 0 && r.per_second > 0.0));
        assert_eq!(results[5].unit, "values");
        assert!(format_results(&results).contains("Text(16).sample"));
    }
}
