//! A learned policy: a small network that picks the passes to run before
//! the compiler's own pipeline (`-Oz` for code size, `-O2` for runtime),
//! trained by [`train`] (PPO with action masking) and played zero-shot by
//! [`PolicyRollout`]: one episode, the most probable choice each step, no
//! search, then the pipeline.
//!
//! Why a prefix: the pipeline already does what every program needs; what
//! it cannot know is when unrolling, inlining, specialising or rotating
//! first pays, and that is a per-program decision a network can learn. The
//! policy may stop at once (a choice of its own), so on a program where
//! nothing helps it matches the pipeline exactly.
//!
//! The input is the observation (`Features`: Autophase, InstCount and
//! Structure), each count squashed as `ln(1 + x)`, then the episode's
//! history: `ln(1 + times each action was applied)`, the last action
//! one-hot, the actions known to leave the current program unchanged, and
//! the share of the episode gone; the whole vector is then standardised by
//! means and scales measured when training began (saved with the policy).
//! The output is one logit per action, one for stopping, and a value
//! estimate. Actions known to do nothing here are masked out, in training
//! and in play. Actions are matched to an environment's by name, so a
//! policy runs on an action space that has grown (it never picks an action
//! it does not know) and reports one it needs that is missing.

pub mod mlp;
pub mod play;
pub mod pretrained;
#[cfg(test)]
mod tests;
pub mod train;

use super::baseline::{apply_pipeline, pipeline_indices, ContextSteps};
use super::context::SearchContext;
use super::search::Search;
use crate::agents::task::Task;
use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use crate::value::Value;
use mlp::Mlp;
use play::Player;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The format tag of saved policies.
pub const FORMAT: &str = "compgym-policy-v2";

/// The name of the policy's own choice to stop and hand over to the pipeline.
pub const STOP: &str = "stop";

/// The observation policies read by default.
pub const DEFAULT_OBSERVATION: &str = "Features";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    pub format: String,
    /// `size` or `runtime`: the cost it lowers and the pipeline that finishes
    /// its episodes (see [`Task`]).
    pub task: String,
    /// The observation the network reads (a numeric vector).
    pub observation: String,
    pub observation_length: usize,
    /// The actions it chooses among, by name, in output order.
    pub actions: Vec<String>,
    /// The most passes it runs before the pipeline.
    pub episode_length: usize,
    /// The input's standardisation.
    pub normalizer: Normalizer,
    pub network: Mlp,
    /// How it was trained (free-form; for people).
    #[serde(default)]
    pub training: serde_json::Value,
}

impl Policy {
    /// A new policy with random weights and an identity normalizer.
    pub fn new(
        task: Task,
        observation: &str,
        observation_length: usize,
        actions: Vec<String>,
        episode_length: usize,
        hidden: &[usize],
        rng: &mut crate::Rng,
    ) -> Policy {
        let inputs = input_length(observation_length, actions.len());
        let mut sizes = vec![inputs];
        sizes.extend_from_slice(hidden);
        sizes.push(actions.len() + 2);
        Policy {
            format: FORMAT.into(),
            task: task.short_name().into(),
            observation: observation.into(),
            observation_length,
            actions,
            episode_length,
            normalizer: Normalizer::identity(inputs),
            network: Mlp::new(&sizes, 0.1, rng),
            training: serde_json::Value::Null,
        }
    }

    /// The policy that comes with compgym for `task` (see [`pretrained`]).
    pub fn pretrained_for(task: Task) -> Result<Policy> {
        pretrained::for_task(task)
    }

    /// The bundled code-size policy.
    pub fn pretrained() -> Result<Policy> {
        Policy::pretrained_for(Task::CodeSize)
    }

    /// The task the policy was trained for.
    pub fn task(&self) -> Result<Task> {
        Task::by_name(&self.task)
    }

    /// The index of the stop choice among the network's outputs.
    pub fn stop_index(&self) -> usize {
        self.actions.len()
    }

    /// The network's input for an observation vector and the episode's
    /// history, standardised.
    pub fn input(&self, observation: &[f64], history: &History, out: &mut Vec<f64>) {
        history.input(observation, out);
        self.normalizer.apply(out);
    }

    /// Reads a saved policy; a ValueError says what is wrong with it.
    pub fn from_json(text: &str) -> Result<Policy> {
        let policy: Policy =
            serde_json::from_str(text).map_err(|e| Error::value(format!("not a saved policy: {e}")))?;
        if policy.format != FORMAT {
            return Err(Error::value(format!("policy format {:?}, expected {FORMAT:?}", policy.format)));
        }
        policy.check()?;
        Ok(policy)
    }

