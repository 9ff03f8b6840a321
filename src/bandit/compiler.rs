//! The compiler bandit: a per-arm contextual bandit whose arms are the Bril
//! passes and whose contexts are programs.
//!
//! Every round draws a program per sample, uniformly from the program set
//! (the bundled suite by default) with the environment's seeded generator.
//! The observation has the per-arm layout of [`super::observation`]:
//!
//! - `global` `[B, dg]`: the program's Autophase features, each squashed as
//!   `ln(1 + x)` so that counts from tiny and large programs share a scale
//!   (dg = [`autophase::LEN`]);
//! - `per_arm` `[B, K, da]`: the same for every sample, K = the number of
//!   passes; a one-hot of the pass followed by [`PROPERTY_NAMES`], 0/1
//!   properties the pass registry states for each pass ([`PassProperties`]).
//!
//! The reward of arm `a` is the relative reduction of the static
//! instruction count from running pass `a` once on the sample's program:
//! `(before - after) / before` (0 for an empty program). It is negative when
//! the pass grows the program (`-to-ssa`, `-inline`, `-loop-unroll`...). It is
//! deterministic given the program, so [`CompilerBandit::optimal_actions`]
//! tries every pass. As in the stationary bandit, `reset` is FIRST, every
//! step is LAST (discount 0) and carries the next observation, and there is
//! no auto-reset.
//!
//! The rewards of a program are computed the first time it is drawn and kept.
//! The state token is JSON:
//!
//! ```json
//! { "kind": "compiler_bandit", "version": 1, "rng": ["...", "...", "...", "..."],
//!   "batch_size": 2, "programs": ["ackermann", ...], "current": [3, 17] | null,
//!   "time_step": { "step_type": [...], "reward": [...], "discount": [...] } | null }
//! ```

use super::actions::{arm_action_spec, check_actions, parse_arm_actions};
use super::observation::{per_arm_observation_spec, PerArmObservation};
use super::state::TimeStepState;
use crate::bril::features::{autophase, ir_instruction_count};
use crate::bril::passes::{registry, PassInfo, PassProperties};
use crate::bril::{suite, Program};
use crate::env::specs::Spec;
use crate::env::timestep::float32_rewards;
use crate::env::{EnvState, TimeStep, TimeStepEnvBase, TimeStepEnvironment};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::Value;
use crate::{bail, ensure};
use serde::{Deserialize, Serialize};

/// The descriptive properties after each pass's one-hot, in order: the
/// registry's [`PassProperties`].
pub const PROPERTY_NAMES: [&str; 6] = PassProperties::NAMES;

/// The options of [`CompilerBandit`].
#[derive(Clone, Debug)]
pub struct CompilerBanditOptions {
    pub seed: u64,
    /// Samples per step (default 1).
    pub batch_size: usize,
    /// Suite programs by name or URI (default: the whole suite).
    pub programs: Option<Vec<String>>,
}

impl Default for CompilerBanditOptions {
    fn default() -> Self {
        CompilerBanditOptions { seed: 0, batch_size: 1, programs: None }
    }
}

/// What the bandit knows of one program once drawn.
#[derive(Clone, Debug)]
struct ProgramFacts {
    global: Vec<f64>,
    /// One per pass.
    rewards: Vec<f64>,
}

/// The compiler bandit. See the module docs.
pub struct CompilerBandit {
    base: TimeStepEnvBase,
    names: Vec<String>,
    programs: Vec<Program>,
    facts: Vec<Option<ProgramFacts>>,
    passes: &'static [PassInfo],
    /// `[K * da]`, the same for every sample.
    arm_features: Vec<f64>,
    batch_size: usize,
    rng: Rng,
    /// The program of each sample the next action applies to.
    current: Option<Vec<usize>>,
    observation: Option<PerArmObservation>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompilerBanditState {
    kind: String,
    version: u32,
    rng: [String; 4],
    batch_size: usize,
    programs: Vec<String>,
    current: Option<Vec<usize>>,
    time_step: Option<TimeStepState>,
}

impl CompilerBanditState {
    const KIND: &'static str = "compiler_bandit";
    const VERSION: u32 = 1;
}

impl CompilerBandit {
    /// A bandit over the suite programs. ValueError for a zero batch size
    /// or an empty program list; LookupError for an unknown program.
    pub fn new(options: CompilerBanditOptions) -> Result<CompilerBandit> {
        ensure!(options.batch_size >= 1, Value, "batch_size must be at least 1, got {}", options.batch_size);
        let benchmarks: Vec<&suite::Benchmark> = match &options.programs {
            None => suite::all().iter().collect(),
            Some(names) => {
                ensure!(!names.is_empty(), Value, "programs: expected at least one program");
                names
                    .iter()
                    .map(|n| suite::get(n).map_err(|e| e.context("programs")))
                    .collect::<Result<_>>()?
            }
        };
        let programs = benchmarks.iter().map(|b| b.program()).collect::<Result<Vec<_>>>()?;
        let passes = registry();
        let k = passes.len();
        // One observation: a global context and every arm's features per sample.
        let per_sample = (autophase::LEN + k * (k + PROPERTY_NAMES.len())) as u64 * 8;
        crate::limits::check_bytes(
            crate::limits::bytes_of(options.batch_size, per_sample),
            format_args!("an observation of batch_size {}", options.batch_size),
        )?;
        let mut arm_features = Vec::with_capacity(k * (k + PROPERTY_NAMES.len()));
        for (a, pass) in passes.iter().enumerate() {
            arm_features.extend((0..k).map(|j| if j == a { 1.0 } else { 0.0 }));
            arm_features.extend(pass.properties.to_array().map(|p| if p { 1.0 } else { 0.0 }));
        }
        Ok(CompilerBandit {
            base: TimeStepEnvBase::new(false),
            names: benchmarks.iter().map(|b| b.name.to_string()).collect(),
            facts: vec![None; programs.len()],
            programs,
            passes,
            arm_features,
            batch_size: options.batch_size,
            rng: Rng::seed_from_u64(options.seed),
            current: None,
            observation: None,
        })
    }

