//! The expected outputs of the `large-v0` programs agree with independent
//! implementations of the same algorithms in Python
//! (`tests/data/large_reference/`, run by its `check.py`). Where no `python3`
//! is installed the check is skipped with a note: the `.out` files the other
//! tests compare against were checked this way when they were written.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

#[test]
fn expected_outputs_match_the_python_references() {
    let check = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/large_reference/check.py");
    let Ok(run) = Command::new("python3").arg(check).output() else {
        eprintln!("no python3: the reference implementations were not run");
        return;
    };
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{report}{}", String::from_utf8_lossy(&run.stderr));
    let checked = report.lines().filter(|l| l.ends_with(": ok")).count();
    assert_eq!(checked, compgym::bril::suite::large::names().count(), "{report}");
}
