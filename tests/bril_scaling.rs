//! No pass, pipeline, feature, reader, writer or the verifier grows
//! quadratically with program size: each runs on generated programs of
//! every shape at 1,000 and 16,000 instructions, and the work it does on
//! the larger must be less than 48 times the work on the smaller (linear
//! growth is 16 times, n log n about 22, quadratic 256).
//!
//! Work is counted, not timed, so a busy machine cannot fail the test: the
//! heap allocations and the bytes they ask for (the counting allocator of
//! `compgym::bril::scaling` is this binary's global allocator) and the size
//! of the output. A pass that clones a set per instruction, builds a name a
//! character at a time or copies code per copy shows here; growth that
//! allocates nothing shows only in time, which `make bench-scaling`
//! measures (and `valgrind --tool=callgrind` counts, immune to load).
#![cfg(not(target_arch = "wasm32"))]

use compgym::bril::scaling::{heap_counts, workloads, CountingAllocator, Input, WorkCount};
use compgym::bril::shapes::{self, Shape};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const SMALL: usize = 1_000;
const LARGE: usize = 16_000;
/// Most the larger input may cost, as a multiple of the smaller.
const LIMIT: u64 = 48;
/// Below these at the larger size, a count is too small for its growth to
/// matter: a pass that returns at once, a table grown a few times.
const FLOOR: WorkCount = WorkCount { allocations: 2_000, bytes: 1 << 18, output: 1 << 12 };

/// The measures of a count that grew past [`LIMIT`], with both values.
fn too_fast(small: WorkCount, large: WorkCount) -> Vec<String> {
    let measures = [
        ("allocations", small.allocations, large.allocations, FLOOR.allocations),
        ("bytes", small.bytes, large.bytes, FLOOR.bytes),
        ("output", small.output, large.output, FLOOR.output),
    ];
    measures
        .iter()
        .filter(|&&(_, s, l, floor)| l >= floor && l > LIMIT * s.max(1))
        .map(|&(what, s, l, _)| format!("{what} {s} at {SMALL}, {l} at {LARGE} ({}x)", l / s.max(1)))
        .collect()
}

#[test]
fn the_allocator_counts_this_threads_work() {
    let before = heap_counts();
    let v: Vec<u64> = std::hint::black_box(vec![1; 1000]);
    let after = heap_counts();
    assert_eq!(v.len(), 1000);
    assert!(after.0 > before.0 && after.1 - before.1 >= 8000, "{before:?} {after:?}");
}

#[test]
fn every_workload_grows_less_than_quadratically() {
    let mut failures = Vec::new();
    for shape in Shape::ALL {
        let small = Input::new(shapes::generate(shape, SMALL, 1).unwrap());
        let large = Input::new(shapes::generate(shape, LARGE, 1).unwrap());
        for work in workloads() {
            let count = |input: &Input| work.work(input).unwrap_or_else(|e| panic!("{}: {e}", work.name));
            let (s, l) = (count(&small), count(&large));
            if std::env::var_os("SCALING_VERBOSE").is_some() {
                println!("{:<20} {:<14} {s:?} {l:?}", work.name, shape.name());
            }
            for failure in too_fast(s, l) {
                failures.push(format!("{} on {}: {failure}", work.name, shape.name()));
            }
        }
    }
    assert!(failures.is_empty(), "grows too fast:\n{}", failures.join("\n"));
}

#[test]
fn quadratic_work_would_be_caught() {
    let linear = WorkCount { allocations: 10_000, bytes: 1 << 20, output: 1 << 14 };
    let small = WorkCount { allocations: 625, bytes: 1 << 16, output: 1 << 10 };
    assert!(too_fast(small, linear).is_empty());
    let quadratic = WorkCount { allocations: 625 * 256, bytes: 1 << 24, output: 1 << 18 };
    assert_eq!(too_fast(small, quadratic).len(), 3);
    // A pass that returns at once: counts too small to say anything.
    assert!(too_fast(WorkCount::default(), WorkCount { allocations: 3, bytes: 96, output: 0 }).is_empty());
}

/// `-lvn` on one variable redefined n times renames n - 1 definitions: the
/// new names are all it allocates per instruction (its tables are sized
/// once). It once allocated a holder list, the old name as a string, a
/// candidate and a counter key per rename, and probed a table of every
/// name made so far: time that grew faster than the program.
#[test]
fn lvn_allocates_only_the_new_names() {
    let input = Input::new(shapes::generate(Shape::OneVariable, LARGE, 1).unwrap());
    let lvn = workloads().into_iter().find(|w| w.name == "-lvn").expect("-lvn is a workload");
    let count = lvn.work(&input).unwrap();
    let per_instruction = count.allocations as f64 / LARGE as f64;
    assert!(per_instruction < 1.25, "{count:?}: {per_instruction:.2} allocations per instruction");
}

/// The loop passes leave a function without loops alone without copying
/// it: on one block of 16,000 instructions they once copied all of it
/// (1.5 MB) to find nothing to do.
#[test]
fn loop_passes_do_not_copy_a_function_without_loops() {
    let input = Input::new(shapes::generate(Shape::OneVariable, LARGE, 1).unwrap());
    for name in ["-licm", "-strength-reduce", "-loop-unroll", "-loop-rotate", "-loop-deletion"] {
        let pass = workloads().into_iter().find(|w| w.name == name).expect("a workload");
        let count = pass.work(&input).unwrap();
        assert!(count.bytes < 1 << 16, "{name}: {count:?}");
    }
}

/// Passes that find nothing of their kind in a function leave it alone
/// without copying it: `-copy-prop` without an `id`, `-simplify-cfg`
/// without a jump or a second block, `-from-ssa` without `set` or `get`,
/// `-peephole` without an identity to rewrite, `-dead-store` and `-mem2reg`
/// without an `alloc`. On one block of 16,000 instructions each once copied
/// all of it (1.5 MB) or built tables as large to find nothing to do.
#[test]
fn passes_do_not_copy_a_function_they_would_not_change() {
    let input = Input::new(shapes::generate(Shape::OneVariable, LARGE, 1).unwrap());
    for name in ["-copy-prop", "-simplify-cfg", "-from-ssa", "-peephole", "-dead-store", "-mem2reg"] {
        let pass = workloads().into_iter().find(|w| w.name == name).expect("a workload");
        let count = pass.work(&input).unwrap();
        assert!(count.bytes < 1 << 16, "{name}: {count:?}");
    }
}