    /// K: one arm per pass.
    pub fn num_arms(&self) -> usize {
        self.passes.len()
    }
    /// The pass flag of every arm, in arm order.
    pub fn arm_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.flag).collect()
    }
    pub fn global_dim(&self) -> usize {
        autophase::LEN
    }
    pub fn arm_dim(&self) -> usize {
        self.passes.len() + PROPERTY_NAMES.len()
    }
    /// The names of the programs the bandit draws from.
    pub fn program_names(&self) -> &[String] {
        &self.names
    }
    /// The program of each sample the next action applies to; `None` before reset.
    pub fn current_programs(&self) -> Option<Vec<&str>> {
        self.current.as_ref().map(|c| c.iter().map(|&i| self.names[i].as_str()).collect())
    }
    /// The observation the next action applies to; `None` before reset.
    pub fn observation(&self) -> Option<&PerArmObservation> {
        self.observation.as_ref()
    }

    /// The reward each of `actions` would get on the current programs (the
    /// reward is deterministic, so this is also its expectation).
    pub fn expected_rewards(&self, actions: &[usize]) -> Result<Vec<f64>> {
        let obs = self.current_observation()?;
        check_actions(obs, actions)?;
        let rewards = self.current_rewards()?;
        Ok(actions.iter().zip(rewards).map(|(&a, r)| r[a]).collect())
    }

    /// The best pass per sample (ties: the lowest index).
    pub fn optimal_actions(&self) -> Result<Vec<usize>> {
        Ok(self.current_rewards()?.into_iter().map(|r| best(r).0).collect())
    }

    /// The best reward per sample.
    pub fn optimal_expected_rewards(&self) -> Result<Vec<f64>> {
        Ok(self.current_rewards()?.into_iter().map(|r| best(r).1).collect())
    }

    fn current_observation(&self) -> Result<&PerArmObservation> {
        self.observation.as_ref().ok_or_else(|| Error::value("there is no observation yet: call reset first"))
    }

    fn current_rewards(&self) -> Result<Vec<&[f64]>> {
        let current = self
            .current
            .as_ref()
            .ok_or_else(|| Error::value("there is no observation yet: call reset first"))?;
        current
            .iter()
            .map(|&i| {
                self.facts[i]
                    .as_ref()
                    .map(|f| f.rewards.as_slice())
                    .ok_or_else(|| Error::value("facts missing"))
            })
            .collect()
    }

    /// Computes (once) the features and per-pass rewards of program `i`.
    fn facts_of(&mut self, i: usize) -> Result<&ProgramFacts> {
        if self.facts[i].is_none() {
            let program = &self.programs[i];
            let global = autophase::features(program).iter().map(|&x| (x.max(0) as f64).ln_1p()).collect();
            let before = ir_instruction_count(program);
            let mut rewards = Vec::with_capacity(self.passes.len());
            for pass in self.passes {
                let mut copy = program.clone();
                (pass.run)(&mut copy)
                    .map_err(|e| e.context(format!("{} on {}", pass.flag, self.names[i])))?;
                let after = ir_instruction_count(&copy);
                rewards.push(if before == 0 { 0.0 } else { (before - after) as f64 / before as f64 });
            }
            self.facts[i] = Some(ProgramFacts { global, rewards });
        }
        self.facts[i].as_ref().ok_or_else(|| Error::value("facts missing"))
    }

    /// The observation of the programs `current`.
    fn observe(&mut self, current: &[usize]) -> Result<PerArmObservation> {
        let mut global = Vec::with_capacity(current.len() * self.global_dim());
        for &i in current {
            global.extend_from_slice(&self.facts_of(i)?.global);
        }
        let per_arm = self.arm_features.repeat(current.len());
        PerArmObservation::new(current.len(), self.num_arms(), global, per_arm, None)
    }

    /// Draws the programs of the next round from `rng` and observes them.
    fn draw(&mut self, rng: &mut Rng) -> Result<(Vec<usize>, PerArmObservation)> {
        let current: Vec<usize> = (0..self.batch_size).map(|_| rng.index(self.programs.len())).collect();
        let obs = self.observe(&current)?;
        Ok((current, obs))
    }

    fn state(&self) -> CompilerBanditState {
        CompilerBanditState {
            kind: CompilerBanditState::KIND.into(),
            version: CompilerBanditState::VERSION,
            rng: self.rng.to_hex_words(),
            batch_size: self.batch_size,
            programs: self.names.clone(),
            current: self.current.clone(),
            time_step: self.base.current_time_step().and_then(|ts| TimeStepState::from_time_step(ts).ok()),
        }
    }

    fn restore(&mut self, state: CompilerBanditState) -> Result<()> {
        ensure!(
            state.kind == CompilerBanditState::KIND && state.version == CompilerBanditState::VERSION,
            Value,
            "state: expected a {} token of version {}, got {:?} version {}",
            CompilerBanditState::KIND,
            CompilerBanditState::VERSION,
            state.kind,
            state.version
        );
        ensure!(
            state.batch_size == self.batch_size && state.programs == self.names,
            Value,
            "state: made for another batch size or program list (batch_size {}, {} programs)",
            state.batch_size,
            state.programs.len()
        );
        let rng = Rng::from_hex_words(&state.rng)?;
        let observed = match &state.current {
            None => None,
            Some(c) => {
                ensure!(
                    c.len() == self.batch_size,
                    Value,
                    "state: current has {} programs, expected {}",
                    c.len(),
                    self.batch_size
                );
                if let Some(bad) = c.iter().find(|&&i| i >= self.programs.len()) {
                    bail!(Value, "state: program index {bad} is out of range");
                }
                Some((c.clone(), self.observe(c)?))
            }
        };
        let time_step = match (state.time_step, &observed) {
            (None, _) => None,
            (Some(ts), Some((_, obs))) => Some(ts.into_time_step(obs.to_value()?, self.batch_size)?),
            (Some(_), None) => bail!(Value, "state: a time step without current programs"),
        };
        self.rng = rng;
        (self.current, self.observation) = observed.map_or((None, None), |(c, o)| (Some(c), Some(o)));
        self.base.set_current_time_step(time_step);
        Ok(())
    }
}

