//! The agents by name, each made with a seed for a task: what the
//! leaderboard and the command line choose from.

use super::beam::{BeamSearch, BeamSearchOptions};
use super::explore::{Explore, ExploreOptions};
use super::fixed::{FixedSequence, Sequence};
use super::greedy::Greedy;
use super::guided::{Guided, GuidedOptions};
use super::policy::{Policy, PolicyRollout};
use super::random::{RandomSearch, RandomSearchOptions};
use super::search::Search;
use super::task::Task;
use crate::error::{Error, Result};
use std::rc::Rc;

/// Policies to play, one per task: a task uses the first policy trained
/// for it, else the first of all.
#[derive(Clone, Debug)]
pub struct Policies(Vec<Rc<Policy>>);

impl Policies {
    /// The bundled policies (code size, then runtime).
    pub fn bundled() -> Result<Policies> {
        Ok(Policies(vec![
            Rc::new(Policy::pretrained_for(Task::CodeSize)?),
            Rc::new(Policy::pretrained_for(Task::Runtime)?),
        ]))
    }

    /// `policy` for its own task, the bundled ones for the others.
    pub fn with(policy: Rc<Policy>) -> Result<Policies> {
        let mut all = vec![policy];
        all.extend(Policies::bundled()?.0);
        Ok(Policies(all))
    }

    /// Only `policy`, whatever the task.
    pub fn only(policy: Rc<Policy>) -> Policies {
        Policies(vec![policy])
    }

    pub fn for_task(&self, task: Task) -> Result<Rc<Policy>> {
        let trained_for = |p: &&Rc<Policy>| p.task().is_ok_and(|t| t == task);
        self.0
            .iter()
            .find(trained_for)
            .or(self.0.first())
            .cloned()
            .ok_or_else(|| Error::value("no policy to play"))
    }
}

#[derive(Clone)]
pub enum AgentKind {
    Random,
    Greedy,
    Beam,
    Explore,
    /// A search that the policy guides (see [`super::guided`]).
    Guided(Policies),
    /// One greedy rollout of a trained policy, from the unoptimised program.
    Policy(Policies),
    /// The fixed-sequence ablation: one sequence per task, played unchanged.
    Fixed(Rc<Vec<Sequence>>),
}

/// The names of the searches that need nothing but a seed, in table order.
pub const SEARCHES: [&str; 4] = ["random", "greedy", "beam", "explore"];

/// Every agent's name, in table order.
pub const ALL: [&str; 7] = ["random", "greedy", "beam", "explore", "guided", "policy", "fixed"];

impl AgentKind {
    /// A search by name (`guided`, `policy` and `fixed` need more: see
    /// [`crate::agents::request::agent_kind`]).
    pub fn by_name(name: &str) -> Result<AgentKind> {
        Ok(match name {
            "random" => AgentKind::Random,
            "greedy" => AgentKind::Greedy,
            "beam" => AgentKind::Beam,
            "explore" => AgentKind::Explore,
            _ => {
                return Err(Error::lookup(format!(
                    "unknown agent {name:?}; the agents are {}",
                    ALL.join(", ")
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
            AgentKind::Guided(_) => "guided",
            AgentKind::Policy(_) => "policy",
            AgentKind::Fixed(_) => "fixed",
        }
    }

    /// Whether the agent searches under a budget (and may start from a
    /// baseline), rather than playing one episode from the unoptimised program.
    pub fn is_search(&self) -> bool {
        !matches!(self, AgentKind::Policy(_) | AgentKind::Fixed(_))
    }

    /// The agent for one program of `task`.
    pub fn make(&self, seed: u64, task: Task) -> Result<Box<dyn Search>> {
        Ok(match self {
            AgentKind::Random => {
                Box::new(RandomSearch::new(RandomSearchOptions { seed, ..Default::default() }))
            }
            AgentKind::Greedy => Box::new(Greedy::new()),
            AgentKind::Beam => Box::new(BeamSearch::new(BeamSearchOptions::default())),
            AgentKind::Explore => Box::new(Explore::new(ExploreOptions { seed, ..Default::default() })),
            AgentKind::Guided(policies) => {
                Box::new(Guided::new(policies.for_task(task)?, GuidedOptions { seed, ..Default::default() }))
            }
            AgentKind::Policy(policies) => Box::new(PolicyRollout::new(policies.for_task(task)?)),
            AgentKind::Fixed(sequences) => {
                let sequence = sequences
                    .iter()
                    .find(|s| s.task == task)
                    .ok_or_else(|| Error::value(format!("no fixed sequence for {}", task.name())))?;
                Box::new(FixedSequence::new(sequence.clone()))
            }
        })
    }
}
