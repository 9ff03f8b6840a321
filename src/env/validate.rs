//! Checks that an environment keeps to its own specs, after tf_agents'
//! `validate_py_environment`: play episodes with random actions and check
//! every time step against the time step spec.

use super::specs::{check_value_batched, sample_spec_batched, TimeStepSpec};
use super::timestep::{StepType, TimeStep};
use super::timestep_env::TimeStepEnvironment;
use crate::error::Result;
use crate::rng::Rng;
use crate::value::Value;
use crate::{bail, ensure};

/// Most episodes one validation plays: far more than a check needs (tf_agents
/// plays 5 by default), far fewer than would run for hours. More is a
/// LimitError before any episode starts.
pub const MAX_EPISODES: usize = 10_000;

/// Plays `episodes` episodes (at most [`MAX_EPISODES`]) with actions sampled
/// uniformly from the action spec and checks every time step. An
/// environment whose episodes never end never returns, as in tf_agents.
///
/// Errors name the field and what was wrong (`observation.global: expected
/// shape [2, 3] ...`); a failing `reset` or `step` is returned as is.
pub fn validate_environment(env: &mut dyn TimeStepEnvironment, episodes: usize, rng: &mut Rng) -> Result<()> {
    let action_spec = env.action_spec();
    let outer = outer_dims(env)?;
    let mut random = |_: &TimeStep, rng: &mut Rng| sample_spec_batched(&action_spec, rng, &outer);
    validate_environment_with_policy(env, episodes, rng, &mut random)
}

/// [`validate_environment`] with actions chosen by `policy`: for
/// environments whose valid actions depend on the observation (a bandit with
/// fewer available arms than its action spec allows), as tf_agents'
/// `observation_and_action_constraint_splitter` does.
pub fn validate_environment_with_policy(
    env: &mut dyn TimeStepEnvironment,
    episodes: usize,
    rng: &mut Rng,
    policy: &mut dyn FnMut(&TimeStep, &mut Rng) -> Result<Value>,
) -> Result<()> {
    ensure!(
        episodes <= MAX_EPISODES,
        Limit,
        "episodes: {episodes} is more than the {MAX_EPISODES} one validation may play"
    );
    let spec = env.time_step_spec();
    let outer = outer_dims(env)?;
    let mut completed = 0;
    let mut time_step = reset(env)?;
    while completed < episodes {
        check_time_step(&spec, &time_step, &outer)?;
        ensure!(
            env.current_time_step() == Some(&time_step),
            Value,
            "current_time_step() differs from the time step the last reset or step returned"
        );
        let action = policy(&time_step, rng)?;
        time_step = env.step(&action)?;
        if time_step.is_last() {
            check_time_step(&spec, &time_step, &outer)?;
            completed += 1;
            time_step = reset(env)?;
        }
    }
    Ok(())
}

/// Resets and checks that the episode starts with a FIRST step.
fn reset(env: &mut dyn TimeStepEnvironment) -> Result<TimeStep> {
    let time_step = env.reset()?;
    if !time_step.is_first() {
        let got: Vec<&str> = time_step.step_types()?.into_iter().map(StepType::name).collect();
        bail!(Value, "reset must return a FIRST time step, got {got:?}");
    }
    Ok(time_step)
}

/// Checks the four fields of `time_step` against `spec`, with `outer_dims`
/// (the batch) before every leaf.
pub fn check_time_step(spec: &TimeStepSpec, time_step: &TimeStep, outer_dims: &[usize]) -> Result<()> {
    check_value_batched(&spec.step_type, &time_step.step_type, outer_dims, "step_type")?;
    time_step.step_types()?;
    check_value_batched(&spec.reward, &time_step.reward, outer_dims, "reward")?;
    check_value_batched(&spec.discount, &time_step.discount, outer_dims, "discount")?;
    check_value_batched(&spec.observation, &time_step.observation, outer_dims, "observation")
}

