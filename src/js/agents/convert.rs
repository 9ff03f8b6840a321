//! The agents' values as JS objects (through JSON: one crossing each), and
//! the option fields only agents read: limits and policies.

use crate::agents::policy::play::Choice;
use crate::agents::policy::train::CurvePoint;
use crate::agents::policy::Policy;
use crate::agents::request::Limit;
use crate::agents::{Progress, SearchResult};
use crate::env::write_csv;
use crate::error::{Error, Result};
use crate::js::interop::json::json_to_js;
use crate::js::interop::numbers::js_to_u64;
use crate::js::interop::object::{call_method, field, type_of};
use serde_json::json;
use std::rc::Rc;
use wasm_bindgen::JsValue;

pub fn progress_to_js(p: &Progress) -> JsValue {
    json_to_js(&json!({
        "status": p.status.name(),
        "elapsed": p.elapsed,
        "steps": p.steps,
        "episodes": p.episodes,
        "bestCost": p.best_cost,
        "initialCost": p.initial_cost,
        "bestActions": p.best_actions,
        "fraction": p.fraction,
    }))
}

/// A result, with its action names (`passes`), its state and the state's CSV.
pub fn result_to_js(r: &SearchResult, action_names: &[String]) -> JsValue {
    let state = r.state();
    let passes: Vec<&str> =
        r.actions.iter().map(|&a| action_names.get(a).map_or("", String::as_str)).collect();
    json_to_js(&json!({
        "agent": r.agent,
        "benchmark": r.benchmark,
        "actions": r.actions,
        "passes": passes,
        "commandline": r.commandline,
        "cost": r.cost,
        "initialCost": r.initial_cost,
        "steps": r.steps,
        "episodes": r.episodes,
        "walltime": r.walltime,
        "status": r.status.name(),
        "state": {
            "benchmark": state.benchmark,
            "commandline": state.commandline,
            "walltime": state.walltime,
            "reward": null,
        },
        "csv": write_csv(&[state]),
    }))
}

pub fn curve_point_to_js(p: &CurvePoint) -> JsValue {
    json_to_js(&curve_point_json(p))
}

pub fn curve_point_json(p: &CurvePoint) -> serde_json::Value {
    json!({
        "update": p.update,
        "episodes": p.episodes,
        "steps": p.steps,
        "seconds": p.seconds,
        "meanReturn": p.mean_return,
        "entropy": p.entropy,
        "validation": p.validation,
    })
}

pub fn choice_json(c: &Choice) -> serde_json::Value {
    json!({ "action": c.name, "index": c.env_action, "probability": c.probability })
}

/// A limit: undefined takes the default, null is no limit, else a number.
pub fn steps_limit(options: &JsValue, what: &str) -> Result<Limit<u64>> {
    let value = field(options, "steps")?;
    if value.is_undefined() {
        return Ok(None);
    }
    if value.is_null() {
        return Ok(Some(None));
    }
    js_to_u64(&value, &format!("{what}.steps")).map(|s| Some(Some(s)))
}

pub fn seconds_limit(options: &JsValue, what: &str) -> Result<Limit<f64>> {
    let value = field(options, "seconds")?;
    if value.is_undefined() {
        return Ok(None);
    }
    if value.is_null() {
        return Ok(Some(None));
    }
    value.as_f64().map(|s| Some(Some(s))).ok_or_else(|| {
        Error::type_error(format!("{what}.seconds must be a number or null, got {}", type_of(&value)))
    })
}

/// `options.policy`: a `Policy` (read through its `toJson`) or a saved
/// policy's JSON text; `None` when absent.
pub fn policy_option(options: &JsValue, what: &str) -> Result<Option<Rc<Policy>>> {
    let value = field(options, "policy")?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let text = match value.as_string() {
        Some(text) => text,
        None if value.is_object() => call_method(&value, "toJson", &[], &format!("{what}.policy"))?
            .as_string()
            .ok_or_else(|| Error::type_error(format!("{what}.policy.toJson() must return a string")))?,
        None => {
            return Err(Error::type_error(format!(
                "{what}.policy must be a Policy or its JSON, got {}",
                type_of(&value)
            )))
        }
    };
    Policy::from_json(&text).map(|p| Some(Rc::new(p)))
}
