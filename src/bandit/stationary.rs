//! tf_agents' `StationaryStochasticPerArmPyEnvironment`: every round, fresh
//! global and per-arm contexts; the reward of an arm is `reward_fn` of the
//! global context concatenated with the arm's features.
//!
//! As in tf_agents (`BanditPyEnvironment`), `reset` returns a FIRST time step
//! with the first observation, and every `step` returns a LAST time step
//! (discount 0) carrying the rewards of the actions *and the next
//! observation*; the environment does not auto-reset, so the next `step`
//! acts on that observation. With `num_actions_fn`, the observation has a
//! `num_actions` entry (NUM_ACTIONS_FEATURE) and only the first
//! `num_actions[b]` arms may be played.
//!
//! Contexts are float64 (callbacks speak JavaScript numbers); their
//! dimensions come from one probe sample of each function at construction,
//! like tf_agents' `ArraySpec.from_array`. `num_actions` is int32, like the
//! action.

use super::actions::{arm_action_spec, check_actions, parse_arm_actions};
use super::functions::{ContextSampler, NumActionsSampler, RewardFn};
use super::observation::{per_arm_observation_spec, PerArmObservation};
use super::state::{ObservationState, StationaryState, TimeStepState};
use crate::env::specs::Spec;
use crate::env::timestep::float32_rewards;
use crate::env::{EnvState, TimeStep, TimeStepEnvBase, TimeStepEnvironment};
use crate::error::{Error, Result};
use crate::limits;
use crate::rng::Rng;
use crate::value::Value;
use crate::{bail, ensure};

/// Callback names as the JavaScript options spell them, for error messages.
const GLOBAL_FN: &str = "globalContextSamplingFn";
const ARM_FN: &str = "armContextSamplingFn";
const REWARD_FN: &str = "rewardFn";
const NUM_ACTIONS_FN: &str = "numActionsFn";

/// Mixed into the seed for the probe draws that size the specs, so that
/// they leave the main stream alone: `seed(s)` then gives the same episode
/// as a fresh environment built with seed `s`.
const PROBE_SALT: u64 = 0x5350_4543_5052_4F42;

/// The options of [`StationaryStochasticPerArmEnvironment`], set with a builder.
pub struct StationaryStochasticPerArmBuilder {
    global_context_sampling_fn: Box<dyn ContextSampler>,
    arm_context_sampling_fn: Box<dyn ContextSampler>,
    max_num_actions: usize,
    reward_fn: Box<dyn RewardFn>,
    num_actions_fn: Option<Box<dyn NumActionsSampler>>,
    batch_size: usize,
    name: String,
    seed: u64,
}

impl StationaryStochasticPerArmBuilder {
    /// Makes the number of arms vary per sample (NUM_ACTIONS_FEATURE).
    pub fn num_actions_fn(mut self, f: impl NumActionsSampler + 'static) -> Self {
        self.num_actions_fn = Some(Box::new(f));
        self
    }
    /// Samples per step (default 1).
    pub fn batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size;
        self
    }
    /// Default `stationary_stochastic_per_arm`.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
    /// Default 0.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Checks the options and sizes the specs from one probe sample of each
    /// context function. Errors: ValueError for a non-positive batch size or
    /// `max_num_actions`, or a probe sample that is not finite.
    pub fn build(mut self) -> Result<StationaryStochasticPerArmEnvironment> {
        let k = self.max_num_actions;
        ensure!(self.batch_size >= 1, Value, "batch_size must be at least 1, got {}", self.batch_size);
        ensure!(k >= 1, Value, "max_num_actions must be at least 1, got {k}");
        ensure!(k <= i32::MAX as usize, Value, "max_num_actions must fit the int32 action, got {k}");
        let mut probe = Rng::seed_from_u64(self.seed ^ PROBE_SALT);
        let global_dim =
            sample_context(&mut *self.global_context_sampling_fn, &mut probe, None, GLOBAL_FN)?.len();
        let arm_dim = sample_context(&mut *self.arm_context_sampling_fn, &mut probe, None, ARM_FN)?.len();
        // One observation: per sample a global context and `k` arm contexts.
        let per_sample = limits::bytes_of(k, arm_dim as u64).saturating_add(global_dim as u64 + 1);
        limits::check_bytes(
            limits::bytes(limits::bytes_of(self.batch_size, per_sample), 8),
            format_args!("an observation of batch_size {} with {k} arms", self.batch_size),
        )?;
        Ok(StationaryStochasticPerArmEnvironment {
            base: TimeStepEnvBase::new(false),
            global_context_sampling_fn: self.global_context_sampling_fn,
            arm_context_sampling_fn: self.arm_context_sampling_fn,
            reward_fn: self.reward_fn,
            num_actions_fn: self.num_actions_fn,
            max_num_actions: k,
            batch_size: self.batch_size,
            name: self.name,
            global_dim,
            arm_dim,
            rng: Rng::seed_from_u64(self.seed),
            observation: None,
        })
    }
}

