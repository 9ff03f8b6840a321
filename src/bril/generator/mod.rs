//! Random Bril programs, named by URI: `generator://random-v0/SEED?size=N`
//! ([`v0`], the first generator, kept bit for bit) and
//! `generator://random-v1/SEED?size=N` ([`v1`], programs that resemble
//! hand-written ones: argument-driven loops over arrays, calls and
//! recursion, checksums of the work printed at the end).
//!
//! The names at this level ([`generate`], [`URI_PREFIX`], [`DEFAULT_SIZE`],
//! ...) are `random-v0`'s, as before; [`from_uri`] accepts both versions.

pub mod v0;
pub mod v1;

pub use v0::{generate, generate_text, DEFAULT_SIZE, MAX_SIZE, URI_PREFIX, WORK_BUDGET};

use crate::bril::ir::Program;
use crate::error::{Error, Result};

/// The program a `generator://random-v0/...` or `generator://random-v1/...`
/// URI names.
pub fn from_uri(uri: &str) -> Result<Program> {
    if uri.starts_with(v1::URI_PREFIX) {
        v1::from_uri(uri)
    } else {
        v0::from_uri(uri)
    }
}

/// The seed and size of `PREFIX SEED [?size=N]`: the size is `default`
/// when absent and must lie in `1..=max`; any other parameter is an error.
fn seed_and_size(uri: &str, prefix: &str, default: u32, max: u32) -> Result<(u64, u32)> {
    let rest =
        uri.strip_prefix(prefix).ok_or_else(|| Error::lookup(format!("not a generator URI: {uri:?}")))?;
    let (seed, query) = rest.split_once('?').unwrap_or((rest, ""));
    let seed: u64 = seed.parse().map_err(|_| Error::value(format!("bad seed in {uri:?}")))?;
    let mut size = default;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("size", n)) => {
                size = n
                    .parse()
                    .ok()
                    .filter(|s| (1..=max).contains(s))
                    .ok_or_else(|| Error::value(format!("size must be 1..={max} in {uri:?}")))?;
            }
            _ => return Err(Error::value(format!("unknown parameter {pair:?} in {uri:?}"))),
        }
    }
    Ok((seed, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_versions_are_reachable_by_uri() {
        assert_eq!(from_uri("generator://random-v0/7?size=40").unwrap(), v0::generate(7, 40).unwrap());
        assert_eq!(from_uri("generator://random-v1/7?size=40").unwrap(), v1::generate(7, 40).unwrap());
        assert_eq!(from_uri("generator://random-v1/7").unwrap(), v1::generate(7, v1::DEFAULT_SIZE).unwrap());
    }

    #[test]
    fn bad_uris_are_errors_with_their_kind() {
        for (uri, kind) in [
            ("generator://random-v2/7", "LookupError"),
            ("benchmark://random-v1/7", "LookupError"),
            ("generator://random-v1/x", "ValueError"),
            ("generator://random-v1/7?size=0", "ValueError"),
            ("generator://random-v1/7?size=20001", "ValueError"),
            ("generator://random-v1/7?depth=3", "ValueError"),
        ] {
            assert_eq!(from_uri(uri).unwrap_err().name(), kind, "{uri}");
        }
    }
}
