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
    /// The dataset it belongs to: `suite-v0` or `large-v0`.
    pub dataset: &'static str,
    pub name: &'static str,
    /// The program in Bril text, with its `# ARGS:` line.
    pub source: &'static str,
    /// What `@main` prints when run on its arguments.
    pub expected_output: &'static str,
}

impl Benchmark {
    /// `benchmark://DATASET/NAME`.
    pub fn uri(&self) -> String {
        format!("benchmark://{}/{}", self.dataset, self.name)
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

/// The benchmarks of one dataset, from `NAME.bril` and `NAME.out` files
/// beside the module that lists them.
macro_rules! benchmarks {
    ($dataset:literal: $($name:literal),* $(,)?) => {
        &[$(Benchmark {
            dataset: $dataset,
            name: $name,
            source: include_str!(concat!($name, ".bril")),
            expected_output: include_str!(concat!($name, ".out")),
        }),*]
    };
}

pub mod large;

static SUITE: &[Benchmark] = benchmarks!["suite-v0":
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
    find(SUITE, URI_PREFIX, name_or_uri)
}

/// The benchmark of `list` named `name_or_uri`, or whose URI it is.
fn find(list: &'static [Benchmark], prefix: &str, name_or_uri: &str) -> Result<&'static Benchmark> {
    let name = name_or_uri.strip_prefix(prefix).unwrap_or(name_or_uri);
    list.iter()
        .find(|b| b.name == name)
        .ok_or_else(|| Error::lookup(format!("unknown benchmark {name_or_uri:?}")))
}

#[cfg(test)]
mod tests;
