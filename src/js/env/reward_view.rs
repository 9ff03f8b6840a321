//! `env.reward` for JavaScript: the reward spaces of an environment, and
//! rewards written in JS added to them.

use super::js_reward::JsReward;
use super::{borrow, borrow_mut, SharedEnv};
use crate::error::Result;
use crate::js::interop::object::set;
use crate::js::to_js_error;
use crate::rewards::Reward;
use crate::spaces::Kind;
use js_sys::Object;
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

/// The reward spaces of an environment: `get(name)` computes one now.
#[wasm_bindgen(js_name = RewardView)]
pub struct JsRewardView {
    env: SharedEnv,
}

impl JsRewardView {
    pub fn of_env(env: SharedEnv) -> JsRewardView {
        JsRewardView { env }
    }
}

/// A reward space as `{name, observationSpaces, range, defaultValue,
/// successThreshold, defaultNegatesReturns, deterministic, platformDependent}`.
fn reward_info(reward: &dyn Reward) -> JsValue {
    let s = reward.space();
    let object = Object::new();
    set(&object, "name", &JsValue::from(s.name()));
    let ids: js_sys::Array = s.observation_spaces().iter().map(|i| JsValue::from_str(i)).collect();
    set(&object, "observationSpaces", &JsValue::from(ids));
    let (lo, hi) = s.range();
    set(&object, "range", &JsValue::from(js_sys::Array::of2(&lo.into(), &hi.into())));
    set(&object, "defaultValue", &JsValue::from(s.default_value()));
    set(&object, "successThreshold", &s.success_threshold().map_or(JsValue::NULL, JsValue::from_f64));
    set(&object, "defaultNegatesReturns", &JsValue::from(s.default_negates_returns()));
    set(&object, "deterministic", &JsValue::from(s.deterministic()));
    set(&object, "platformDependent", &JsValue::from(s.platform_dependent()));
    object.into()
}

#[wasm_bindgen(js_class = RewardView)]
impl JsRewardView {
    #[wasm_bindgen(getter, unchecked_return_type = "RewardSpaceInfo[]")]
    pub fn spaces(&self) -> JsResult<JsValue> {
        let env = borrow(&self.env).map_err(to_js_error)?;
        Ok(env.reward_view().spaces().map(reward_info).collect::<js_sys::Array>().into())
    }

    /// Computes reward `name` now: the reward for what happened since it
    /// was last computed (LookupError if unknown, SessionNotFound before reset).
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> JsResult<f64> {
        let run = || -> Result<f64> {
            let name = crate::js::interop::args::string(&name, "name")?;
            borrow_mut(&self.env)?.reward(&name)
        };
        run().map_err(to_js_error)
    }

    /// Adds (or replaces) a reward written in JS (see `JsRewardObject`). Its
    /// observation spaces must exist (LookupError otherwise).
    #[wasm_bindgen(js_name = addSpace)]
    pub fn add_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "JsRewardObject")] reward: JsValue,
    ) -> JsResult<()> {
        let run = || -> Result<()> {
            let reward = JsReward::from_js(reward)?;
            let mut env = borrow_mut(&self.env)?;
            for id in reward.space().observation_spaces() {
                env.observation()
                    .position(id)
                    .map_err(|e| e.context(format!("reward {:?}", reward.name())))?;
            }
            env.add_reward_space(Box::new(reward))
        };
        run().map_err(to_js_error)
    }
}
