//! How the cost of each part of the compiler grows with program size: the
//! work `compgym bench-scaling` times and the tests that guard every pass
//! against quadratic regressions share.
//!
//! A [`Workload`] is one thing done to a program: read or write a format,
//! verify, lower for the interpreter, run a pass or a pipeline, compute a
//! feature. [`Workload::time`] times one run on the caller's clock (natively
//! `Instant`, in a browser `performance.now()`), excluding the copy a pass
//! works on; [`growth_exponent`] fits the slope of log time against log
//! size; [`thread_cpu_seconds`] is the clock both prefer natively.
//!
//! Time is for `make bench-scaling` alone: on a busy machine it says little.
//! Tests count work instead, which no other process changes:
//! [`Workload::work`] gives the heap allocations and bytes one run asks for
//! (counted by [`CountingAllocator`], which the test binary installs) and
//! the size of what it produces.

use super::features::{autophase, cfg, inst_count, ir_sha1, programl};
use super::interp::Executable;
use super::ir::Program;
use super::passes::{self, PassInfo};
use super::{json, parse_text, print, verify};
use crate::error::Result;

/// What a workload does.
#[derive(Clone, Copy, Debug)]
pub enum Work {
    ParseText,
    PrintText,
    ReadJson,
    WriteJson,
    Verify,
    /// Lowering for the interpreter (what `Executable::new` does after verifying).
    Lower,
    Pass(&'static PassInfo),
    Pipeline(&'static str),
    InstCount,
    Autophase,
    Programl,
    Cfg,
    IrSha1,
}

/// One named workload.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub name: &'static str,
    pub work: Work,
}

/// Every workload: the readers, writers and verifier, the interpreter's
/// lowering, each pass, each pipeline and each feature extractor.
pub fn workloads() -> Vec<Workload> {
    let mut all = vec![
        Workload { name: "parse text", work: Work::ParseText },
        Workload { name: "print text", work: Work::PrintText },
        Workload { name: "read JSON", work: Work::ReadJson },
        Workload { name: "write JSON", work: Work::WriteJson },
        Workload { name: "verify", work: Work::Verify },
        Workload { name: "lower (interpreter)", work: Work::Lower },
    ];
    all.extend(passes::registry().iter().map(|p| Workload { name: p.flag, work: Work::Pass(p) }));
    all.extend(
        passes::pipelines().filter(|&p| p != "-O0").map(|p| Workload { name: p, work: Work::Pipeline(p) }),
    );
    all.extend([
        Workload { name: "InstCount", work: Work::InstCount },
        Workload { name: "Autophase", work: Work::Autophase },
        Workload { name: "ProGraML graph", work: Work::Programl },
        Workload { name: "CFG", work: Work::Cfg },
        Workload { name: "IrSha1", work: Work::IrSha1 },
    ]);
    all
}

/// A program in every form the workloads start from.
pub struct Input {
    pub program: Program,
    pub text: String,
    pub json: String,
}

impl Input {
    pub fn new(program: Program) -> Input {
        let text = print::to_text(&program);
        let json = json::to_json(&program);
        Input { program, text, json }
    }
}

impl Workload {
    /// Seconds one run takes on `now` (a clock in seconds). A pass or a
    /// pipeline runs on a fresh copy, made before the clock starts.
    pub fn time(&self, input: &Input, now: &mut dyn FnMut() -> f64) -> Result<f64> {
        let mut copy = match self.work {
            Work::Pass(_) | Work::Pipeline(_) => Some(input.program.clone()),
            _ => None,
        };
        let start = now();
        self.run(input, copy.as_mut())?;
        let seconds = now() - start;
        drop(copy);
        Ok(seconds)
    }

