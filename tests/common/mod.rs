//! Shared by the integration tests: the community benchmarks under
//! `../shared/bril-bench` (test data, read in place, never copied).

use compgym::bril::{parse_text, Program};
use std::path::{Path, PathBuf};

pub const BENCH_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bril-bench");

/// One community benchmark: its path, program and reference dynamic count
/// (`None` when brili never finished it, so there is no `.prof`).
pub struct Community {
    pub path: PathBuf,
    pub program: Program,
    pub reference_dyn: Option<u64>,
}

/// Every community benchmark, sorted by path; fails loudly when the folder is missing.
pub fn community() -> Vec<Community> {
    let root = Path::new(BENCH_DIR);
    assert!(root.is_dir(), "benchmark folder {BENCH_DIR} is missing");
    let mut found = Vec::new();
    for dir in std::fs::read_dir(root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "bril") {
                let program = parse_text(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let prof = std::fs::read_to_string(path.with_extension("prof")).ok();
                let reference_dyn =
                    prof.and_then(|p| p.trim().trim_start_matches("total_dyn_inst:").trim().parse().ok());
                found.push(Community { path, program, reference_dyn });
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(found.len() >= 80, "expected the whole benchmark set, found {}", found.len());
    found
}
