//! A short list of `Copy` ids stored inline: instruction operands and targets.
//!
//! Almost every instruction has at most three operands, so cloning a program
//! (which forking an environment does) copies them without allocating.

use std::fmt;
use std::ops::{Deref, DerefMut};

const INLINE: usize = 3;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct List<T: Copy + Default> {
    repr: Repr<T>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr<T: Copy + Default> {
    Inline { len: u8, items: [T; INLINE] },
    Heap(Vec<T>),
}

impl<T: Copy + Default> List<T> {
    pub fn new() -> Self {
        List { repr: Repr::Inline { len: 0, items: [T::default(); INLINE] } }
    }

    pub fn push(&mut self, item: T) {
        match &mut self.repr {
            Repr::Inline { len, items } if (*len as usize) < INLINE => {
                items[*len as usize] = item;
                *len += 1;
            }
            Repr::Inline { len, items } => {
                let mut v = items[..*len as usize].to_vec();
                v.push(item);
                self.repr = Repr::Heap(v);
            }
            Repr::Heap(v) => v.push(item),
        }
    }

    pub fn clear(&mut self) {
        *self = List::new();
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        match &mut self.repr {
            Repr::Inline { len, items } => {
                *len = len.checked_sub(1)?;
                Some(items[*len as usize])
            }
            Repr::Heap(v) => v.pop(),
        }
    }

    /// Removes the item at `index`, shifting the rest left. Panics on a bad
    /// index, like `Vec::remove` (a bug in the caller, never user input).
    pub fn remove(&mut self, index: usize) -> T {
        let mut v: Vec<T> = self.to_vec();
        let item = v.remove(index);
        *self = List::from(v.as_slice());
        item
    }
}

impl<T: Copy + Default> Default for List<T> {
    fn default() -> Self {
        List::new()
    }
}

impl<T: Copy + Default> From<&[T]> for List<T> {
    fn from(items: &[T]) -> Self {
        if items.len() <= INLINE {
            let mut inline = [T::default(); INLINE];
            inline[..items.len()].copy_from_slice(items);
            List { repr: Repr::Inline { len: items.len() as u8, items: inline } }
        } else {
            List { repr: Repr::Heap(items.to_vec()) }
        }
    }
}

impl<T: Copy + Default, const N: usize> From<[T; N]> for List<T> {
    fn from(items: [T; N]) -> Self {
        List::from(&items[..])
    }
}

impl<T: Copy + Default> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = List::new();
        for item in iter {
            list.push(item);
        }
        list
    }
}

impl<T: Copy + Default> Deref for List<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.repr {
            Repr::Inline { len, items } => &items[..*len as usize],
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy + Default> DerefMut for List<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.repr {
            Repr::Inline { len, items } => &mut items[..*len as usize],
            Repr::Heap(v) => v,
        }
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq<[T; N]> for List<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        **self == other[..]
    }
}

impl<T: Copy + Default + PartialEq> PartialEq<Vec<T>> for List<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == other[..]
    }
}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_past_inline_capacity() {
        let mut l: List<u32> = List::new();
        for i in 0..6 {
            l.push(i);
        }
        assert_eq!(&*l, &[0, 1, 2, 3, 4, 5]);
        assert_eq!(l.remove(0), 0);
        assert_eq!(l.pop(), Some(5));
        l.push(5);
        assert_eq!(&*l, &[1, 2, 3, 4, 5]);
        let short: List<u32> = [7, 8].into();
        assert_eq!(short.len(), 2);
        assert_eq!(short, List::from(&[7, 8][..]));
        let mut short = short;
        assert_eq!((short.pop(), short.pop(), short.pop()), (Some(8), Some(7), None));
        assert!(short.is_empty());
    }
}
