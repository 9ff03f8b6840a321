//! Random search with patience, after CompilerGym's: episodes of uniformly
//! random actions, each ended after `patience` steps without improving on
//! the episode's best (or at `max_length`), for as long as the budget
//! lasts. Episodes start in turn from the start state and from the
//! unoptimised program (the same state unless the search was given a start
//! such as a baseline's passes), so a start does not confine the search to
//! its neighbourhood. Each piece of work is one step.

use super::context::SearchContext;
use super::search::Search;
use crate::env::CompilerEnv;
use crate::error::Result;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomSearchOptions {
    pub seed: u64,
    /// Steps without improvement that end an episode.
    pub patience: usize,
    /// The longest episode.
    pub max_length: usize,
}

impl Default for RandomSearchOptions {
    fn default() -> Self {
        RandomSearchOptions { seed: 0, patience: 20, max_length: 60 }
    }
}

pub struct RandomSearch {
    options: RandomSearchOptions,
    rng: Rng,
    episode: Option<Episode>,
    episodes: u64,
}

struct Episode {
    env: CompilerEnv,
    best: f64,
    since_best: usize,
    length: usize,
}

impl RandomSearch {
    pub fn new(options: RandomSearchOptions) -> RandomSearch {
        RandomSearch { options, rng: Rng::seed_from_u64(options.seed), episode: None, episodes: 0 }
    }
}

impl Search for RandomSearch {
    fn name(&self) -> &str {
        "random"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        if context.num_actions() == 0 {
            return Ok(false);
        }
        let mut episode = match self.episode.take() {
            Some(e) => e,
            None => {
                self.episodes += 1;
                context.begin_episode();
                let (env, best) = if self.episodes % 2 == 1 {
                    (context.fork_start()?, context.start_cost())
                } else {
                    (context.fork_root()?, context.initial_cost())
                };
                Episode { env, best, since_best: 0, length: 0 }
            }
        };
        let action = self.rng.index(context.num_actions());
        let Some(stepped) = context.step(&mut episode.env, action)? else {
            return Ok(true);
        };
        episode.length += 1;
        if stepped.cost < episode.best {
            episode.best = stepped.cost;
            episode.since_best = 0;
        } else {
            episode.since_best += 1;
        }
        let over = stepped.failed()
            || episode.since_best >= self.options.patience
            || episode.length >= self.options.max_length;
        if !over {
            self.episode = Some(episode);
        }
        Ok(true)
    }
}
