//! The agents for JavaScript: [`search_agent`] (`SearchAgent`: a search or
//! the policy's zero-shot rollout, by name, run in chunks with progress and
//! cancellation), [`policy`] (`Policy`, `PolicyPlayer`), [`trainer`]
//! (`PolicyTrainer`: PPO in chunks, with its curve) and
//! [`leaderboard`] (`Leaderboard`, `leaderboard()`). Every default, check
//! and decision is `crate::agents`'s (most in `agents::request`); these
//! classes read options and write results, through [`convert`].

mod convert;
pub mod leaderboard;
pub mod policy;
pub mod search_agent;
pub mod trainer;
mod typescript;

use super::error::to_js_error;
use super::interop::args;
use wasm_bindgen::prelude::*;

/// The agents' names, in table order.
#[wasm_bindgen(js_name = agentNames, unchecked_return_type = "AgentName[]")]
pub fn agent_names() -> Vec<String> {
    crate::agents::kinds::names().map(String::from).collect()
}

/// The side of the fixed train / held-out split the program named `name`
/// (a URI or `dataset/path`) is on: `"train"` or `"held-out"` (the rule is
/// `crate::agents::programs::Split::of`; the playground's Train view asks it).
/// A name that is not a string is a TypeError.
#[wasm_bindgen(js_name = splitOf, unchecked_return_type = "'train' | 'held-out'")]
pub fn split_of(#[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> Result<String, JsValue> {
    let name = args::string(&name, "name").map_err(to_js_error)?;
    Ok(crate::agents::programs::Split::of(&name).name().to_string())
}
