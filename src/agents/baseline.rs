//! A baseline pipeline as a start for a search: the actions that reproduce
//! it, so a search that starts there can never end worse than the baseline
//! (the start is a state it has visited).
//!
//! A pipeline is groups of actions by name, each applied in turn; in a
//! conditional pipeline a group is kept only if the cost comes out no higher
//! and the program changed (as `-Oz` keeps its groups).

use super::context::{action_names, action_values};
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

/// The actions (indices) by which `pipeline` optimises the benchmark of
/// `env`'s episode, measuring `cost` to decide on conditional groups. `env`
/// is left as it is.
pub fn pipeline_actions(env: &CompilerEnv, cost: &str, pipeline: &Pipeline) -> Result<Vec<usize>> {
    let benchmark = env
        .benchmark()
        .ok_or_else(|| Error::session_not_found("no episode yet: reset the environment first"))?
        .to_string();
    let (names, values) = (action_names(env), action_values(env)?);
    let value = |name: &String| {
        let i = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| Error::lookup(format!("no action {name:?}")))?;
        values.get(i).cloned().ok_or_else(|| Error::lookup(format!("no action {name:?}")))
    };
    let mut current = env.sibling();
    current.set_max_episode_steps(None);
    current.set_reward_space(None)?;
    current.set_observation_space(Some(cost))?;
    let observation = current.reset(ResetOptions { benchmark: Some(benchmark), ..Default::default() })?;
    let mut current_cost = observation.and_then(|v| v.as_f64()).unwrap_or(f64::INFINITY);
    for group in &pipeline.groups {
        let mut candidate = current.fork()?;
        let mut changed = false;
        let mut cost = current_cost;
        for name in group {
            let result = candidate.step(value(name)?)?;
            if let Some(e) = result.info.error {
                return Err(Error::service(format!("the baseline pipeline failed at {name}: {e}")));
            }
            changed |= !result.info.action_had_no_effect;
            cost = result.observation.one().and_then(Value::as_f64).unwrap_or(f64::INFINITY);
        }
        if !pipeline.conditional || (changed && cost <= current_cost) {
            current = candidate;
            current_cost = cost;
        }
    }
    Ok(current.actions().iter().filter_map(|a| values.iter().position(|v| v == a)).collect())
}
