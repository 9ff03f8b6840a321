//! No pass, pipeline, feature, reader, writer or the verifier grows
//! quadratically with program size: each runs on generated programs of
//! every shape at 1,000 and 16,000 instructions and must take less than
//! 64 times as long on the larger (linear growth is 16 times, n log n about
//! 22, quadratic 256; the margin absorbs caches filling up).
//!
//! Made not to flake on a loaded machine: time is the thread's CPU time
//! (waiting for a core does not count), each size keeps its fastest run
//! (a run slowed by another process never sets the figure), small inputs
//! run in batches long enough to time, and a workload over the limit is
//! measured again, up to three rounds, before it fails.
#![cfg(not(target_arch = "wasm32"))]

use compgym::bril::scaling::{workloads, Input, Workload};
use compgym::bril::shapes::{self, Shape};

const SMALL: usize = 1_000;
const LARGE: usize = 16_000;
/// Most the larger input may cost, as a multiple of the smaller.
const LIMIT: f64 = 64.0;
const ROUNDS: usize = 3;
/// Shortest batch timed, in seconds: well above the clock's resolution.
const MIN_BATCH: f64 = 2e-3;
/// Below this at the larger size (seconds), a workload is too quick for
/// its growth to matter or to be measured: a pass returning at once.
const NEGLIGIBLE: f64 = 50e-6;

/// CPU seconds this thread has run (wall-clock seconds where the platform
/// gives no thread clock).
fn cpu_seconds() -> f64 {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    compgym::bril::scaling::thread_cpu_seconds()
        .unwrap_or_else(|| START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64())
}

/// Seconds per run: the fastest of batches, each long enough to time.
fn per_run(work: &Workload, input: &Input, batches: usize) -> f64 {
    let mut clock = cpu_seconds;
    let once = work.time(input, &mut clock).unwrap_or_else(|e| panic!("{}: {e}", work.name));
    let reps = ((MIN_BATCH / once.max(1e-9)).ceil() as usize).clamp(1, 10_000);
    let mut best = f64::INFINITY;
    for _ in 0..batches {
        let mut total = 0.0;
        for _ in 0..reps {
            total += work.time(input, &mut clock).unwrap_or_else(|e| panic!("{}: {e}", work.name));
        }
        best = best.min(total / reps as f64);
    }
    best
}

#[test]
fn every_workload_grows_less_than_quadratically() {
    let mut failures = Vec::new();
    for shape in Shape::ALL {
        let small = Input::new(shapes::generate(shape, SMALL, 1).unwrap());
        let large = Input::new(shapes::generate(shape, LARGE, 1).unwrap());
        for work in workloads() {
            let (mut t_small, mut t_large) = (f64::INFINITY, f64::INFINITY);
            let mut ratio = f64::INFINITY;
            for _ in 0..ROUNDS {
                t_small = t_small.min(per_run(&work, &small, 3));
                t_large = t_large.min(per_run(&work, &large, 2));
                ratio = t_large / t_small.max(1e-9);
                if ratio < LIMIT || t_large < NEGLIGIBLE {
                    break;
                }
            }
            if std::env::var_os("SCALING_VERBOSE").is_some() {
                println!("{:<20} {:<14} {ratio:>6.1}x  {:.3} ms", work.name, shape.name(), t_large * 1e3);
            }
            if ratio >= LIMIT && t_large >= NEGLIGIBLE {
                failures.push(format!(
                    "{} on {}: {:.3} ms at {SMALL}, {:.3} ms at {LARGE} ({ratio:.0}x)",
                    work.name,
                    shape.name(),
                    t_small * 1e3,
                    t_large * 1e3
                ));
            }
        }
    }
    assert!(failures.is_empty(), "grows too fast:\n{}", failures.join("\n"));
}
