//! The community Bril benchmarks in `data/bril-community`, read in place:
//! the one walker that unit tests (`bril::passes::testing`, which includes
//! this file) and integration tests (`tests/common`) share. It needs only
//! `std`, so both crates can compile it.
//!
//! The folder is `$BRIL_BENCH_DIR` when that is set, else the repository's
//! `data/bril-community`.

use std::path::{Path, PathBuf};

/// One benchmark: its `.bril` path, its text, and brili's dynamic
/// instruction count from the `.prof` beside it (`None` when brili never
/// finished it, so there is none).
pub struct BenchFile {
    pub path: PathBuf,
    pub source: String,
    pub reference_dyn: Option<u64>,
}

/// Where the benchmarks are.
pub fn bench_dir() -> PathBuf {
    match std::env::var_os("BRIL_BENCH_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bril-community"),
    }
}

/// Every benchmark (one level of subfolders), sorted by path; fails loudly
/// when the folder is missing or incomplete.
pub fn bench_files() -> Vec<BenchFile> {
    let root = bench_dir();
    assert!(root.is_dir(), "benchmark folder {} is missing (set BRIL_BENCH_DIR)", root.display());
    let mut found = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "bril") {
                let source =
                    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let prof = std::fs::read_to_string(path.with_extension("prof")).ok();
                let reference_dyn = prof.and_then(|p| {
                    p.trim().strip_prefix("total_dyn_inst:").and_then(|n| n.trim().parse().ok())
                });
                found.push(BenchFile { path, source, reference_dyn });
            }
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(found.len() >= 80, "expected the whole benchmark set, found {}", found.len());
    found
}
