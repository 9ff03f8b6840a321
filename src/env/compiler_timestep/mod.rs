//! Any [`CompilerEnv`] through the TimeStep API, as tf_agents' `GymWrapper`
//! shows a Gym environment.
//!
//! Specs are fixed at construction from the environment's spaces (a
//! compiler that changes its action space mid-episode keeps the first spec):
//! observation from the observation space (see [`space_spec`]; an empty dict
//! without one), action a bounded int64 scalar over the (discrete) action
//! space, reward a float64 scalar bounded by the reward range where it is
//! finite (always 0 without a reward space), discount tf_agents' default.
//!
//! | event | step type | reward | discount |
//! |---|---|---|---|
//! | `reset` | FIRST | 0 | 1 |
//! | a step | MID | the step's reward | 1 |
//! | a step that ends the session (`terminated`) | LAST | the step's reward | 0 |
//! | a step that reaches `max_episode_steps` only (`truncated`) | LAST | the step's reward | 1 |
//! | a step the compiler fails | LAST (the observation is the space's default, or zeros) | `reward_on_error` | 0 |
//!
//! `get_info` returns the last step's info, with keys as JavaScript spells
//! them: `actionHadNoEffect`, `newActionSpace`, `error` (`{name, message}`
//! or none) and `benchmark`.
//! Like `GymWrapper`, the adapter handles auto-reset by default: the step
//! after a LAST one resets. Unseeded, every reset replays the environment's
//! benchmark; after `seed(s)` every reset draws its benchmark from the
//! chosen dataset (or from all) with a generator seeded by `s`.
//!
//! The state token is JSON: the `CompilerEnvState` (benchmark and
//! commandline, replayed with [`CompilerEnv::apply`]), the current time
//! step's scalar fields and the benchmark chooser's generator:
//!
//! ```json
//! { "kind": "compiler_timestep", "version": 1,
//!   "benchmark": "benchmark://suite-v0/fib-iter", "commandline": "-dce -lvn", "reward": 0.1,
//!   "rng": ["0123456789abcdef", "...", "...", "..."] | null,
//!   "time_step": { "step_type": 1, "reward": 0.05, "discount": 1.0 } | null }
//! ```

pub mod space_spec;
#[cfg(test)]
mod tests;

use super::compiler_env::{CompilerEnv, Observed, ResetOptions, StepInfo};
use super::specs::{default_discount_spec, ArraySpec, Bound, BoundedArraySpec, Spec};
use super::state::CompilerEnvState;
use super::timestep::{StepType, TimeStep};
use super::timestep_env::{EnvState, TimeStepEnvBase, TimeStepEnvironment};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};
use crate::{bail, ensure};
use serde::{Deserialize, Serialize};
use space_spec::{space_to_spec, to_spec_form, zeros_of};

/// How the adapter chooses benchmarks and resets.
#[derive(Clone, Debug)]
pub struct CompilerTimeStepOptions {
    /// The dataset seeded resets draw from (default: every dataset).
    pub dataset: Option<String>,
    /// Whether the step after a LAST step resets (default true, as `GymWrapper`).
    pub handle_auto_reset: bool,
}

impl Default for CompilerTimeStepOptions {
    fn default() -> Self {
        CompilerTimeStepOptions { dataset: None, handle_auto_reset: true }
    }
}

/// A [`CompilerEnv`] speaking in [`TimeStep`]s. See the module docs.
pub struct CompilerTimeStepEnvironment {
    base: TimeStepEnvBase,
    env: CompilerEnv,
    observation_spec: Spec,
    action_spec: Spec,
    reward_spec: Spec,
    dataset: Option<String>,
    /// Draws the benchmark of each reset once seeded.
    chooser: Option<Rng>,
    info: Option<StepInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AdapterState {
    kind: String,
    version: u32,
    benchmark: String,
    commandline: String,
    reward: Option<f64>,
    rng: Option<[String; 4]>,
    time_step: Option<ScalarTimeStep>,
}

impl AdapterState {
    const KIND: &'static str = "compiler_timestep";
    const VERSION: u32 = 1;
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScalarTimeStep {
    step_type: i32,
    reward: f64,
    discount: f32,
}

impl CompilerTimeStepEnvironment {
    /// Wraps `env`. TypeError when the observation space has no array form
    /// or the action space is not discrete.
    pub fn new(env: CompilerEnv, options: CompilerTimeStepOptions) -> Result<CompilerTimeStepEnvironment> {
        let observation_spec = match env.observation_space() {
            Some(space) => space_to_spec(&space.space).map_err(|e| e.context("observation space"))?,
            None => Spec::Dict(vec![]),
        };
        let action_spec = action_spec(&env)?;
        let reward_spec = reward_spec(&env)?;
        Ok(CompilerTimeStepEnvironment {
            base: TimeStepEnvBase::new(options.handle_auto_reset),
            env,
            observation_spec,
            action_spec,
            reward_spec,
            dataset: options.dataset,
            chooser: None,
            info: None,
        })
    }

