use super::*;
use crate::bril::interp::{run, Limits};

#[test]
fn every_benchmark_verifies_and_prints_its_expected_output() {
    for b in all() {
        let p = b.program().unwrap_or_else(|e| panic!("{}: {e}", b.name));
        crate::bril::verify(&p).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        let o = run(&p, &b.args(), &Limits::default());
        assert!(o.result.is_ok(), "{}: {:?}", b.name, o.result);
        assert_eq!(o.stdout, b.expected_output, "{}", b.name);
    }
}

#[test]
fn lookup_by_name_and_uri() {
    let first = &all()[0];
    assert_eq!(get(first.name).unwrap(), first);
    assert_eq!(get(&first.uri()).unwrap(), first);
    assert_eq!(get("benchmark://suite-v0/nope").unwrap_err().kind(), crate::ErrorKind::Lookup);
    let names: Vec<_> = names().collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "names are sorted and unique");
}

/// The names of the `.bril` files in `dir` (below the crate's root), sorted.
pub(super) fn bril_file_names(dir: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".bril").map(String::from))
        .collect();
    files.sort();
    files
}

#[test]
fn every_program_file_is_registered() {
    let files = bril_file_names("src/bril/suite");
    assert!(files.len() >= 40, "the suite has at least 40 programs, found {}", files.len());
    assert_eq!(names().collect::<Vec<_>>(), files);
}
