//! What a search works with: the benchmark's environment at the start of the
//! search, the cost it minimises, a step counter under the step budget, and
//! the best state seen so far.
//!
//! Every state a search visits goes through [`SearchContext::step`], which
//! observes its cost and keeps the best, so no agent can find a better
//! program and forget it. States are `CompilerEnv` forks: a fork copies no
//! program, and stepping a fork along a transition the compiler already
//! knows runs no pass.

use crate::env::{CompilerEnv, ResetOptions};
use crate::error::{Error, Result};
use crate::spaces::SpaceKind;
use crate::value::Value;

/// The cost of a state that cannot be measured (the compiler failed on it).
pub const FAILED: f64 = f64::INFINITY;

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stepped {
    /// The cost after the step; [`FAILED`] if the step failed.
    pub cost: f64,
    /// The action changed the program.
    pub changed: bool,
}

impl Stepped {
    pub fn failed(&self) -> bool {
        self.cost == FAILED
    }
}

/// The best state found: its actions (indices into the action space) and cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    pub actions: Vec<usize>,
    pub cost: f64,
}

pub struct SearchContext {
    /// At the unoptimised program.
    root: CompilerEnv,
    /// At the end of the start sequence.
    start: CompilerEnv,
    start_cost: f64,
    initial_cost: f64,
    cost: String,
    /// The action values, by index.
    actions: Vec<Value>,
    steps: u64,
    step_limit: Option<u64>,
    episodes: u64,
    best: Best,
    keep_best: bool,
}

impl SearchContext {
    /// A context on the benchmark of `env`'s current (or last) episode, with
    /// its own sessions: `env` is left as it is. `start` are the actions the
    /// search starts from (they count as steps). With `keep_best` false the
    /// context remembers only states given to [`offer`](Self::offer).
    pub fn new(
        env: &CompilerEnv,
        cost: &str,
        start: &[usize],
        step_limit: Option<u64>,
        keep_best: bool,
    ) -> Result<SearchContext> {
        let benchmark = env
            .benchmark()
            .ok_or_else(|| Error::session_not_found("no episode yet: reset the environment first"))?
            .to_string();
        let mut root = env.sibling();
        root.set_max_episode_steps(None);
        root.set_reward_space(None)?;
        root.set_observation_space(Some(cost))?;
        let observation = root.reset(ResetOptions { benchmark: Some(benchmark), ..Default::default() })?;
        let initial_cost = observation
            .and_then(|v| v.as_f64())
            .ok_or_else(|| Error::type_error(format!("the cost {cost:?} is not a number")))?;
        let actions = action_values(&root)?;
        let start_env = root.fork()?;
        let mut context = SearchContext {
            start: start_env,
            root,
            start_cost: initial_cost,
            initial_cost,
            cost: cost.to_string(),
            actions,
            steps: 0,
            step_limit,
            episodes: 0,
            best: Best { actions: Vec::new(), cost: initial_cost },
            keep_best,
        };
        let mut env = context.start.fork()?;
        let mut cost = initial_cost;
        for &action in start {
            if action >= context.actions.len() {
                return Err(Error::value(format!(
                    "start action {action} is not in the action space of {} actions",
                    context.actions.len()
                )));
            }
            match context.step(&mut env, action)? {
                Some(s) if !s.failed() => cost = s.cost,
                Some(_) => return Err(Error::value("the compiler failed on the start sequence")),
                None => break,
            }
        }
        context.start = env;
        context.start_cost = cost;
        Ok(context)
    }

    /// How many actions there are.
    pub fn num_actions(&self) -> usize {
        self.actions.len()
    }

    /// The cost of the unoptimised program.
    pub fn initial_cost(&self) -> f64 {
        self.initial_cost
    }

    /// The cost at the start of the search.
    pub fn start_cost(&self) -> f64 {
        self.start_cost
    }

    /// A new state at the start of the search.
    pub fn fork_start(&mut self) -> Result<CompilerEnv> {
        self.start.fork()
    }

    /// A new state at the unoptimised program.
    pub fn fork_root(&mut self) -> Result<CompilerEnv> {
        self.root.fork()
    }

