//! Fuzz targets: each takes arbitrary bytes, drives one reader or engine of
//! the crate with them and checks its invariants, panicking on a violation.
//! Built only with the `fuzzing` feature, so the shipped wasm has none of it.
//!
//! `fuzz/` runs them under libFuzzer (`make fuzz`); `tests/fuzz_short.rs`
//! runs each on its checked-in corpus (`fuzz/corpus/<target>/`) and on
//! seeded mutations of it, as part of the tests.
//!
//! Every target also checks the project's first promise: bad input gets a
//! typed error, never a panic, and nothing an error leaves behind breaks the
//! next valid call.

mod bril;
mod mutants;
mod protocol;
mod spaces;

pub use bril::{bril_json, bril_text, interpreter, passes};
pub use mutants::pass_mutants;
pub use protocol::protocol;
pub use spaces::space_description;

use crate::error::{Error, ErrorKind};

/// A fuzz target.
pub type Target = fn(&[u8]);

/// Every target by name (the names of `fuzz/fuzz_targets/*.rs` and of the
/// corpus folders).
pub const TARGETS: [(&str, Target); 7] = [
    ("bril_text", bril_text),
    ("bril_json", bril_json),
    ("interpreter", interpreter),
    ("passes", passes),
    ("pass_mutants", pass_mutants),
    ("space_description", space_description),
    ("protocol", protocol),
];

/// Panics unless `error` is of one of the `allowed` kinds: a reader that
/// answers with an unrelated kind mislabels the caller's mistake.
pub(crate) fn expect_kind(error: &Error, allowed: &[ErrorKind], what: &str) {
    assert!(allowed.contains(&error.kind()), "{what}: unexpected {error}");
    assert!(!error.message().is_empty(), "{what}: an error without a message");
}

/// The bytes as text: fuzzers make invalid UTF-8, which the crate's text
/// readers never see (JavaScript strings and Rust `&str` are valid).
pub(crate) fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// A small stable hash of the bytes, to seed generators from them.
pub(crate) fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x1000_0000_01b3))
}
