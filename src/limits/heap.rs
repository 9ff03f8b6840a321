//! The live heap: the bytes the allocator has handed out and not had back.
//!
//! The wasm memory only grows, so how far it has grown says nothing about
//! what is in use once things are freed. Under wasm32 the global allocator
//! is the system one with a count beside it; [`live_bytes`] reads the count,
//! which [`check_bytes`](super::check_bytes) holds against the ceiling, and
//! [`fits`] asks the allocator itself whether a request can be served.
//! Natively nothing is counted (the operating system's memory is not this
//! module's to count), as for [`memory_in_use`](super::memory_in_use).
//!
//! Under wasm32 it also grows the memory ahead of need, a quarter at a
//! time ([`grow_ahead`]): left to itself the allocator grows it 64 KiB at a
//! time, and each growth makes the JS engine replace the memory's buffer
//! and count it again, so a heap growing by hundreds of megabytes spent
//! most of its time in the engine's garbage collector.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it has live.
pub struct CountingAllocator;

/// The live bytes of [`CountingAllocator`], each allocation with its overhead.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// What an allocation of `size` bytes takes: dlmalloc rounds it to 8 bytes
/// and adds a header, so small allocations are not undercounted.
fn charged(size: usize) -> usize {
    size.saturating_add(15) & !7
}

// SAFETY: every call is passed on to `System` unchanged; only the count is added.
// Never inlined: the allocator inlined at every call site would add a tenth to the module.
unsafe impl GlobalAlloc for CountingAllocator {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow_ahead(layout.size());
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            LIVE.fetch_add(charged(layout.size()), Ordering::Relaxed);
        }
        ptr
    }
    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow_ahead(layout.size());
        let ptr = System.alloc_zeroed(layout);
        if !ptr.is_null() {
            LIVE.fetch_add(charged(layout.size()), Ordering::Relaxed);
        }
        ptr
    }
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(charged(layout.size()), Ordering::Relaxed);
    }
    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grow_ahead(new_size);
        let moved = System.realloc(ptr, layout, new_size);
        if !moved.is_null() {
            LIVE.fetch_add(charged(new_size), Ordering::Relaxed);
            LIVE.fetch_sub(charged(layout.size()), Ordering::Relaxed);
        }
        moved
    }
}

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The least the memory is grown by ahead of need.
#[cfg(target_arch = "wasm32")]
const GROW_AHEAD_MIN: usize = 4 << 20;

/// The memory's size when [`grow_ahead`] last tried to grow it.
#[cfg(target_arch = "wasm32")]
static TRIED_AT: AtomicUsize = AtomicUsize::new(0);

/// When what is live and `request` come within an eighth of the memory's
/// size, has the allocator take a quarter more (at least
/// [`GROW_AHEAD_MIN`], never past [`MEMORY_CEILING`](super::MEMORY_CEILING))
/// in one growth and give it back: the freed stretch joins its free space
/// and serves the next requests, so the memory grows in a few large steps
/// rather than in thousands of small ones. Below the ceiling a failure
/// changes nothing: the request then grows the memory as it would have.
/// Tried once per memory size: if the allocator served the stretch from
/// free space it had (the count is an estimate), the memory did not grow,
/// and trying again before it has would only do the same.
#[inline(always)]
fn grow_ahead(request: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        let size = core::arch::wasm32::memory_size(0) * 65536;
        let wanted = LIVE.load(Ordering::Relaxed).saturating_add(request);
        if wanted.saturating_add(size / 8) > size && TRIED_AT.swap(size, Ordering::Relaxed) != size {
            grow_now(size);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = request;
}

#[cfg(target_arch = "wasm32")]
#[inline(never)]
#[cold]
fn grow_now(size: usize) {
    let room = (super::MEMORY_CEILING as usize).saturating_sub(size);
    let step = (size / 4).max(GROW_AHEAD_MIN).min(room);
    if step == 0 {
        return;
    }
    let Ok(layout) = Layout::from_size_align(step, 8) else { return };
    // SAFETY: a non-zero layout, freed with the same layout; nothing is counted.
    unsafe {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            System.dealloc(ptr, layout);
        }
    }
}

/// The bytes allocated and not freed (0 natively).
pub fn live_bytes() -> u64 {
    LIVE.load(Ordering::Relaxed) as u64
}

/// Whether the allocator can serve `size` bytes now, found by asking it
/// for them and giving them back: it may grow the memory to do so, and
/// the freed stretch then serves the request that asked.
pub fn fits(size: u64) -> bool {
    let Ok(layout) =
        usize::try_from(size).map_err(drop).and_then(|s| Layout::from_size_align(s, 8).map_err(drop))
    else {
        return false;
    };
    if layout.size() == 0 {
        return true;
    }
    // SAFETY: the layout has a non-zero size; the block is freed with the same layout.
    unsafe {
        let ptr = System.alloc(layout);
        if ptr.is_null() {
            return false;
        }
        System.dealloc(ptr, layout);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn the_count_follows_allocations_and_frees() {
        let counting = CountingAllocator;
        let layout = Layout::from_size_align(1000, 8).unwrap();
        // Natively the counter is this test's alone; in wasm other allocations
        // come and go, but none between these lines.
        unsafe {
            let before = live_bytes();
            let ptr = counting.alloc(layout);
            assert!(!ptr.is_null());
            assert_eq!(live_bytes() - before, 1008);
            let ptr = counting.realloc(ptr, layout, 5000);
            assert!(!ptr.is_null());
            assert_eq!(live_bytes() - before, 5008);
            counting.dealloc(ptr, Layout::from_size_align(5000, 8).unwrap());
            assert_eq!(live_bytes(), before);
        }
        assert_eq!(charged(1), 16, "a header and rounding");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn fits_asks_the_allocator() {
        assert!(fits(0) && fits(1 << 20));
        assert!(!fits(u64::MAX));
        #[cfg(target_arch = "wasm32")]
        assert!(!fits(1 << 32), "more than wasm32 can address");
    }

    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test]
    fn the_live_count_drops_when_memory_is_freed() {
        let before = live_bytes();
        let big = vec![1u8; 32 << 20];
        assert!(live_bytes() >= before + (32 << 20));
        drop(big);
        assert!(live_bytes() < before + (1 << 20));
    }
}