    /// The actions of the start sequence.
    pub fn start_actions(&self) -> Vec<usize> {
        self.indices(self.start.actions())
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Trajectories the search has started (see [`Progress::episodes`](super::Progress::episodes)).
    pub fn episodes(&self) -> u64 {
        self.episodes
    }

    /// Counts the start of a trajectory.
    pub fn begin_episode(&mut self) {
        self.episodes += 1;
    }

    /// True when the step budget is spent.
    pub fn out_of_steps(&self) -> bool {
        self.step_limit.is_some_and(|limit| self.steps >= limit)
    }

    pub fn best(&self) -> &Best {
        &self.best
    }

    /// Applies action `action` (an index) to `env`; `None` when the step
    /// budget is spent (nothing is applied). A step the compiler fails ends
    /// `env`'s episode: its cost is [`FAILED`] and `env` must be dropped. So
    /// does a step that ends the session (nothing can follow it), though
    /// the state it reached still counts for the best.
    pub fn step(&mut self, env: &mut CompilerEnv, action: usize) -> Result<Option<Stepped>> {
        if self.out_of_steps() {
            return Ok(None);
        }
        let value =
            self.actions.get(action).cloned().ok_or_else(|| {
                Error::value(format!("no action {action}: there are {}", self.actions.len()))
            })?;
        self.steps += 1;
        let result = env.step(value)?;
        if result.info.error.is_some() || !env.in_episode() {
            return Ok(Some(Stepped { cost: FAILED, changed: true }));
        }
        let cost = match result.observation.one().and_then(Value::as_f64) {
            Some(c) => c,
            None => return Err(Error::type_error(format!("the cost {:?} is not a number", self.cost))),
        };
        if self.keep_best {
            self.consider(env, cost);
        }
        if result.terminated {
            return Ok(Some(Stepped { cost: FAILED, changed: true }));
        }
        Ok(Some(Stepped { cost, changed: !result.info.action_had_no_effect }))
    }

    /// Makes `env` (at `cost`) the best state if it is better: lower cost,
    /// or as low with fewer actions.
    pub fn offer(&mut self, env: &CompilerEnv, cost: f64) {
        self.consider(env, cost);
    }

    fn consider(&mut self, env: &CompilerEnv, cost: f64) {
        let better = cost < self.best.cost
            || (cost == self.best.cost && env.actions().len() < self.best.actions.len());
        if better {
            self.best = Best { actions: self.indices(env.actions()), cost };
        }
    }

    /// Replaces the best state, whatever its cost (for searches whose result
    /// is a state of their choosing, such as a policy's final state).
    pub fn set_result(&mut self, env: &CompilerEnv, cost: f64) {
        self.best = Best { actions: self.indices(env.actions()), cost };
    }

    fn indices(&self, actions: &[Value]) -> Vec<usize> {
        actions.iter().filter_map(|a| self.actions.iter().position(|v| v == a)).collect()
    }

    /// The observation `id` of `env` (for features and state keys).
    pub fn observe(&self, env: &CompilerEnv, id: &str) -> Result<Value> {
        env.observation().get(id)
    }

    /// The commandline of a sequence of action indices.
    pub fn commandline(&self, actions: &[usize]) -> Result<String> {
        let values: Vec<Value> = actions
            .iter()
            .map(|&a| self.actions.get(a).cloned().ok_or_else(|| Error::value(format!("no action {a}"))))
            .collect::<Result<_>>()?;
        self.root.actions_to_commandline(&values)
    }

    /// The observation the search lowers.
    pub fn cost_name(&self) -> &str {
        &self.cost
    }

    /// The benchmark searched.
    pub fn benchmark(&self) -> &str {
        self.root.benchmark().unwrap_or_default()
    }

    /// The action names (flags), by index, where the action space has them.
    pub fn action_names(&self) -> Vec<String> {
        action_names(&self.root)
    }
}

/// The values of every action of `env`'s action space, by index.
pub fn action_values(env: &CompilerEnv) -> Result<Vec<Value>> {
    match env.action_space().space.kind() {
        SpaceKind::Commandline(c) => Ok((0..c.n() as i64).map(Value::Int).collect()),
        SpaceKind::NamedDiscrete(n) => Ok((0..n.n() as i64).map(Value::Int).collect()),
        SpaceKind::Discrete(d) => Ok((0..d.n() as i64).map(|i| Value::Int(d.start() + i)).collect()),
        _ => Err(Error::type_error(format!(
            "search needs a discrete action space, not {:?}",
            env.action_space().space.type_name()
        ))),
    }
}

/// The names of `env`'s actions (flags or names), or their indices.
pub fn action_names(env: &CompilerEnv) -> Vec<String> {
    match env.action_space().space.kind() {
        SpaceKind::Commandline(c) => c.flags().into_iter().map(String::from).collect(),
        SpaceKind::NamedDiscrete(n) => n.names().to_vec(),
        SpaceKind::Discrete(d) => (0..d.n()).map(|i| (d.start() + i as i64).to_string()).collect(),
        _ => Vec::new(),
    }
}
