//! `CompilerEnv` for JavaScript: `make(id, options)`, the environment class,
//! its observation and reward views, rewards and derived spaces written in
//! JS, states and their CSV form, and datasets.
//!
//! One environment is an `Rc<RefCell<CompilerEnv>>` shared by the JS
//! objects that look into it (`env.observation`, `env.reward`). Every
//! access uses `try_borrow*`, so a JS callback that re-enters the
//! environment while it is busy (a reward calling `env.step`) gets a
//! ServiceError instead of a panic; reading observations from a callback
//! through the view it was handed works.

pub mod compiler_env;
pub mod datasets;
pub mod js_reward;
pub mod observation_view;
pub mod options;
pub mod reward_view;
pub mod state;
mod typescript;

use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// An environment shared by its JS class and its views.
pub type SharedEnv = Rc<RefCell<CompilerEnv>>;

fn busy() -> Error {
    Error::service(
        "the environment is busy: a callback (a reward or a derived space) cannot use it re-entrantly; \
         use the observation view the callback receives",
    )
}

pub(crate) fn borrow(env: &SharedEnv) -> Result<Ref<'_, CompilerEnv>> {
    env.try_borrow().map_err(|_| busy())
}

pub(crate) fn borrow_mut(env: &SharedEnv) -> Result<RefMut<'_, CompilerEnv>> {
    env.try_borrow_mut().map_err(|_| busy())
}

/// Seconds for episode walltimes (wasm has no `Instant`).
pub(crate) fn js_clock() -> f64 {
    js_sys::Date::now() / 1000.0
}

/// Property keys of the objects built on every step, made once.
pub(crate) struct Keys {
    pub observation: JsValue,
    pub reward: JsValue,
    pub terminated: JsValue,
    pub truncated: JsValue,
    pub info: JsValue,
    pub action_had_no_effect: JsValue,
    pub new_action_space: JsValue,
    pub error: JsValue,
    pub action_mask: JsValue,
    pub fixed_point: JsValue,
}

thread_local! {
    static KEYS: Keys = Keys {
        observation: "observation".into(),
        reward: "reward".into(),
        terminated: "terminated".into(),
        truncated: "truncated".into(),
        info: "info".into(),
        action_had_no_effect: "actionHadNoEffect".into(),
        new_action_space: "newActionSpace".into(),
        error: "error".into(),
        action_mask: "actionMask".into(),
        fixed_point: "fixedPoint".into(),
    };
}

pub(crate) fn with_keys<R>(f: impl FnOnce(&Keys) -> R) -> R {
    KEYS.with(f)
}

/// The size of this instance's wasm memory in bytes. It only grows, and
/// ahead of need (a quarter at a time), so a leak test reads
/// [`wasm_live_bytes`].
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}

/// The bytes of wasm memory allocated and not freed, headers included
/// (for leak tests: what freeing gives back shows here).
#[wasm_bindgen(js_name = wasmLiveBytes)]
pub fn wasm_live_bytes() -> f64 {
    crate::limits::heap::live_bytes() as f64
}
