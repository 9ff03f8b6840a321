//! A fixed-size set of small indices (variables, definitions), one bit each.

/// A set of indices below a fixed bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Words,
    len: usize,
}

/// Words stored inline up to [`INLINE_WORDS`]: most functions have fewer
/// than 128 variables, and the analyses clone sets at every block, so small
/// sets never allocate. Unused inline words stay zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Words {
    Inline([u64; INLINE_WORDS]),
    Heap(Vec<u64>),
}

const INLINE_WORDS: usize = 2;

impl Words {
    fn filled(n: usize, word: u64) -> Words {
        if n <= INLINE_WORDS {
            let mut w = [0; INLINE_WORDS];
            w[..n].fill(word);
            Words::Inline(w)
        } else {
            Words::Heap(vec![word; n])
        }
    }
}

impl BitSet {
    /// The empty set of indices below `len`.
    pub fn new(len: usize) -> BitSet {
        BitSet { words: Words::filled(len.div_ceil(64), 0), len }
    }

    /// The set of every index below `len`.
    pub fn full(len: usize) -> BitSet {
        let mut s = BitSet { words: Words::filled(len.div_ceil(64), !0), len };
        s.trim();
        s
    }

    /// The words in use: `len` rounded up to whole words.
    fn words(&self) -> &[u64] {
        let n = self.len.div_ceil(64);
        match &self.words {
            Words::Inline(w) => &w[..n],
            Words::Heap(v) => v,
        }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        let n = self.len.div_ceil(64);
        match &mut self.words {
            Words::Inline(w) => &mut w[..n],
            Words::Heap(v) => v,
        }
    }

    /// Clears the bits past `len` in the last word, so equality is structural.
    fn trim(&mut self) {
        if len_rem(self.len) != 0 {
            let mask = (1u64 << len_rem(self.len)) - 1;
            if let Some(last) = self.words_mut().last_mut() {
                *last &= mask;
            }
        }
    }

    /// The bound: indices are below it.
    pub fn capacity(&self) -> usize {
        self.len
    }

    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words()[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `i`; true if it was new. Indices past the bound are ignored.
    pub fn insert(&mut self, i: usize) -> bool {
        if i >= self.len {
            return false;
        }
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        let word = &mut self.words_mut()[w];
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    pub fn remove(&mut self, i: usize) -> bool {
        if i >= self.len {
            return false;
        }
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        let word = &mut self.words_mut()[w];
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    /// `self |= other`; true if `self` grew.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words_mut().iter_mut().zip(other.words()) {
            let next = *a | b;
            changed |= next != *a;
            *a = next;
        }
        changed
    }

    /// `self &= other`; true if `self` shrank.
    pub fn intersect_with(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words_mut().iter_mut().zip(other.words()) {
            let next = *a & b;
            changed |= next != *a;
            *a = next;
        }
        changed
    }

    /// `self -= other`.
    pub fn subtract(&mut self, other: &BitSet) {
        for (a, b) in self.words_mut().iter_mut().zip(other.words()) {
            *a &= !b;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }

    pub fn count(&self) -> usize {
        self.words().iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words().iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

fn len_rem(len: usize) -> usize {
    len % 64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = BitSet::new(130);
        assert!(a.insert(3) && a.insert(129) && !a.insert(3));
        assert!(!a.insert(500), "out of range is ignored");
        let mut b = BitSet::new(130);
        b.insert(3);
        b.insert(70);
        let mut u = a.clone();
        assert!(u.union_with(&b));
        assert_eq!(u.iter().collect::<Vec<_>>(), vec![3, 70, 129]);
        let mut i = a.clone();
        assert!(i.intersect_with(&b));
        assert_eq!(i.iter().collect::<Vec<_>>(), vec![3]);
        u.subtract(&b);
        assert_eq!(u.iter().collect::<Vec<_>>(), vec![129]);
        assert_eq!(BitSet::full(130).count(), 130);
        assert_eq!(BitSet::full(100).iter().collect::<Vec<_>>(), (0..100).collect::<Vec<_>>());
        assert_eq!(BitSet::full(100).count(), 100, "inline words past the bound stay empty");
        assert_eq!(BitSet::full(64), {
            let mut s = BitSet::new(64);
            (0..64).for_each(|i| {
                s.insert(i);
            });
            s
        });
    }
}
