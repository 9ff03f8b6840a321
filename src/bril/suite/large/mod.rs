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

use super::{find, Benchmark};
use crate::error::Result;

/// The URI prefix of the dataset's benchmarks.
pub const URI_PREFIX: &str = "benchmark://large-v0/";

static LARGE: &[Benchmark] = benchmarks!["large-v0":
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

/// Every benchmark, sorted by name.
pub fn all() -> &'static [Benchmark] {
    LARGE
}

/// The names of every benchmark.
pub fn names() -> impl Iterator<Item = &'static str> {
    LARGE.iter().map(|b| b.name)
}

/// A benchmark by name or by `benchmark://large-v0/NAME` URI.
pub fn get(name_or_uri: &str) -> Result<&'static Benchmark> {
    find(LARGE, URI_PREFIX, name_or_uri)
}

#[cfg(test)]
mod tests;
