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
//! * Room: a request that would take the live heap (what is allocated and
//!   not freed, counted by the allocator: [`heap`]) past [`MEMORY_CEILING`]
//!   is refused as well, which keeps the last [`RESERVE`] for the
//!   allocations no input sizes. Freed memory counts as free again: the wasm
//!   memory never shrinks, but the allocator reuses it. Because a heap that
//!   big allocations of different sizes came and went through is fragmented,
//!   a request that might need the memory to grow past the ceiling is first
//!   asked of the allocator itself ([`heap::fits`]), so it is refused rather
//!   than aborting the instance.
//!
//! [`crate::bril::interp::Limits`] bounds running Bril programs (fuel,
//! memory cells, call depth, output); the random program generator caps its
//! size; the Bril text reader is iterative, and the JSON reader nests only
//! through serde_json, whose recursion limit (128) bounds it.

use crate::error::{Error, Result};
use std::cell::Cell;
use std::fmt;

pub mod heap;

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

/// The most actions one episode of an environment takes: it keeps them all
/// (for its state, replay and validation), so an episode that never resets
/// would otherwise grow without bound. At the cap a step reports
/// `truncated`; one more is a LimitError, and a reset starts afresh.
pub const MAX_EPISODE_STEPS: u64 = 1 << 20;

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

/// About the bytes `value` takes (its slot and what it points to), for
/// checking copies of it against [`check_bytes`] before making them.
pub fn value_bytes(value: &crate::value::Value) -> u64 {
    use crate::value::{Array, Graph, Value};
    let array = |a: &Array| bytes_of(a.len(), a.dtype().size()).saturating_add(bytes_of(a.shape().len(), 8));
    let payload = match value {
        Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_) => 0,
        Value::Str(s) => s.len() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::Array(a) => array(a),
        Value::List(items) => items.iter().fold(0u64, |sum, v| sum.saturating_add(value_bytes(v))),
        Value::Dict(entries) => entries
            .iter()
            .fold(0u64, |sum, (k, v)| sum.saturating_add(k.len() as u64 + 24).saturating_add(value_bytes(v))),
        Value::Graph(g) => [&g.nodes, &g.edges, &g.edge_links, &g.n_nodes, &g.n_edges]
            .into_iter()
            .flatten()
            .fold(std::mem::size_of::<Graph>() as u64, |sum, a| sum.saturating_add(array(a))),
    };
    VALUE_SLOT_BYTES.saturating_add(payload)
}

/// What a wasm32 instance can address: 4 GiB.
const ADDRESS_SPACE: u64 = 1 << 32;

/// The memory kept for allocations no input sizes (the compiler's own work,
/// the bindings), which must never find the memory full.
pub const RESERVE: u64 = 512 << 20;

/// The most the wasm memory may grow to through allocations an input sizes.
pub const MEMORY_CEILING: u64 = ADDRESS_SPACE - RESERVE;

/// The bytes of linear memory the instance has grown to (none natively, where
/// the operating system's memory is not this module's to count).
pub fn memory_in_use() -> u64 {
    #[cfg(target_arch = "wasm32")]
    return core::arch::wasm32::memory_size(0) as u64 * 65536;
    #[cfg(not(target_arch = "wasm32"))]
    return 0;
}

/// A LimitError unless `size` (bytes) is within [`MAX_BYTES`] and fits under
/// [`MEMORY_CEILING`] beside the live heap; `what` names what would be
/// allocated ("a Box sample", "sample_batch(100000)").
pub fn check_bytes(size: u64, what: impl fmt::Display) -> Result<u64> {
    check_bytes_in(Heap { live: heap::live_bytes(), grown: memory_in_use(), fits: heap::fits }, size, what)
}

/// What [`check_bytes`] asks of the heap, apart so tests can choose it.
struct Heap {
    /// The bytes allocated and not freed.
    live: u64,
    /// The bytes the memory has grown to.
    grown: u64,
    /// Whether the allocator can serve a request now.
    fits: fn(u64) -> bool,
}

fn check_bytes_in(heap: Heap, size: u64, what: impl fmt::Display) -> Result<u64> {
    if size > MAX_BYTES {
        return Err(Error::limit(format!(
            "{what} would take {} bytes, more than the limit of {MAX_BYTES} bytes ({} MiB)",
            if size == u64::MAX { "at least 2^64".to_string() } else { size.to_string() },
            MAX_BYTES >> 20
        )));
    }
    let full = heap.live.saturating_add(size) > MEMORY_CEILING;
    // Within what the memory has grown to, a free stretch may still be too short.
    if full || (heap.grown.saturating_add(size) > MEMORY_CEILING && !(heap.fits)(size)) {
        return Err(Error::limit(format!(
            "{what} would take {size} bytes, and {} MiB of the {} MiB the wasm memory may give to such \
             values are in use{}: free() what is no longer needed, or start a new instance",
            heap.live >> 20,
            MEMORY_CEILING >> 20,
            if full { "" } else { " (the free memory is in pieces too small for it)" }
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

    fn heap(live: u64, grown: u64, fits: fn(u64) -> bool) -> Heap {
        Heap { live, grown, fits }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_request_past_the_memory_ceiling_is_refused_and_the_reserve_kept() {
        let mib = 1 << 20;
        let always = |_| true;
        assert!(check_bytes_in(heap(MEMORY_CEILING - 100 * mib, 0, always), 100 * mib, "x").is_ok());
        let e = check_bytes_in(
            heap(MEMORY_CEILING - 100 * mib, MEMORY_CEILING, always),
            100 * mib + 1,
            "a Box sample",
        )
        .unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().starts_with("a Box sample would take 104857601 bytes"), "{e}");
        assert!(e.message().contains("3484 MiB of the 3584 MiB"), "{e}");
        // Now: far below the ceiling (natively nothing is counted).
        assert!(memory_in_use() < MEMORY_CEILING / 2);
        assert_eq!(check_bytes(MAX_BYTES, "x").unwrap(), MAX_BYTES);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn freed_memory_is_usable_again() {
        let mib = 1 << 20;
        // The memory grew to the ceiling once and everything was freed: what is live counts.
        assert!(check_bytes_in(heap(10 * mib, MEMORY_CEILING, |_| true), 16, "a Box").is_ok());
        assert!(check_bytes_in(heap(10 * mib, MEMORY_CEILING, |_| true), MAX_BYTES, "a Box").is_ok());
        // Unless the allocator finds no stretch long enough, where growing could abort.
        let e = check_bytes_in(heap(10 * mib, MEMORY_CEILING, |_| false), MAX_BYTES, "a Box").unwrap_err();
        assert_eq!(e.name(), "LimitError");
        assert!(e.message().contains("in pieces too small"), "{e}");
        // Far below the ceiling the allocator is not asked.
        assert!(check_bytes_in(heap(10 * mib, 100 * mib, |_| unreachable!()), MAX_BYTES, "a Box").is_ok());
    }

    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test]
    fn the_memory_in_use_is_the_instance_s_own() {
        let grown = memory_in_use();
        assert!(grown > 0 && grown % 65536 == 0);
        let big = vec![1u8; 32 << 20];
        assert!(memory_in_use() >= grown.max(big.len() as u64));
    }
}
