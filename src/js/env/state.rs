//! States for JavaScript: `env.state`, `env.apply(state)`,
//! `env.validate(state?)` and the CSV functions over `crate::env::state`.

use super::compiler_env::JsCompilerEnv;
use super::{borrow, borrow_mut};
use crate::env::{read_csv, write_csv, CompilerEnvState, ValidationResult};
use crate::error::{Error, Result};
use crate::js::interop::object::set;
use crate::js::interop::object::type_of;
use crate::js::interop::options::{check_keys, number, string};
use crate::js::interop::reflect;
use crate::js::to_js_error;
use js_sys::{Array as JsArray, Object};
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

/// `{benchmark, commandline, walltime, reward}` (reward null when absent).
pub fn state_to_js(state: &CompilerEnvState) -> JsValue {
    let object = Object::new();
    set(&object, "benchmark", &JsValue::from(state.benchmark.as_str()));
    set(&object, "commandline", &JsValue::from(state.commandline.as_str()));
    set(&object, "walltime", &JsValue::from(state.walltime));
    set(&object, "reward", &state.reward.map_or(JsValue::NULL, JsValue::from_f64));
    object.into()
}

/// Reads a state object; walltime and reward may be left out.
pub fn state_from_js(value: &JsValue, what: &str) -> Result<CompilerEnvState> {
    if !check_keys(value, &["benchmark", "commandline", "walltime", "reward"], what)? {
        return Err(Error::type_error(format!("{what} must be a state object, got {}", type_of(value))));
    }
    let required = |key: &str| {
        string(value, key, what)?.ok_or_else(|| Error::type_error(format!("{what}.{key} is required")))
    };
    Ok(CompilerEnvState {
        benchmark: required("benchmark")?,
        commandline: required("commandline")?,
        walltime: number(value, "walltime", what)?.unwrap_or(0.0),
        reward: number(value, "reward", what)?,
    })
}

fn states_from_js(value: &JsValue) -> Result<Vec<CompilerEnvState>> {
    if !reflect::is_array(value) {
        return Err(Error::type_error(format!("states must be an array, got {}", type_of(value))));
    }
    let items = reflect::array_items(value, "states")?;
    items.iter().enumerate().map(|(i, s)| state_from_js(s, &format!("states[{i}]"))).collect()
}

/// The fields of `ValidationResult`, camelCase, with `okay`.
pub fn validation_to_js(result: &ValidationResult) -> JsValue {
    let object = Object::new();
    set(&object, "state", &state_to_js(&result.state));
    set(&object, "okay", &JsValue::from(result.okay()));
    set(&object, "walltime", &JsValue::from(result.walltime));
    set(&object, "actionsReplayFailed", &JsValue::from(result.actions_replay_failed));
    set(&object, "rewardValidated", &JsValue::from(result.reward_validated));
    set(&object, "rewardValidationFailed", &JsValue::from(result.reward_validation_failed));
    set(&object, "benchmarkSemanticsValidated", &JsValue::from(result.benchmark_semantics_validated));
    set(
        &object,
        "benchmarkSemanticsValidationFailed",
        &JsValue::from(result.benchmark_semantics_validation_failed),
    );
    let errors: JsArray = result
        .errors
        .iter()
        .map(|e| {
            let error = Object::new();
            set(&error, "kind", &JsValue::from(e.kind.as_str()));
            set(&error, "details", &JsValue::from(e.details.as_str()));
            JsValue::from(error)
        })
        .collect();
    set(&object, "errors", &JsValue::from(errors));
    object.into()
}

#[wasm_bindgen(js_class = CompilerEnv)]
impl JsCompilerEnv {
    /// The state of the current (or last) episode (SessionNotFound before any reset).
    #[wasm_bindgen(getter, unchecked_return_type = "CompilerEnvState")]
    pub fn state(&self) -> JsResult<JsValue> {
        borrow(self.shared()).and_then(|e| e.state()).map(|s| state_to_js(&s)).map_err(to_js_error)
    }

    /// Resets to the state's benchmark and replays its commandline.
    pub fn apply(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CompilerEnvState")] state: JsValue,
    ) -> JsResult<()> {
        let run = || -> Result<()> {
            let state = state_from_js(&state, "state")?;
            borrow_mut(self.shared())?.apply(&state)
        };
        run().map_err(to_js_error)
    }

    /// Replays `state` (default: this episode's) on a new session and reports what differs.
    #[wasm_bindgen(unchecked_return_type = "ValidationResult")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CompilerEnvState | void")] state: Option<JsValue>,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let state = match state.filter(|s| !s.is_undefined() && !s.is_null()) {
                None => None,
                Some(s) => Some(state_from_js(&s, "state")?),
            };
            let result = borrow(self.shared())?.validate(state.as_ref())?;
            Ok(validation_to_js(&result))
        };
        run().map_err(to_js_error)
    }
}

/// States as CSV text (`benchmark,reward,walltime,commandline`); the header
/// line is written unless `{header: false}`.
#[wasm_bindgen(js_name = compilerEnvStatesToCsv)]
pub fn compiler_env_states_to_csv(
    #[wasm_bindgen(unchecked_param_type = "CompilerEnvState[]")] states: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ header?: boolean } | void")] options: Option<JsValue>,
) -> JsResult<String> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let run = || -> Result<String> {
        let header = if check_keys(&options, &["header"], "options")? {
            crate::js::interop::options::boolean(&options, "header", "options")?.unwrap_or(true)
        } else {
            true
        };
        let text = write_csv(&states_from_js(&states)?);
        Ok(if header { text } else { text.split_once('\n').map_or(String::new(), |(_, rows)| rows.into()) })
    };
    run().map_err(to_js_error)
}

/// States read from CSV text (the header line is optional); malformed text is a ValueError.
#[wasm_bindgen(js_name = compilerEnvStatesFromCsv, unchecked_return_type = "CompilerEnvState[]")]
pub fn compiler_env_states_from_csv(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> JsResult<JsValue> {
    let text = crate::js::interop::args::string(&text, "text").map_err(to_js_error)?;
    let states = read_csv(&text).map_err(to_js_error)?;
    Ok(states.iter().map(state_to_js).collect::<JsArray>().into())
}
