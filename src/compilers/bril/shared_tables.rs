//! What environments on this thread know of the benchmarks they are working
//! on, by content: environments on the same benchmark (a vector of them, or
//! one made while another lives) share its [`Shared`] (the parsed program,
//! its baselines, the table of states passes led to), so a pass one of them
//! ran on a program, the others do not run again. Held weakly: a benchmark's
//! table lives as long as some environment holds it, and no longer.

use super::Shared;
use crate::error::Result;
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::{Rc, Weak};

struct Entry {
    contents: Rc<[u8]>,
    shared: Weak<Shared>,
}

#[derive(Default)]
struct Live {
    by_hash: HashMap<u64, Vec<Entry>>,
    /// How many entries `by_hash` holds, live or not yet swept.
    count: usize,
    /// Entries at the last sweep of the dead ones (sweeps are amortised).
    swept_at: usize,
}

thread_local! {
    static LIVE: RefCell<Live> = RefCell::default();
}

fn hash_of(contents: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    contents.hash(&mut hasher);
    hasher.finish()
}

/// The [`Shared`] of the benchmark whose text is `contents`: the one a
/// live environment holds, else one `make` makes (and others then find).
pub(super) fn shared_for(contents: &Rc<[u8]>, make: impl FnOnce() -> Result<Shared>) -> Result<Rc<Shared>> {
    let hash = hash_of(contents);
    let found = LIVE.with(|live| {
        live.borrow()
            .by_hash
            .get(&hash)?
            .iter()
            .find(|e| *e.contents == **contents)
            .and_then(|e| e.shared.upgrade())
    });
    if let Some(shared) = found {
        return Ok(shared);
    }
    let shared = Rc::new(make()?);
    LIVE.with(|live| {
        let mut live = live.borrow_mut();
        let entries = live.by_hash.entry(hash).or_default();
        let before = entries.len();
        entries.retain(|e| e.shared.strong_count() > 0);
        entries.push(Entry { contents: contents.clone(), shared: Rc::downgrade(&shared) });
        let after = entries.len();
        live.count = live.count + after - before;
        if live.count > 2 * live.swept_at.max(64) {
            live.by_hash.retain(|_, entries| {
                entries.retain(|e| e.shared.strong_count() > 0);
                !entries.is_empty()
            });
            live.count = live.by_hash.values().map(Vec::len).sum();
            live.swept_at = live.count;
        }
    });
    Ok(shared)
}

/// How many benchmarks the table holds an entry for, live or not yet swept.
#[cfg(test)]
pub(super) fn entries() -> usize {
    LIVE.with(|live| {
        let live = live.borrow();
        debug_assert_eq!(live.count, live.by_hash.values().map(Vec::len).sum::<usize>());
        live.count
    })
}