    /// The wrapped environment, for reading (benchmark, actions, state...).
    pub fn compiler_env(&self) -> &CompilerEnv {
        &self.env
    }

    /// [`validate_environment`](crate::env::validate_environment) for
    /// `episodes` episodes. A ValueError without `max_episode_steps`: most
    /// compiler episodes never end by themselves, and the check would not return.
    pub fn validate(&mut self, episodes: usize, rng: &mut Rng) -> Result<()> {
        ensure!(
            self.env.max_episode_steps().is_some(),
            Value,
            "validate needs max_episode_steps: compiler episodes rarely end by themselves"
        );
        super::validate::validate_environment(self, episodes, rng)
    }

    /// Sends a session parameter to the compiler (e.g. `bril.fuel`).
    pub fn send_param(&mut self, key: &str, value: &str) -> Result<String> {
        self.env.send_param(key, value)
    }

    fn observation_of(&self, observed: Option<Value>) -> Result<Value> {
        match (&self.observation_spec, observed) {
            (Spec::Dict(entries), None) if entries.is_empty() => Ok(Value::Dict(vec![])),
            (spec, Some(v)) => to_spec_form(v, spec).map_err(|e| e.context("observation")),
            (_, None) => bail!(Value, "observation: the environment returned none"),
        }
    }

    /// The action as the compiler environment takes it: an integer.
    fn parse_action(action: &Value) -> Result<Value> {
        let single = match action {
            Value::Int(i) => return Ok(Value::Int(*i)),
            Value::Array(a) if a.len() == 1 && a.shape().len() <= 1 => a.data().get_i128(0),
            Value::Array(a) if a.len() != 1 => {
                bail!(Value, "action: expected one action (a scalar), got shape {:?}", a.shape())
            }
            _ => None,
        };
        let i = single.ok_or_else(|| {
            Error::type_error(format!("action: expected an integer, got a {}", action.kind_name()))
        })?;
        let i = i64::try_from(i).map_err(|_| Error::value(format!("action: {i} is out of range")))?;
        Ok(Value::Int(i))
    }

    fn state(&self) -> Result<AdapterState> {
        let state = self.env.state()?;
        let time_step = match self.base.current_time_step() {
            None => None,
            Some(ts) => Some(ScalarTimeStep {
                step_type: ts.step_types()?.first().map_or(0, |t| t.as_i32()),
                reward: ts.rewards()?.first().copied().unwrap_or(0.0),
                discount: ts.discounts()?.first().copied().unwrap_or(1.0) as f32,
            }),
        };
        Ok(AdapterState {
            kind: AdapterState::KIND.into(),
            version: AdapterState::VERSION,
            benchmark: state.benchmark,
            commandline: state.commandline,
            reward: state.reward,
            rng: self.chooser.as_ref().map(Rng::to_hex_words),
            time_step,
        })
    }

    fn scalar(data: ArrayData) -> Result<Value> {
        Ok(Value::Array(Array::new(vec![], data)?))
    }
}

fn action_spec(env: &CompilerEnv) -> Result<Spec> {
    let space = &env.action_space().space;
    let spec = space_to_spec(space).map_err(|e| e.context("action space"))?;
    match &spec {
        Spec::Bounded(b) if b.shape().is_empty() && b.dtype() == DType::I64 => Ok(spec),
        _ => bail!(
            Type,
            "action space {:?} is not discrete: the adapter takes one integer action per step",
            env.action_space().name
        ),
    }
}

fn reward_spec(env: &CompilerEnv) -> Result<Spec> {
    let (lo, hi) = env.reward_range();
    let bound = |x: f64| if x.is_finite() { Bound::Float(vec![x]) } else { Bound::DTypeLimit };
    if env.reward_space().is_none() || (!lo.is_finite() && !hi.is_finite()) {
        return Ok(ArraySpec::new(vec![], DType::F64).with_name("reward").into());
    }
    Ok(BoundedArraySpec::new(vec![], DType::F64, bound(lo), bound(hi))?.with_name("reward").into())
}

impl TimeStepEnvironment for CompilerTimeStepEnvironment {
    fn base(&self) -> &TimeStepEnvBase {
        &self.base
    }
    fn base_mut(&mut self) -> &mut TimeStepEnvBase {
        &mut self.base
    }

