//! A baseline pipeline as a start for a search: the actions that reproduce
//! it, so a search that starts there can never end worse than the baseline
//! (the start is a state it has visited).
//!
//! A pipeline is groups of actions by name, each applied in turn; in a
//! conditional pipeline a group is kept only if the cost comes out no higher
//! and the program changed (as `-Oz` keeps its groups).

use super::context::{action_names, action_values, SearchContext};
use crate::env::{CompilerEnv, ResetOptions};
use crate::error::{Error, Result};
use crate::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub groups: Vec<Vec<String>>,
    pub conditional: bool,
}

impl Pipeline {
    /// One unconditional group.
    pub fn flat(actions: &[&str]) -> Pipeline {
        Pipeline { groups: vec![actions.iter().map(|a| a.to_string()).collect()], conditional: false }
    }

    /// Groups kept only where they do not raise the cost.
    pub fn conditional(groups: &[&[&str]]) -> Pipeline {
        Pipeline {
            groups: groups.iter().map(|g| g.iter().map(|a| a.to_string()).collect()).collect(),
            conditional: true,
        }
    }
}

/// How a pipeline's actions are taken and its cost measured.
pub trait PipelineStep {
    /// Takes action `action` (an index): whether it changed the program, or
    /// `None` when no more steps may be taken (a search's budget is
    /// spent). A failed step is an error.
    fn step(&mut self, env: &mut CompilerEnv, action: usize) -> Result<Option<bool>>;
    /// The cost of `env`'s program now.
    fn cost(&mut self, env: &CompilerEnv) -> Result<f64>;
}

/// Steps `env` directly; the cost is observation `cost`.
pub struct DirectSteps<'a> {
    pub cost: &'a str,
    pub values: &'a [Value],
}

impl PipelineStep for DirectSteps<'_> {
    fn step(&mut self, env: &mut CompilerEnv, action: usize) -> Result<Option<bool>> {
        let value =
            self.values.get(action).cloned().ok_or_else(|| Error::value(format!("no action {action}")))?;
        let result = env.step(value)?;
        if let Some(e) = result.info.error {
            return Err(Error::service(format!("the pipeline failed: {e}")));
        }
        Ok(Some(!result.info.action_had_no_effect))
    }

    fn cost(&mut self, env: &CompilerEnv) -> Result<f64> {
        env.observation()
            .get(self.cost)?
            .as_f64()
            .ok_or_else(|| Error::type_error("the cost is not a number"))
    }
}

/// Steps taken through a search's context, so they count against its
/// budget and its best state; the cost is the search's.
pub struct ContextSteps<'a>(pub &'a mut SearchContext);

impl PipelineStep for ContextSteps<'_> {
    fn step(&mut self, env: &mut CompilerEnv, action: usize) -> Result<Option<bool>> {
        match self.0.step(env, action)? {
            None => Ok(None),
            Some(s) if s.failed() => Err(Error::service("the compiler failed during the pipeline")),
            Some(s) => Ok(Some(s.changed)),
        }
    }

    fn cost(&mut self, env: &CompilerEnv) -> Result<f64> {
        let id = self.0.cost_name().to_string();
        self.0.observe(env, &id)?.as_f64().ok_or_else(|| Error::type_error("the cost is not a number"))
    }
}

/// The index of each action of `pipeline` in `names`, group by group (a
/// LookupError names one the action space lacks).
pub fn pipeline_indices(pipeline: &Pipeline, names: &[String]) -> Result<Vec<Vec<usize>>> {
    let index = |name: &String| {
        names.iter().position(|n| n == name).ok_or_else(|| Error::lookup(format!("no action {name:?}")))
    };
    pipeline.groups.iter().map(|g| g.iter().map(index).collect()).collect()
}

/// Applies `pipeline` (as [`pipeline_indices`]) to `env` from its current
/// state, at `cost`, each action through `steps`; a conditional group is
/// tried on a fork and kept only if it changed the program and the cost
/// came out no higher (the cost is measured only where a group ends). The
/// cost at the end; `env` is left there. Stops early, where it is, when
/// `steps` allows no more.
pub fn apply_pipeline(
    env: &mut CompilerEnv,
    groups: &[Vec<usize>],
    conditional: bool,
    mut cost: f64,
    steps: &mut dyn PipelineStep,
) -> Result<f64> {
    if !conditional {
        for &action in groups.iter().flatten() {
            if steps.step(env, action)?.is_none() {
                break;
            }
        }
        return steps.cost(env);
    }
    for group in groups {
        let mut candidate = env.fork()?;
        let mut changed = false;
        for &action in group {
            match steps.step(&mut candidate, action)? {
                Some(did) => changed |= did,
                None => return Ok(cost),
            }
        }
        if changed {
            let after = steps.cost(&candidate)?;
            if after <= cost {
                *env = candidate;
                cost = after;
            }
        }
    }
    Ok(cost)
}

/// The actions (indices) by which `pipeline` optimises the benchmark of
/// `env`'s episode, measuring `cost` to decide on conditional groups. `env`
/// is left as it is.
pub fn pipeline_actions(env: &CompilerEnv, cost: &str, pipeline: &Pipeline) -> Result<Vec<usize>> {
    let benchmark = env
        .benchmark()
        .ok_or_else(|| Error::session_not_found("no episode yet: reset the environment first"))?
        .to_string();
    let (names, values) = (action_names(env), action_values(env)?);
    let groups = pipeline_indices(pipeline, &names)?;
    let mut current = env.sibling();
    current.set_max_episode_steps(None);
    current.set_reward_space(None)?;
    current.set_observation_space(Some(cost))?;
    let observation = current.reset(ResetOptions { benchmark: Some(benchmark), ..Default::default() })?;
    let start = observation.and_then(|v| v.as_f64()).unwrap_or(f64::INFINITY);
    apply_pipeline(
        &mut current,
        &groups,
        pipeline.conditional,
        start,
        &mut DirectSteps { cost, values: &values },
    )?;
    Ok(current.actions().iter().filter_map(|a| values.iter().position(|v| v == a)).collect())
}
