use super::*;
use crate::bril::interp::{run, Limits};
use crate::bril::passes::testing::{check_pass_on, Case, Rerun};
use crate::bril::passes::{registry, run_pipeline};

/// Static instructions every program has at least.
const MIN_INSTRUCTIONS: usize = 300;
/// Dynamic instructions every program stays under on its own arguments.
const MAX_DYNAMIC: u64 = 5_000_000;

fn cases() -> Vec<Case> {
    all()
        .unwrap()
        .iter()
        .map(|b| Case { name: b.uri(), program: b.program().unwrap(), args: b.args() })
        .collect()
}

#[test]
fn every_benchmark_is_large_verifies_and_prints_its_expected_output() {
    for b in all().unwrap() {
        let p = b.program().unwrap_or_else(|e| panic!("{}: {e}", b.name));
        crate::bril::verify(&p).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert!(p.instr_count() >= MIN_INSTRUCTIONS, "{}: {} instructions", b.name, p.instr_count());
        assert!(p.functions.len() >= 3, "{}: {} functions", b.name, p.functions.len());
        assert!(!b.args().is_empty(), "{} has no # ARGS: line", b.name);
        // Running out of fuel, leaking memory or failing are all errors.
        let o = run(&p, &b.args(), &Limits { fuel: MAX_DYNAMIC, ..Limits::default() });
        assert!(o.result.is_ok(), "{}: {:?}", b.name, o.result);
        assert_eq!(o.stdout, b.expected_output, "{}", b.name);
    }
}

#[test]
fn lookup_by_name_and_uri() {
    let first = &all().unwrap()[0];
    assert_eq!(get(first.name).unwrap(), first);
    assert_eq!(get(&first.uri()).unwrap(), first);
    assert!(first.uri().starts_with(URI_PREFIX));
    assert_eq!(get("benchmark://large-v0/nope").unwrap_err().kind(), crate::ErrorKind::Lookup);
    assert!(get("benchmark://suite-v0/fib-iter").is_err(), "the suite's programs are not large ones");
    let names: Vec<_> = names().collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "names are sorted and unique");
    assert_eq!(uris().next().unwrap(), first.uri());
}

#[test]
fn a_name_of_the_dataset_not_loaded_says_how_to_load_it() {
    let error = lookup(None, "benchmark://large-v0/bignum").unwrap_err();
    assert_eq!(error.kind(), crate::ErrorKind::Lookup);
    assert!(error.message().contains("loadDataset(\"large-v0\")"), "{error}");
    let unknown = lookup(None, "nope").unwrap_err();
    assert_eq!(unknown.message(), "unknown benchmark \"nope\"");
}

#[test]
fn every_program_file_is_registered() {
    let files = crate::bril::suite::tests::bril_file_names("src/bril/suite/large");
    assert!(files.len() >= 20, "the dataset has at least 20 programs, found {}", files.len());
    assert_eq!(names().collect::<Vec<_>>(), files);
}

#[test]
fn every_pass_keeps_every_output() {
    let cases = cases();
    for info in registry() {
        let rerun = Rerun::of(info.flag);
        for case in &cases {
            check_pass_on(case, &|p| (info.run)(p), rerun);
        }
    }
}

#[test]
fn the_pipelines_keep_every_output() {
    for case in cases() {
        for pipeline in ["-O1", "-O2", "-Oz"] {
            check_pass_on(&case, &|p| run_pipeline(p, pipeline), Rerun::MayChange);
        }
    }
}
