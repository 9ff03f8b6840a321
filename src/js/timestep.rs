//! tf_agents' TimeStep API for JavaScript. [`time_step_methods!`] writes the
//! common methods (`reset`, `step`, the specs, state...) on any exported
//! class whose `env` field implements [`TimeStepEnvironment`].

use super::specs::scalar_or_js;
use crate::env::TimeStep;
use crate::js::interop::object::set;
use js_sys::Object;
use std::cell::{Ref, RefCell, RefMut};
use wasm_bindgen::prelude::*;

/// The kind of a time step, with tf_agents' values.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepType {
    FIRST = 0,
    MID = 1,
    LAST = 2,
}

/// `{stepType, reward, discount, observation}`: numbers for an unbatched
/// environment, typed arrays with one entry per batch element for a batched one.
pub fn time_step_to_js(time_step: &TimeStep) -> JsValue {
    let object = Object::new();
    set(&object, "stepType", &scalar_or_js(&time_step.step_type));
    set(&object, "reward", &scalar_or_js(&time_step.reward));
    set(&object, "discount", &scalar_or_js(&time_step.discount));
    set(&object, "observation", &crate::js::interop::value::to_js(&time_step.observation));
    object.into()
}

/// The environment of a TimeStep class, borrowed for one call: a JS
/// callback that re-enters the object it was called from (a bandit's
/// `rewardFn` calling `env.step`) gets a ServiceError.
pub fn held<T>(env: &RefCell<T>) -> Result<Ref<'_, T>, JsValue> {
    env.try_borrow().map_err(|_| busy())
}

/// [`held`], to change the environment.
pub fn held_mut<T>(env: &RefCell<T>) -> Result<RefMut<'_, T>, JsValue> {
    env.try_borrow_mut().map_err(|_| busy())
}

/// The `episodes` (default 5) and `seed` (default 0) of a `validate` call.
pub fn episodes_and_seed(episodes: &JsValue, seed: &JsValue) -> Result<(usize, u64), JsValue> {
    let episodes =
        crate::js::interop::args::optional_count(episodes, "episodes").map_err(crate::js::to_js_error)?;
    let seed = crate::js::interop::args::optional_count(seed, "seed").map_err(crate::js::to_js_error)?;
    Ok((episodes.unwrap_or(5) as usize, seed.unwrap_or(0) as u64))
}

fn busy() -> JsValue {
    crate::js::to_js_error(crate::error::Error::service(
        "the environment is busy: a callback it is running cannot use it re-entrantly",
    ))
}

