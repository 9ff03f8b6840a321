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

/// An agent as the registry lists it.
#[derive(Clone, Copy, Debug)]
pub struct AgentInfo {
    pub name: &'static str,
    /// A short label for a menu.
    pub label: &'static str,
    /// One plain sentence saying how it works.
    pub description: &'static str,
    /// Whether it needs nothing but a seed ([`AgentKind::by_name`] makes it).
    pub seed_only: bool,
}

/// Every agent, in table order.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        label: "random search",
        description: "Random search: plays episodes of up to 60 random passes, each ended after 20 passes without a new best, and keeps the best state seen.",
        seed_only: true,
    },
    AgentInfo {
        name: "greedy",
        label: "greedy search",
        description: "Greedy search: tries every pass from the current state, takes the one that shrinks the program most, and stops when none shrinks it.",
        seed_only: true,
    },
    AgentInfo {
        name: "beam",
        label: "beam search",
        description: "Beam search: every pass from each of the 8 smallest distinct programs of the previous level, keeping the 8 smallest new ones, level after level.",
        seed_only: true,
    },
    AgentInfo {
        name: "explore",
        label: "explore (archive search)",
        description: "Explore: keeps an archive of the distinct programs found, returns to a small one (a fork costs nothing) and walks a few random passes from it; the strongest search here.",
        seed_only: true,
    },
    AgentInfo {
        name: "guided",
        label: "guided search (policy + explore)",
        description: "Guided search: the learned policy ranks the passes to try before -Oz and its greedy episode is repeated from where -Oz ends while that pays, the most promising prefixes are finished with -Oz, and explore walks on from -Oz's result and from them.",
        seed_only: false,
    },
    AgentInfo {
        name: "policy",
        label: "learned policy (zero-shot)",
        description: "The learned policy: a small network trained with PPO on hand-written and generated programs picks a few passes from the program’s features (or none), then -Oz runs; one episode, no search.",
        seed_only: false,
    },
    AgentInfo {
        name: "fixed",
        label: "fixed sequence (ablation)",
        description: "The fixed-sequence ablation: one sequence of passes per task, the best found on the training programs, played unchanged on every program.",
        seed_only: false,
    },
];

/// Every agent's name, in table order.
pub fn names() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().map(|a| a.name)
}

/// The names of the searches that need nothing but a seed, in table order.
pub fn searches() -> impl Iterator<Item = &'static str> {
    AGENTS.iter().filter(|a| a.seed_only).map(|a| a.name)
}

fn unknown(name: &str) -> Error {
    Error::lookup(format!(
        "unknown agent {name:?}; the agents are {}",
        names().collect::<Vec<_>>().join(", ")
    ))
}

impl AgentKind {
    /// Whether `name` is an agent's, else a LookupError naming them all.
    pub fn check_name(name: &str) -> Result<()> {
        names().any(|n| n == name).then_some(()).ok_or_else(|| unknown(name))
    }

    /// A search by name (`guided`, `policy` and `fixed` need more: see
    /// [`crate::agents::request::agent_kind`]).
    pub fn by_name(name: &str) -> Result<AgentKind> {
        Ok(match name {
            "random" => AgentKind::Random,
            "greedy" => AgentKind::Greedy,
            "beam" => AgentKind::Beam,
            "explore" => AgentKind::Explore,
            _ => return Err(unknown(name)),
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
