//! The compiler bandit for JavaScript: `new CompilerBandit({seed, batchSize,
//! programs})`, the TimeStep methods, regret helpers and the arms' names.

use super::bandit::{per_arm_bandit_methods, JsLinUcb};
use super::error::to_js_error;
use super::interop::object::field;
use super::timestep::{held, time_step_methods};
use crate::bandit::compiler::PROPERTY_NAMES;
use crate::bandit::{CompilerBandit, CompilerBanditOptions};
use crate::error::{Error, Result};
use crate::js::interop::{numbers::js_to_u64, object::type_of, options::strings};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// Reads `{seed, batchSize, programs}`; every key is optional.
fn read_options(options: &JsValue) -> Result<CompilerBanditOptions> {
    let mut out = CompilerBanditOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(Error::type_error(format!("options must be an object, got {}", type_of(options))));
    }
    let seed = field(options, "seed")?;
    if !seed.is_undefined() {
        out.seed = js_to_u64(&seed, "options.seed")?;
    }
    let batch = field(options, "batchSize")?;
    if !batch.is_undefined() {
        let b = js_to_u64(&batch, "options.batchSize")?;
        out.batch_size = usize::try_from(b).map_err(|_| Error::value("options.batchSize is too large"))?;
    }
    let programs = field(options, "programs")?;
    if !programs.is_undefined() {
        out.programs = Some(strings(&programs, "options.programs")?);
    }
    Ok(out)
}

/// A per-arm bandit whose arms are the Bril passes: the context is a suite
/// program's Autophase features, the reward the relative instruction-count
/// reduction of the chosen pass. Every step is LAST.
#[wasm_bindgen(js_name = CompilerBandit)]
pub struct JsCompilerBandit {
    env: RefCell<CompilerBandit>,
}

#[wasm_bindgen(js_class = CompilerBandit)]
impl JsCompilerBandit {
    /// Options (all optional): `seed`, `batchSize` (default 1), `programs`
    /// (suite program names or URIs; default the whole suite).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "CompilerBanditOptions")] options: JsValue,
    ) -> Result<JsCompilerBandit, JsValue> {
        read_options(&options)
            .and_then(CompilerBandit::new)
            .map(|env| JsCompilerBandit { env: RefCell::new(env) })
            .map_err(to_js_error)
    }

    /// K, the number of arms (passes).
    #[wasm_bindgen(getter, js_name = numArms)]
    pub fn num_arms(&self) -> Result<u32, JsValue> {
        Ok(held(&self.env)?.num_arms() as u32)
    }
    /// The pass flag of every arm, in arm order (`-dce`, `-lvn`, ...).
    #[wasm_bindgen(getter, js_name = armNames)]
    pub fn arm_names(&self) -> Result<Vec<String>, JsValue> {
        Ok(held(&self.env)?.arm_names().into_iter().map(String::from).collect())
    }
    /// The names of the properties after each arm's one-hot.
    #[wasm_bindgen(getter, js_name = propertyNames)]
    pub fn property_names(&self) -> Vec<String> {
        PROPERTY_NAMES.iter().map(|p| p.to_string()).collect()
    }
    /// The programs the bandit draws from.
    #[wasm_bindgen(getter, js_name = programNames)]
    pub fn program_names(&self) -> Result<Vec<String>, JsValue> {
        Ok(held(&self.env)?.program_names().to_vec())
    }
    /// The program of each batch element now, or `null` before the first reset.
    #[wasm_bindgen(getter, js_name = currentPrograms)]
    pub fn current_programs(&self) -> Result<Option<Vec<String>>, JsValue> {
        Ok(held(&self.env)?.current_programs().map(|p| p.into_iter().map(String::from).collect()))
    }
}

per_arm_bandit_methods!(JsCompilerBandit, "CompilerBandit");
time_step_methods!(JsCompilerBandit, "CompilerBandit", {
    time_step: "PerArmTimeStep",
    current_time_step: "PerArmTimeStep | null",
    time_step_spec: "TimeStepSpec<PerArmObservationSpec>",
    observation_spec: "PerArmObservationSpec",
    info: "never",
});

#[wasm_bindgen(js_class = LinUcb)]
impl JsLinUcb {
    /// `act` for the compiler bandit; api.js makes `act` call it for one, and
    /// hides it (a glue method takes one class of argument).
    #[wasm_bindgen(js_name = actCompilerBandit, skip_typescript)]
    pub fn act_compiler_bandit(&mut self, env: &JsCompilerBandit) -> Result<js_sys::Int32Array, JsValue> {
        let obs = held(&env.env)?.observation().cloned();
        self.act_on(obs)
    }
}
