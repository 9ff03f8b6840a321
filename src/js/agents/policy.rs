//! `Policy` (a trained network: a bundled one, or read from its JSON; its
//! `act(observation, info)` plays in any Gymnasium loop) and `PolicyPlayer`
//! (one episode of it on a `CompilerEnv` of one's own, step by step, then
//! its pipeline). The choices are the core's `agents::policy::play::Player`'s.

use super::convert::choice_json;
use super::search_agent::{agent_request, JsSearchAgent};
use crate::agents::policy::play::{Choice, Player};
use crate::agents::policy::{pretrained, Policy};
use crate::agents::task::Task;
use crate::error::{Error, Result};
use crate::js::env::compiler_env::JsCompilerEnv;
use crate::js::env::{borrow, borrow_mut, SharedEnv};
use crate::js::interop::json::json_to_js;
use crate::js::interop::numbers::js_to_array;
use crate::js::interop::object::{field, set};
use crate::js::to_js_error;
use crate::value::DType;
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
    /// The episode `act` is playing, and the choice it made last.
    acting: RefCell<Option<(Player, Option<Choice>)>>,
}

impl JsPolicy {
    pub fn wrap(policy: Policy) -> JsPolicy {
        JsPolicy { policy: Rc::new(policy), acting: RefCell::new(None) }
    }

    fn act_on(&self, observation: &JsValue, info: &JsValue) -> Result<JsValue> {
        let mut acting = self.acting.try_borrow_mut().map_err(|_| Error::service("the policy is busy"))?;
        let stepped = if info.is_undefined() || info.is_null() {
            None
        } else {
            let flag = field(info, "actionHadNoEffect")?;
            if flag.is_undefined() {
                None
            } else {
                Some(crate::js::interop::args::flag(&flag, "info.actionHadNoEffect")?)
            }
        };
        // A reset's info (no actionHadNoEffect) starts an episode.
        let (player, last) = match (acting.as_mut(), stepped) {
            (Some(state), Some(no_effect)) => {
                if let Some(choice) = state.1.take() {
                    state.0.record(&choice, !no_effect, false);
                }
                state
            }
            _ => acting.insert((Player::detached(self.policy.clone())?, None)),
        };
        let mask = if info.is_undefined() || info.is_null() {
            JsValue::UNDEFINED
        } else {
            field(info, "actionMask")?
        };
        if !mask.is_undefined() && !mask.is_null() {
            let n = crate::bril::passes::registry().len();
            let array = js_to_array(&mask, DType::F64, &[n], "info.actionMask")?;
            player.mask(&array.data().to_f64_vec().iter().map(|&m| m != 0.0).collect::<Vec<_>>())?;
        }
        let length = self.policy.observation_length;
        let observation =
            js_to_array(observation, DType::F64, &[length], "the observation").map_err(|e| {
                Error::new(
                    e.kind(),
                    format!("{} (the policy reads {:?}, raw counts)", e.message(), self.policy.observation),
                )
            })?;
        let choice = player.choose_for(&observation.data().to_f64_vec())?;
        let index = choice.as_ref().map_or(JsValue::NULL, |c| JsValue::from(c.env_action as u32));
        *last = choice;
        Ok(index)
    }
}

/// Makes `json` (a saved policy's text, as `Policy.fromJson` reads it) the
/// pretrained policy of its task, for `Policy.pretrained()` and the agents
/// that play or search with it; returns the task (`"size"` or `"runtime"`).
/// The package's `loadPretrained()` calls it with the policies it ships.
#[wasm_bindgen(js_name = registerPretrained, unchecked_return_type = "PolicyTask")]
pub fn register_pretrained(
    #[wasm_bindgen(unchecked_param_type = "string")] json: JsValue,
) -> JsResult<String> {
    crate::js::interop::args::string(&json, "a policy's JSON")
        .and_then(|text| pretrained::register(&text))
        .map(|task| task.short_name().to_string())
        .map_err(to_js_error)
}

#[wasm_bindgen(js_class = Policy)]
impl JsPolicy {
    /// A policy that comes with compgym: for `"size"` (the default) or
    /// `"runtime"` (see docs/learning.md for how each was trained). In a
    /// browser, `await loadPretrained()` first (a LookupError says so).
    pub fn pretrained(
        #[wasm_bindgen(unchecked_param_type = "PolicyTask | void")] task: JsValue,
    ) -> JsResult<JsPolicy> {
        let run = || -> Result<JsPolicy> {
            let task = match crate::js::interop::args::optional_string(&task, "the task")? {
                Some(name) => Task::by_name(&name)?,
                None => Task::CodeSize,
            };
            Policy::pretrained_for(task).map(JsPolicy::wrap)
        };
        run().map_err(to_js_error)
    }

    /// What it lowers: `"size"` (its episodes end with `-Oz`) or `"runtime"` (`-O2`).
    #[wasm_bindgen(getter, unchecked_return_type = "PolicyTask")]
    pub fn task(&self) -> String {
        self.policy.task.clone()
    }

    /// The pipeline that finishes its episodes (`"-Oz"` or `"-O2"`).
    #[wasm_bindgen(getter)]
    pub fn pipeline(&self) -> String {
        self.policy.task().map(|t| t.baseline_name().to_string()).unwrap_or_default()
    }

    /// The pass to take next in a Gymnasium loop, as an index into the Bril
    /// action space, or null when the policy stops (then run its
    /// `pipeline`, or `finish(env)`). `observation` is the environment's
    /// `observation` (the policy's, as raw counts: `"Features"`); `info` is
    /// what `reset` or `step` returned: a reset's info starts an episode, a
    /// step's tells whether the last choice changed the program, and its
    /// `actionMask`, when given, is honoured.
    #[wasm_bindgen(unchecked_return_type = "number | null")]
    pub fn act(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ArrayLike<number | bigint>")] observation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | void")] info: JsValue,
    ) -> JsResult<JsValue> {
        self.act_on(&observation, &info).map_err(to_js_error)
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

    /// The observation it reads (`"Features"`).
    #[wasm_bindgen(getter)]
    pub fn observation(&self) -> String {
        self.policy.observation.clone()
    }

    /// The most passes it runs before its pipeline.
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

    /// Runs the policy's pipeline once its passes are over (a ValueError
    /// before): the cost at the end, as its task measures it.
    pub fn finish(&self) -> JsResult<f64> {
        let run = || -> Result<f64> {
            let mut player = self.player.try_borrow_mut().map_err(|_| busy())?;
            let mut env = borrow_mut(&self.env)?;
            player.finish(&mut env)
        };
        run().map_err(to_js_error)
    }

    /// The policy's passes are over (it stopped, or its length is reached).
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
