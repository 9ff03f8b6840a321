//! Any registered compiler environment through the TimeStep API:
//! `new CompilerTimeStepEnvironment(id, {benchmark, observationSpace,
//! rewardSpace, maxEpisodeSteps, dataset})`.

use super::convert::{js_to_u64, type_of};
use super::error::to_js_error;
use super::timestep::time_step_methods;
use crate::env::{make, CompilerTimeStepEnvironment, CompilerTimeStepOptions, EnvOptions};
use crate::error::{Error, Result};
use crate::rng::Rng;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

fn field(options: &JsValue, key: &str) -> JsValue {
    Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A string option: `undefined` leaves it unset.
fn string(options: &JsValue, key: &str) -> Result<Option<String>> {
    let value = field(options, key);
    if value.is_undefined() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("options.{key} must be a string, got {}", type_of(&value))))
}

/// A space option: a name, `null` for none, `undefined` for the id's default.
fn space(options: &JsValue, key: &str) -> Result<Option<Option<String>>> {
    if field(options, key).is_null() {
        return Ok(Some(None));
    }
    Ok(string(options, key)?.map(Some))
}

fn read_options(options: &JsValue) -> Result<(EnvOptions, CompilerTimeStepOptions)> {
    let mut env = EnvOptions::default();
    let mut adapter = CompilerTimeStepOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok((env, adapter));
    }
    if !options.is_object() {
        return Err(Error::type_error(format!("options must be an object, got {}", type_of(options))));
    }
    env.benchmark = string(options, "benchmark")?;
    env.observation_space = space(options, "observationSpace")?;
    env.reward_space = space(options, "rewardSpace")?;
    let steps = field(options, "maxEpisodeSteps");
    if !steps.is_undefined() && !steps.is_null() {
        env.max_episode_steps = Some(js_to_u64(&steps, "options.maxEpisodeSteps")?);
    }
    adapter.dataset = string(options, "dataset")?;
    Ok((env, adapter))
}

fn build(id: &str, options: &JsValue) -> Result<CompilerTimeStepEnvironment> {
    let (env_options, adapter) = read_options(options)?;
    CompilerTimeStepEnvironment::new(make(id, env_options)?, adapter)
}

/// tf_agents' view of a compiler environment: reset is FIRST, steps are MID,
/// LAST with discount 0 when the episode ends or the compiler fails, LAST
/// with discount 1 when `maxEpisodeSteps` cuts it short.
#[wasm_bindgen(js_name = CompilerTimeStepEnvironment)]
pub struct JsCompilerTimeStep {
    env: CompilerTimeStepEnvironment,
}

#[wasm_bindgen(js_class = CompilerTimeStepEnvironment)]
impl JsCompilerTimeStep {
    /// `id` as for `make` (`bril-ic-v0`...); options (all optional):
    /// `benchmark`, `observationSpace` and `rewardSpace` (a name, or `null`
    /// for none), `maxEpisodeSteps`, `dataset` (what seeded resets draw from).
    #[wasm_bindgen(constructor)]
    pub fn new(id: &str, options: JsValue) -> Result<JsCompilerTimeStep, JsValue> {
        build(id, &options).map(|env| JsCompilerTimeStep { env }).map_err(to_js_error)
    }

    /// The benchmark of the current (or last) episode; `null` before the first reset.
    #[wasm_bindgen(getter)]
    pub fn benchmark(&self) -> Option<String> {
        self.env.compiler_env().benchmark().map(String::from)
    }

    /// The episode's actions as a commandline (`-dce -lvn`).
    pub fn commandline(&self) -> Result<String, JsValue> {
        self.env.compiler_env().commandline().map_err(to_js_error)
    }

    /// Sends a session parameter (`bril.fuel`, `bril.args`...) and returns the reply.
    #[wasm_bindgen(js_name = sendParam)]
    pub fn send_param(&mut self, key: &str, value: &str) -> Result<String, JsValue> {
        self.env.send_param(key, value).map_err(to_js_error)
    }

    /// Plays `episodes` episodes with random actions, checking every time
    /// step against the specs. A ValueError without `maxEpisodeSteps`:
    /// episodes of a compiler rarely end by themselves.
    pub fn validate(&mut self, episodes: Option<u32>, seed: Option<u32>) -> Result<(), JsValue> {
        let mut rng = Rng::seed_from_u64(seed.unwrap_or(0) as u64);
        self.env.validate(episodes.unwrap_or(5) as usize, &mut rng).map_err(to_js_error)
    }
}

time_step_methods!(JsCompilerTimeStep, "CompilerTimeStepEnvironment");
