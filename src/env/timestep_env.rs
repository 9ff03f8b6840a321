//! The TimeStep-style environment API, after tf_agents' `PyEnvironment`.
//!
//! An implementation supplies the specs and two hooks, [`reset_impl`] and
//! [`step_impl`] (tf_agents' `_reset` and `_step`), and keeps a
//! [`TimeStepEnvBase`] for the state the base class holds in Python. The
//! provided [`reset`] and [`step`] add the shared behaviour and should not be
//! overridden:
//!
//! - `reset` caches the first time step as the current one;
//! - `step` before any `reset` resets instead and ignores the action;
//! - `step` when [`should_reset`] holds (by default: `handle_auto_reset` is
//!   on and every element of the current time step is LAST) resets instead
//!   and ignores the action.
//!
//! Optional methods an environment does not support (`get_info`,
//! `get_state`, `set_state`, `seed`, `render`) return a **TypeError** whose
//! message starts with `NotImplemented:` (tf_agents raises
//! `NotImplementedError`; like Python's "object does not support ..." it is
//! the environment's type that lacks the operation). See [`not_implemented`].
//!
//! [`reset_impl`]: TimeStepEnvironment::reset_impl
//! [`step_impl`]: TimeStepEnvironment::step_impl
//! [`reset`]: TimeStepEnvironment::reset
//! [`step`]: TimeStepEnvironment::step
//! [`should_reset`]: TimeStepEnvironment::should_reset

use super::specs::{default_discount_spec, default_reward_spec, Spec, TimeStepSpec};
use super::timestep::TimeStep;
use crate::error::{Error, Result};
use crate::value::Value;

/// The opaque state token of [`TimeStepEnvironment::get_state`]: plain JSON,
/// so it survives `JSON.stringify` and `JSON.parse` unchanged. Callers must
/// not rely on its contents; each environment documents its format.
pub type EnvState = serde_json::Value;

/// The state tf_agents' base class keeps for every environment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeStepEnvBase {
    current_time_step: Option<TimeStep>,
    handle_auto_reset: bool,
}

impl TimeStepEnvBase {
    /// `handle_auto_reset`: whether `step` itself resets after a LAST step.
    pub fn new(handle_auto_reset: bool) -> TimeStepEnvBase {
        TimeStepEnvBase { current_time_step: None, handle_auto_reset }
    }
    pub fn current_time_step(&self) -> Option<&TimeStep> {
        self.current_time_step.as_ref()
    }
    /// Replaces the cached time step: for `set_state` implementations.
    pub fn set_current_time_step(&mut self, time_step: Option<TimeStep>) {
        self.current_time_step = time_step;
    }
    pub fn handle_auto_reset(&self) -> bool {
        self.handle_auto_reset
    }
}

/// The error of an optional method an environment does not support.
pub fn not_implemented(env_name: &str, method: &str) -> Error {
    Error::type_error(format!("NotImplemented: environment {env_name:?} does not support {method}"))
}

/// A reinforcement-learning environment that speaks in [`TimeStep`]s.
///
/// Object safe: the JS layer and [`validate_environment`](super::validate_environment)
/// hold it as `dyn TimeStepEnvironment`.
pub trait TimeStepEnvironment {
    /// The state shared by every environment (current time step, auto-reset flag).
    fn base(&self) -> &TimeStepEnvBase;
    fn base_mut(&mut self) -> &mut TimeStepEnvBase;

    /// Starts a new episode and returns its FIRST time step (`_reset`).
    fn reset_impl(&mut self) -> Result<TimeStep>;

    /// Applies `action` and returns the next time step (`_step`).
    fn step_impl(&mut self, action: &Value) -> Result<TimeStep>;

    /// What observations look like (per batch element when batched).
    fn observation_spec(&self) -> Spec;

    /// What actions look like (per batch element when batched).
    fn action_spec(&self) -> Spec;

    /// A name for messages.
    fn name(&self) -> &str {
        "environment"
    }

    /// What rewards look like: a float32 scalar by default.
    fn reward_spec(&self) -> Spec {
        default_reward_spec()
    }

    /// What discounts look like: a float32 scalar in `[0, 1]` by default.
    fn discount_spec(&self) -> Spec {
        default_discount_spec()
    }

    /// The specs of the four time step fields, from the other specs.
    /// Unlike tf_agents, an overridden `discount_spec` is honoured here too.
    fn time_step_spec(&self) -> TimeStepSpec {
        let mut spec = super::specs::time_step_spec(self.observation_spec(), Some(self.reward_spec()));
        spec.discount = self.discount_spec();
        spec
    }

    /// Whether actions, observations and time steps carry a leading batch dimension.
    fn batched(&self) -> bool {
        false
    }

    /// The batch size of a batched environment, `None` otherwise.
    fn batch_size(&self) -> Option<usize> {
        None
    }

    /// Whether `step` resets by itself after an episode ends.
    fn handle_auto_reset(&self) -> bool {
        self.base().handle_auto_reset()
    }

    /// Whether `step` should reset instead of acting, given the current time
    /// step: by default when auto-reset is handled and every element is LAST.
    fn should_reset(&self, current_time_step: &TimeStep) -> bool {
        self.handle_auto_reset() && current_time_step.is_last()
    }

    /// The last time step returned by `reset` or `step`; `None` before the first.
    fn current_time_step(&self) -> Option<&TimeStep> {
        self.base().current_time_step()
    }

    /// Starts a new episode; the result is also the current time step.
    fn reset(&mut self) -> Result<TimeStep> {
        let time_step = self.reset_impl()?;
        self.base_mut().set_current_time_step(Some(time_step.clone()));
        Ok(time_step)
    }

