//! The Bril heap: allocations of 64-bit cells addressed by pointers packed
//! into one word, `allocation id << 32 | offset as u32`.
//!
//! As in `brili`, every allocation gets a fresh id (never reused, so a stale
//! pointer is always caught), an access must stay inside its own allocation,
//! a cell must be written before it is read, `free` takes the base pointer
//! only, and anything still allocated at exit is an error. Id 0 is never
//! allocated, so the all-zero word is a null pointer.

use crate::error::{Error, ErrorKind, Result};

struct Allocation {
    cells: Box<[u64]>,
    /// One bit per cell: written at least once.
    written: Box<[u64]>,
}

pub(crate) struct Heap {
    /// Indexed by id; `None` once freed (and for the null id 0).
    allocations: Vec<Option<Allocation>>,
    live: u64,
    /// Cells in live allocations plus one per allocation ever made (the
    /// bookkeeping a freed id keeps), bounded by `max_cells`.
    charged: u64,
    max_cells: u64,
}

fn runtime(message: String) -> Error {
    Error::new(ErrorKind::Runtime, message)
}

/// Splits a pointer word into (allocation id, offset).
#[inline]
pub(crate) fn unpack(ptr: u64) -> (u32, i32) {
    ((ptr >> 32) as u32, ptr as u32 as i32)
}

#[inline]
fn pack(id: u32, offset: i32) -> u64 {
    (u64::from(id) << 32) | u64::from(offset as u32)
}

/// `ptradd`: offsets are kept in 32 bits; one that leaves that range can
/// never be in bounds again in practice, so it is pinned to `i32::MIN`,
/// which every access rejects.
#[inline]
pub(crate) fn ptr_add(ptr: u64, delta: i64) -> u64 {
    let (id, offset) = unpack(ptr);
    let moved = i64::from(offset).checked_add(delta).and_then(|o| i32::try_from(o).ok());
    pack(id, moved.unwrap_or(i32::MIN))
}

impl Heap {
    pub fn new(max_cells: u64) -> Heap {
        Heap { allocations: vec![None], live: 0, charged: 0, max_cells }
    }

    pub fn alloc(&mut self, count: i64) -> Result<u64> {
        if count <= 0 {
            return Err(runtime(format!("must allocate a positive amount of memory: {count} <= 0")));
        }
        let cost = (count as u64).saturating_add(1);
        if cost > self.max_cells.saturating_sub(self.charged) {
            return Err(Error::new(
                ErrorKind::Limit,
                format!("memory limit of {} cells exceeded allocating {count}", self.max_cells),
            ));
        }
        let id = u32::try_from(self.allocations.len())
            .map_err(|_| Error::new(ErrorKind::Limit, "too many allocations"))?;
        // `cost` is bounded by `max_cells`, itself far below `usize::MAX` on wasm32
        // for any limit a caller can actually back with memory; fail cleanly otherwise.
        let n = usize::try_from(count).map_err(|_| Error::new(ErrorKind::Limit, "allocation too large"))?;
        self.allocations.push(Some(Allocation {
            cells: vec![0; n].into_boxed_slice(),
            written: vec![0; n.div_ceil(64)].into_boxed_slice(),
        }));
        self.charged += cost;
        self.live += 1;
        Ok(pack(id, 0))
    }

    pub fn free(&mut self, ptr: u64) -> Result<()> {
        let (id, offset) = unpack(ptr);
        match self.allocations.get_mut(id as usize) {
            Some(slot @ Some(_)) if offset == 0 => {
                let n = slot.as_ref().map_or(0, |a| a.cells.len() as u64);
                *slot = None;
                self.charged -= n;
                self.live -= 1;
                Ok(())
            }
            _ => Err(runtime(format!(
                "Tried to free illegal memory location base: {id}, offset: {offset}. Offset must be 0."
            ))),
        }
    }

    #[inline]
    fn cell(&self, ptr: u64) -> Option<(&Allocation, usize)> {
        let (id, offset) = unpack(ptr);
        let a = self.allocations.get(id as usize)?.as_ref()?;
        let i = usize::try_from(offset).ok()?;
        (i < a.cells.len()).then_some((a, i))
    }

    #[inline]
    pub fn load(&self, ptr: u64) -> Result<u64> {
        match self.cell(ptr) {
            Some((a, i)) if a.written[i / 64] >> (i % 64) & 1 == 1 => Ok(a.cells[i]),
            Some(_) => Err(runtime("Pointer points to uninitialized data".into())),
            None => Err(bad_access(ptr)),
        }
    }

    #[inline]
    pub fn store(&mut self, ptr: u64, value: u64) -> Result<()> {
        let (id, offset) = unpack(ptr);
        let slot = self.allocations.get_mut(id as usize).and_then(Option::as_mut);
        match (slot, usize::try_from(offset)) {
            (Some(a), Ok(i)) if i < a.cells.len() => {
                a.cells[i] = value;
                a.written[i / 64] |= 1 << (i % 64);
                Ok(())
            }
            _ => Err(bad_access(ptr)),
        }
    }

    /// Allocations not yet freed.
    pub fn live_allocations(&self) -> u64 {
        self.live
    }
}

fn bad_access(ptr: u64) -> Error {
    let (id, offset) = unpack(ptr);
    runtime(format!("Uninitialized heap location {id} and/or illegal offset {offset}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_store_load_free() {
        let mut h = Heap::new(100);
        let p = h.alloc(3).unwrap();
        let q = ptr_add(p, 2);
        h.store(q, 42).unwrap();
        assert_eq!(h.load(q).unwrap(), 42);
        assert!(h.load(ptr_add(p, 1)).is_err(), "never written");
        assert!(h.store(ptr_add(p, 3), 1).is_err(), "out of bounds");
        assert!(h.store(ptr_add(p, -1), 1).is_err(), "negative offset");
        assert!(h.free(q).is_err(), "not the base pointer");
        h.free(p).unwrap();
        assert!(h.load(q).is_err(), "use after free");
        assert!(h.free(p).is_err(), "double free");
        assert!(h.load(0).is_err(), "null");
        assert_eq!(h.live_allocations(), 0);
    }

    #[test]
    fn limits_and_bad_sizes() {
        let mut h = Heap::new(10);
        assert_eq!(h.alloc(0).unwrap_err().kind(), ErrorKind::Runtime);
        assert_eq!(h.alloc(-4).unwrap_err().kind(), ErrorKind::Runtime);
        assert_eq!(h.alloc(10).unwrap_err().kind(), ErrorKind::Limit);
        let p = h.alloc(9).unwrap();
        h.free(p).unwrap();
        assert!(h.alloc(8).is_ok(), "freed cells are given back");
        let mut h = Heap::new(10);
        let q = h.alloc(1).unwrap();
        let wild = ptr_add(ptr_add(q, i64::MAX), 1 - i64::MAX);
        assert!(h.store(wild, 1).is_err(), "an offset that left 32 bits stays invalid");
    }
}
