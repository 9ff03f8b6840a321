//! `CompilerEnv`: CompilerGym's environment API over an in-process
//! [`Service`]: reset, step and multistep (Gymnasium's five results), fork,
//! lazy observation and reward views, state, replay and validation.
//!
//! Errors never end the environment. Stepping before reset is
//! SessionNotFound; an action outside the action space is a ValueError that
//! applies and records nothing, and so is one past the episode cap
//! ([`MAX_EPISODE_STEPS`], a LimitError); a failure of the compiler during a step
//! ends the episode the way CompilerGym does: the step returns default
//! observations, `reward_on_error` rewards, `terminated = true` and the
//! error in `info.error`. After any error, the next valid call works.

use super::action_mask::{action_count, ActionMask, NoEffectActions};
use super::clock::{default_clock, Clock};
use super::datasets::Datasets;
use super::step_plan::StepPlan;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::{self, MAX_EPISODE_STEPS, VALUE_SLOT_BYTES};
use crate::rewards::{Reward, RewardView};
use crate::service::{
    ActionSpace, AddBenchmarkRequest, Benchmark, BenchmarkUri, CompilerBackend, SendSessionParameterRequest,
    Service, SessionParameter, StartSessionRequest,
};
use crate::spaces::SpaceKind;
use crate::value::Value;
use crate::views::{DerivedSpaceOptions, ObservationSpaceSpec, ObservationView, SessionLink, Translate};
use std::cell::RefCell;
use std::rc::Rc;

/// Environment options; `None` leaves a setting at its default.
#[derive(Clone, Debug, Default)]
pub struct EnvOptions {
    /// The benchmark of the first reset (default: the first benchmark of the first dataset).
    pub benchmark: Option<String>,
    /// An action space by name (default: the first).
    pub action_space: Option<String>,
    /// The observation returned by reset and step: `Some(None)` for none.
    pub observation_space: Option<Option<String>>,
    /// The reward returned by step: `Some(None)` for none.
    pub reward_space: Option<Option<String>>,
    /// Episodes are truncated after this many actions.
    pub max_episode_steps: Option<u64>,
    pub clock: Option<Clock>,
}

impl EnvOptions {
    /// These options, with each unset one taken from `defaults`.
    pub fn or(self, defaults: &EnvOptions) -> EnvOptions {
        let d = defaults.clone();
        EnvOptions {
            benchmark: self.benchmark.or(d.benchmark),
            action_space: self.action_space.or(d.action_space),
            observation_space: self.observation_space.or(d.observation_space),
            reward_space: self.reward_space.or(d.reward_space),
            max_episode_steps: self.max_episode_steps.or(d.max_episode_steps),
            clock: self.clock.or(d.clock),
        }
    }
}

/// Options of one reset; each set one also changes the environment's setting.
#[derive(Clone, Debug, Default)]
pub struct ResetOptions {
    pub benchmark: Option<String>,
    pub action_space: Option<String>,
    pub observation_space: Option<Option<String>>,
    pub reward_space: Option<Option<String>>,
}

/// A derived observation space a backend adds to its environments.
#[derive(Clone)]
pub struct DerivedSpace {
    pub id: String,
    pub base_id: String,
    pub translate: Translate,
    pub options: DerivedSpaceOptions,
}

/// What a compiler adds on the environment side: rewards and derived spaces.
#[derive(Clone, Default)]
pub struct EnvExtras {
    pub rewards: Vec<Box<dyn Reward>>,
    pub derived_spaces: Vec<DerivedSpace>,
}

/// One result or a list of them (for explicit lists of spaces).
#[derive(Clone, Debug, PartialEq)]
pub enum Observed<T> {
    None,
    One(T),
    Many(Vec<T>),
}

