//! [`Owned`]: a value that stays with the thread that made it.
//!
//! An environment shares its service through `Rc`, so it must never be
//! touched from two threads. PyO3's own answer (an unsendable class) panics
//! on another thread; this one refuses with a Python exception instead, so
//! no panic crosses into Python, and a value dropped on another thread is
//! leaked rather than dropped there.

use pyo3::prelude::*;
use std::mem::ManuallyDrop;
use std::thread::{self, ThreadId};

pub struct Owned<T> {
    owner: ThreadId,
    value: ManuallyDrop<T>,
}

// SAFETY: the value is reached only through `get` and `get_mut`, which check
// that the calling thread is the owner, and dropped only on the owner
// thread (elsewhere it is leaked); so the non-thread-safe parts inside it
// (reference counts) are only ever touched by one thread.
unsafe impl<T> Send for Owned<T> {}
unsafe impl<T> Sync for Owned<T> {}

fn other_thread() -> PyErr {
    crate::errors::ServiceError::new_err(
        "this environment belongs to the thread that made it: make one per thread, or use processes",
    )
}

impl<T> Owned<T> {
    pub fn new(value: T) -> Owned<T> {
        Owned { owner: thread::current().id(), value: ManuallyDrop::new(value) }
    }

    fn is_owner(&self) -> bool {
        thread::current().id() == self.owner
    }

    pub fn get(&self) -> PyResult<&T> {
        if self.is_owner() {
            Ok(&self.value)
        } else {
            Err(other_thread())
        }
    }

    pub fn get_mut(&mut self) -> PyResult<&mut T> {
        if self.is_owner() {
            Ok(&mut self.value)
        } else {
            Err(other_thread())
        }
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        if self.is_owner() {
            // SAFETY: dropped once, here, on the owner thread.
            unsafe { ManuallyDrop::drop(&mut self.value) }
        }
    }
}
