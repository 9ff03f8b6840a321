//! The benchmarks one environment remembers, in two segments (a segmented
//! LRU): a benchmark enters *on probation* and is *kept* once reset again.
//!
//! Most resets of a training run or a vector of environments over
//! generated programs are of programs never seen again; the ones that come
//! back (a suite, a train split) are worth their tables. So the new and
//! once-seen stay few ([`ON_PROBATION`]), the ones that came back many
//! ([`KEPT`]), each segment dropping its least recently used first. A
//! benchmark that comes back after its entry was dropped is known by a hash
//! of its URI ([`SEEN`] of them) and kept at once.
//!
//! What is evicted depends on this environment's own resets alone, never on
//! other environments': its action masks (what it knows of a benchmark)
//! must replay from its own seed.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// Benchmarks reset again, kept (least recently used dropped first).
pub const KEPT: usize = 256;
/// Benchmarks reset once: few, since most are never reset again.
pub const ON_PROBATION: usize = 16;
/// URIs remembered as seen, past their entries (hashes; forgotten all at
/// once when full).
pub const SEEN: usize = 4096;

struct Entry<T> {
    value: T,
    last_used: u64,
    kept: bool,
}

pub struct Recent<T> {
    entries: HashMap<String, Entry<T>>,
    /// URIs (hashed) given to `insert` before.
    seen: HashSet<u64>,
    clock: u64,
}

impl<T> Default for Recent<T> {
    fn default() -> Self {
        Recent { entries: HashMap::new(), seen: HashSet::new(), clock: 0 }
    }
}

/// A hash of `uri`, the same in every run (`DefaultHasher::new` has fixed keys).
fn uri_hash(uri: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    uri.hash(&mut hasher);
    hasher.finish()
}

impl<T> Recent<T> {
    /// The entry of `uri`, now the most recently used; a second use keeps it.
    pub fn get(&mut self, uri: &str) -> Option<&T> {
        self.clock += 1;
        let clock = self.clock;
        let promote = {
            let entry = self.entries.get_mut(uri)?;
            entry.last_used = clock;
            !entry.kept
        };
        if promote {
            self.make_room(true);
            if let Some(entry) = self.entries.get_mut(uri) {
                entry.kept = true;
            }
        }
        self.entries.get(uri).map(|e| &e.value)
    }

    /// Remembers `value` for `uri` (in place of an entry it had), kept at
    /// once if `uri` was inserted before, else on probation; drops the
    /// least recently used entry of its segment when the segment is full.
    pub fn insert(&mut self, uri: &str, value: T) {
        self.clock += 1;
        let hash = uri_hash(uri);
        let kept = self.entries.remove(uri).is_some() || self.seen.contains(&hash);
        if self.seen.len() >= SEEN {
            self.seen.clear();
        }
        self.seen.insert(hash);
        self.make_room(kept);
        self.entries.insert(uri.to_string(), Entry { value, last_used: self.clock, kept });
    }

    /// Drops the least recently used entry of a segment if it is full (each
    /// caller then adds one entry to it).
    fn make_room(&mut self, kept: bool) {
        let capacity = if kept { KEPT } else { ON_PROBATION };
        let segment = || self.entries.iter().filter(|(_, e)| e.kept == kept);
        if segment().count() < capacity {
            return;
        }
        if let Some(oldest) = segment().min_by_key(|(_, e)| e.last_used).map(|(uri, _)| uri.clone()) {
            self.entries.remove(&oldest);
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.seen.clear();
    }

    #[cfg(test)]
    fn holds(&self, uri: &str) -> Option<bool> {
        self.entries.get(uri).map(|e| e.kept)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn uri(i: usize) -> String {
        format!("benchmark://t-v0/{i}")
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn programs_reset_once_stay_few() {
        let mut recent = Recent::default();
        for i in 0..1000 {
            recent.insert(&uri(i), i);
        }
        assert_eq!(recent.len(), ON_PROBATION);
        assert_eq!(recent.holds(&uri(999)), Some(false));
        assert_eq!(recent.holds(&uri(1000 - ON_PROBATION - 1)), None, "the oldest are dropped first");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn programs_reset_again_are_kept_among_new_ones() {
        let mut recent = Recent::default();
        // A train split of 100 programs, each reset between many new ones.
        for round in 0..5 {
            for i in 0..100 {
                if recent.get(&uri(i)).is_none() {
                    recent.insert(&uri(i), i);
                }
                for g in 0..10 {
                    recent.insert(&uri(1_000_000 + round * 10_000 + i * 10 + g), 0);
                }
            }
        }
        for i in 0..100 {
            assert_eq!(recent.holds(&uri(i)), Some(true), "program {i} is kept");
        }
        assert!(recent.len() <= 100 + ON_PROBATION);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_hit_on_probation_keeps_it_and_the_kept_drop_their_least_recently_used() {
        let mut recent = Recent::default();
        recent.insert("a", 1);
        assert_eq!(recent.get("a"), Some(&1));
        assert_eq!(recent.holds("a"), Some(true));
        for i in 0..KEPT {
            recent.insert(&uri(i), i);
            recent.get(&uri(i));
        }
        assert_eq!(recent.holds("a"), None, "the least recently used kept entry made room");
        assert_eq!(recent.holds(&uri(0)), Some(true));
        recent.insert(&uri(0), 7);
        assert_eq!(recent.get(&uri(0)), Some(&7), "an insert replaces the entry");
        recent.clear();
        assert_eq!(recent.len(), 0);
    }
}
