//! Sparse sets for facts at block boundaries, and a dense scratch set for
//! walking one block.
//!
//! A function of n instructions has O(n) blocks and O(n) variables, so a
//! dense set per block would cost O(n²) to build; but the facts passes need
//! at a block boundary (the variables live there, those of them maybe not
//! yet assigned, the definitions of them that reach) are few in usual code.
//! [`SparseSet`] stores them as a sorted list: merging two costs their
//! sizes, not the size of the function. [`Marks`] answers membership in O(1)
//! while a pass walks a block, and empties in O(1) for the next block;
//! [`ListedSet`] also lists its members.

/// A set of small integers (variable or definition numbers) as a sorted,
/// duplicate-free list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SparseSet(Vec<u32>);

impl SparseSet {
    pub fn new() -> SparseSet {
        SparseSet(Vec::new())
    }

    /// The set of `items`, already sorted without repeats (checked in debug builds).
    pub fn from_sorted(items: Vec<u32>) -> SparseSet {
        debug_assert!(items.windows(2).all(|w| w[0] < w[1]));
        SparseSet(items)
    }

    /// The set of `items`, in any order, repeats allowed.
    pub fn from_unsorted(mut items: Vec<u32>) -> SparseSet {
        items.sort_unstable();
        items.dedup();
        SparseSet(items)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn contains(&self, i: usize) -> bool {
        u32::try_from(i).is_ok_and(|i| self.0.binary_search(&i).is_ok())
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = usize> + ExactSizeIterator + '_ {
        self.0.iter().map(|&i| i as usize)
    }

    pub fn as_slice(&self) -> &[u32] {
        &self.0
    }

    /// The members in `lo..hi`.
    pub fn range(&self, lo: usize, hi: usize) -> &[u32] {
        let at = |x: usize| self.0.partition_point(|&i| (i as usize) < x);
        let (a, b) = (at(lo), at(hi));
        &self.0[a..b.max(a)]
    }

    /// Adds every member of `other`; true if that added any.
    pub fn union_with(&mut self, other: &SparseSet) -> bool {
        if other.0.is_empty() {
            return false;
        }
        if self.0.is_empty() {
            self.0.clone_from(&other.0);
            return true;
        }
        let before = self.0.len();
        let merged = merge(&self.0, &other.0, |a, b| a || b);
        self.0 = merged;
        self.0.len() != before
    }

    /// The members of `self` that `other` holds too.
    pub fn intersection(&self, other: &SparseSet) -> SparseSet {
        SparseSet(merge(&self.0, &other.0, |a, b| a && b))
    }

    /// The members of `self` that `other` does not hold.
    pub fn difference(&self, other: &SparseSet) -> SparseSet {
        if other.0.is_empty() {
            return self.clone();
        }
        SparseSet(merge(&self.0, &other.0, |a, b| a && !b))
    }
}

impl FromIterator<usize> for SparseSet {
    fn from_iter<I: IntoIterator<Item = usize>>(items: I) -> SparseSet {
        SparseSet::from_unsorted(items.into_iter().map(|i| i as u32).collect())
    }
}

/// The members of `a` or `b` (by position in the merge) that `keep` keeps,
/// given whether each side has them.
fn merge(a: &[u32], b: &[u32], keep: impl Fn(bool, bool) -> bool) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (x, in_a, in_b) = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => (x, true, true),
            (Some(&x), Some(&y)) if x < y => (x, true, false),
            (Some(_), Some(&y)) => (y, false, true),
            (Some(&x), None) => (x, true, false),
            (None, Some(&y)) => (y, false, true),
            (None, None) => break,
        };
        i += usize::from(in_a);
        j += usize::from(in_b);
        if keep(in_a, in_b) {
            out.push(x);
        }
    }
    out
}

