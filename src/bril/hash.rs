//! A small, fast hasher for the readers' name tables (FxHash's multiply-
//! rotate). Names come from the program being read: collisions only cost
//! time, and the tables are per function.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // A product's low bits depend only on its inputs' low bits, and the
        // table indexes by the low bits: names with a common start (`x.1`,
        // `x.2`, ...) would share a handful of slots. Rotating brings the
        // high bits, which every input bit reaches, down to them.
        self.hash.rotate_left(26)
    }
}

pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

pub(crate) type FxHashSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, BuildHasherDefault};

    #[test]
    fn names_with_a_common_start_spread_over_the_low_bits() {
        // Hash tables index by the low bits: 4,096 names `x.1` ... `x.4096`
        // must land in most of 4,096 slots, not a handful (which made
        // renaming passes quadratic).
        let build = BuildHasherDefault::<FxHasher>::default();
        let slots: std::collections::HashSet<u64> =
            (1..=4096).map(|k| build.hash_one(format!("x.{k}").as_str()) & 4095).collect();
        assert!(slots.len() > 2000, "{} slots of 4096", slots.len());
    }
}
