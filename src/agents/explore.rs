//! Archive search after Go-Explore: keep an archive of the distinct states
//! found so far (the unoptimised program and the start state first); pick
//! one — the cheapest of a few drawn at random, the less often picked on
//! ties — return to it for free (a fork), and explore from it with a short
//! random walk; every new state the walk meets joins the archive. Returning
//! is what a deterministic compiler with forks makes cheap, and it is what
//! random search lacks: it keeps building on the best states instead of
//! starting over.
//!
//! The first walks take every action once from the start state, each walk
//! one change long, so every one-move improvement is found within as many
//! steps as there are actions, however large the archive grows later.
//!
//! Walks waste no steps on what is known to do nothing: a walk never
//! repeats an action that left its current state unchanged, ends when no
//! action is left to try there, and from an archived state first tries the
//! actions never taken from it. When the archive is full a new state
//! replaces the most expensive one if it is cheaper. Each piece of work is
//! one step.

use super::context::SearchContext;
use super::search::Search;
use super::state_keys::StateKeys;
use crate::env::CompilerEnv;
use crate::error::Result;
use crate::rng::Rng;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub struct ExploreOptions {
    pub seed: u64,
    /// Archive states drawn to pick one from.
    pub tournament: usize,
    /// The most changes a walk makes.
    pub walk: usize,
    /// The most states the archive keeps.
    pub capacity: usize,
    /// The observation that tells states apart.
    pub state_key: Option<String>,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions { seed: 0, tournament: 2, walk: 8, capacity: 2000, state_key: Some("IrSha1".into()) }
    }
}

struct Cell {
    env: CompilerEnv,
    key: Option<String>,
    cost: f64,
    picked: u32,
    /// Actions taken from this state (first steps of walks).
    tried: Vec<bool>,
    /// Actions known to leave this state unchanged.
    no_effect: Vec<bool>,
}

impl Cell {
    fn new(env: CompilerEnv, key: Option<String>, cost: f64, actions: usize) -> Cell {
        Cell { env, key, cost, picked: 0, tried: vec![false; actions], no_effect: vec![false; actions] }
    }

    /// Every action leaves it unchanged: nothing to explore from here.
    fn closed(&self) -> bool {
        self.no_effect.iter().all(|&n| n)
    }

    /// Some action was never taken from here and is not known to do nothing.
    fn has_untried(&self) -> bool {
        self.tried.iter().zip(&self.no_effect).any(|(&t, &n)| !t && !n)
    }
}

struct Walk {
    env: CompilerEnv,
    /// Changes left.
    left: usize,
    /// The archived state the walk is at, if it is at one.
    at: Option<usize>,
    /// Actions that left the current state unchanged.
    no_effect: Vec<bool>,
}

pub struct Explore {
    options: ExploreOptions,
    rng: Rng,
    archive: Vec<Cell>,
    keys: StateKeys,
    /// Archived states by key.
    index: HashMap<String, usize>,
    /// The start state's place in the archive.
    start: Option<usize>,
    walk: Option<Walk>,
}

impl Explore {
    pub fn new(options: ExploreOptions) -> Explore {
        let keys = StateKeys::new(options.state_key.clone());
        let rng = Rng::seed_from_u64(options.seed);
        Explore { rng, options, archive: Vec::new(), keys, index: HashMap::new(), start: None, walk: None }
    }

    /// The cheapest of `tournament` open states drawn at random (the less
    /// often picked on ties); None if every state is closed.
    fn pick(&mut self) -> Option<usize> {
        let open: Vec<usize> = (0..self.archive.len()).filter(|&i| !self.archive[i].closed()).collect();
        if open.is_empty() {
            return None;
        }
        let mut best = open[self.rng.index(open.len())];
        for _ in 1..self.options.tournament.max(1) {
            let i = open[self.rng.index(open.len())];
            let (a, b) = (&self.archive[i], &self.archive[best]);
            if (a.cost, a.picked) < (b.cost, b.picked) {
                best = i;
            }
        }
        Some(best)
    }

    /// Archives the unoptimised program and the search's start state, once.
    fn begin(&mut self, context: &mut SearchContext) -> Result<()> {
        if self.archive.is_empty() {
            let mut root = context.fork_root()?;
            self.archive(context, &mut root, context.initial_cost())?;
            let mut start = context.fork_start()?;
            self.start = self.archive(context, &mut start, context.start_cost())?;
        }
        Ok(())
    }