/// One sorted set per block, all in one allocation: what an analysis
/// computes at every block boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockSets {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl BlockSets {
    /// The sets of `blocks` blocks from `(block, member)` pairs whose
    /// members come in increasing order (a stable sort by block keeps each
    /// set sorted), without repeats.
    pub fn from_pairs(blocks: usize, pairs: &[(u32, u32)]) -> BlockSets {
        // A counting sort: count, place each pair at its block's cursor
        // (cursors start at the block's end and move down), so `start` ends
        // up at each block's first item.
        let mut start = vec![0u32; blocks + 1];
        for &(b, _) in pairs {
            start[b as usize] += 1;
        }
        let mut total = 0u32;
        for s in start.iter_mut() {
            total += *s;
            *s = total;
        }
        let mut items = vec![0u32; pairs.len()];
        for &(b, m) in pairs.iter().rev() {
            let cursor = &mut start[b as usize];
            *cursor -= 1;
            items[*cursor as usize] = m;
        }
        BlockSets { start, items }
    }

    /// Builds sets block after block (see [`Builder::push_block`]).
    pub fn builder(blocks: usize, items: usize) -> Builder {
        let mut start = Vec::with_capacity(blocks + 1);
        start.push(0);
        Builder(BlockSets { start, items: Vec::with_capacity(items) })
    }

    /// The set of block `b` (empty past the last block).
    pub fn get(&self, b: usize) -> Set<'_> {
        match (self.start.get(b), self.start.get(b + 1)) {
            (Some(&lo), Some(&hi)) => Set(&self.items[lo as usize..hi as usize]),
            _ => Set(&[]),
        }
    }

    pub fn blocks(&self) -> usize {
        self.start.len().saturating_sub(1)
    }
}

/// [`BlockSets`] made one block at a time, in order.
pub struct Builder(BlockSets);

impl Builder {
    /// The next block's set: sorted, without repeats.
    pub fn push_block(&mut self, members: &[u32]) {
        self.0.items.extend_from_slice(members);
        self.0.start.push(self.0.items.len() as u32);
    }

    pub fn finish(self) -> BlockSets {
        self.0
    }
}

/// A borrowed sorted set, such as one block's set of a [`BlockSets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Set<'a>(&'a [u32]);

impl<'a> Set<'a> {
    pub fn contains(&self, i: usize) -> bool {
        u32::try_from(i).is_ok_and(|i| self.0.binary_search(&i).is_ok())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = usize> + ExactSizeIterator + 'a {
        self.0.iter().map(|&i| i as usize)
    }

    pub fn as_slice(&self) -> &'a [u32] {
        self.0
    }

    pub fn to_set(&self) -> SparseSet {
        SparseSet(self.0.to_vec())
    }
}

/// A dense set over `0..n` that empties in O(1): a pass allocates one per
/// function and reuses it for every block it walks.
#[derive(Clone, Debug)]
pub struct Marks {
    stamp: Vec<u32>,
    now: u32,
}

impl Default for Marks {
    fn default() -> Marks {
        Marks::new(0)
    }
}

impl Marks {
    pub fn new(n: usize) -> Marks {
        Marks { stamp: vec![0; n], now: 1 }
    }

    /// Empties the set and makes room for `0..n` (reusing the allocation).
    pub fn reset(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
        }
        self.clear();
    }

    /// Room reserved, in members.
    pub fn capacity(&self) -> usize {
        self.stamp.len()
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
    }

    pub fn contains(&self, i: usize) -> bool {
        self.stamp.get(i) == Some(&self.now)
    }

    /// Adds `i`; true if it was not there. Out of range is ignored.
    pub fn insert(&mut self, i: usize) -> bool {
        match self.stamp.get_mut(i) {
            Some(s) if *s != self.now => {
                *s = self.now;
                true
            }
            _ => false,
        }
    }

    pub fn remove(&mut self, i: usize) {
        if let Some(s) = self.stamp.get_mut(i) {
            *s = 0;
        }
    }

    /// Empties the set, then adds `members`.
    pub fn reset_to(&mut self, members: &[u32]) {
        self.clear();
        for &i in members {
            self.insert(i as usize);
        }
    }
}

