use super::*;
use crate::bril::interp::{run, Limits, Outcome};
use crate::bril::passes::dataset_stats::{measure, median};
use crate::bril::verify;

/// Enough fuel to tell a program over budget from one that never ends.
fn limits() -> Limits {
    Limits { fuel: 5 * WORK_BUDGET, ..Limits::default() }
}

/// Generates, verifies and runs a program on its own arguments; panics
/// with the text on any error (the interpreter reports leaks as errors).
fn checked(seed: u64, size: u32) -> (Program, Outcome) {
    let text = generate_text(seed, size);
    let p = parse_text(&text).unwrap_or_else(|e| panic!("seed {seed} size {size}: {e}\n{text}"));
    verify(&p).unwrap_or_else(|e| panic!("seed {seed} size {size}: {e}\n{text}"));
    let o = run(&p, &p.main_args(), &limits());
    assert!(o.result.is_ok(), "seed {seed} size {size}: {:?}\n{text}", o.result);
    assert!(o.dyn_inst <= WORK_BUDGET, "seed {seed} size {size}: {} instructions", o.dyn_inst);
    (p, o)
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn programs_verify_terminate_and_stay_in_budget() {
    for seed in 0..400u64 {
        let size = [20, 30, 50, 80, 120, 200, 350, 600][(seed % 8) as usize];
        let (_, o) = checked(seed, size);
        // The checksum is printed last; the run does real work.
        assert!(o.stdout.lines().count() >= 1, "seed {seed}: {:?}", o.stdout);
        assert!(o.dyn_inst >= 500, "seed {seed} size {size}: only {} instructions", o.dyn_inst);
    }
}

/// Up to the largest size: many functions, and the run stays in budget.
#[test]
fn large_programs_run_within_budget() {
    for (k, size) in [1000, 2000, 5000, 10_000, MAX_SIZE].into_iter().enumerate() {
        for seed in [k as u64, 7919 + k as u64] {
            let (p, o) = checked(seed, size);
            assert!(p.functions.len() >= 8, "seed {seed} size {size}: {} functions", p.functions.len());
            assert!(o.dyn_inst >= 50_000, "seed {seed} size {size}: only {} instructions", o.dyn_inst);
        }
    }
}

#[test]
fn deterministic_and_pinned() {
    assert_eq!(generate_text(7, 200), generate_text(7, 200));
    assert_ne!(generate_text(7, 200), generate_text(8, 200));
    assert_eq!(from_uri("generator://random-v1/7?size=200").unwrap(), generate(7, 200).unwrap());
    // An accidental change to the generator changes these programs.
    assert_eq!(fnv1a(&generate_text(7, 200)), 0x78c6_09e9_0833_1826, "seed 7 size 200");
    assert_eq!(fnv1a(&generate_text(3, 2000)), 0x1b36_db67_a4de_d191, "seed 3 size 2000");
}

/// `@main`'s output follows its arguments: another seed, or another
/// length, gives another output for (nearly) every program.
#[test]
fn the_output_depends_on_the_arguments() {
    let (mut seed_matters, mut n_matters, total) = (0, 0, 40);
    for seed in 0..total {
        let size = [20, 60, 150, 400][(seed % 4) as usize];
        let (p, o) = checked(seed, size);
        let args = p.main_args();
        let mut other_seed = args.clone();
        other_seed[1] = ((args[1].parse::<u64>().unwrap() + 12_345) % (1 << 31)).to_string();
        let mut other_n = args.clone();
        other_n[0] = (args[0].parse::<u64>().unwrap() + 3).to_string();
        for (other, count) in [(other_seed, &mut seed_matters), (other_n, &mut n_matters)] {
            let changed = run(&p, &other, &limits());
            assert!(changed.result.is_ok(), "seed {seed} on {other:?}: {:?}", changed.result);
            if changed.stdout != o.stdout {
                *count += 1;
            }
        }
    }
    assert!(seed_matters >= total * 9 / 10, "the seed argument changed {seed_matters} of {total} outputs");
    assert!(n_matters >= total * 9 / 10, "the length argument changed {n_matters} of {total} outputs");
}

/// Static instructions per unit of size stay within a band from size 100
/// to the largest (about 3.5 to 4.5, as `random-v0`'s 3.5).
#[test]
fn size_grows_linearly() {
    for size in [100, 1000, 10_000, MAX_SIZE] {
        let instrs: usize = (0..4).map(|seed| generate(seed, size).unwrap().instr_count()).sum();
        let per = instrs as f64 / (4.0 * f64::from(size));
        assert!((3.0..5.0).contains(&per), "size {size}: {per:.2} instructions per unit");
    }
    assert!(generate(1, 20).unwrap().instr_count() < 200);
}

/// Every function is called from another, the call graph is several
/// levels deep, and recursion is common.
#[test]
fn every_function_is_called_and_calls_nest() {
    let mut recursive = 0;
    for seed in 0..24u64 {
        let size = [300, 600, 1200][(seed % 3) as usize];
        let text = generate_text(seed, size);
        let p = parse_text(&text).unwrap();
        let mut depth: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        // Functions come callees first, so one pass finds every depth.
        for f in &p.functions {
            let calls: Vec<&str> = text_of(&text, &f.name).split("call @").skip(1).map(callee_name).collect();
            if f.name.as_ref() != "main" {
                let call = format!("call @{} ", f.name);
                let others = p.functions.iter().filter(|g| g.name != f.name);
                assert!(
                    others.clone().any(|g| text_of(&text, &g.name).contains(&call)),
                    "seed {seed}: @{} is never called",
                    f.name
                );
            }
            if calls.contains(&f.name.as_ref()) {
                recursive += 1;
            }
            let d = calls.iter().filter(|c| **c != f.name.as_ref()).map(|c| depth[*c] + 1).max().unwrap_or(0);
            depth.insert(f.name.to_string(), d);
        }
        assert!(depth["main"] >= 3, "seed {seed} size {size}: call depth {}", depth["main"]);
    }
    assert!(recursive >= 24, "only {recursive} recursive functions in 24 programs");
}

/// The text of function `name` (up to the next function).
fn text_of<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text.find(&format!("\n@{name}")).map_or(0, |i| i + 1);
    let end = text[start + 1..].find("\n@").map_or(text.len(), |i| start + 1 + i);
    &text[start..end]
}