    /// The policy as JSON, its weights with f32 precision; `from_json` of
    /// it plays exactly as [`rounded`](Self::rounded) does.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::value(e.to_string()))
    }

    /// The policy as it is saved: weights rounded to f32.
    pub fn rounded(&self) -> Policy {
        Policy { network: self.network.rounded(), normalizer: self.normalizer.rounded(), ..self.clone() }
    }

    /// Checks that the network fits the observation and the actions.
    pub fn check(&self) -> Result<()> {
        self.network.check()?;
        self.task().map_err(|e| Error::value(e.message().to_string()))?;
        let inputs = input_length(self.observation_length, self.actions.len());
        if self.network.inputs() != inputs || self.network.outputs() != self.actions.len() + 2 {
            return Err(Error::value(format!(
                "the network takes {} inputs and gives {} outputs; {} actions and an observation of {} need {} and {}",
                self.network.inputs(),
                self.network.outputs(),
                self.actions.len(),
                self.observation_length,
                inputs,
                self.actions.len() + 2
            )));
        }
        self.normalizer.check(inputs)?;
        if self.episode_length == 0 {
            return Err(Error::value("the episode length must be positive"));
        }
        Ok(())
    }
}

/// The input's standardisation: `(x - mean) * scale`, each measured on the
/// inputs met when training began, so every input has about the same range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Normalizer {
    #[serde(with = "mlp::f32_values")]
    pub mean: Vec<f64>,
    #[serde(with = "mlp::f32_values")]
    pub scale: Vec<f64>,
}

impl Normalizer {
    pub fn identity(len: usize) -> Normalizer {
        Normalizer { mean: vec![0.0; len], scale: vec![1.0; len] }
    }

    /// Means and inverse standard deviations of `samples` (an input that
    /// never varies keeps scale 1).
    pub fn fit(samples: &[Vec<f64>], len: usize) -> Normalizer {
        let n = samples.len().max(1) as f64;
        let mut mean = vec![0.0; len];
        for s in samples {
            mean.iter_mut().zip(s).for_each(|(m, x)| *m += x / n);
        }
        let mut variance = vec![0.0; len];
        for s in samples {
            variance.iter_mut().zip(s.iter().zip(&mean)).for_each(|(v, (x, m))| *v += (x - m) * (x - m) / n);
        }
        let scale = variance.iter().map(|&v| if v > 1e-12 { 1.0 / libm::sqrt(v) } else { 1.0 }).collect();
        Normalizer { mean, scale }
    }

    pub fn apply(&self, x: &mut [f64]) {
        for ((x, m), s) in x.iter_mut().zip(&self.mean).zip(&self.scale) {
            *x = (*x - m) * s;
        }
    }

    /// Rounded to f32, as saved.
    pub fn rounded(&self) -> Normalizer {
        let round = |v: &[f64]| v.iter().map(|&x| f64::from(x as f32)).collect();
        Normalizer { mean: round(&self.mean), scale: round(&self.scale) }
    }

    fn check(&self, inputs: usize) -> Result<()> {
        if self.mean.len() != inputs || self.scale.len() != inputs {
            return Err(Error::value(format!(
                "the normalizer has {} means and {} scales for {inputs} inputs",
                self.mean.len(),
                self.scale.len()
            )));
        }
        if self.mean.iter().chain(&self.scale).any(|x| !x.is_finite()) {
            return Err(Error::value("the normalizer holds a number that is not finite"));
        }
        Ok(())
    }
}

/// The network's input length for an observation and a number of actions.
pub fn input_length(observation_length: usize, actions: usize) -> usize {
    observation_length + 3 * actions + 1
}

/// What an episode has done so far, and the network's input built from it.
#[derive(Clone, Debug)]
pub struct History {
    counts: Vec<u32>,
    last: Option<usize>,
    /// Actions that left the current program unchanged.
    no_effect: Vec<bool>,
    /// Actions masked for the next choice only (by the caller's action mask).
    masked: Vec<bool>,
    step: usize,
    episode_length: usize,
}

impl History {
    pub fn new(actions: usize, episode_length: usize) -> History {
        History {
            counts: vec![0; actions],
            last: None,
            no_effect: vec![false; actions],
            masked: vec![false; actions],
            step: 0,
            episode_length,
        }
    }

    /// Masks the actions `masked` yields true for, for the next choice only.
    pub fn mask_next(&mut self, masked: impl Iterator<Item = bool>) {
        self.masked.iter_mut().zip(masked).for_each(|(m, x)| *m = x);
    }

    /// Records a step: `action`, and whether it changed the program.
    pub fn record(&mut self, action: usize, changed: bool) {
        self.masked.iter_mut().for_each(|m| *m = false);
        if let Some(c) = self.counts.get_mut(action) {
            *c += 1;
        }
        if changed {
            self.no_effect.iter_mut().for_each(|n| *n = false);
        } else if let Some(n) = self.no_effect.get_mut(action) {
            *n = true;
        }
        self.last = Some(action);
        self.step += 1;
    }