/// The stationary stochastic per-arm bandit. See the module docs.
pub struct StationaryStochasticPerArmEnvironment {
    base: TimeStepEnvBase,
    global_context_sampling_fn: Box<dyn ContextSampler>,
    arm_context_sampling_fn: Box<dyn ContextSampler>,
    reward_fn: Box<dyn RewardFn>,
    num_actions_fn: Option<Box<dyn NumActionsSampler>>,
    max_num_actions: usize,
    batch_size: usize,
    name: String,
    global_dim: usize,
    arm_dim: usize,
    rng: Rng,
    /// The observation the next action applies to; `None` before the first reset.
    observation: Option<PerArmObservation>,
}

impl StationaryStochasticPerArmEnvironment {
    /// Starts a builder with the four required options.
    pub fn builder(
        global_context_sampling_fn: impl ContextSampler + 'static,
        arm_context_sampling_fn: impl ContextSampler + 'static,
        max_num_actions: usize,
        reward_fn: impl RewardFn + 'static,
    ) -> StationaryStochasticPerArmBuilder {
        StationaryStochasticPerArmBuilder {
            global_context_sampling_fn: Box::new(global_context_sampling_fn),
            arm_context_sampling_fn: Box::new(arm_context_sampling_fn),
            max_num_actions,
            reward_fn: Box::new(reward_fn),
            num_actions_fn: None,
            batch_size: 1,
            name: "stationary_stochastic_per_arm".to_string(),
            seed: 0,
        }
    }

    pub fn max_num_actions(&self) -> usize {
        self.max_num_actions
    }
    pub fn global_dim(&self) -> usize {
        self.global_dim
    }
    pub fn arm_dim(&self) -> usize {
        self.arm_dim
    }
    pub fn has_num_actions(&self) -> bool {
        self.num_actions_fn.is_some()
    }

    /// The observation the next action applies to; `None` before the first reset.
    pub fn observation(&self) -> Option<&PerArmObservation> {
        self.observation.as_ref()
    }

    /// The expected reward of `actions` (one per sample) on the current
    /// observation. Needs a reward function with an expected value (the
    /// built-in linear reward has one); otherwise a `NotImplemented:` TypeError.
    pub fn expected_rewards(&self, actions: &[usize]) -> Result<Vec<f64>> {
        let obs = self.current_observation()?;
        check_actions(obs, actions)?;
        actions
            .iter()
            .enumerate()
            .map(|(b, &a)| {
                self.reward_fn.expected_reward(&obs.features(b, a)).map_err(|e| e.context(REWARD_FN))
            })
            .collect()
    }

    /// The best available arm per sample by expected reward (ties: the lowest index).
    pub fn optimal_actions(&self) -> Result<Vec<usize>> {
        Ok(self.optimum()?.into_iter().map(|(a, _)| a).collect())
    }