    fn reset_impl(&mut self) -> Result<TimeStep> {
        // Draw on a copy and commit only once the reset succeeded.
        let mut chooser = self.chooser;
        let benchmark = match &mut chooser {
            None => None,
            Some(rng) => Some(match &self.dataset {
                Some(d) => self.env.datasets().random_benchmark_in(d, rng)?,
                None => self.env.datasets().random_benchmark(rng)?,
            }),
        };
        let observed = self.env.reset(ResetOptions { benchmark, ..Default::default() })?;
        let observation = self.observation_of(observed)?;
        self.chooser = chooser;
        self.info = Some(StepInfo::default());
        TimeStep::restart(observation, None, Some(&self.reward_spec))
    }

    fn step_impl(&mut self, action: &Value) -> Result<TimeStep> {
        let action = Self::parse_action(action)?;
        let result = self.env.step(action)?;
        let failed = result.info.error.is_some();
        let observed = match result.observation {
            Observed::One(v) => Some(v),
            _ => None,
        };
        let observation = if failed {
            // The space's default value may not be an array: fall back to zeros.
            self.observation_of(observed).or_else(|_| zeros_of(&self.observation_spec))?
        } else {
            self.observation_of(observed)?
        };
        let reward = Self::scalar(ArrayData::F64(vec![result.reward.one().copied().unwrap_or(0.0)]))?;
        let time_step = if failed || result.terminated {
            TimeStep::termination(observation, reward, None)?
        } else if result.truncated {
            TimeStep::truncation(observation, reward, None)?
        } else {
            TimeStep::transition(observation, reward, 1.0, None)?
        };
        self.info = Some(result.info);
        Ok(time_step)
    }

    fn observation_spec(&self) -> Spec {
        self.observation_spec.clone()
    }
    fn action_spec(&self) -> Spec {
        self.action_spec.clone()
    }
    fn reward_spec(&self) -> Spec {
        self.reward_spec.clone()
    }
    fn discount_spec(&self) -> Spec {
        default_discount_spec()
    }
    fn name(&self) -> &str {
        "CompilerEnv"
    }

    fn get_info(&self) -> Result<Value> {
        let info =
            self.info.as_ref().ok_or_else(|| Error::value("there is no info yet: call reset first"))?;
        let error = match &info.error {
            None => Value::None,
            Some(e) => Value::Dict(vec![
                ("name".into(), Value::Str(e.name().into())),
                ("message".into(), Value::Str(e.message().into())),
            ]),
        };
        Ok(Value::Dict(vec![
            ("actionHadNoEffect".into(), Value::Bool(info.action_had_no_effect)),
            ("newActionSpace".into(), Value::Bool(info.new_action_space)),
            ("error".into(), error),
            ("benchmark".into(), self.env.benchmark().map_or(Value::None, |b| Value::Str(b.into()))),
        ]))
    }

    /// The token, as JSON: see the module docs for the format.
    fn get_state(&self) -> Result<EnvState> {
        serde_json::to_value(self.state()?).map_err(|e| Error::value(format!("state: cannot encode: {e}")))
    }

    /// Replays the token's commandline on a new session and adopts it only
    /// if the replay succeeds, so a failed restore changes nothing.
    fn set_state(&mut self, state: &EnvState) -> Result<()> {
        let state: AdapterState = serde_json::from_value(state.clone())
            .map_err(|e| Error::value(format!("state: not a {} token: {e}", AdapterState::KIND)))?;
        ensure!(
            state.kind == AdapterState::KIND && state.version == AdapterState::VERSION,
            Value,
            "state: expected a {} token of version {}, got {:?} version {}",
            AdapterState::KIND,
            AdapterState::VERSION,
            state.kind,
            state.version
        );
        let chooser = state.rng.as_ref().map(Rng::from_hex_words).transpose()?;
        let mut replay = self.env.sibling();
        replay.apply(&CompilerEnvState {
            benchmark: state.benchmark,
            commandline: state.commandline,
            walltime: 0.0,
            reward: state.reward,
        })?;
        let observed = match replay.observation_space() {
            Some(space) => Some(replay.observation().get(&space.id)?),
            None => None,
        };
        let time_step = match state.time_step {
            None => None,
            Some(ts) => Some(TimeStep {
                step_type: Self::scalar(ArrayData::I32(vec![StepType::from_i32(ts.step_type)?.as_i32()]))?,
                reward: Self::scalar(ArrayData::F64(vec![ts.reward]))?,
                discount: Self::scalar(ArrayData::F32(vec![ts.discount]))?,
                observation: self.observation_of(observed)?,
            }),
        };
        self.env = replay;
        self.chooser = chooser;
        self.info = Some(StepInfo::default());
        self.base.set_current_time_step(time_step);
        Ok(())
    }

    /// From now on every reset draws its benchmark with a generator seeded by `seed`.
    fn seed(&mut self, seed: u64) -> Result<()> {
        self.chooser = Some(Rng::seed_from_u64(seed));
        Ok(())
    }

    fn close(&mut self) -> Result<()> {
        self.env.close();
        Ok(())
    }
}
