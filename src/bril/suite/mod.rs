//! The bundled benchmark suite, `benchmark://suite-v0/NAME`.
//!
//! Programs written for this project: sorting, searching, number theory,
//! matrices, strings as char arrays, recursion, floats and memory-heavy code,
//! many with optimisation opportunities (redundant and dead code, loop
//! invariants, constant branches, small functions to inline, tail recursion,
//! stores to allocations that never escape). Each has a `# ARGS:` line and an
//! expected output derived independently of the interpreter.

use crate::bril::{parse_text, Program};
use crate::error::{Error, Result};

/// The URI prefix of the suite's benchmarks.
pub const URI_PREFIX: &str = "benchmark://suite-v0/";

/// One bundled program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Benchmark {
    pub name: &'static str,
    /// The program in Bril text, with its `# ARGS:` line.
    pub source: &'static str,
    /// What `@main` prints when run on its arguments.
    pub expected_output: &'static str,
}

impl Benchmark {
    /// `benchmark://suite-v0/NAME`.
    pub fn uri(&self) -> String {
        format!("{URI_PREFIX}{}", self.name)
    }

    pub fn program(&self) -> Result<Program> {
        parse_text(self.source)
    }

    /// The arguments of `@main`, from the `# ARGS:` line.
    pub fn args(&self) -> Vec<String> {
        self.source
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix('#'))
            .find_map(|c| c.trim_start().strip_prefix("ARGS:"))
            .map(|a| a.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }
}

macro_rules! suite {
    ($($name:literal),* $(,)?) => {
        &[$(Benchmark {
            name: $name,
            source: include_str!(concat!($name, ".bril")),
            expected_output: include_str!(concat!($name, ".out")),
        }),*]
    };
}

static SUITE: &[Benchmark] = suite![
    "ackermann",
    "binary-search",
    "bit-count",
    "bubble-sort",
    "caesar",
    "collatz",
    "constant-branch",
    "dead-code",
    "digit-sum",
    "fact-tail",
    "fib-iter",
    "fib-rec",
    "gcd-lcm",
    "hanoi",
    "histogram",
    "horner",
    "inline-small",
    "insertion-sort",
    "knapsack",
    "lcs",
    "loop-invariant",
    "mandel-small",
    "matmul",
    "merge-sort",
    "newton-sqrt",
    "nonescaping-alloc",
    "nqueens",
    "palindromes",
    "pascal",
    "perfect-numbers",
    "pi-leibniz",
    "power-mod",
    "prime-factors",
    "quicksort",
    "redundant-expr",
    "sieve",
    "ssa-loop",
    "strength-reduce",
    "string-reverse",
    "tak",
    "trapezoid",
];

/// Every benchmark, sorted by name.
pub fn all() -> &'static [Benchmark] {
    SUITE
}

/// The names of every benchmark.
pub fn names() -> impl Iterator<Item = &'static str> {
    SUITE.iter().map(|b| b.name)
}

/// A benchmark by name or by `benchmark://suite-v0/NAME` URI.
pub fn get(name_or_uri: &str) -> Result<&'static Benchmark> {
    let name = name_or_uri.strip_prefix(URI_PREFIX).unwrap_or(name_or_uri);
    SUITE
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| Error::lookup(format!("unknown benchmark {name_or_uri:?}")))
}

#[cfg(test)]
mod tests;
