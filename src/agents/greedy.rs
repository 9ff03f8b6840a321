//! Greedy search: from the start state, try every action (each on a fork),
//! take the one that lowers the cost most (the first on ties), and repeat;
//! stop when no action lowers it. Deterministic. Each piece of work tries
//! one action.

use super::context::SearchContext;
use super::search::Search;
use crate::env::CompilerEnv;
use crate::error::Result;

pub struct Greedy {
    current: Option<(CompilerEnv, f64)>,
    /// The next action to try from the current state.
    next: usize,
    /// The best move from the current state so far.
    best_move: Option<(CompilerEnv, f64)>,
}

impl Greedy {
    pub fn new() -> Greedy {
        Greedy { current: None, next: 0, best_move: None }
    }
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy::new()
    }
}

impl Search for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        let (current, cost) = match &mut self.current {
            Some((env, cost)) => (env, *cost),
            None => {
                context.begin_episode();
                let start = (context.fork_start()?, context.start_cost());
                let (env, cost) = self.current.insert(start);
                (env, *cost)
            }
        };
        if self.next < context.num_actions() {
            let mut candidate = current.fork()?;
            let action = self.next;
            let Some(stepped) = context.step(&mut candidate, action)? else {
                return Ok(true);
            };
            self.next += 1;
            let best_so_far = self.best_move.as_ref().map_or(cost, |(_, c)| *c);
            if stepped.changed && stepped.cost < best_so_far {
                self.best_move = Some((candidate, stepped.cost));
            }
            return Ok(true);
        }
        // Every action tried: move, or stop at a local optimum.
        self.next = 0;
        match self.best_move.take() {
            Some(best) => {
                context.begin_episode();
                self.current = Some(best);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
