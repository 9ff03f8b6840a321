//! The option objects of `make`, `reset`, `step` and `multistep`, read from JS.

use crate::env::{EnvOptions, ResetOptions, StepOptions};
use crate::error::Result;
use crate::js::interop::numbers::js_to_u64;
use crate::js::interop::object::field;
use crate::js::interop::options::{check_keys, space_name, string, strings};
use wasm_bindgen::JsValue;

/// `make`'s options: benchmark, actionSpace, observationSpace, rewardSpace, maxEpisodeSteps.
pub fn env_options(options: &JsValue) -> Result<EnvOptions> {
    env_options_and(options, &[])
}

/// `make`'s options, with `extra` keys allowed for the caller to read itself.
pub fn env_options_and(options: &JsValue, extra: &[&str]) -> Result<EnvOptions> {
    const WHAT: &str = "options";
    let mut out = EnvOptions { clock: Some(super::js_clock), ..Default::default() };
    let mut known = vec!["benchmark", "actionSpace", "observationSpace", "rewardSpace", "maxEpisodeSteps"];
    known.extend_from_slice(extra);
    if !check_keys(options, &known, WHAT)? {
        return Ok(out);
    }
    out.benchmark = string(options, "benchmark", WHAT)?;
    out.action_space = string(options, "actionSpace", WHAT)?;
    out.observation_space = space_name(options, "observationSpace", WHAT)?;
    out.reward_space = space_name(options, "rewardSpace", WHAT)?;
    out.max_episode_steps = max_episode_steps(&field(options, "maxEpisodeSteps")?)?;
    Ok(out)
}

/// A step limit: a non-negative integer, or null/undefined for none.
pub fn max_episode_steps(value: &JsValue) -> Result<Option<u64>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    js_to_u64(value, "maxEpisodeSteps").map(Some)
}

/// `reset`'s options: benchmark, actionSpace, observationSpace, rewardSpace.
pub fn reset_options(options: &JsValue) -> Result<ResetOptions> {
    const WHAT: &str = "reset options";
    let known = ["benchmark", "actionSpace", "observationSpace", "rewardSpace"];
    if !check_keys(options, &known, WHAT)? {
        return Ok(ResetOptions::default());
    }
    Ok(ResetOptions {
        benchmark: string(options, "benchmark", WHAT)?,
        action_space: string(options, "actionSpace", WHAT)?,
        observation_space: space_name(options, "observationSpace", WHAT)?,
        reward_space: space_name(options, "rewardSpace", WHAT)?,
    })
}

/// `step`'s and `multistep`'s options (`what` names them in errors):
/// observationSpaces and rewardSpaces (arrays of names).
pub fn step_options(options: &JsValue, what: &str) -> Result<StepOptions> {
    if !check_keys(options, &["observationSpaces", "rewardSpaces"], what)? {
        return Ok(StepOptions::default());
    }
    let list = |key: &str| -> Result<Option<Vec<String>>> {
        let value = field(options, key)?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        strings(&value, &format!("{what}.{key}")).map(Some)
    };
    Ok(StepOptions { observation_spaces: list("observationSpaces")?, reward_spaces: list("rewardSpaces")? })
}