fn callee_name(rest: &str) -> &str {
    rest.split([' ', ';']).next().unwrap_or("")
}

/// Most loops compare their counter with a variable (the length, a bound
/// from the data), not with a constant.
#[test]
fn most_loop_bounds_are_not_constants() {
    let (mut loops, mut constant) = (0, 0);
    for seed in 0..30u64 {
        let text = generate_text(seed, 300);
        for f in text.split("\n@") {
            let constants: Vec<&str> = f
                .lines()
                .filter(|l| l.contains(": int = const "))
                .filter_map(|l| l.split(':').next())
                .map(str::trim)
                .collect();
            for line in f.lines().filter(|l| l.trim_start().starts_with("cond: bool = lt ")) {
                loops += 1;
                let bound = line.trim_end_matches(';').rsplit(' ').next().unwrap();
                if constants.contains(&bound) {
                    constant += 1;
                }
            }
        }
    }
    assert!(loops > 500, "{loops} loops");
    assert!(constant * 4 < loops, "{constant} of {loops} loops have constant bounds");
}

/// The goal of random-v1, on a fixed sample (counts, not time): `-O2`
/// removes at most a quarter of the static instructions and leaves at
/// least half of the dynamic count (medians), never changes an output,
/// and folds no program to constants.
#[test]
fn o2_keeps_most_of_the_program_and_its_work() {
    let (mut cut, mut left) = (Vec::new(), Vec::new());
    for seed in 0..30u64 {
        let size = [20, 40, 80, 150, 300, 600][(seed % 6) as usize];
        let p = generate(seed, size).unwrap();
        let s = measure(&format!("seed {seed}"), &p, &p.main_args(), &limits()).unwrap();
        assert!(s.outputs_kept && !s.folded, "seed {seed} size {size}: {s:?}");
        cut.push(1.0 - s.static_o2 as f64 / s.static_before as f64);
        let (before, after) = s.dynamic.unwrap();
        left.push(after as f64 / before as f64);
    }
    let (cut, left) = (median(&cut), median(&left));
    assert!(cut <= 0.25, "-O2 removes {:.1}% of the static instructions", 100.0 * cut);
    assert!(left >= 0.5, "-O2 leaves {:.1}% of the dynamic count", 100.0 * left);
}

#[test]
fn work_target_spans_four_to_six_digits() {
    assert_eq!(work_target(20), 10_000);
    assert!((990_000..=1_010_000).contains(&work_target(MAX_SIZE)));
    assert!(work_target(200) > work_target(100));
}
