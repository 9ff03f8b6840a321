//! The policies that come with compgym, one per task (their `training`
//! fields say how they were trained).
//!
//! Native builds and the wasm tests carry them in the binary (the
//! `embedded-policies` feature). The npm package leaves them out of its
//! module, where they were a seventh of what a page downloads before its
//! first step, and ships them as files beside it: its JS side reads them
//! and hands each to [`register`] (`loadPretrained()`; under Node, on
//! import), so only those who use them fetch them.

use super::Policy;
use crate::agents::task::Task;
use crate::error::{Error, Result};
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// Registered policies' JSON, by task (size, runtime).
    static REGISTERED: RefCell<[Option<Rc<str>>; 2]> = const { RefCell::new([None, None]) };
}

fn slot(task: Task) -> usize {
    match task {
        Task::CodeSize => 0,
        Task::Runtime => 1,
    }
}

#[cfg(feature = "embedded-policies")]
fn embedded(task: Task) -> Option<&'static str> {
    Some(match task {
        Task::CodeSize => include_str!("pretrained-size.json"),
        Task::Runtime => include_str!("pretrained-runtime.json"),
    })
}

#[cfg(not(feature = "embedded-policies"))]
fn embedded(_task: Task) -> Option<&'static str> {
    None
}

/// The pretrained policy for `task`: the one registered for it, else the
/// one built in, else a LookupError that says how to load it.
pub fn for_task(task: Task) -> Result<Policy> {
    if let Some(json) = REGISTERED.with(|r| r.borrow()[slot(task)].clone()) {
        return Policy::from_json(&json);
    }
    let json = embedded(task).ok_or_else(|| {
        Error::lookup(format!(
            "the pretrained {} policy is not loaded: in a browser, `await loadPretrained()` first \
             (it fetches the policies' files from beside the package's module)",
            task.name()
        ))
    })?;
    Policy::from_json(json)
}

/// Makes `json`, a saved policy, the pretrained policy of its task; returns
/// the task. A text that is not a policy is a ValueError (or the error
/// reading it gives), and what was registered before stays.
pub fn register(json: &str) -> Result<Task> {
    let policy = Policy::from_json(json)?;
    let task = policy.task()?;
    REGISTERED.with(|r| r.borrow_mut()[slot(task)] = Some(json.into()));
    Ok(task)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_policy_is_the_pretrained_one_of_its_task() {
        let size = for_task(Task::CodeSize).unwrap();
        let mut other = size.clone();
        other.episode_length += 1;
        let json = other.to_json().unwrap();
        assert_eq!(register(&json).unwrap(), Task::CodeSize);
        assert_eq!(for_task(Task::CodeSize).unwrap(), other);
        // The other task's is untouched.
        assert_eq!(for_task(Task::Runtime).unwrap().task, "runtime");
        REGISTERED.with(|r| r.borrow_mut()[slot(Task::CodeSize)] = None);
        assert_eq!(for_task(Task::CodeSize).unwrap(), size);
    }

    #[test]
    fn text_that_is_no_policy_is_refused_and_changes_nothing() {
        let before = for_task(Task::Runtime).unwrap();
        assert!(register("{\"format\": 1}").is_err());
        assert!(register("not json").is_err());
        assert_eq!(for_task(Task::Runtime).unwrap(), before);
    }
}
