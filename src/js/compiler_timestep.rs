//! Any registered compiler environment through the TimeStep API:
//! `new CompilerTimeStepEnvironment(id, {benchmark, observationSpace,
//! rewardSpace, maxEpisodeSteps, dataset})`.

use super::env::options::env_options_and;
use super::error::to_js_error;
use super::interop::args;
use super::interop::options::string;
use super::timestep::{episodes_and_seed, held, held_mut, time_step_methods};
use crate::compilers::make;
use crate::env::{CompilerTimeStepEnvironment, CompilerTimeStepOptions};
use crate::error::Result;
use crate::rng::Rng;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

fn build(id: &str, options: &JsValue) -> Result<CompilerTimeStepEnvironment> {
    let env_options = env_options_and(options, &["dataset"])?;
    let adapter =
        CompilerTimeStepOptions { dataset: string(options, "dataset", "options")?, ..Default::default() };
    CompilerTimeStepEnvironment::new(make(id, env_options)?, adapter)
}

/// tf_agents' view of a compiler environment: reset is FIRST, steps are MID,
/// LAST with discount 0 when the episode ends or the compiler fails, LAST
/// with discount 1 when `maxEpisodeSteps` cuts it short.
#[wasm_bindgen(js_name = CompilerTimeStepEnvironment)]
pub struct JsCompilerTimeStep {
    env: RefCell<CompilerTimeStepEnvironment>,
}

#[wasm_bindgen(js_class = CompilerTimeStepEnvironment)]
impl JsCompilerTimeStep {
    /// `id` as for `make` (`bril-ic-v0`...); options (all optional):
    /// `benchmark`, `observationSpace` and `rewardSpace` (a name, or `null`
    /// for none), `maxEpisodeSteps`, `dataset` (what seeded resets draw from).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CompilerTimeStepOptions")] options: JsValue,
    ) -> Result<JsCompilerTimeStep, JsValue> {
        args::string(&id, "id")
            .and_then(|id| build(&id, &options))
            .map(|env| JsCompilerTimeStep { env: RefCell::new(env) })
            .map_err(to_js_error)
    }

    /// The benchmark of the current (or last) episode; `null` before the first reset.
    #[wasm_bindgen(getter)]
    pub fn benchmark(&self) -> Result<Option<String>, JsValue> {
        Ok(held(&self.env)?.compiler_env().benchmark().map(String::from))
    }

    /// The episode's actions as a commandline (`-dce -lvn`).
    pub fn commandline(&self) -> Result<String, JsValue> {
        held(&self.env)?.compiler_env().commandline().map_err(to_js_error)
    }

    /// Sends a session parameter (`bril.fuel`, `bril.args`...) and returns the reply.
    #[wasm_bindgen(js_name = sendParam)]
    pub fn send_param(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
    ) -> Result<String, JsValue> {
        let key = args::string(&key, "key").map_err(to_js_error)?;
        let value = args::string(&value, "value").map_err(to_js_error)?;
        held_mut(&self.env)?.send_param(&key, &value).map_err(to_js_error)
    }

    /// Plays `episodes` episodes with random actions, checking every time
    /// step against the specs. A ValueError without `maxEpisodeSteps`:
    /// episodes of a compiler rarely end by themselves.
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] episodes: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seed: JsValue,
    ) -> Result<(), JsValue> {
        let (episodes, seed) = episodes_and_seed(&episodes, &seed)?;
        let mut rng = Rng::seed_from_u64(seed);
        held_mut(&self.env)?.validate(episodes, &mut rng).map_err(to_js_error)
    }
}

time_step_methods!(JsCompilerTimeStep, "CompilerTimeStepEnvironment", {
    time_step: "TimeStep",
    current_time_step: "TimeStep | null",
    time_step_spec: "TimeStepSpec",
    observation_spec: "Spec",
    info: "CompilerTimeStepInfo",
});
