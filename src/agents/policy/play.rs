//! Playing a policy on an environment, one step at a time: the network
//! reads the environment's observation and the episode's history, the most
//! probable allowed choice is taken (a pass, or stopping), and the history
//! learns what the step did; once the policy stops, [`Player::finish`] runs
//! its task's pipeline. What a zero-shot rollout ([`super::PolicyRollout`])
//! and a caller stepping its own environment (the JS `PolicyPlayer`) share.

use super::mlp::Trace;
use super::{argmax, match_actions, observe_vector, softmax, History, Policy};
use crate::agents::baseline::{apply_pipeline, pipeline_indices, DirectSteps};
use crate::agents::context::{action_names, action_values};
use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use crate::value::Value;
use std::rc::Rc;

/// The action a policy picks.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The action's index in the policy's outputs.
    pub action: usize,
    /// Its index in the environment's action space.
    pub env_action: usize,
    /// Its name (the pass's flag).
    pub name: String,
    /// Its probability under the policy, among the allowed actions.
    pub probability: f64,
}

/// What a step of [`Player::step`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub choice: Choice,
    pub changed: bool,
    /// The compiler's error, if the step failed (the episode is over).
    pub error: Option<Error>,
    /// The episode is over: the policy's episode length is reached, the
    /// environment ended it, or the step failed.
    pub done: bool,
}

pub struct Player {
    policy: Rc<Policy>,
    history: History,
    /// Policy action → environment action.
    to_env: Vec<Option<usize>>,
    /// Policy actions the environment has.
    available: Vec<bool>,
    /// The environment's action values, by index.
    values: Vec<Value>,
    allowed: Vec<bool>,
    input: Vec<f64>,
    trace: Trace,
    probabilities: Vec<f64>,
    /// The policy chose to stop, or a step ended the episode.
    over: bool,
    finished: bool,
}

impl Player {
    /// A new episode of `policy` on the actions of `env` (matched by name;
    /// a ValueError if the policy knows none of them or is malformed).
    pub fn new(policy: Rc<Policy>, env: &CompilerEnv) -> Result<Player> {
        Player::on(policy, &action_names(env), action_values(env)?)
    }

    /// A new episode of `policy` on the Bril environment's actions (the
    /// passes, in registry order), for a caller that steps an environment
    /// the player never sees and reports what happened ([`record`](Self::record)).
    pub fn detached(policy: Rc<Policy>) -> Result<Player> {
        let names: Vec<String> = crate::bril::passes::registry().iter().map(|p| p.flag.to_string()).collect();
        let values = (0..names.len() as i64).map(Value::Int).collect();
        Player::on(policy, &names, values)
    }

    fn on(policy: Rc<Policy>, names: &[String], values: Vec<Value>) -> Result<Player> {
        policy.check()?;
        let to_env = match_actions(&policy, names);
        let available: Vec<bool> = to_env.iter().map(Option::is_some).collect();
        if !available.iter().any(|&a| a) {
            return Err(Error::value("the policy knows none of the environment's actions"));
        }
        let history = History::new(policy.actions.len(), policy.episode_length);
        Ok(Player {
            values,
            policy,
            history,
            to_env,
            available,
            allowed: Vec::new(),
            input: Vec::new(),
            trace: Trace::default(),
            probabilities: Vec::new(),
            over: false,
            finished: false,
        })
    }

