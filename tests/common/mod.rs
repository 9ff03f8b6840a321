//! Shared by the integration tests: the community benchmarks (see
//! [`community`]), parsed.
#![allow(dead_code)]

pub mod community;

use compgym::bril::{parse_text, Program};
use std::path::PathBuf;

/// One community benchmark: its path, program and reference dynamic count
/// (`None` when brili never finished it, so there is no `.prof`).
pub struct Community {
    pub path: PathBuf,
    pub program: Program,
    pub reference_dyn: Option<u64>,
}

/// Every community benchmark, parsed, sorted by path.
pub fn community() -> Vec<Community> {
    community::bench_files()
        .into_iter()
        .map(|f| {
            let program = parse_text(&f.source).unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
            Community { path: f.path, program, reference_dyn: f.reference_dyn }
        })
        .collect()
}
