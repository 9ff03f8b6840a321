//! tf_agents' TimeStep API for JavaScript. [`time_step_methods!`] writes the
//! common methods (`reset`, `step`, the specs, state...) on any exported
//! class whose `env` field implements [`TimeStepEnvironment`].

use super::specs::scalar_or_js;
use crate::env::TimeStep;
use crate::js::interop::object::set;
use js_sys::Object;
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

/// Writes the TimeStep API on `$class`, whose `env` field implements
/// `TimeStepEnvironment`. Actions are read guided by the action spec. The
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
            pub fn reset(&mut self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                self.env
                    .reset()
                    .map(|t| $crate::js::timestep::time_step_to_js(&t))
                    .map_err($crate::js::to_js_error)
            }

            /// Applies `action` (a number, an array or a typed array shaped like the
            /// action spec, with the batch dimension first when batched).
            #[wasm_bindgen(unchecked_return_type = $time_step)]
            pub fn step(
                &mut self,
                #[wasm_bindgen(unchecked_param_type = "NumbersInput")] action: wasm_bindgen::JsValue,
            ) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let outer: Vec<usize> = self.env.batch_size().into_iter().collect();
                let action =
                    $crate::js::specs::js_to_spec_value(&action, &self.env.action_spec(), &outer, "action")
                        .map_err($crate::js::to_js_error)?;
                self.env
                    .step(&action)
                    .map(|t| $crate::js::timestep::time_step_to_js(&t))
                    .map_err($crate::js::to_js_error)
            }

            /// The last time step returned, or `null` before the first reset.
            #[wasm_bindgen(js_name = currentTimeStep, unchecked_return_type = $current_time_step)]
            pub fn current_time_step(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                self.env
                    .current_time_step()
                    .map_or(wasm_bindgen::JsValue::NULL, $crate::js::timestep::time_step_to_js)
            }

            #[wasm_bindgen(js_name = timeStepSpec, unchecked_return_type = $time_step_spec)]
            pub fn time_step_spec(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                $crate::js::specs::time_step_spec_to_js(&self.env.time_step_spec())
            }
            #[wasm_bindgen(js_name = actionSpec, unchecked_return_type = "BoundedArraySpec")]
            pub fn action_spec(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                $crate::js::specs::spec_to_js(&self.env.action_spec())
            }
            #[wasm_bindgen(js_name = observationSpec, unchecked_return_type = $observation_spec)]
            pub fn observation_spec(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                $crate::js::specs::spec_to_js(&self.env.observation_spec())
            }
            #[wasm_bindgen(js_name = rewardSpec, unchecked_return_type = "ArraySpec")]
            pub fn reward_spec(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                $crate::js::specs::spec_to_js(&self.env.reward_spec())
            }
            #[wasm_bindgen(js_name = discountSpec, unchecked_return_type = "BoundedArraySpec")]
            pub fn discount_spec(&self) -> wasm_bindgen::JsValue {
                use crate::env::TimeStepEnvironment;
                $crate::js::specs::spec_to_js(&self.env.discount_spec())
            }

            /// Info of the last step; a TypeError (`NotImplemented: ...`) if the environment has none.
            #[wasm_bindgen(js_name = getInfo, unchecked_return_type = $info)]
            pub fn get_info(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                self.env
                    .get_info()
                    .map(|v| $crate::js::interop::value::to_js(&v))
                    .map_err($crate::js::to_js_error)
            }

            /// An opaque, JSON-serialisable token that `setState` restores.
            #[wasm_bindgen(js_name = getState, unchecked_return_type = "EnvStateToken")]
            pub fn get_state(&self) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                self.env
                    .get_state()
                    .map(|s| $crate::js::interop::json::json_to_js(&s))
                    .map_err($crate::js::to_js_error)
            }
            #[wasm_bindgen(js_name = setState)]
            pub fn set_state(
                &mut self,
                #[wasm_bindgen(unchecked_param_type = "EnvStateToken")] state: wasm_bindgen::JsValue,
            ) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let state = $crate::js::interop::json::js_to_json(&state, "state")
                    .map_err($crate::js::to_js_error)?;
                self.env.set_state(&state).map_err($crate::js::to_js_error)
            }

            /// Reseeds the environment (a non-negative integer or BigInt).
            pub fn seed(
                &mut self,
                #[wasm_bindgen(unchecked_param_type = "Seed")] seed: wasm_bindgen::JsValue,
            ) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let seed = $crate::js::interop::numbers::js_to_u64(&seed, "seed")
                    .map_err($crate::js::to_js_error)?;
                self.env.seed(seed).map_err($crate::js::to_js_error)
            }

            #[wasm_bindgen(getter)]
            pub fn batched(&self) -> bool {
                use crate::env::TimeStepEnvironment;
                self.env.batched()
            }
            /// The batch size, or `null` for an unbatched environment.
            #[wasm_bindgen(getter, js_name = batchSize)]
            pub fn batch_size(&self) -> Option<u32> {
                use crate::env::TimeStepEnvironment;
                self.env.batch_size().map(|b| b as u32)
            }
            #[wasm_bindgen(getter, js_name = handleAutoReset)]
            pub fn handle_auto_reset(&self) -> bool {
                use crate::env::TimeStepEnvironment;
                self.env.handle_auto_reset()
            }
            #[wasm_bindgen(getter)]
            pub fn name(&self) -> String {
                use crate::env::TimeStepEnvironment;
                self.env.name().to_string()
            }

            /// Whether the next `step` resets (auto-reset on, and the current step is LAST).
            #[wasm_bindgen(js_name = shouldReset)]
            pub fn should_reset(&self) -> bool {
                use crate::env::TimeStepEnvironment;
                self.env.current_time_step().is_some_and(|t| self.env.should_reset(t))
            }

            /// Renders the environment; a TypeError (`NotImplemented: ...`) where
            /// unsupported, which is every environment of this package so far.
            #[wasm_bindgen(unchecked_return_type = "never")]
            pub fn render(
                &mut self,
                mode: Option<String>,
            ) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                let mode = mode.unwrap_or_else(|| "rgb_array".to_string());
                self.env
                    .render(&mode)
                    .map(|v| $crate::js::interop::value::to_js(&v))
                    .map_err($crate::js::to_js_error)
            }

            /// Releases what the environment holds; the object stays usable for reading.
            pub fn close(&mut self) -> Result<(), wasm_bindgen::JsValue> {
                use crate::env::TimeStepEnvironment;
                self.env.close().map_err($crate::js::to_js_error)
            }
        }
    };
}

pub(crate) use time_step_methods;