/// Writes the TimeStep API on `$class`, whose `env` field is a `RefCell` of
/// a `TimeStepEnvironment`. Actions are read guided by the action spec. The
/// TypeScript types of what differs between environments (shapes of
/// `js/typescript/timestep.rs`) are given as string literals.
macro_rules! time_step_methods {
    ($class:ident, $js_class:literal, {
        time_step: $time_step:tt,
        current_time_step: $current_time_step:tt,
        time_step_spec: $time_step_spec:tt,
        observation_spec: $observation_spec:tt,
        info: $info:tt $(,)?
    }) => {
        #[wasm_bindgen::prelude::wasm_bindgen(js_class = $js_class)]
        impl $class {
            /// Starts a new episode and returns its FIRST time step.
            #[wasm_bindgen(unchecked_return_type = $time_step)]
            pub fn reset(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                env.reset()
                    .map(|t| $crate::js::timestep::time_step_to_js(&t))
                    .map_err($crate::js::to_js_error)
            }

            /// Applies `action` (a number, an array or a typed array shaped like the
            /// action spec, with the batch dimension first when batched).
            #[wasm_bindgen(unchecked_return_type = $time_step)]
            pub fn step(
                &self,
                #[wasm_bindgen(unchecked_param_type = "NumbersInput")] action: wasm_bindgen::JsValue,
            ) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                let outer: Vec<usize> = env.batch_size().into_iter().collect();
                let action =
                    $crate::js::specs::js_to_spec_value(&action, &env.action_spec(), &outer, "action")
                        .map_err($crate::js::to_js_error)?;
                env.step(&action)
                    .map(|t| $crate::js::timestep::time_step_to_js(&t))
                    .map_err($crate::js::to_js_error)
            }

            /// The last time step returned, or `null` before the first reset.
            #[wasm_bindgen(js_name = currentTimeStep, unchecked_return_type = $current_time_step)]
            pub fn current_time_step(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({
                    env.current_time_step()
                        .map_or(wasm_bindgen::JsValue::NULL, $crate::js::timestep::time_step_to_js)
                })
            }

            #[wasm_bindgen(js_name = timeStepSpec, unchecked_return_type = $time_step_spec)]
            pub fn time_step_spec(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ $crate::js::specs::time_step_spec_to_js(&env.time_step_spec()) })
            }
            #[wasm_bindgen(js_name = actionSpec, unchecked_return_type = "BoundedArraySpec")]
            pub fn action_spec(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ $crate::js::specs::spec_to_js(&env.action_spec()) })
            }
            #[wasm_bindgen(js_name = observationSpec, unchecked_return_type = $observation_spec)]
            pub fn observation_spec(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ $crate::js::specs::spec_to_js(&env.observation_spec()) })
            }
            #[wasm_bindgen(js_name = rewardSpec, unchecked_return_type = "ArraySpec")]
            pub fn reward_spec(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ $crate::js::specs::spec_to_js(&env.reward_spec()) })
            }
            #[wasm_bindgen(js_name = discountSpec, unchecked_return_type = "BoundedArraySpec")]
            pub fn discount_spec(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ $crate::js::specs::spec_to_js(&env.discount_spec()) })
            }

            /// Info of the last step; a TypeError (`NotImplemented: ...`) if the environment has none.
            #[wasm_bindgen(js_name = getInfo, unchecked_return_type = $info)]
            pub fn get_info(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                env.get_info().map(|v| $crate::js::interop::value::to_js(&v)).map_err($crate::js::to_js_error)
            }

            /// An opaque, JSON-serialisable token that `setState` restores.
            #[wasm_bindgen(js_name = getState, unchecked_return_type = "EnvStateToken")]
            pub fn get_state(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                env.get_state()
                    .map(|s| $crate::js::interop::json::json_to_js(&s))
                    .map_err($crate::js::to_js_error)
            }
            #[wasm_bindgen(js_name = setState)]
            pub fn set_state(
                &self,
                #[wasm_bindgen(unchecked_param_type = "EnvStateToken")] state: wasm_bindgen::JsValue,
            ) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                let state = $crate::js::interop::json::js_to_json(&state, "state")
                    .map_err($crate::js::to_js_error)?;
                env.set_state(&state).map_err($crate::js::to_js_error)
            }

            /// Reseeds the environment (a non-negative integer or BigInt).
            pub fn seed(
                &self,
                #[wasm_bindgen(unchecked_param_type = "Seed")] seed: wasm_bindgen::JsValue,
            ) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                let seed = $crate::js::interop::numbers::js_to_u64(&seed, "seed")
                    .map_err($crate::js::to_js_error)?;
                env.seed(seed).map_err($crate::js::to_js_error)
            }

            #[wasm_bindgen(getter)]
            pub fn batched(&self) -> Result<bool, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ env.batched() })
            }
            /// The batch size, or `null` for an unbatched environment.
            #[wasm_bindgen(getter, js_name = batchSize)]
            pub fn batch_size(&self) -> Result<Option<u32>, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ env.batch_size().map(|b| b as u32) })
            }
            #[wasm_bindgen(getter, js_name = handleAutoReset)]
            pub fn handle_auto_reset(&self) -> Result<bool, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ env.handle_auto_reset() })
            }
            #[wasm_bindgen(getter)]
            pub fn name(&self) -> Result<String, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ env.name().to_string() })
            }

            /// Whether the next `step` resets (auto-reset on, and the current step is LAST).
            #[wasm_bindgen(js_name = shouldReset)]
            pub fn should_reset(&self) -> Result<bool, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let env = $crate::js::timestep::held(&self.env)?;
                Ok({ env.current_time_step().is_some_and(|t| env.should_reset(t)) })
            }

            /// Renders the environment; a TypeError (`NotImplemented: ...`) where
            /// unsupported, which is every environment of this package so far.
            #[wasm_bindgen(unchecked_return_type = "never")]
            pub fn render(
                &self,
                #[wasm_bindgen(unchecked_optional_param_type = "string | null")] mode: wasm_bindgen::JsValue,
            ) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mode = $crate::js::interop::args::optional_string(&mode, "mode")
                    .map_err($crate::js::to_js_error)?
                    .unwrap_or_else(|| "rgb_array".to_string());
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                env.render(&mode)
                    .map(|v| $crate::js::interop::value::to_js(&v))
                    .map_err($crate::js::to_js_error)
            }

            /// Releases what the environment holds; the object stays usable for reading.
            pub fn close(&self) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                env.close().map_err($crate::js::to_js_error)
            }
        }
    };
}

pub(crate) use time_step_methods;
