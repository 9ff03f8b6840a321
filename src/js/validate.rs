//! `validateEnvironment(env, episodes)`: tf_agents' `validate_py_environment`
//! as a function, for any exported environment with a `validate` method.

use super::error::to_js_error;
use crate::error::Error;
use crate::js::interop::object::type_of;
use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Plays `episodes` episodes (default 5) of `env` with random actions and
/// checks every time step against its specs; throws what the check finds.
/// `env` is a `StationaryStochasticPerArmEnvironment`, a `CompilerBandit`
/// or a `CompilerTimeStepEnvironment` (anything with `validate(episodes)`).
#[wasm_bindgen(js_name = validateEnvironment)]
pub fn validate_environment(
    #[wasm_bindgen(unchecked_param_type = "ValidatableEnvironment")] env: &JsValue,
    episodes: Option<u32>,
) -> Result<(), JsValue> {
    let method = Reflect::get(env, &JsValue::from_str("validate")).unwrap_or(JsValue::UNDEFINED);
    let Some(method) = method.dyn_ref::<Function>() else {
        return Err(to_js_error(Error::type_error(format!(
            "env must be a TimeStep environment (with a validate method), got {}",
            type_of(env)
        ))));
    };
    let episodes = JsValue::from_f64(episodes.unwrap_or(5) as f64);
    method.call1(env, &episodes).map(drop)
}
