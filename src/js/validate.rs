//! `validateEnvironment(env, episodes)`: tf_agents' `validate_py_environment`
//! as a function, for any exported environment with a `validate` method.

use super::error::to_js_error;
use crate::error::{Error, ErrorKind};
use crate::js::interop::object::{thrown_error, type_of};
use crate::js::interop::reflect::name_of;
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Plays `episodes` episodes (default 5) of `env` with random actions and
/// checks every time step against its specs; throws what the check finds.
/// `env` is a `StationaryStochasticPerArmEnvironment`, a `CompilerBandit`
/// or a `CompilerTimeStepEnvironment` (anything with `validate(episodes)`).
#[wasm_bindgen(js_name = validateEnvironment)]
pub fn validate_environment(
    #[wasm_bindgen(unchecked_param_type = "ValidatableEnvironment")] env: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] episodes: JsValue,
) -> Result<(), JsValue> {
    let episodes = crate::js::interop::args::optional_count(&episodes, "episodes").map_err(to_js_error)?;
    let method = if env.is_object() {
        crate::js::interop::reflect::get(env, "validate", "env.validate").map_err(to_js_error)?
    } else {
        JsValue::UNDEFINED
    };
    let Some(method) = method.dyn_ref::<Function>() else {
        return Err(to_js_error(Error::type_error(format!(
            "env must be a TimeStep environment (with a validate method), got {}",
            type_of(env)
        ))));
    };
    let episodes = JsValue::from_f64(episodes.unwrap_or(5) as f64);
    method.call1(env, &episodes).map(drop).map_err(|thrown| {
        // The environment's own typed error passes unchanged; anything else thrown becomes one.
        let typed = name_of(&thrown).is_some_and(|n| ErrorKind::ALL.iter().any(|k| k.name() == n));
        if typed {
            thrown
        } else {
            to_js_error(thrown_error(&thrown, "env.validate"))
        }
    })
}