    /// Adds a state found elsewhere (at `cost`) to the archive, for walks
    /// to go on from; the start stays the search's.
    pub fn seed(&mut self, context: &mut SearchContext, env: &mut CompilerEnv, cost: f64) -> Result<()> {
        self.begin(context)?;
        self.archive(context, env, cost)?;
        Ok(())
    }

    /// The archive index of `env`'s state: the known one, or a new one if
    /// it fits (replacing the most expensive state when the archive is full
    /// and this one is cheaper); None if it is not archived.
    fn archive(
        &mut self,
        context: &SearchContext,
        env: &mut CompilerEnv,
        cost: f64,
    ) -> Result<Option<usize>> {
        let key = self.keys.key(context, env)?;
        if let Some(&i) = key.as_ref().and_then(|k| self.index.get(k)) {
            return Ok(Some(i));
        }
        let cell = Cell::new(env.fork()?, key.clone(), cost, context.num_actions());
        let slot = if self.archive.len() < self.options.capacity.max(1) {
            self.archive.push(cell);
            self.archive.len() - 1
        } else {
            let worst = (0..self.archive.len())
                .max_by(|&a, &b| self.archive[a].cost.total_cmp(&self.archive[b].cost));
            match worst {
                Some(w) if cost < self.archive[w].cost => {
                    if let Some(old) = &self.archive[w].key {
                        self.index.remove(old);
                    }
                    if self.start == Some(w) {
                        self.start = None; // its slot now holds another state
                    }
                    self.archive[w] = cell;
                    w
                }
                _ => return Ok(None),
            }
        };
        if let Some(k) = key {
            self.index.insert(k, slot);
        }
        Ok(Some(slot))
    }

    /// A random action not known to leave the walk's state unchanged,
    /// preferring, at an archived state, actions never taken from it.
    fn choose(&mut self, walk: &Walk) -> Option<usize> {
        let untried: Vec<usize> = match walk.at.and_then(|i| self.archive.get(i)) {
            Some(cell) => (0..cell.tried.len()).filter(|&a| !cell.tried[a] && !walk.no_effect[a]).collect(),
            None => Vec::new(),
        };
        let candidates = if untried.is_empty() {
            (0..walk.no_effect.len()).filter(|&a| !walk.no_effect[a]).collect()
        } else {
            untried
        };
        if candidates.is_empty() {
            None
        } else {
            Some(candidates[self.rng.index(candidates.len())])
        }
    }

    /// The start state while some action was never taken from it.
    fn start_untried(&self) -> Option<usize> {
        self.start.filter(|&i| self.archive[i].has_untried())
    }

    fn start_walk(&mut self) -> Result<Option<Walk>> {
        let (i, left) = match self.start_untried() {
            Some(i) => (i, 1),
            None => match self.pick() {
                Some(i) => (i, 1 + self.rng.index(self.options.walk.max(1))),
                None => return Ok(None),
            },
        };
        let cell = &mut self.archive[i];
        cell.picked += 1;
        let walk = Walk { env: cell.env.fork()?, left, at: Some(i), no_effect: cell.no_effect.clone() };
        Ok(Some(walk))
    }
}

impl Search for Explore {
    fn name(&self) -> &str {
        "explore"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        let actions = context.num_actions();
        if actions == 0 {
            return Ok(false);
        }
        self.begin(context)?;
        let mut walk = match self.walk.take() {
            Some(w) => w,
            None => match self.start_walk()? {
                Some(w) => {
                    context.begin_episode();
                    w
                }
                // Every archived state is a fixpoint of every action.
                None => return Ok(false),
            },
        };
        let Some(action) = self.choose(&walk) else {
            return Ok(true); // a dead end: the next piece starts a new walk
        };
        if let Some(cell) = walk.at.and_then(|i| self.archive.get_mut(i)) {
            cell.tried[action] = true;
        }
        let Some(stepped) = context.step(&mut walk.env, action)? else {
            return Ok(true);
        };
        if stepped.failed() {
            return Ok(true);
        }
        if !stepped.changed {
            walk.no_effect[action] = true;
            if let Some(cell) = walk.at.and_then(|i| self.archive.get_mut(i)) {
                cell.no_effect[action] = true;
            }
        } else {
            walk.at = self.archive(context, &mut walk.env, stepped.cost)?;
            walk.no_effect = match walk.at.and_then(|i| self.archive.get(i)) {
                Some(cell) => cell.no_effect.clone(),
                None => vec![false; actions],
            };
            walk.left -= 1;
            if walk.left == 0 {
                return Ok(true);
            }
        }
        self.walk = Some(walk);
        Ok(true)
    }
}
