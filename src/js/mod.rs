//! The wasm-bindgen layer: converts between JavaScript and the core, never
//! decides. Every export returns `Result<_, JsValue>` whose error is a JS
//! `Error` with a `name` from [`crate::ErrorKind::name`]; nothing here may
//! panic, because a panic under wasm kills the whole instance.

pub mod agents;
pub mod bandit;
#[cfg(feature = "bench")]
pub mod bench;
pub mod bril;
pub mod catalog;
pub mod cli;
pub mod compiler_bandit;
pub mod compiler_timestep;
pub mod entropy;
pub mod env;
mod error;
pub mod gym;
pub mod interop;
pub mod rng;
pub mod service;
pub mod spaces;
pub mod specs;
pub mod tier;
pub mod timestep;
mod typescript;
pub mod validate;

use wasm_bindgen::prelude::*;

pub use error::to_js_error;

/// The crate version, equal to the npm package version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// Parses a dtype name (`"float32"`, `"int64"`...) and returns its canonical
/// name. Unknown names raise a `TypeError`: the smallest entry point that
/// shows the typed-error convention every other entry point follows.
#[wasm_bindgen(js_name = canonicalDtype, unchecked_return_type = "DType")]
pub fn canonical_dtype(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<String, JsValue> {
    let name = interop::args::string(&name, "name").map_err(to_js_error)?;
    crate::value::DType::parse(&name).map(|d| d.name().to_string()).map_err(to_js_error)
}

/// The `name` of every error kind this package raises.
#[wasm_bindgen(js_name = errorNames, unchecked_return_type = "ErrorName[]")]
pub fn error_names() -> Vec<String> {
    crate::ErrorKind::ALL.iter().map(|k| k.name().to_string()).collect()
}
