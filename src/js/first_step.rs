//! The JS face of [`crate::first_step`]: `FirstStep` states and the lists a
//! page shows before the full module has arrived. Errors are JS `Error`s
//! named by kind, as in the full module. Not part of `js`: `lib.rs` builds
//! this file alone, in place of `js`, under the `first-step` feature.

#[path = "error.rs"]
mod error;

use crate::first_step::{FirstStepEnv, Observed};
use error::to_js_error;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

/// One state of an episode on the compiler alone.
#[wasm_bindgen]
pub struct FirstStep(FirstStepEnv);

#[wasm_bindgen]
impl FirstStep {
    /// The start of an episode on `benchmark`: a suite program, or the Bril
    /// text `source` under that URI.
    pub fn reset(benchmark: &str, source: Option<String>) -> Result<FirstStep, JsValue> {
        FirstStepEnv::reset(benchmark, source.as_deref()).map(FirstStep).map_err(to_js_error)
    }

    /// A copy to step from, leaving this state as it is.
    pub fn fork(&self) -> FirstStep {
        FirstStep(self.0.clone())
    }

    /// Applies pass `action`: `{reward, changed}`.
    #[wasm_bindgen(unchecked_return_type = "{ reward: number; changed: boolean }")]
    pub fn step(&mut self, action: u32) -> Result<Object, JsValue> {
        let outcome = self.0.step(action as usize).map_err(to_js_error)?;
        let out = Object::new();
        Reflect::set(&out, &"reward".into(), &outcome.reward.into())?;
        Reflect::set(&out, &"changed".into(), &outcome.changed.into())?;
        Ok(out)
    }

    /// Observation `name`: text, a number, or counts under their names.
    pub fn observe(&self, name: &str) -> Result<JsValue, JsValue> {
        Ok(match self.0.observe(name).map_err(to_js_error)? {
            Observed::Text(text) => text.into(),
            Observed::Count(n) => (n as f64).into(),
            Observed::Named(counts) => {
                let out = Object::new();
                for (name, n) in counts {
                    Reflect::set(&out, &name.into(), &(n as f64).into())?;
                }
                out.into()
            }
        })
    }

    #[wasm_bindgen(getter)]
    pub fn benchmark(&self) -> String {
        self.0.benchmark().to_string()
    }

    /// The flags applied since the reset, separated by spaces.
    #[wasm_bindgen(getter)]
    pub fn commandline(&self) -> String {
        self.0.commandline()
    }
}

/// The pass flags, in action order.
#[wasm_bindgen]
pub fn flags() -> Vec<String> {
    FirstStepEnv::flags().into_iter().map(String::from).collect()
}

/// What each pass does, in action order.
#[wasm_bindgen]
pub fn descriptions() -> Vec<String> {
    FirstStepEnv::descriptions().into_iter().map(String::from).collect()
}

/// The names of the bundled suite's programs.
#[wasm_bindgen]
pub fn suite() -> Vec<String> {
    FirstStepEnv::suite().into_iter().map(String::from).collect()
}

/// The passes and the pipelines' plans, as the package's `brilPasses()`
/// gives them, in JSON.
#[wasm_bindgen(js_name = passesJson)]
pub fn passes_json() -> String {
    crate::bril::passes::summary().to_string()
}

/// The core's registries, as the package's `catalog()` gives them, in JSON.
#[wasm_bindgen(js_name = catalogJson)]
pub fn catalog_json() -> String {
    crate::catalog::catalog().to_string()
}
