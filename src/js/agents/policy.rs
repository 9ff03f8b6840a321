//! `Policy` (a trained network: the bundled one, or read from its JSON) and
//! `PolicyPlayer` (one episode of it on a `CompilerEnv` of one's own, step
//! by step). The choices are the core's `agents::policy::play::Player`'s.

use super::convert::choice_json;
use super::search_agent::{agent_request, JsSearchAgent};
use crate::agents::policy::play::Player;
use crate::agents::policy::Policy;
use crate::error::{Error, Result};
use crate::js::env::compiler_env::JsCompilerEnv;
use crate::js::env::{borrow, borrow_mut, SharedEnv};
use crate::js::interop::json::json_to_js;
use crate::js::interop::object::{field, set};
use crate::js::to_js_error;
use js_sys::Object;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

/// A trained policy: `Policy.pretrained()` or `Policy.fromJson(text)`.
#[wasm_bindgen(js_name = Policy)]
pub struct JsPolicy {
    policy: Rc<Policy>,
}

impl JsPolicy {
    pub fn wrap(policy: Policy) -> JsPolicy {
        JsPolicy { policy: Rc::new(policy) }
    }
}

#[wasm_bindgen(js_class = Policy)]
impl JsPolicy {
    /// The policy that comes with compgym (ten minutes of training; see the README).
    pub fn pretrained() -> JsResult<JsPolicy> {
        Policy::pretrained().map(JsPolicy::wrap).map_err(to_js_error)
    }

    /// A saved policy (what `toJson()` or `compgym train` wrote); a
    /// ValueError says what is wrong with it.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> JsResult<JsPolicy> {
        crate::js::interop::args::string(&text, "a policy's JSON")
            .and_then(|text| Policy::from_json(&text))
            .map(JsPolicy::wrap)
            .map_err(to_js_error)
    }

    /// The policy as JSON, weights with f32 precision.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> JsResult<String> {
        self.policy.to_json().map_err(to_js_error)
    }

    /// The actions it chooses among, by name, in output order.
    #[wasm_bindgen(getter)]
    pub fn actions(&self) -> Vec<String> {
        self.policy.actions.clone()
    }

    /// The observation it reads (`"Autophase"`).
    #[wasm_bindgen(getter)]
    pub fn observation(&self) -> String {
        self.policy.observation.clone()
    }

    /// Steps per episode.
    #[wasm_bindgen(getter, js_name = episodeLength)]
    pub fn episode_length(&self) -> usize {
        self.policy.episode_length
    }

    /// The number of weights and biases.
    #[wasm_bindgen(getter)]
    pub fn parameters(&self) -> usize {
        self.policy.network.parameters()
    }

    /// How it was trained (free-form).
    #[wasm_bindgen(getter, unchecked_return_type = "Record<string, unknown> | null")]
    pub fn training(&self) -> JsValue {
        json_to_js(&self.policy.training)
    }

    /// An episode of the policy on `env`, from its current state.
    pub fn play(&self, env: &JsCompilerEnv) -> JsResult<JsPolicyPlayer> {
        let shared = env.shared().clone();
        let player =
            borrow(&shared).and_then(|e| Player::new(self.policy.clone(), &e)).map_err(to_js_error)?;
        Ok(JsPolicyPlayer { env: shared, player: RefCell::new(player) })
    }

    /// The policy's zero-shot rollout on a program as an agent: `options`
    /// are `SearchAgent`'s (`benchmark` or `source`, `rewardSpace`, ...).
    pub fn rollout(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AgentOptions")] options: JsValue,
    ) -> JsResult<JsSearchAgent> {
        let run = || -> Result<JsSearchAgent> {
            if !field(&options, "policy")?.is_undefined() {
                return Err(Error::type_error("rollout options cannot name another policy"));
            }
            let mut request = agent_request("policy", &options)?;
            request.policy = Some(self.policy.clone());
            JsSearchAgent::new_from(request)
        };
        run().map_err(to_js_error)
    }
}

/// One episode of a policy on a `CompilerEnv`: `act()` says what it would
/// do, `step()` does it.
#[wasm_bindgen(js_name = PolicyPlayer)]
pub struct JsPolicyPlayer {
    env: SharedEnv,
    player: RefCell<Player>,
}

fn busy() -> Error {
    Error::service("the player is busy")
}

#[wasm_bindgen(js_class = PolicyPlayer)]
impl JsPolicyPlayer {
    /// The action the policy takes in the environment's current state
    /// (`{action: name, index, probability}`), or null when the episode is over.
    #[wasm_bindgen(unchecked_return_type = "PolicyChoice | null")]
    pub fn act(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let mut player = self.player.try_borrow_mut().map_err(|_| busy())?;
            let env = borrow(&self.env)?;
            Ok(player.choose(&env)?.map_or(JsValue::NULL, |c| json_to_js(&choice_json(&c))))
        };
        run().map_err(to_js_error)
    }

    /// Takes the policy's action in the environment: the choice, whether it
    /// `changed` the program, `done`, and the compiler's `error` if the step
    /// failed; null when the episode is over.
    #[wasm_bindgen(unchecked_return_type = "PolicyStep | null")]
    pub fn step(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let mut player = self.player.try_borrow_mut().map_err(|_| busy())?;
            let mut env = borrow_mut(&self.env)?;
            let Some(played) = player.step(&mut env)? else { return Ok(JsValue::NULL) };
            let mut out = choice_json(&played.choice);
            out["changed"] = json!(played.changed);
            out["done"] = json!(played.done);
            let step = json_to_js(&out);
            let error = played.error.map_or(JsValue::NULL, to_js_error);
            if let Some(object) = wasm_bindgen::JsCast::dyn_ref::<Object>(&step) {
                set(object, "error", &error);
            }
            Ok(step)
        };
        run().map_err(to_js_error)
    }

    /// The episode is over.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> JsResult<bool> {
        self.player.try_borrow().map(|p| p.done()).map_err(|_| to_js_error(busy()))
    }

    /// Steps taken.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> JsResult<usize> {
        self.player.try_borrow().map(|p| p.steps()).map_err(|_| to_js_error(busy()))
    }
}