/// The index and value of the largest reward (the first on ties).
fn best(rewards: &[f64]) -> (usize, f64) {
    rewards
        .iter()
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |acc, (a, &r)| if r > acc.1 { (a, r) } else { acc })
}

impl TimeStepEnvironment for CompilerBandit {
    fn base(&self) -> &TimeStepEnvBase {
        &self.base
    }
    fn base_mut(&mut self) -> &mut TimeStepEnvBase {
        &mut self.base
    }

    fn reset_impl(&mut self) -> Result<TimeStep> {
        let mut rng = self.rng;
        let (current, obs) = self.draw(&mut rng)?;
        let time_step = TimeStep::restart(obs.to_value()?, Some(self.batch_size), Some(&self.reward_spec()))?;
        self.rng = rng;
        self.current = Some(current);
        self.observation = Some(obs);
        Ok(time_step)
    }

    fn step_impl(&mut self, action: &Value) -> Result<TimeStep> {
        let actions = parse_arm_actions(action, self.batch_size)?;
        let rewards = self.expected_rewards(&actions)?;
        let mut rng = self.rng;
        let (current, next) = self.draw(&mut rng)?;
        let time_step = TimeStep::termination(
            next.to_value()?,
            float32_rewards(&rewards, Some(self.batch_size))?,
            Some(self.batch_size),
        )?;
        self.rng = rng;
        self.current = Some(current);
        self.observation = Some(next);
        Ok(time_step)
    }

    fn observation_spec(&self) -> Spec {
        per_arm_observation_spec(self.global_dim(), self.num_arms(), self.arm_dim(), false)
    }
    fn action_spec(&self) -> Spec {
        arm_action_spec(self.num_arms())
    }
    fn name(&self) -> &str {
        "compiler_bandit"
    }
    fn batched(&self) -> bool {
        true
    }
    fn batch_size(&self) -> Option<usize> {
        Some(self.batch_size)
    }

    /// The token, as JSON: see the module docs for the format.
    fn get_state(&self) -> Result<EnvState> {
        super::state::encode_token(&self.state())
    }

    fn set_state(&mut self, state: &EnvState) -> Result<()> {
        self.restore(super::state::decode_token::<CompilerBanditState>(state, CompilerBanditState::KIND)?)
    }

    fn seed(&mut self, seed: u64) -> Result<()> {
        self.rng = Rng::seed_from_u64(seed);
        Ok(())
    }
}

#[cfg(test)]
#[path = "compiler_tests.rs"]
mod tests;
