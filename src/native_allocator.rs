//! The settings of the allocator the native builds use. The binaries and
//! the Python module declare mimalloc as their global allocator themselves
//! (a library must not choose one for the programs that link it) and call
//! [`configure`] before any work.

use libmimalloc_sys::{mi_option_get, mi_option_set, mi_option_t, mi_option_use_numa_nodes};

/// `mi_option_purge_delay`, which the bindings leave out: `mimalloc.h`
/// lists it right before `mi_option_use_numa_nodes`.
const PURGE_DELAY: mi_option_t = mi_option_use_numa_nodes - 1;

/// How long mimalloc keeps freed memory before it returns it to the kernel,
/// in ms. Its default of 1 s is shorter than one pass over a function of
/// half a million instructions, so the memory of one pass's copy of the code
/// went back to the kernel and came again as fresh pages the kernel zeroed
/// (a sixth of `-O2`'s time there). 10 s keeps it for the next pass:
/// `-O2` 11–15% faster at 500,000 instructions (docs/benchmarks.md, "A longer
/// purge delay"); an idle process still gives its memory back.
pub const PURGE_DELAY_MS: i64 = 10_000;

/// Applies the settings above; call it first thing in `main`.
pub fn configure() {
    // SAFETY: both calls only store or read one option in mimalloc's table,
    // which mimalloc reads at each purge; any thread may call them.
    unsafe { mi_option_set(PURGE_DELAY, PURGE_DELAY_MS as _) }
}

/// The purge delay mimalloc uses now, in ms.
pub fn purge_delay_ms() -> i64 {
    // SAFETY: as in `configure`.
    unsafe { mi_option_get(PURGE_DELAY) as i64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option set is the purge delay: mimalloc's own default for it
    /// (1,000 ms in the pinned version) before, ours after.
    #[test]
    fn configure_sets_the_purge_delay() {
        assert_eq!(purge_delay_ms(), 1_000, "mimalloc's default purge delay, or another option");
        configure();
        assert_eq!(purge_delay_ms(), PURGE_DELAY_MS);
    }
}