    /// The best expected reward per sample among the available arms.
    pub fn optimal_expected_rewards(&self) -> Result<Vec<f64>> {
        Ok(self.optimum()?.into_iter().map(|(_, r)| r).collect())
    }

    fn optimum(&self) -> Result<Vec<(usize, f64)>> {
        let obs = self.current_observation()?;
        (0..obs.batch_size())
            .map(|b| {
                let mut best = (0, f64::NEG_INFINITY);
                for a in 0..obs.available(b) {
                    let r = self
                        .reward_fn
                        .expected_reward(&obs.features(b, a))
                        .map_err(|e| e.context(REWARD_FN))?;
                    if r > best.1 {
                        best = (a, r);
                    }
                }
                Ok(best)
            })
            .collect()
    }

    fn current_observation(&self) -> Result<&PerArmObservation> {
        self.observation.as_ref().ok_or_else(|| Error::value("there is no observation yet: call reset first"))
    }

    /// Draws a fresh observation (all globals, then all arms, then the arm
    /// counts, as tf_agents does) from `rng`.
    fn observe(&mut self, rng: &mut Rng) -> Result<PerArmObservation> {
        let (b, k) = (self.batch_size, self.max_num_actions);
        let mut global = Vec::with_capacity(b * self.global_dim);
        for _ in 0..b {
            global.extend(sample_context(
                &mut *self.global_context_sampling_fn,
                rng,
                Some(self.global_dim),
                GLOBAL_FN,
            )?);
        }
        let mut per_arm = Vec::with_capacity(b * k * self.arm_dim);
        for _ in 0..b * k {
            per_arm.extend(sample_context(
                &mut *self.arm_context_sampling_fn,
                rng,
                Some(self.arm_dim),
                ARM_FN,
            )?);
        }
        let num_actions = match &mut self.num_actions_fn {
            None => None,
            Some(f) => {
                let mut counts = Vec::with_capacity(b);
                for _ in 0..b {
                    let n = f.sample(rng).map_err(|e| e.context(NUM_ACTIONS_FN))?;
                    // Capped to [1, K] as in tf_agents.
                    counts.push(n.clamp(1, k as i64) as i32);
                }
                Some(counts)
            }
        };
        PerArmObservation::new(b, k, global, per_arm, num_actions)
    }

    fn state(&self) -> StationaryState {
        let current = self.base.current_time_step();
        StationaryState {
            kind: StationaryState::KIND.to_string(),
            version: StationaryState::VERSION,
            rng: self.rng.to_hex_words(),
            batch_size: self.batch_size,
            max_num_actions: self.max_num_actions,
            global_dim: self.global_dim,
            arm_dim: self.arm_dim,
            observation: self.observation.as_ref().map(ObservationState::from_observation),
            time_step: current.and_then(|ts| TimeStepState::from_time_step(ts).ok()),
        }
    }

    fn restore(&mut self, state: StationaryState) -> Result<()> {
        ensure!(
            state.kind == StationaryState::KIND && state.version == StationaryState::VERSION,
            Value,
            "state: expected a {} token of version {}, got {:?} version {}",
            StationaryState::KIND,
            StationaryState::VERSION,
            state.kind,
            state.version
        );
        let shape = (state.batch_size, state.max_num_actions, state.global_dim, state.arm_dim);
        let ours = (self.batch_size, self.max_num_actions, self.global_dim, self.arm_dim);
        ensure!(
            shape == ours,
            Value,
            "state: made for (batch_size, max_num_actions, global_dim, arm_dim) = {shape:?}, this environment has {ours:?}"
        );
        let rng = Rng::from_hex_words(&state.rng)?;
        let observation = match state.observation {
            None => None,
            Some(o) => Some(o.into_observation(
                self.batch_size,
                self.max_num_actions,
                (self.global_dim, self.arm_dim),
                self.has_num_actions(),
            )?),
        };
        let time_step = match (state.time_step, &observation) {
            (None, _) => None,
            (Some(ts), Some(obs)) => Some(ts.into_time_step(obs.to_value()?, self.batch_size)?),
            (Some(_), None) => bail!(Value, "state: a time step without an observation"),
        };
        self.rng = rng;
        self.observation = observation;
        self.base.set_current_time_step(time_step);
        Ok(())
    }
}