    fn run(&self, input: &Input, copy: Option<&mut Program>) -> Result<()> {
        let p = &input.program;
        match self.work {
            Work::ParseText => drop(std::hint::black_box(parse_text(&input.text)?)),
            Work::PrintText => drop(std::hint::black_box(print::to_text(p))),
            Work::ReadJson => drop(std::hint::black_box(json::parse_json(&input.json)?)),
            Work::WriteJson => drop(std::hint::black_box(json::to_json(p))),
            Work::Verify => verify(p)?,
            Work::Lower => drop(std::hint::black_box(Executable::new_unverified(p)?)),
            Work::Pass(pass) => {
                if let Some(copy) = copy {
                    (pass.run)(copy)?;
                }
            }
            Work::Pipeline(name) => {
                if let Some(copy) = copy {
                    passes::run_pipeline(copy, name)?;
                }
            }
            Work::InstCount => drop(std::hint::black_box(inst_count::counts(p))),
            Work::Autophase => drop(std::hint::black_box(autophase::features(p))),
            Work::Programl => drop(std::hint::black_box(programl::graph(p))),
            Work::Cfg => drop(std::hint::black_box(cfg::to_json_text(p))),
            Work::IrSha1 => drop(std::hint::black_box(ir_sha1(p))),
        }
        Ok(())
    }

    /// The work one run does: what it allocates on this thread (zero unless
    /// [`CountingAllocator`] is the global allocator) and the size of its
    /// output. Like [`Workload::time`], the copy a pass works on is made
    /// before counting starts and dropped after it ends.
    pub fn work(&self, input: &Input) -> Result<WorkCount> {
        let mut copy = match self.work {
            Work::Pass(_) | Work::Pipeline(_) => Some(input.program.clone()),
            _ => None,
        };
        let before = heap_counts();
        let made = self.run_measured(input, copy.as_mut())?;
        let after = heap_counts();
        let output = made.unwrap_or_else(|| copy.as_ref().map_or(0, |c| print::to_text(c).len() as u64));
        drop(copy);
        Ok(WorkCount { allocations: after.0 - before.0, bytes: after.1 - before.1, output })
    }

    /// [`Workload::run`], returning the size of what it made where that is
    /// dropped at once (characters written, instructions read, features
    /// computed); `None` for a pass or pipeline, whose copy is measured
    /// after counting ends.
    fn run_measured(&self, input: &Input, copy: Option<&mut Program>) -> Result<Option<u64>> {
        let p = &input.program;
        let n = |len: usize| Some(len as u64);
        Ok(match self.work {
            Work::ParseText => n(parse_text(&input.text)?.instr_count()),
            Work::PrintText => n(print::to_text(p).len()),
            Work::ReadJson => n(json::parse_json(&input.json)?.instr_count()),
            Work::WriteJson => n(json::to_json(p).len()),
            Work::InstCount => n(format!("{:?}", inst_count::counts(p)).len()),
            Work::Autophase => n(format!("{:?}", autophase::features(p)).len()),
            Work::Programl => n(format!("{:?}", programl::graph(p)).len()),
            Work::Cfg => n(cfg::to_json_text(p).len()),
            Work::Pass(_) | Work::Pipeline(_) => {
                self.run(input, copy)?;
                None
            }
            Work::Verify | Work::Lower | Work::IrSha1 => {
                self.run(input, copy)?;
                Some(0)
            }
        })
    }

    /// The fastest of runs repeated until `min_seconds` have passed (at least
    /// `min_runs` of them): on a shared machine the fastest run is the one
    /// least disturbed by other work.
    pub fn best_time(
        &self,
        input: &Input,
        min_runs: u32,
        min_seconds: f64,
        now: &mut dyn FnMut() -> f64,
    ) -> Result<f64> {
        let start = now();
        let mut best = f64::INFINITY;
        let mut runs = 0;
        while runs < min_runs || now() - start < min_seconds {
            best = best.min(self.time(input, now)?);
            runs += 1;
        }
        Ok(best)
    }
}

/// The CPU seconds the calling thread has run, where the platform has a
/// thread clock (64-bit Linux): unlike wall-clock time it does not count time
/// spent waiting for a core, so measurements on a shared machine hold.
pub fn thread_cpu_seconds() -> Option<f64> {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: clock_gettime only writes one timespec through a valid pointer.
        if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Some(t.sec as f64 + t.nsec as f64 * 1e-9);
        }
    }
    None
}

/// The work of one run of a [`Workload`]: counts that do not depend on the
/// machine or its load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkCount {
    /// Heap allocations and reallocations.
    pub allocations: u64,
    /// Bytes those asked for.
    pub bytes: u64,
    /// The size of the output: characters of text or JSON written (a pass's
    /// or pipeline's program printed), instructions read, or the debug form
    /// of the features; 0 for the verifier, lowering and the hash.
    pub output: u64,
}

