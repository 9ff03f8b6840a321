//! The integration tests that run in wasm, in Node and in headless Chromium
//! (`scripts/test.sh`'s wasm layers), as one test binary: each binary costs
//! a link, a wasm-bindgen run and, in Chromium, a browser of its own.
//! `tests/wasm_hostile.rs` stays apart, since it grows the instance's memory
//! to its ceiling. Most modules are for wasm32 only; `bril_reference` and
//! `spaces` run natively too, so both platforms are seen to agree.

#[cfg(target_arch = "wasm32")]
#[path = "../js_values/mod.rs"]
mod js_values;

mod agents;
mod api;
mod bandit;
mod bril_reference;
mod convert;
mod env;
mod rng;
mod service;
mod spaces;
mod spaces_fast_paths;
mod spaces_js;
mod tf;
mod tier;