    /// Acts, or resets (ignoring `action`) before the first reset and when
    /// [`should_reset`](Self::should_reset) holds. A failed step leaves the
    /// current time step as it was.
    fn step(&mut self, action: &Value) -> Result<TimeStep> {
        let must_reset = match self.current_time_step() {
            None => true,
            Some(current) => self.should_reset(current),
        };
        if must_reset {
            return self.reset();
        }
        let time_step = self.step_impl(action)?;
        self.base_mut().set_current_time_step(Some(time_step.clone()));
        Ok(time_step)
    }

    /// Information about the last step.
    fn get_info(&self) -> Result<Value> {
        Err(not_implemented(self.name(), "get_info"))
    }

    /// A token that [`set_state`](Self::set_state) restores exactly.
    fn get_state(&self) -> Result<EnvState> {
        Err(not_implemented(self.name(), "get_state"))
    }

    fn set_state(&mut self, state: &EnvState) -> Result<()> {
        let _ = state;
        Err(not_implemented(self.name(), "set_state"))
    }

    /// Reseeds the environment's random draws.
    fn seed(&mut self, seed: u64) -> Result<()> {
        let _ = seed;
        Err(not_implemented(self.name(), "seed"))
    }

    /// Renders the environment (`mode` as in tf_agents: `rgb_array`, `human`).
    fn render(&mut self, mode: &str) -> Result<Value> {
        let _ = mode;
        Err(not_implemented(self.name(), "render"))
    }

    /// Frees resources; a no-op by default.
    fn close(&mut self) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::specs::{ArraySpec, BoundedArraySpec};
    use crate::env::timestep::float32_rewards;
    use crate::value::{Array, ArrayData, DType};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Counts up by the action; the episode ends when the count reaches 3.
    struct Counter {
        base: TimeStepEnvBase,
        count: i64,
        resets: usize,
    }

    impl Counter {
        fn new(handle_auto_reset: bool) -> Counter {
            Counter { base: TimeStepEnvBase::new(handle_auto_reset), count: 0, resets: 0 }
        }
        fn obs(&self) -> Value {
            Value::Array(Array::new(vec![], ArrayData::I64(vec![self.count])).unwrap())
        }
    }

    impl TimeStepEnvironment for Counter {
        fn base(&self) -> &TimeStepEnvBase {
            &self.base
        }
        fn base_mut(&mut self) -> &mut TimeStepEnvBase {
            &mut self.base
        }
        fn reset_impl(&mut self) -> Result<TimeStep> {
            self.count = 0;
            self.resets += 1;
            TimeStep::restart(self.obs(), None, None)
        }
        fn step_impl(&mut self, action: &Value) -> Result<TimeStep> {
            let a = action.as_array().map(|a| a.data().get_f64(0) as i64).unwrap_or(0);
            self.count += a;
            let r = float32_rewards(&[a as f64], None)?;
            if self.count >= 3 {
                TimeStep::termination(self.obs(), r, None)
            } else {
                TimeStep::transition(self.obs(), r, 1.0, None)
            }
        }
        fn observation_spec(&self) -> Spec {
            ArraySpec::new(vec![], DType::I64).into()
        }
        fn action_spec(&self) -> Spec {
            BoundedArraySpec::new(vec![], DType::I64, 0i64, 2i64).unwrap().into()
        }
    }

    fn action(a: i64) -> Value {
        Value::Array(Array::new(vec![], ArrayData::I64(vec![a])).unwrap())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn first_step_without_reset_resets_and_ignores_the_action() {
        let mut env = Counter::new(false);
        assert!(env.current_time_step().is_none());
        let ts = env.step(&action(2)).unwrap();
        assert!(ts.is_first());
        assert_eq!(env.count, 0);
        assert_eq!(env.resets, 1);
        assert_eq!(env.current_time_step(), Some(&ts));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn auto_reset_after_last_ignores_the_action() {
        let mut env = Counter::new(true);
        env.reset().unwrap();
        assert!(env.step(&action(2)).unwrap().is_mid());
        assert!(env.step(&action(2)).unwrap().is_last());
        let ts = env.step(&action(2)).unwrap();
        assert!(ts.is_first());
        assert_eq!((env.count, env.resets), (0, 2));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn without_auto_reset_a_step_after_last_goes_to_the_environment() {
        let mut env = Counter::new(false);
        env.reset().unwrap();
        env.step(&action(2)).unwrap();
        assert!(env.step(&action(2)).unwrap().is_last());
        let ts = env.step(&action(1)).unwrap();
        assert!(ts.is_last());
        assert_eq!((env.count, env.resets), (5, 1));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn optional_methods_say_they_are_not_implemented() {
        let mut env = Counter::new(false);
        for e in [
            env.get_info().unwrap_err(),
            env.get_state().unwrap_err(),
            env.set_state(&serde_json::Value::Null).unwrap_err(),
            env.seed(1).unwrap_err(),
            env.render("rgb_array").unwrap_err(),
        ] {
            assert_eq!(e.name(), "TypeError");
            assert!(e.message().starts_with("NotImplemented:"), "{e}");
        }
        assert!(env.close().is_ok());
        assert!(!env.batched());
        assert_eq!(env.batch_size(), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn default_time_step_spec_has_tf_agents_fields() {
        let env = Counter::new(false);
        let spec = env.time_step_spec();
        assert_eq!(spec.step_type.array_spec().unwrap().dtype(), DType::I32);
        assert_eq!(spec.reward.array_spec().unwrap().dtype(), DType::F32);
        let Spec::Bounded(d) = &spec.discount else { panic!("discount must be bounded") };
        assert_eq!((d.dtype(), d.shape()), (DType::F32, &[][..]));
        assert_eq!(d.maximum_array().unwrap().data().get_f64(0), 1.0);
    }
}