/// The batch dimension of a batched environment, none otherwise.
fn outer_dims(env: &dyn TimeStepEnvironment) -> Result<Vec<usize>> {
    match (env.batched(), env.batch_size()) {
        (false, _) => Ok(vec![]),
        (true, Some(b)) => Ok(vec![b]),
        (true, None) => bail!(Value, "environment {:?} is batched but has no batch_size", env.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::specs::{ArraySpec, BoundedArraySpec, Spec};
    use crate::env::timestep::float32_rewards;
    use crate::env::timestep_env::TimeStepEnvBase;
    use crate::value::{Array, ArrayData, DType};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A batched environment of `batch` walkers; episodes end after 3 steps.
    /// `bug` makes it break its specs in one way.
    struct Walk {
        base: TimeStepEnvBase,
        batch: usize,
        steps: usize,
        bug: Option<&'static str>,
        actions_seen: Vec<i32>,
    }

    impl Walk {
        fn new(batch: usize, bug: Option<&'static str>) -> Walk {
            Walk { base: TimeStepEnvBase::new(false), batch, steps: 0, bug, actions_seen: vec![] }
        }
        fn obs(&self) -> Value {
            let width = if self.bug == Some("obs shape") && self.steps == 2 { 3 } else { 2 };
            Value::Array(
                Array::new(vec![self.batch, width], ArrayData::F32(vec![0.0; self.batch * width])).unwrap(),
            )
        }
    }

    impl TimeStepEnvironment for Walk {
        fn base(&self) -> &TimeStepEnvBase {
            &self.base
        }
        fn base_mut(&mut self) -> &mut TimeStepEnvBase {
            &mut self.base
        }
        fn reset_impl(&mut self) -> Result<TimeStep> {
            self.steps = 0;
            let mut ts = TimeStep::restart(self.obs(), Some(self.batch), None)?;
            if self.bug == Some("reset mid") {
                ts.step_type = Value::Array(Array::vector(ArrayData::I32(vec![1; self.batch])));
            }
            Ok(ts)
        }
        fn step_impl(&mut self, action: &Value) -> Result<TimeStep> {
            if let Some(ArrayData::I32(v)) = action.as_array().map(|a| a.data()) {
                self.actions_seen.extend(v);
            }
            self.steps += 1;
            let reward = if self.bug == Some("reward dtype") {
                Value::Array(Array::vector(ArrayData::F64(vec![0.0; self.batch])))
            } else {
                float32_rewards(&vec![1.0; self.batch], Some(self.batch))?
            };
            if self.steps == 3 {
                TimeStep::termination(self.obs(), reward, Some(self.batch))
            } else {
                TimeStep::transition(self.obs(), reward, 1.0, Some(self.batch))
            }
        }
        fn observation_spec(&self) -> Spec {
            ArraySpec::new(vec![2], DType::F32).into()
        }
        fn action_spec(&self) -> Spec {
            BoundedArraySpec::new(vec![], DType::I32, 0i64, 4i64).unwrap().into()
        }
        fn batched(&self) -> bool {
            true
        }
        fn batch_size(&self) -> Option<usize> {
            (self.bug != Some("no batch size")).then_some(self.batch)
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_conforming_environment_passes_with_batched_random_actions() {
        let mut env = Walk::new(3, None);
        validate_environment(&mut env, 4, &mut Rng::seed_from_u64(1)).unwrap();
        // 4 episodes of 3 steps, 3 actions each, all within the action spec.
        assert_eq!(env.actions_seen.len(), 36);
        assert!(env.actions_seen.iter().all(|a| (0..=4).contains(a)));
        assert!(env.actions_seen.iter().any(|&a| a != env.actions_seen[0]));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn violations_name_the_field() {
        let cases = [
            (
                "obs shape",
                "ValueError",
                "observation: expected shape [3, 2] (batch dims [3] + spec shape [2]), got [3, 3]",
            ),
            ("reward dtype", "TypeError", "reward: expected dtype float32, got float64"),
            ("no batch size", "ValueError", "environment \"environment\" is batched but has no batch_size"),
            (
                "reset mid",
                "ValueError",
                "reset must return a FIRST time step, got [\"MID\", \"MID\", \"MID\"]",
            ),
        ];
        for (bug, kind, message) in cases {
            let mut env = Walk::new(3, Some(bug));
            let e = validate_environment(&mut env, 2, &mut Rng::seed_from_u64(1)).unwrap_err();
            assert_eq!((e.name(), e.message()), (kind, message), "{bug}");
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_policy_chooses_the_actions() {
        let mut env = Walk::new(2, None);
        let mut zeros =
            |_: &TimeStep, _: &mut Rng| Ok(Value::Array(Array::vector(ArrayData::I32(vec![0, 0]))));
        validate_environment_with_policy(&mut env, 1, &mut Rng::seed_from_u64(1), &mut zeros).unwrap();
        assert_eq!(env.actions_seen, [0; 6]);
    }
}