    /// Steps recorded.
    pub fn steps(&self) -> usize {
        self.step
    }

    /// The episode is over: its length is reached.
    pub fn done(&self) -> bool {
        self.step >= self.episode_length
    }

    /// `available` without the actions known to leave the program
    /// unchanged, then the stop choice (always allowed).
    pub fn allowed(&self, available: &[bool], out: &mut Vec<bool>) {
        out.clear();
        let known = self.no_effect.iter().zip(&self.masked).map(|(&n, &m)| n || m);
        out.extend(available.iter().zip(known).map(|(&a, n)| a && !n));
        out.push(true);
    }

    /// The input for an observation vector.
    pub fn input(&self, observation: &[f64], out: &mut Vec<f64>) {
        out.clear();
        out.extend(observation.iter().map(|&x| libm::log1p(x.max(0.0))));
        out.extend(self.counts.iter().map(|&c| libm::log1p(f64::from(c))));
        out.extend((0..self.counts.len()).map(|a| if self.last == Some(a) { 1.0 } else { 0.0 }));
        out.extend(self.no_effect.iter().map(|&n| if n { 1.0 } else { 0.0 }));
        out.push(self.step as f64 / self.episode_length.max(1) as f64);
    }
}

/// Reads observation `id` of `env` as a vector of `length` numbers.
pub fn observe_vector(env: &CompilerEnv, id: &str, length: usize) -> Result<Vec<f64>> {
    let value = env.observation().get(id)?;
    let vector = match &value {
        Value::Array(a) => a.data().to_f64_vec(),
        Value::List(items) => items.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect(),
        other => {
            return Err(Error::type_error(format!(
                "observation {id:?} is a {}, not a vector",
                other.kind_name()
            )))
        }
    };
    if vector.len() != length {
        return Err(Error::value(format!(
            "observation {id:?} has {} values; the policy reads {length}",
            vector.len()
        )));
    }
    Ok(vector)
}

/// Softmax of `logits` where `allowed`, in place (others get 0).
pub fn softmax(logits: &mut [f64], allowed: &[bool]) {
    let max =
        logits.iter().zip(allowed).filter(|(_, &a)| a).map(|(l, _)| *l).fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for (l, &a) in logits.iter_mut().zip(allowed) {
        *l = if a { libm::exp(*l - max) } else { 0.0 };
        sum += *l;
    }
    if sum > 0.0 {
        logits.iter_mut().for_each(|l| *l /= sum);
    }
}

/// The most probable allowed action (the first on ties).
pub fn argmax(logits: &[f64], allowed: &[bool]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, (&l, &a)) in logits.iter().zip(allowed).enumerate() {
        if a && best.is_none_or(|b| l > logits[b]) {
            best = Some(i);
        }
    }
    best
}

/// For each policy action, its index in `env_names` (if the environment has it).
pub fn match_actions(policy: &Policy, env_names: &[String]) -> Vec<Option<usize>> {
    policy.actions.iter().map(|name| env_names.iter().position(|n| n == name)).collect()
}

/// One zero-shot episode of a policy: from the unoptimised program, the most
/// probable choice at each step until it stops (or its episode length is
/// reached), then its task's pipeline. The result is the final state, not
/// the best one met on the way.
pub struct PolicyRollout {
    policy: Rc<Policy>,
    state: Option<(CompilerEnv, Player)>,
}

impl PolicyRollout {
    pub fn new(policy: Rc<Policy>) -> PolicyRollout {
        PolicyRollout { policy, state: None }
    }
}

impl Search for PolicyRollout {
    fn name(&self) -> &str {
        "policy"
    }

    fn keeps_best(&self) -> bool {
        false
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        let (env, player) = match &mut self.state {
            Some((env, player)) => (env, player),
            None => {
                let env = context.fork_root()?;
                let player = Player::new(self.policy.clone(), &env)?;
                context.set_result(&env, context.initial_cost());
                context.begin_episode();
                let (env, player) = self.state.insert((env, player));
                (env, player)
            }
        };
        if let Some(choice) = player.choose(env)? {
            let Some(stepped) = context.step(env, choice.env_action)? else {
                return Ok(true);
            };
            player.record(&choice, stepped.changed, false);
            if stepped.failed() {
                return Err(Error::service("the compiler failed during the policy's episode"));
            }
            context.set_result(env, stepped.cost);
            return Ok(true);
        }
        // The policy has stopped: its task's pipeline finishes the episode.
        let pipeline = self.policy.task()?.baseline_pipeline()?;
        let groups = pipeline_indices(&pipeline, &context.action_names())?;
        let start = context.observe(env, context.cost_name())?.as_f64().unwrap_or(f64::INFINITY);
        let cost = apply_pipeline(env, &groups, pipeline.conditional, start, &mut ContextSteps(context))?;
        context.set_result(env, cost);
        Ok(false)
    }
}
