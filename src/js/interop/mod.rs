//! The one place where JavaScript values and core values meet.
//!
//! Everything else in `src/js` is a `#[wasm_bindgen]` class or function that
//! reads its arguments and writes its results through this module:
//!
//! - [`args`]: arguments of exported functions, checked here rather than
//!   converted by wasm-bindgen's glue;
//! - [`reflect`]: looking into values JS hands in (keys, items, strings)
//!   where their getters and Proxy traps may throw, within nesting and byte
//!   limits;
//! - [`object`]: properties of plain objects, type names for messages, and
//!   calls into JS functions whose throws become core errors;
//! - [`options`]: typed readers of option objects (unknown keys are errors);
//! - [`numbers`]: integers as numbers or BigInts (never rounded), numeric
//!   arrays read by dtype;
//! - [`typed`] and [`memory`]: typed arrays, out through a kept view of the
//!   wasm memory and in through reused buffers;
//! - [`value`]: core values without a space; [`space_value`] values read and
//!   written by their space (Gymnasium's coercions), with dict [`keys`] made
//!   once per space;
//! - [`json`]: JS values ⇄ `serde_json` (protocol messages, state tokens);
//! - [`constraint`]: `sample(mask)`'s masks and probabilities.

pub mod args;
pub mod constraint;
pub mod json;
pub mod keys;
pub mod memory;
pub mod numbers;
pub mod object;
pub mod options;
pub mod reflect;
pub mod space_value;
pub mod typed;
pub mod value;