/// Calls a context function and checks its output: `expected` values (any
/// number on the probe call), all finite.
fn sample_context(
    f: &mut dyn ContextSampler,
    rng: &mut Rng,
    expected: Option<usize>,
    name: &str,
) -> Result<Vec<f64>> {
    let x = f.sample(rng).map_err(|e| e.context(name))?;
    if let Some(n) = expected {
        ensure!(
            x.len() == n,
            Value,
            "{name} returned {} values; expected {n} (the size of its first sample)",
            x.len()
        );
    }
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        bail!(Value, "{name} returned {} at index {i}; expected finite numbers", x[i]);
    }
    Ok(x)
}

impl TimeStepEnvironment for StationaryStochasticPerArmEnvironment {
    fn base(&self) -> &TimeStepEnvBase {
        &self.base
    }
    fn base_mut(&mut self) -> &mut TimeStepEnvBase {
        &mut self.base
    }

    fn reset_impl(&mut self) -> Result<TimeStep> {
        // Draw on a copy and commit only on success: a failing callback
        // leaves the environment as it was.
        let mut rng = self.rng;
        let obs = self.observe(&mut rng)?;
        let time_step = TimeStep::restart(obs.to_value()?, Some(self.batch_size), Some(&self.reward_spec()))?;
        self.rng = rng;
        self.observation = Some(obs);
        Ok(time_step)
    }

    fn step_impl(&mut self, action: &Value) -> Result<TimeStep> {
        let obs = self.current_observation()?.clone();
        let actions = parse_arm_actions(action, self.batch_size)?;
        check_actions(&obs, &actions)?;
        let mut rng = self.rng;
        let mut rewards = Vec::with_capacity(self.batch_size);
        for (b, &a) in actions.iter().enumerate() {
            let r = self.reward_fn.reward(&obs.features(b, a), &mut rng).map_err(|e| e.context(REWARD_FN))?;
            ensure!(
                r.is_finite(),
                Value,
                "{REWARD_FN} returned {r} for sample {b}; expected a finite number"
            );
            rewards.push(r);
        }
        let next = self.observe(&mut rng)?;
        let time_step = TimeStep::termination(
            next.to_value()?,
            float32_rewards(&rewards, Some(self.batch_size))?,
            Some(self.batch_size),
        )?;
        self.rng = rng;
        self.observation = Some(next);
        Ok(time_step)
    }

    fn observation_spec(&self) -> Spec {
        per_arm_observation_spec(self.global_dim, self.max_num_actions, self.arm_dim, self.has_num_actions())
    }

    /// `BoundedArraySpec((), int32, 0, K - 1)` per sample.
    fn action_spec(&self) -> Spec {
        arm_action_spec(self.max_num_actions)
    }

    fn name(&self) -> &str {
        &self.name
    }
    fn batched(&self) -> bool {
        true
    }
    fn batch_size(&self) -> Option<usize> {
        Some(self.batch_size)
    }

    /// The token, as JSON: see [`StationaryState`] for the format.
    fn get_state(&self) -> Result<EnvState> {
        super::state::encode_token(&self.state())
    }

    fn set_state(&mut self, state: &EnvState) -> Result<()> {
        self.restore(super::state::decode_token::<StationaryState>(state, StationaryState::KIND)?)
    }

    fn seed(&mut self, seed: u64) -> Result<()> {
        self.rng = Rng::seed_from_u64(seed);
        Ok(())
    }
}

#[cfg(test)]
#[path = "stationary_tests.rs"]
mod tests;
