//! The limits that keep any input from killing the instance.
//!
//! Under WebAssembly a failed allocation or a stack overflow aborts the whole
//! module, and every object JavaScript holds dies with it. So every reader
//! that recurses on its input has a nesting limit, and every allocation whose
//! size an input chooses is checked against a byte budget before it is made.
//! Going past a limit is a [`LimitError`](crate::ErrorKind::Limit) naming the
//! limit and the offending size; nothing is allocated and nothing is lost.
//!
//! The numbers are far above any legitimate use and far below what breaks:
//!
//! * Nesting: CompilerGym's spaces nest three or four deep. A nested space,
//!   value or JSON document recurses a few frames per level, so at these
//!   depths the readers, `clone`, `==`, `drop` and printing use a few tens of
//!   kilobytes of the 1 MiB wasm stack. A value is at most one level deeper
//!   than its space, and each JSON encoding (descriptions, Events, value
//!   JSON) spends at most three levels per level of nesting, so everything a
//!   space at [`MAX_SPACE_DEPTH`] produces fits in [`MAX_JSON_DEPTH`], which
//!   is also serde_json's own limit for JSON text.
//! * Bytes: 256 MiB for one value, one space's own storage or one batch is
//!   a 4096 x 4096 float32 image four times over, and leaves room for a few
//!   such allocations at once in a wasm instance's 4 GiB. Sizes are upper
//!   bounds computed before allocating (a Box keeps `low` and `high` for each
//!   element, so its bounds count 16 bytes per element, 32 for integers).
//!
//! [`crate::bril::interp::Limits`] bounds running Bril programs (fuel,
//! memory cells, call depth, output); the random program generator caps its
//! size; the Bril readers are iterative, and their JSON is serde_json's.

use crate::error::{Error, Result};
use std::cell::Cell;
use std::fmt;

/// The deepest nesting of composite spaces (Tuple, Dict, Union,
/// SpaceSequence, Batched): a leaf alone has depth 1.
pub const MAX_SPACE_DEPTH: usize = 32;

/// The deepest nesting of values (lists, dicts) read from JSON, Events or
/// JavaScript: a scalar or array alone has depth 1.
pub const MAX_VALUE_DEPTH: usize = 40;

/// The deepest nesting of a JSON document converted from JavaScript, and of
/// nested number lists in descriptions.
pub const MAX_JSON_DEPTH: usize = 128;

/// The most dimensions of a shape (numpy's own maximum).
pub const MAX_DIMS: usize = 64;

/// The most bytes one value, one space's own storage or one batch may take.
pub const MAX_BYTES: u64 = 1 << 28;

/// The bytes one [`Value`](crate::value::Value) takes inside a list or dict,
/// besides what it points to.
pub const VALUE_SLOT_BYTES: u64 = std::mem::size_of::<crate::value::Value>() as u64;

/// `count * each`, saturating: sizes are compared with [`MAX_BYTES`], so a
/// product past `u64::MAX` is as good as any other excess.
pub fn bytes(count: u64, each: u64) -> u64 {
    count.saturating_mul(each)
}

/// `count * each` as for [`bytes`], for a `usize` count.
pub fn bytes_of(count: usize, each: u64) -> u64 {
    bytes(u64::try_from(count).unwrap_or(u64::MAX), each)
}

/// A LimitError unless `size` (bytes) is within [`MAX_BYTES`]; `what` names
/// what would be allocated ("a Box sample", "sample_batch(100000)").
pub fn check_bytes(size: u64, what: impl fmt::Display) -> Result<u64> {
    if size > MAX_BYTES {
        return Err(Error::limit(format!(
            "{what} would take {} bytes, more than the limit of {MAX_BYTES} bytes ({} MiB)",
            if size == u64::MAX { "at least 2^64".to_string() } else { size.to_string() },
            MAX_BYTES >> 20
        )));
    }
    Ok(size)
}

/// A LimitError unless `shape` has at most [`MAX_DIMS`] dimensions.
pub fn check_dims(shape: &[usize], what: impl fmt::Display) -> Result<()> {
    if shape.len() > MAX_DIMS {
        return Err(Error::limit(format!(
            "{what} has {} dimensions, more than the limit of {MAX_DIMS}",
            shape.len()
        )));
    }
    Ok(())
}

/// A LimitError for `what` nested deeper than `limit`.
pub fn too_deep(what: impl fmt::Display, limit: usize) -> Error {
    Error::limit(format!("{what} is nested more than {limit} levels deep"))
}

/// What a recursive reader is reading; each has its own depth count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// Composite space descriptions (JSON, protocol Space, Gymnasium forms).
    Space,
    /// Lists and dicts of values (value JSON, Events).
    Value,
}

impl Nesting {
    fn limit(self) -> usize {
        match self {
            // A reader counts the levels above the leaves.
            Nesting::Space => MAX_SPACE_DEPTH - 1,
            Nesting::Value => MAX_VALUE_DEPTH - 1,
        }
    }
    fn what(self) -> &'static str {
        match self {
            Nesting::Space => "a space description",
            Nesting::Value => "a value",
        }
    }

    /// Enters one level of nesting: a LimitError if that is one too many,
    /// else a guard that leaves the level when dropped. Readers call it
    /// where they recurse, so the count is the depth of the reader's stack.
    pub fn enter(self) -> Result<NestingGuard> {
        DEPTHS.with(|d| {
            let cell = &d[self as usize];
            if cell.get() >= self.limit() {
                return Err(too_deep(self.what(), self.limit() + 1));
            }
            cell.set(cell.get() + 1);
            Ok(NestingGuard(self))
        })
    }
}

thread_local! {
    static DEPTHS: [Cell<usize>; 2] = const { [Cell::new(0), Cell::new(0)] };
}

/// One level of a reader's nesting; see [`Nesting::enter`].
#[must_use]
pub struct NestingGuard(Nesting);

impl Drop for NestingGuard {
    fn drop(&mut self) {
        DEPTHS.with(|d| {
            let cell = &d[self.0 as usize];
            cell.set(cell.get().saturating_sub(1));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn nest(level: usize, target: usize) -> Result<usize> {
        let _guard = Nesting::Value.enter()?;
        if level == target {
            return Ok(level);
        }
        nest(level + 1, target)
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn nesting_stops_at_the_limit_and_recovers() {
        assert_eq!(nest(1, MAX_VALUE_DEPTH - 1).unwrap(), MAX_VALUE_DEPTH - 1);
        let e = nest(1, 1000).unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().contains(&MAX_VALUE_DEPTH.to_string()), "{e}");
        // The guards of the failed attempt were released.
        assert_eq!(nest(1, MAX_VALUE_DEPTH - 1).unwrap(), MAX_VALUE_DEPTH - 1);
        assert!(Nesting::Space.enter().is_ok());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn byte_budget() {
        assert_eq!(check_bytes(MAX_BYTES, "x").unwrap(), MAX_BYTES);
        let e = check_bytes(MAX_BYTES + 1, "a Box sample").unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().contains("a Box sample") && e.message().contains("268435457"), "{e}");
        assert!(check_bytes(bytes(u64::MAX, 2), "x").unwrap_err().message().contains("2^64"));
        assert_eq!(bytes_of(3, 8), 24);
        assert!(check_dims(&[1; 65], "shape").unwrap_err().message().contains("65 dimensions"));
        assert!(check_dims(&[1; 64], "shape").is_ok());
    }
}