impl<T> Observed<T> {
    pub fn one(&self) -> Option<&T> {
        match self {
            Observed::One(x) => Some(x),
            _ => None,
        }
    }
    pub fn many(&self) -> Option<&[T]> {
        match self {
            Observed::Many(x) => Some(x),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepInfo {
    pub action_had_no_effect: bool,
    /// The action space changed (see [`CompilerEnv::action_space`]).
    pub new_action_space: bool,
    /// The compiler failed and the episode ended.
    pub error: Option<Error>,
}

/// Gymnasium's step results.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    pub observation: Observed<Value>,
    pub reward: Observed<f64>,
    /// The session ended (the compiler can do no more), or failed.
    pub terminated: bool,
    /// The episode reached `max_episode_steps`.
    pub truncated: bool,
    pub info: StepInfo,
}

/// Explicit spaces for one multistep; `None` uses the environment's own.
#[derive(Clone, Debug, Default)]
pub struct StepOptions {
    pub observation_spaces: Option<Vec<String>>,
    pub reward_spaces: Option<Vec<String>>,
}

/// What an environment is built from; the rest starts empty.
struct Parts {
    link: SessionLink,
    observation: ObservationView,
    reward: RewardView,
    action_spaces: Rc<[ActionSpace]>,
    action_space: ActionSpace,
    datasets: Rc<Datasets>,
}

pub struct CompilerEnv {
    /// The shared service and the session id, shared with the views.
    link: SessionLink,
    pub(crate) observation: ObservationView,
    pub(crate) reward: RewardView,
    action_spaces: Rc<[ActionSpace]>,
    action_space_index: usize,
    action_space: Rc<ActionSpace>,
    observation_space: Option<usize>,
    reward_space: Option<usize>,
    /// The plan of a step with the environment's own spaces.
    plan: Rc<StepPlan>,
    datasets: Rc<Datasets>,
    benchmark: Option<Rc<str>>,
    next_benchmark: Option<Rc<str>>,
    actions: Vec<Value>,
    /// The actions that did nothing since the program last changed.
    no_effect: NoEffectActions,
    episode_reward: Option<f64>,
    episode_start: f64,
    max_episode_steps: Option<u64>,
    clock: Clock,
    raw: Vec<Value>,
    reward_inputs: Vec<Value>,
}

impl CompilerEnv {
    /// An environment over a new service for `backend`.
    pub fn new(
        backend: Box<dyn CompilerBackend>,
        extras: EnvExtras,
        options: EnvOptions,
    ) -> Result<CompilerEnv> {
        Self::with_service(Rc::new(RefCell::new(Service::new(backend))), extras, options)
    }

    /// An environment over an existing (possibly shared) service.
    pub fn with_service(
        service: Rc<RefCell<Service>>,
        extras: EnvExtras,
        options: EnvOptions,
    ) -> Result<CompilerEnv> {
        let (action_spaces, observation_spaces, datasets) = {
            let s = service.try_borrow().map_err(|_| Error::service("the service is busy"))?;
            (s.shared_action_spaces(), s.observation_spaces().to_vec(), s.datasets())
        };
        let first = action_spaces
            .first()
            .cloned()
            .ok_or_else(|| Error::service("the compiler has no action space"))?;
        let link = SessionLink::new(service);
        let mut observation = ObservationView::new(link.clone(), &observation_spaces);
        for d in extras.derived_spaces {
            observation.add_derived_space(&d.id, &d.base_id, d.translate, d.options)?;
        }
        let parts = Parts {
            link,
            observation,
            reward: RewardView::new(extras.rewards),
            action_spaces,
            action_space: first,
            datasets: Rc::new(Datasets::new(datasets)),
        };
        CompilerEnv::assemble(parts, &options)
    }

    /// The settings of `options` that name spaces and benchmarks.
    fn apply_options(&mut self, options: &EnvOptions) -> Result<()> {
        if let Some(name) = &options.action_space {
            self.set_action_space(name)?;
        }
        if let Some(o) = &options.observation_space {
            self.set_observation_space(o.as_deref())?;
        }
        if let Some(r) = &options.reward_space {
            self.set_reward_space(r.as_deref())?;
        }
        if let Some(b) = &options.benchmark {
            self.set_benchmark(b)?;
        }
        Ok(())
    }

    /// A new environment like this one (which should be fresh from
    /// [`CompilerEnv::new`]) on a new service for `backend`, the same
    /// compiler, with `options` (no defaults but the compiler's).
    ///
    /// What never changes is shared, not copied: the action and observation
    /// spaces, the observation specs (derived spaces included) and the
    /// datasets. The new environment owns its service, session link, rewards
    /// (which keep state) and settings, so an idle one is small and cheap to
    /// make however many spaces its compiler has (`tests/env_memory.rs`).
    pub fn replica(&self, backend: Box<dyn CompilerBackend>, options: &EnvOptions) -> Result<CompilerEnv> {
        let service = self.link.with_service(|s| Ok(Service::sharing_spaces(backend, s)))?;
        let link = SessionLink::new(Rc::new(RefCell::new(service)));
        let first =
            self.action_spaces.first().ok_or_else(|| Error::service("the compiler has no action space"))?;
        let mut action_space = first.clone();
        // Each environment's action space has its own unseeded generator,
        // as one built by the compiler would.
        action_space.space.seed(crate::spaces::seeding::fresh_seed());
        let parts = Parts {
            observation: self.observation.relinked(link.clone()),
            link,
            reward: self.reward.clone(),
            action_spaces: self.action_spaces.clone(),
            action_space,
            datasets: self.datasets.clone(),
        };
        CompilerEnv::assemble(parts, options)
    }

    /// An environment from its parts, at the start (no session, no
    /// episode), with the settings of `options`.
    fn assemble(parts: Parts, options: &EnvOptions) -> Result<CompilerEnv> {
        let Parts { link, observation, reward, action_spaces, action_space, datasets } = parts;
        let mut env = CompilerEnv {
            link,
            observation,
            reward,
            action_spaces,
            action_space_index: 0,
            action_space: Rc::new(action_space),
            observation_space: None,
            reward_space: None,
            plan: Rc::new(StepPlan::default()),
            datasets,
            benchmark: None,
            next_benchmark: None,
            actions: Vec::new(),
            no_effect: NoEffectActions::default(),
            episode_reward: None,
            episode_start: 0.0,
            max_episode_steps: options.max_episode_steps,
            clock: options.clock.unwrap_or_else(default_clock),
            raw: Vec::new(),
            reward_inputs: Vec::new(),
        };
        env.apply_options(options)?;
        Ok(env)
    }

    // ----- properties -------------------------------------------------------

    pub fn version(&self) -> String {
        crate::service::SERVICE_VERSION.to_string()
    }
    pub fn compiler_version(&self) -> Result<String> {
        self.link.with_service(|s| Ok(s.get_version().compiler_version))
    }
    pub fn in_episode(&self) -> bool {
        self.link.session_id().is_some()
    }
    /// The benchmark of the current (or last) episode.
    pub fn benchmark(&self) -> Option<&str> {
        self.benchmark.as_deref()
    }
    /// The actions of this episode, in order.
    pub fn actions(&self) -> &[Value] {
        &self.actions
    }
    /// The sum of the rewards of this episode; `None` without a reward space.
    pub fn episode_reward(&self) -> Option<f64> {
        self.episode_reward
    }
    /// Seconds since the start of the episode.
    pub fn episode_walltime(&self) -> f64 {
        if self.in_episode() {
            ((self.clock)() - self.episode_start).max(0.0)
        } else {
            0.0
        }
    }
    pub fn action_space(&self) -> &ActionSpace {
        &self.action_space
    }
    /// Every action space a session can start with.
    pub fn action_spaces(&self) -> &[ActionSpace] {
        &self.action_spaces
    }
    pub fn observation_space(&self) -> Option<&ObservationSpaceSpec> {
        self.observation_space.and_then(|i| self.observation.spec_at(i))
    }
    pub fn reward_space(&self) -> Option<&dyn Reward> {
        self.reward_space.and_then(|i| self.reward.at(i))
    }
    /// `(min, max)` of the reward space; unbounded without one.
    pub fn reward_range(&self) -> (f64, f64) {
        self.reward_space().map_or((f64::NEG_INFINITY, f64::INFINITY), |r| r.space().range())
    }
    pub fn max_episode_steps(&self) -> Option<u64> {
        self.max_episode_steps
    }
    pub fn set_max_episode_steps(&mut self, n: Option<u64>) {
        self.max_episode_steps = n;
    }
    /// The observation view: `observation().get("X")` computes X now.
    pub fn observation(&self) -> &ObservationView {
        &self.observation
    }
    /// For adding derived spaces.
    pub fn observation_mut(&mut self) -> &mut ObservationView {
        &mut self.observation
    }
    pub fn reward_view(&self) -> &RewardView {
        &self.reward
    }
    /// Computes reward `name` now (a step with no actions).
    pub fn reward(&mut self, name: &str) -> Result<f64> {
        self.reward.get(name, &self.observation)
    }
    /// Adds (or replaces) a reward space.
    pub fn add_reward_space(&mut self, reward: Box<dyn Reward>) -> Result<()> {
        let current = self.reward_space().map(|r| r.name().to_string());
        self.reward.add_space(reward);
        self.set_reward_space(current.as_deref())
    }
    pub fn datasets(&self) -> &Datasets {
        &self.datasets
    }
    pub fn service(&self) -> &Rc<RefCell<Service>> {
        self.link.service()
    }
    /// The service and the session of the current episode.
    pub fn link(&self) -> &SessionLink {
        &self.link
    }

    // ----- settings ---------------------------------------------------------

    /// Selects the action space of the next reset by name.
    pub fn set_action_space(&mut self, name: &str) -> Result<()> {
        let i = self
            .action_spaces
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| Error::lookup(format!("unknown action space {name:?}")))?;
        self.action_space_index = i;
        if !self.in_episode() {
            self.action_space = Rc::new(self.action_spaces[i].clone());
        }
        Ok(())
    }

    pub fn set_observation_space(&mut self, id: Option<&str>) -> Result<()> {
        self.observation_space = id.map(|id| self.observation.position(id)).transpose()?;
        self.replan()
    }

    pub fn set_reward_space(&mut self, name: Option<&str>) -> Result<()> {
        let position = name.map(|n| self.reward.position(n)).transpose()?;
        if position != self.reward_space && self.in_episode() {
            // CompilerGym restarts the return when the reward changes mid-episode.
            self.episode_reward = position.map(|_| 0.0);
        }
        self.reward_space = position;
        self.replan()
    }

    fn replan(&mut self) -> Result<()> {
        let observations: Vec<usize> = self.observation_space.into_iter().collect();
        let rewards: Vec<usize> = self.reward_space.into_iter().collect();
        self.plan = Rc::new(StepPlan::new(&self.observation, &self.reward, &observations, &rewards)?);
        Ok(())
    }

    /// The benchmark of the next reset. A malformed URI is a BenchmarkInitError.
    pub fn set_benchmark(&mut self, uri: &str) -> Result<()> {
        self.next_benchmark = Some(BenchmarkUri::parse(uri)?.to_string().into());
        Ok(())
    }

    /// Registers a benchmark with the service (a URI conflict replaces).
    pub fn add_benchmark(&mut self, benchmark: Benchmark) -> Result<()> {
        self.link.with_service(|s| s.add_benchmark(AddBenchmarkRequest { benchmark: vec![benchmark] }))?;
        Ok(())
    }

    // ----- episodes ---------------------------------------------------------

    fn end_session(&mut self) {
        if let Some(id) = self.link.session_id() {
            // The session may already be gone; either way it is over.
            let _ = self.link.with_service(|s| s.end_session(id));
            self.link.set_session_id(None);
        }
    }

    /// Ends the episode, frees its session and what the compiler remembered
    /// between episodes. Safe to call at any time.
    pub fn close(&mut self) {
        self.end_session();
        let _ = self.link.with_service(|s| {
            s.forget_recent();
            Ok(())
        });
    }

    /// Starts an episode; returns the observation of the observation space,
    /// if one is set.
    pub fn reset(&mut self, options: ResetOptions) -> Result<Option<Value>> {
        if let Some(a) = &options.action_space {
            self.set_action_space(a)?;
        }
        if let Some(o) = &options.observation_space {
            self.set_observation_space(o.as_deref())?;
        }
        if let Some(r) = &options.reward_space {
            self.set_reward_space(r.as_deref())?;
        }
        // A benchmark given here is adopted only once its session starts, so
        // a bad one does not poison the next reset.
        let given: Option<Rc<str>> = match &options.benchmark {
            Some(b) => Some(BenchmarkUri::parse(b)?.to_string().into()),
            None => None,
        };
        let benchmark: Rc<str> =
            match given.or_else(|| self.next_benchmark.clone()).or_else(|| self.benchmark.clone()) {
                Some(b) => b,
                None => {
                    let first = self.datasets.first_benchmark().ok_or_else(|| {
                        Error::benchmark_init("no benchmark was given and the compiler lists none")
                    })?;
                    BenchmarkUri::parse(&first)?.to_string().into()
                }
            };
        self.end_session();
        let spec = self.observation_space().map(|s| (s.index, s.clone()));
        let request = StartSessionRequest {
            benchmark: Benchmark::from_uri(&benchmark),
            action_space: self.action_space_index,
            observation_space: spec.iter().map(|(i, _)| *i).collect(),
        };
        let reply = self.link.with_service(|s| s.start_session(&request))?;
        self.link.set_session_id(Some(reply.session_id));
        self.action_space = match reply.new_action_space {
            Some(a) => Rc::new(a),
            None => Rc::new(self.action_spaces[self.action_space_index].clone()),
        };
        self.benchmark = Some(benchmark.clone());
        self.next_benchmark = Some(benchmark.clone());
        self.actions.clear();
        self.no_effect.clear();
        self.episode_reward = self.reward_space.map(|_| 0.0);
        if let Err(e) = self.reward.reset(&benchmark, &self.observation) {
            self.end_session();
            return Err(e);
        }
        self.episode_start = (self.clock)();
        match (spec, reply.observation.into_iter().next()) {
            (Some((_, spec)), Some(raw)) => spec.translate(raw).map(Some),
            _ => Ok(None),
        }
    }

    /// One action, with the environment's observation and reward spaces.
    pub fn step(&mut self, action: Value) -> Result<StepResult> {
        let plan = self.plan.clone();
        self.run(std::slice::from_ref(&action), &plan, false)
    }

    /// Several actions in one service call. With explicit spaces the
    /// results are lists in the order asked.
    pub fn multistep(&mut self, actions: &[Value], options: &StepOptions) -> Result<StepResult> {
        if options.observation_spaces.is_none() && options.reward_spaces.is_none() {
            let plan = self.plan.clone();
            return self.run(actions, &plan, false);
        }
        let observations = match &options.observation_spaces {
            Some(ids) => ids.iter().map(|id| self.observation.position(id)).collect::<Result<Vec<_>>>()?,
            None => self.observation_space.into_iter().collect(),
        };
        let rewards = match &options.reward_spaces {
            Some(names) => names.iter().map(|n| self.reward.position(n)).collect::<Result<Vec<_>>>()?,
            None => self.reward_space.into_iter().collect(),
        };
        let plan = StepPlan::new(&self.observation, &self.reward, &observations, &rewards)?;
        self.run(actions, &plan, true)
    }

    /// A LimitError unless the episode may take `more` actions: within
    /// [`MAX_EPISODE_STEPS`], and with the history's growth within the byte
    /// budget. Checked before anything is applied, so nothing is lost.
    fn make_room_for(&mut self, more: usize) -> Result<()> {
        let taken = self.actions.len();
        if taken as u64 + more as u64 > MAX_EPISODE_STEPS {
            return Err(Error::limit(format!(
                "an episode takes at most {MAX_EPISODE_STEPS} actions, and this one has taken {taken}: \
                 reset() to start another"
            )));
        }
        let spare = self.actions.capacity() - taken;
        if spare < more {
            // The vector doubles, or grows to what is needed.
            let grown = (2 * self.actions.capacity()).max(taken + more);
            limits::check_bytes(limits::bytes_of(grown, VALUE_SLOT_BYTES), "the episode's action history")?;
        }
        Ok(())
    }

    fn run(&mut self, actions: &[Value], plan: &StepPlan, lists: bool) -> Result<StepResult> {
        self.link.require_session()?;
        for a in actions {
            if !self.action_space.space.contains(a) {
                return Err(Error::value(format!(
                    "action {} is not in the action space {:?}",
                    crate::spaces::value_to_json(a),
                    self.action_space.name
                )));
            }
        }
        self.make_room_for(actions.len())?;
        let outcome = self.link.step_into(actions, &plan.service_indices, &mut self.raw);
        self.actions.extend_from_slice(actions);
        let taken = self.actions.len() as u64;
        let truncated = taken >= MAX_EPISODE_STEPS || self.max_episode_steps.is_some_and(|m| taken >= m);
        let outcome = match outcome {
            Ok(o) => o,
            Err(e) if e.kind() == ErrorKind::SessionNotFound || e.kind() == ErrorKind::Service => {
                return Ok(self.failed_step(plan, lists, truncated, e));
            }
            Err(e) => return Err(e),
        };
        let new_action_space = outcome.new_action_space.is_some();
        self.no_effect.record(&self.action_space.space, actions, outcome.action_had_no_effect);
        if let Some(a) = outcome.new_action_space {
            self.action_space = Rc::new(a);
            self.no_effect.clear();
        }
        let mut observations = Vec::with_capacity(if lists { plan.observations.len() } else { 0 });
        let mut observation = Observed::None;
        for &(spec, raw) in &plan.observations {
            let value = self.spec(spec)?.translate(self.raw[raw].clone())?;
            if lists {
                observations.push(value);
            } else {
                observation = Observed::One(value);
            }
        }
        let mut rewards = Vec::with_capacity(if lists { plan.rewards.len() } else { 0 });
        let mut reward = Observed::None;
        for (position, inputs) in &plan.rewards {
            self.reward_inputs.clear();
            for &(spec, raw) in inputs {
                let value = self.spec(spec)?.translate(self.raw[raw].clone())?;
                self.reward_inputs.push(value);
            }
            let r = match self.reward.at_mut(*position) {
                Some(r) => r.update(actions, &self.reward_inputs, &self.observation)?,
                None => return Err(Error::lookup("reward space vanished")),
            };
            if Some(*position) == self.reward_space {
                self.episode_reward = Some(self.episode_reward.unwrap_or(0.0) + r);
            }
            if lists {
                rewards.push(r);
            } else {
                reward = Observed::One(r);
            }
        }
        if lists {
            observation = Observed::Many(observations);
            reward = Observed::Many(rewards);
        }
        Ok(StepResult {
            observation,
            reward,
            terminated: outcome.end_of_session,
            truncated,
            info: StepInfo {
                action_had_no_effect: outcome.action_had_no_effect,
                new_action_space,
                error: None,
            },
        })
    }

    fn spec(&self, position: usize) -> Result<&ObservationSpaceSpec> {
        self.observation.spec_at(position).ok_or_else(|| Error::lookup("observation space vanished"))
    }

    /// The compiler failed: the episode ends with default results.
    fn failed_step(&mut self, plan: &StepPlan, lists: bool, truncated: bool, error: Error) -> StepResult {
        self.end_session();
        self.no_effect.clear();
        let defaults: Vec<Value> = plan
            .observations
            .iter()
            .map(|&(spec, _)| self.observation.spec_at(spec).map_or(Value::None, |s| s.default_value.clone()))
            .collect();
        let episode_reward = self.episode_reward.unwrap_or(0.0);
        let rewards: Vec<f64> = plan
            .rewards
            .iter()
            .map(|(p, _)| self.reward.at(*p).map_or(0.0, |r| r.reward_on_error(episode_reward)))
            .collect();
        if let Some(i) = plan.rewards.iter().position(|(p, _)| Some(*p) == self.reward_space) {
            self.episode_reward = Some(episode_reward + rewards[i]);
        }
        let (observation, reward) = if lists {
            (Observed::Many(defaults), Observed::Many(rewards))
        } else {
            (
                defaults.into_iter().next().map_or(Observed::None, Observed::One),
                rewards.into_iter().next().map_or(Observed::None, Observed::One),
            )
        };
        StepResult {
            observation,
            reward,
            terminated: true,
            truncated,
            info: StepInfo { action_had_no_effect: false, new_action_space: false, error: Some(error) },
        }
    }

    /// A copy of the environment in the same state, on a new session of the
    /// same service, with its own copy of the rewards' state. Outside an
    /// episode, resets first.
    pub fn fork(&mut self) -> Result<CompilerEnv> {
        if !self.in_episode() {
            let actions = std::mem::take(&mut self.actions);
            self.reset(ResetOptions::default())?;
            if !actions.is_empty() {
                self.multistep(&actions, &StepOptions::default())?;
            }
        }
        let id = self.link.require_session()?;
        let new_id = self.link.with_service(|s| s.fork_session(id))?;
        let link = self.link.detached();
        link.set_session_id(Some(new_id));
        Ok(CompilerEnv {
            observation: self.observation.relinked(link.clone()),
            link,
            reward: self.reward.clone(),
            action_spaces: self.action_spaces.clone(),
            action_space_index: self.action_space_index,
            action_space: self.action_space.clone(),
            observation_space: self.observation_space,
            reward_space: self.reward_space,
            plan: self.plan.clone(),
            datasets: self.datasets.clone(),
            benchmark: self.benchmark.clone(),
            next_benchmark: self.benchmark.clone(),
            actions: self.actions.clone(),
            no_effect: self.no_effect.clone(),
            episode_reward: self.episode_reward,
            episode_start: self.episode_start,
            max_episode_steps: self.max_episode_steps,
            clock: self.clock,
            raw: Vec::new(),
            reward_inputs: Vec::new(),
        })
    }

    /// A new environment on the same service with the same settings and
    /// spaces, not in an episode (for replaying states).
    pub fn sibling(&self) -> CompilerEnv {
        let link = self.link.detached();
        CompilerEnv {
            observation: self.observation.relinked(link.clone()),
            link,
            reward: self.reward.clone(),
            action_spaces: self.action_spaces.clone(),
            action_space_index: self.action_space_index,
            action_space: Rc::new(self.action_spaces[self.action_space_index].clone()),
            observation_space: self.observation_space,
            reward_space: self.reward_space,
            plan: self.plan.clone(),
            datasets: self.datasets.clone(),
            benchmark: None,
            next_benchmark: self.next_benchmark.clone(),
            actions: Vec::new(),
            no_effect: NoEffectActions::default(),
            episode_reward: None,
            episode_start: 0.0,
            max_episode_steps: self.max_episode_steps,
            clock: self.clock,
            raw: Vec::new(),
            reward_inputs: Vec::new(),
        }
    }

    /// Which actions may change the program now, at no cost (see
    /// [`super::action_mask`]): None for an action space that is not
    /// discrete. Outside an episode nothing is known and all are allowed.
    pub fn action_mask(&self) -> Result<Option<ActionMask>> {
        let Some(n) = action_count(&self.action_space.space) else { return Ok(None) };
        let mut no_effect = vec![false; n];
        if let Some(id) = self.link.session_id() {
            self.no_effect.mark(&mut no_effect);
            self.link.with_service(|s| s.known_no_effect(id, &mut no_effect))?;
        }
        Ok(Some(ActionMask::from_no_effect(&no_effect)))
    }

    /// Sends one `<key, value>` parameter to the session; returns its reply.
    /// An unknown key is a ValueError.
    pub fn send_param(&mut self, key: &str, value: &str) -> Result<String> {
        let session_id = self.link.require_session()?;
        let request = SendSessionParameterRequest {
            session_id,
            parameter: vec![SessionParameter { key: key.into(), value: value.into() }],
        };
        let reply = self.link.with_service(|s| s.send_session_parameter(&request))?;
        reply.reply.into_iter().next().ok_or_else(|| Error::service("no reply to the session parameter"))
    }

    // ----- commandlines -----------------------------------------------------

    /// The actions of the episode as a commandline: flags for a Commandline
    /// action space, names for a NamedDiscrete one (TypeError otherwise).
    pub fn commandline(&self) -> Result<String> {
        self.actions_to_commandline(&self.actions)
    }

    pub fn actions_to_commandline(&self, actions: &[Value]) -> Result<String> {
        let ints = actions
            .iter()
            .map(|a| a.as_int().ok_or_else(|| Error::type_error("commandline: actions must be integers")))
            .collect::<Result<Vec<_>>>()?;
        match self.action_space.space.kind() {
            SpaceKind::Commandline(c) => c.commandline(&ints),
            SpaceKind::NamedDiscrete(n) => {
                Ok(ints.iter().map(|&i| n.name_of(i)).collect::<Result<Vec<_>>>()?.join(" "))
            }
            _ => Err(Error::type_error(format!(
                "the action space {:?} has no commandline form",
                self.action_space.name
            ))),
        }
    }

    pub fn commandline_to_actions(&self, commandline: &str) -> Result<Vec<Value>> {
        let ints = match self.action_space.space.kind() {
            SpaceKind::Commandline(c) => c.from_commandline(commandline)?,
            SpaceKind::NamedDiscrete(n) => {
                commandline.split_whitespace().map(|w| n.index(w)).collect::<Result<Vec<_>>>()?
            }
            _ => {
                return Err(Error::type_error(format!(
                    "the action space {:?} has no commandline form",
                    self.action_space.name
                )))
            }
        };
        Ok(ints.into_iter().map(Value::Int).collect())
    }

    pub(crate) fn clock(&self) -> Clock {
        self.clock
    }
}

impl std::fmt::Debug for CompilerEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompilerEnv")
            .field("session", &self.link.session_id())
            .field("benchmark", &self.benchmark)
            .field("action_space", &self.action_space.name)
            .field("observation_space", &self.observation_space().map(|s| &s.id))
            .field("reward_space", &self.reward_space().map(|r| r.name()))
            .field("actions", &self.actions.len())
            .finish()
    }
}

impl Drop for CompilerEnv {
    fn drop(&mut self) {
        self.end_session();
    }
}
