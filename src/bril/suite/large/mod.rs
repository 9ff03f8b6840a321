//! The second bundled dataset, `benchmark://large-v0/NAME`: larger programs
//! written for this project, each of at least 300 instructions and several
//! functions, shaped like real course programs: nested loops, memory with
//! pointer arithmetic, floats where natural, calls to small helpers. Each
//! takes arguments with defaults (its `# ARGS:` line), frees what it
//! allocates, runs in well under 5 million instructions, and prints results
//! that depend on most of its work; as a front end's unoptimised output
//! would, each leaves room for optimisation (redundant expressions, loop
//! invariants, small functions worth inlining, constant arguments). Expected
//! outputs were checked against independent implementations in Python.
//!
//! Every build knows the programs' names (so the dataset lists them and the
//! train / held-out split covers them). Native builds, the wasm tests and the
//! Python module carry the programs themselves (the `embedded-datasets`
//! feature); the npm package leaves them out of its module, where they were
//! two thirds of its data, and ships them as a file beside it (written by
//! `scripts/dataset-file.mjs`), which its JS side hands to [`register`]
//! (`loadDataset("large-v0")`; under Node, on import).

mod file;

use super::{find, Benchmark};
use crate::error::{Error, Result};
use std::sync::OnceLock;

pub use file::register;

/// The dataset's name.
pub const DATASET: &str = "large-v0";
/// The URI prefix of the dataset's benchmarks.
pub const URI_PREFIX: &str = "benchmark://large-v0/";

/// The names (every build) and, with `embedded-datasets`, the programs.
macro_rules! large {
    ($($name:literal),* $(,)?) => {
        const NAMES: &[&str] = &[$($name),*];
        #[cfg(feature = "embedded-datasets")]
        static EMBEDDED: Option<&[Benchmark]> = Some(benchmarks!["large-v0": $($name),*]);
        #[cfg(not(feature = "embedded-datasets"))]
        static EMBEDDED: Option<&[Benchmark]> = None;
    };
}

large![
    "bignum",
    "bytecode-vm",
    "dp-suite",
    "edit-distance",
    "fixed-point",
    "game-of-life",
    "hash-table",
    "huffman",
    "lu-solve",
    "matrix-power",
    "maze-bfs",
    "nbody",
    "number-theory",
    "polynomials",
    "random-walk",
    "shortest-paths",
    "sort-suite",
    "spanning-tree",
    "sudoku",
    "text-stats",
    "topo-sort",
];

/// The programs [`register`] was given, when the build carries none.
static REGISTERED: OnceLock<&'static [Benchmark]> = OnceLock::new();

/// The programs, if this build carries them or they were registered.
fn loaded() -> Option<&'static [Benchmark]> {
    EMBEDDED.or_else(|| REGISTERED.get().copied())
}

/// Whether the programs are here (built in, or registered).
pub fn is_loaded() -> bool {
    loaded().is_some()
}

/// Every benchmark, sorted by name; a LookupError that says how to load
/// them where the build does not carry them and none were registered.
pub fn all() -> Result<&'static [Benchmark]> {
    loaded().ok_or_else(not_loaded)
}

/// The names of every benchmark, sorted (whether or not they are loaded).
pub fn names() -> impl Iterator<Item = &'static str> {
    NAMES.iter().copied()
}

/// The URIs of every benchmark, sorted (whether or not they are loaded).
pub fn uris() -> impl Iterator<Item = String> {
    names().map(|name| format!("{URI_PREFIX}{name}"))
}

/// A benchmark by name or by `benchmark://large-v0/NAME` URI. A name the
/// dataset does not have is a LookupError, and so is one it has while its
/// programs are not loaded (the message says how to load them).
pub fn get(name_or_uri: &str) -> Result<&'static Benchmark> {
    lookup(loaded(), name_or_uri)
}

fn lookup(loaded: Option<&'static [Benchmark]>, name_or_uri: &str) -> Result<&'static Benchmark> {
    match loaded {
        Some(list) => find(list, URI_PREFIX, name_or_uri),
        None => {
            let name = name_or_uri.strip_prefix(URI_PREFIX).unwrap_or(name_or_uri);
            if NAMES.contains(&name) {
                Err(not_loaded())
            } else {
                Err(Error::lookup(format!("unknown benchmark {name_or_uri:?}")))
            }
        }
    }
}

fn not_loaded() -> Error {
    Error::lookup(format!(
        "the {DATASET} programs are not loaded: in a browser, `await loadDataset(\"{DATASET}\")` first \
         (it fetches the dataset's file from beside the package's module)"
    ))
}

#[cfg(test)]
mod tests;