/// A set over `0..n` with O(1) insert, remove and membership that also
/// lists its members (Briggs and Torczon's sparse set): for walks that
/// need to visit everything live at a point.
#[derive(Clone, Debug)]
pub struct ListedSet {
    members: Vec<u32>,
    slot: Vec<u32>,
}

impl ListedSet {
    pub fn new(n: usize) -> ListedSet {
        ListedSet { members: Vec::new(), slot: vec![0; n] }
    }

    pub fn clear(&mut self) {
        self.members.clear();
    }

    pub fn contains(&self, i: usize) -> bool {
        self.slot.get(i).is_some_and(|&k| self.members.get(k as usize) == Some(&(i as u32)))
    }

    pub fn insert(&mut self, i: usize) {
        if i < self.slot.len() && !self.contains(i) {
            self.slot[i] = self.members.len() as u32;
            self.members.push(i as u32);
        }
    }

    pub fn remove(&mut self, i: usize) {
        if !self.contains(i) {
            return;
        }
        let k = self.slot[i] as usize;
        self.members.swap_remove(k);
        if let Some(&moved) = self.members.get(k) {
            self.slot[moved as usize] = k as u32;
        }
    }

    /// The members, in no particular order.
    pub fn members(&self) -> &[u32] {
        &self.members
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[u32]) -> SparseSet {
        SparseSet::from_unsorted(items.to_vec())
    }

    #[test]
    fn sparse_set_operations() {
        let mut a = set(&[9, 3, 3, 70]);
        assert_eq!(a.as_slice(), &[3, 9, 70]);
        assert!(a.contains(9) && !a.contains(10) && !a.contains(usize::MAX));
        assert!(a.union_with(&set(&[1, 9])));
        assert!(!a.union_with(&set(&[1, 70])));
        assert_eq!(a.as_slice(), &[1, 3, 9, 70]);
        assert_eq!(a.intersection(&set(&[3, 4, 70])).as_slice(), &[3, 70]);
        assert_eq!(a.difference(&set(&[3, 4, 70])).as_slice(), &[1, 9]);
        assert_eq!(a.range(2, 70), &[3, 9]);
        assert_eq!(a.range(71, 80), &[] as &[u32]);
    }

    #[test]
    fn block_sets_from_pairs() {
        let sets = BlockSets::from_pairs(3, &[(2, 1), (0, 4), (2, 5), (0, 7)]);
        assert_eq!(
            (sets.get(0).as_slice(), sets.get(1).as_slice(), sets.get(2).as_slice()),
            (&[4, 7][..], &[][..], &[1, 5][..])
        );
        assert!(sets.get(2).contains(5) && !sets.get(2).contains(4) && sets.get(9).is_empty());
        assert_eq!(sets.blocks(), 3);
    }

    #[test]
    fn marks_empty_at_once() {
        let mut m = Marks::new(10);
        assert!(m.insert(3) && !m.insert(3) && !m.insert(99));
        m.remove(3);
        assert!(!m.contains(3));
        m.insert(4);
        m.clear();
        assert!(!m.contains(4));
        m.reset_to(&[1, 2]);
        assert!(m.contains(1) && m.contains(2) && !m.contains(4));
    }

    #[test]
    fn listed_set_lists_what_it_holds() {
        let mut s = ListedSet::new(8);
        for i in [5, 1, 7, 1] {
            s.insert(i);
        }
        s.remove(5);
        s.remove(3);
        let mut m = s.members().to_vec();
        m.sort();
        assert_eq!(m, [1, 7]);
        assert!(s.contains(7) && !s.contains(5) && !s.contains(100));
        s.clear();
        assert!(s.members().is_empty() && !s.contains(1));
    }
}
