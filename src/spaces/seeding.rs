//! The seed of a space nobody seeded: as in Gymnasium, each new space draws
//! its own at random, so two unseeded spaces (or two runs) sample
//! differently. `seed(n)` makes sampling reproducible everywhere.
//!
//! The draws come from a process-wide pool. Natively it starts from the
//! operating system's randomness (through the random keys of std's
//! `RandomState`). WebAssembly without JavaScript has no randomness at all:
//! there the pool starts from a fixed state — distinct spaces still get
//! distinct seeds, but the same ones on each load — until [`add_entropy`]
//! mixes in bits from the host (the JS layer's job, with
//! `crypto.getRandomValues`).

use crate::rng::splitmix64;
use std::cell::Cell;
use std::hash::BuildHasher;

thread_local! {
    static POOL: Cell<u64> = Cell::new(std::collections::hash_map::RandomState::new().hash_one(0x5EED_u64));
}

/// A fresh seed for a new space, below 2^53 so JavaScript holds it exactly.
pub fn fresh_seed() -> u64 {
    POOL.with(|pool| {
        let mut state = pool.get();
        let seed = splitmix64(&mut state) >> 11;
        pool.set(state);
        seed
    })
}

/// Mixes host randomness into the pool that [`fresh_seed`] draws from.
pub fn add_entropy(bits: u64) {
    POOL.with(|pool| {
        let mut state = pool.get() ^ bits;
        splitmix64(&mut state);
        pool.set(state);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn seeds_are_fresh_and_fit_a_js_number() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|_| fresh_seed()).collect();
        assert_eq!(seeds.len(), 1000);
        assert!(seeds.iter().all(|&s| s < 1 << 53));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn entropy_changes_what_comes_next() {
        let mut before = POOL.with(Cell::get);
        let expected = splitmix64(&mut before) >> 11;
        add_entropy(0xDEAD_BEEF);
        assert_ne!(fresh_seed(), expected);
    }
}