    /// Masks out environment actions the caller knows do nothing now
    /// (`mask[i]` false: action `i` of the environment is not to be taken),
    /// for the next choice only.
    pub fn mask(&mut self, mask: &[bool]) -> Result<()> {
        if mask.len() != self.values.len() {
            return Err(Error::value(format!(
                "the action mask has {} entries; the action space has {}",
                mask.len(),
                self.values.len()
            )));
        }
        self.history.mask_next(self.to_env.iter().map(|e| e.is_some_and(|i| !mask[i])));
        Ok(())
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The policy's passes are over: its length is reached, it chose to
    /// stop, or a step ended the episode. ([`finish`](Self::finish) runs the
    /// pipeline after them.)
    pub fn done(&self) -> bool {
        self.over || self.history.done()
    }

    /// Steps recorded so far.
    pub fn steps(&self) -> usize {
        self.history.steps()
    }

    /// The action the policy takes in `env`'s current state; `None` when
    /// its passes are over (it stops here, or had stopped).
    pub fn choose(&mut self, env: &CompilerEnv) -> Result<Option<Choice>> {
        if self.done() {
            return Ok(None);
        }
        let observation = observe_vector(env, &self.policy.observation, self.policy.observation_length)?;
        self.choose_for(&observation)
    }

    /// [`choose`](Self::choose) for an observation the caller read itself
    /// (the policy's observation, as raw counts).
    pub fn choose_for(&mut self, observation: &[f64]) -> Result<Option<Choice>> {
        if self.done() {
            return Ok(None);
        }
        let p = &self.policy;
        if observation.len() != p.observation_length {
            return Err(Error::value(format!(
                "the observation has {} values; the policy reads {} ({})",
                observation.len(),
                p.observation_length,
                p.observation
            )));
        }
        p.input(observation, &self.history, &mut self.input);
        p.network.forward(&self.input, &mut self.trace);
        let logits = &self.trace.output()[..=p.actions.len()];
        self.history.allowed(&self.available, &mut self.allowed);
        let stop = p.stop_index();
        let action = argmax(logits, &self.allowed).unwrap_or(stop);
        let Some(env_action) = self.to_env.get(action).copied().flatten().filter(|_| action != stop) else {
            self.over = true;
            return Ok(None);
        };
        self.probabilities.clear();
        self.probabilities.extend_from_slice(logits);
        softmax(&mut self.probabilities, &self.allowed);
        Ok(Some(Choice {
            action,
            env_action,
            name: p.actions.get(action).cloned().unwrap_or_default(),
            probability: self.probabilities.get(action).copied().unwrap_or(0.0),
        }))
    }

    /// Records that `choice` was taken and whether it changed the program;
    /// `ended` when the step ended the episode.
    pub fn record(&mut self, choice: &Choice, changed: bool, ended: bool) {
        self.history.record(choice.action, changed);
        self.over |= ended;
    }

    /// Chooses, steps `env` with the choice and records it; `None` when the
    /// policy's passes are over.
    pub fn step(&mut self, env: &mut CompilerEnv) -> Result<Option<Played>> {
        let Some(choice) = self.choose(env)? else { return Ok(None) };
        let value = self
            .values
            .get(choice.env_action)
            .cloned()
            .ok_or_else(|| Error::value(format!("no action {}", choice.env_action)))?;
        let result = env.step(value)?;
        let changed = !result.info.action_had_no_effect;
        let ended = result.info.error.is_some() || result.terminated || result.truncated || !env.in_episode();
        self.record(&choice, changed, ended);
        Ok(Some(Played { choice, changed, error: result.info.error, done: self.done() }))
    }

    /// Runs the policy's pipeline on `env` once its passes are over (a
    /// ValueError before; nothing the second time): the cost at the end,
    /// as the task measures it.
    pub fn finish(&mut self, env: &mut CompilerEnv) -> Result<f64> {
        let task = self.policy.task()?;
        let cost = || -> Result<f64> {
            env.observation()
                .get(task.cost())?
                .as_f64()
                .ok_or_else(|| Error::type_error("the cost is not a number"))
        };
        if self.finished {
            return cost();
        }
        if !self.done() {
            return Err(Error::value("the policy has not stopped yet: step it until it does"));
        }
        let pipeline = task.baseline_pipeline()?;
        let groups = pipeline_indices(&pipeline, &action_names(env))?;
        let start = cost()?;
        let mut steps = DirectSteps { cost: task.cost(), values: &self.values };
        let cost = apply_pipeline(env, &groups, pipeline.conditional, start, &mut steps)?;
        self.finished = true;
        Ok(cost)
    }
}
