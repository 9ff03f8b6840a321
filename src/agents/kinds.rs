//! The agents by name, each made with a seed: what the leaderboard and the
//! command line choose from.

use super::beam::{BeamSearch, BeamSearchOptions};
use super::explore::{Explore, ExploreOptions};
use super::greedy::Greedy;
use super::policy::{Policy, PolicyRollout};
use super::random::{RandomSearch, RandomSearchOptions};
use super::search::Search;
use crate::error::{Error, Result};
use std::rc::Rc;

#[derive(Clone)]
pub enum AgentKind {
    Random,
    Greedy,
    Beam,
    Explore,
    /// One greedy rollout of a trained policy, from the unoptimised program.
    Policy(Rc<Policy>),
}

/// The names of the searches, in table order.
pub const SEARCHES: [&str; 4] = ["random", "greedy", "beam", "explore"];

impl AgentKind {
    /// A search by name (`policy` needs weights: see [`AgentKind::Policy`]).
    pub fn by_name(name: &str) -> Result<AgentKind> {
        Ok(match name {
            "random" => AgentKind::Random,
            "greedy" => AgentKind::Greedy,
            "beam" => AgentKind::Beam,
            "explore" => AgentKind::Explore,
            _ => {
                return Err(Error::lookup(format!(
                    "unknown agent {name:?}; the agents are {} and policy",
                    SEARCHES.join(", ")
                )))
            }
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Beam => "beam",
            AgentKind::Explore => "explore",
            AgentKind::Policy(_) => "policy",
        }
    }

    /// Whether the agent is a search (which may start from a baseline), not a policy.
    pub fn is_search(&self) -> bool {
        !matches!(self, AgentKind::Policy(_))
    }

    pub fn make(&self, seed: u64) -> Box<dyn Search> {
        match self {
            AgentKind::Random => {
                Box::new(RandomSearch::new(RandomSearchOptions { seed, ..Default::default() }))
            }
            AgentKind::Greedy => Box::new(Greedy::new()),
            AgentKind::Beam => Box::new(BeamSearch::new(BeamSearchOptions::default())),
            AgentKind::Explore => Box::new(Explore::new(ExploreOptions { seed, ..Default::default() })),
            AgentKind::Policy(policy) => Box::new(PolicyRollout::new(policy.clone())),
        }
    }
}