std::thread_local! {
    /// Allocations and bytes asked for on this thread.
    static HEAP: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// The allocations and bytes asked for on this thread so far (zero unless
/// [`CountingAllocator`] is the global allocator).
pub fn heap_counts() -> (u64, u64) {
    HEAP.try_with(|h| h.get()).unwrap_or((0, 0))
}

/// The system allocator, counting what each thread asks for. A binary that
/// measures work installs it: `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
pub struct CountingAllocator;

impl CountingAllocator {
    fn count(bytes: usize) {
        let _ = HEAP.try_with(|h| {
            let (n, b) = h.get();
            h.set((n + 1, b + bytes as u64));
        });
    }
}

// SAFETY: every call is passed to the system allocator unchanged; counting
// touches only a thread-local cell, which allocates nothing.
unsafe impl std::alloc::GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        Self::count(layout.size());
        std::alloc::System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        Self::count(layout.size());
        std::alloc::System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        Self::count(new_size);
        std::alloc::System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        std::alloc::System.dealloc(ptr, layout)
    }
}

/// The least-squares slope of log(seconds) against log(size): 1 for linear
/// growth, 2 for quadratic. `None` with fewer than two usable points.
pub fn growth_exponent(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> =
        points.iter().filter(|(n, t)| *n > 0.0 && *t > 0.0).map(|(n, t)| (n.ln(), t.ln())).collect();
    if logs.len() < 2 {
        return None;
    }
    let k = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / k, logs.iter().map(|p| p.1).sum::<f64>() / k);
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

/// The largest growth between neighbouring points (sorted by size), scaled
/// to one doubling of the size: 2 for linear growth, 4 for quadratic. `None`
/// without two usable neighbours.
pub fn worst_growth_per_doubling(points: &[(f64, f64)]) -> Option<f64> {
    let mut usable: Vec<(f64, f64)> = points.iter().copied().filter(|(n, t)| *n > 0.0 && *t > 0.0).collect();
    usable.sort_by(|a, b| a.0.total_cmp(&b.0));
    usable
        .windows(2)
        .filter(|w| w[1].0 > w[0].0)
        .map(|w| (w[1].1 / w[0].1).powf(1.0 / (w[1].0 / w[0].0).log2()))
        .max_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponents_of_known_growth() {
        let linear = [(1e3, 2e-3), (1e4, 2e-2), (1e5, 2e-1)];
        let quadratic = [(1e3, 1e-3), (1e4, 1e-1), (1e5, 10.0)];
        assert!((growth_exponent(&linear).unwrap() - 1.0).abs() < 1e-9);
        assert!((growth_exponent(&quadratic).unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(growth_exponent(&[(1e3, 1.0)]), None);
    }

    #[test]
    fn growth_per_doubling_takes_the_worst_neighbours() {
        let linear = [(1e3, 1.0), (2e3, 2.0), (8e3, 8.0)];
        assert!((worst_growth_per_doubling(&linear).unwrap() - 2.0).abs() < 1e-9);
        // One step of 3x in a single doubling, the rest linear.
        let step = [(1e3, 1.0), (4e3, 4.0), (8e3, 12.0), (16e3, 24.0)];
        assert!((worst_growth_per_doubling(&step).unwrap() - 3.0).abs() < 1e-9);
        // Quadratic over two doublings at once is 4 per doubling.
        assert!((worst_growth_per_doubling(&[(1e3, 1.0), (4e3, 16.0)]).unwrap() - 4.0).abs() < 1e-9);
        assert_eq!(worst_growth_per_doubling(&[(1e3, 1.0)]), None);
    }

    #[test]
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    fn the_thread_clock_counts_work() {
        let before = thread_cpu_seconds().unwrap();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(thread_cpu_seconds().unwrap() > before, "{x}");
    }

    #[test]
    fn every_pass_pipeline_and_feature_is_a_workload() {
        let names: Vec<&str> = workloads().iter().map(|w| w.name).collect();
        for p in passes::registry() {
            assert!(names.contains(&p.flag), "{}", p.flag);
        }
        for name in ["-O1", "-O2", "-Oz", "parse text", "verify", "Autophase", "IrSha1"] {
            assert!(names.contains(&name), "{name}");
        }
    }
}
