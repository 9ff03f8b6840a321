//! The option objects of `make`, `reset` and `multistep`, read from JS.
//! Unknown keys are TypeErrors, so a misspelt option is not silently ignored.

use crate::env::{EnvOptions, ResetOptions, StepOptions};
use crate::error::{Error, Result};
use crate::js::convert::{js_to_u64, type_of};
use js_sys::{Array as JsArray, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `object[key]`, `undefined` when absent.
pub fn field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Checks that `options` is undefined, null or an object with only `known` keys.
pub fn check_keys(options: &JsValue, known: &[&str], what: &str) -> Result<bool> {
    if options.is_undefined() || options.is_null() {
        return Ok(false);
    }
    if !options.is_object() || JsArray::is_array(options) {
        return Err(Error::type_error(format!("{what} must be an object, got {}", type_of(options))));
    }
    for key in Object::keys(options.unchecked_ref::<Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(Error::type_error(format!(
                "{what}: unknown option {key:?} (known: {})",
                known.join(", ")
            )));
        }
    }
    Ok(true)
}

/// An optional string: undefined is `None`.
pub fn string(object: &JsValue, key: &str, what: &str) -> Result<Option<String>> {
    let value = field(object, key);
    if value.is_undefined() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{what}.{key} must be a string, got {}", type_of(&value))))
}

/// A space setting: undefined leaves it, null is "none", a string names one.
pub fn space_name(object: &JsValue, key: &str, what: &str) -> Result<Option<Option<String>>> {
    let value = field(object, key);
    if value.is_null() {
        return Ok(Some(None));
    }
    Ok(string(object, key, what)?.map(Some))
}

pub fn boolean(object: &JsValue, key: &str, what: &str) -> Result<Option<bool>> {
    let value = field(object, key);
    if value.is_undefined() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{what}.{key} must be a boolean, got {}", type_of(&value))))
}

/// An optional number; null counts as absent.
pub fn number(object: &JsValue, key: &str, what: &str) -> Result<Option<f64>> {
    let value = field(object, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{what}.{key} must be a number, got {}", type_of(&value))))
}

/// An array of strings.
pub fn strings(value: &JsValue, what: &str) -> Result<Vec<String>> {
    if !JsArray::is_array(value) {
        return Err(Error::type_error(format!("{what} must be an array of strings, got {}", type_of(value))));
    }
    let items: &JsArray = value.unchecked_ref();
    items
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.as_string().ok_or_else(|| {
                Error::type_error(format!("{what}[{i}] must be a string, got {}", type_of(&s)))
            })
        })
        .collect()
}

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
    out.max_episode_steps = max_episode_steps(&field(options, "maxEpisodeSteps"))?;
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

/// `multistep`'s options: observationSpaces and rewardSpaces (arrays of names).
pub fn step_options(options: &JsValue) -> Result<StepOptions> {
    const WHAT: &str = "multistep options";
    if !check_keys(options, &["observationSpaces", "rewardSpaces"], WHAT)? {
        return Ok(StepOptions::default());
    }
    let list = |key: &str| -> Result<Option<Vec<String>>> {
        let value = field(options, key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        strings(&value, &format!("{WHAT}.{key}")).map(Some)
    };
    Ok(StepOptions { observation_spaces: list("observationSpaces")?, reward_spaces: list("rewardSpaces")? })
}
