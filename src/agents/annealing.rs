//! Simulated annealing over action sequences. The current sequence starts
//! as the start state's (a baseline's pipeline, when the search starts from
//! it: any of its passes can then be moved, dropped or repeated); a move inserts, deletes, replaces or inserts a short run of
//! random actions at a random position, and the new sequence is kept if it
//! costs no more, or with probability `exp(-relative increase / T)`. The
//! temperature falls linearly to 0 over each cycle of `cycle` moves, then
//! starts again (a restart from the current sequence, hotter).
//!
//! The states along the current sequence are kept as forks, so a move at
//! position `i` replays only the sequence from `i` on, and mostly along
//! transitions the compiler already knows. Each piece of work is one step.

use super::context::SearchContext;
use super::search::Search;
use crate::env::CompilerEnv;
use crate::error::Result;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnnealingOptions {
    pub seed: u64,
    /// The starting temperature, as a relative cost increase (0.02: a move
    /// that costs 2% more is kept with probability 1/e at first).
    pub temperature: f64,
    /// Moves per cooling cycle.
    pub cycle: u64,
    /// The longest sequence, start included.
    pub max_length: usize,
}

impl Default for AnnealingOptions {
    fn default() -> Self {
        AnnealingOptions { seed: 0, temperature: 0.02, cycle: 2000, max_length: 100 }
    }
}

pub struct Annealing {
    options: AnnealingOptions,
    rng: Rng,
    /// The current sequence and the state after each of its prefixes
    /// (`states[0]` is the start, `states[k]` after `sequence[..k]`).
    sequence: Vec<usize>,
    states: Vec<(CompilerEnv, f64)>,
    moves: u64,
    trial: Option<Trial>,
    started: bool,
}

/// A candidate being evaluated: `sequence[..from]` is shared with the
/// current sequence; `states` are the candidate's from `from + 1` on.
struct Trial {
    sequence: Vec<usize>,
    from: usize,
    env: CompilerEnv,
    states: Vec<(CompilerEnv, f64)>,
    /// Kept whatever it costs (the start sequence).
    keep: bool,
}

impl Annealing {
    pub fn new(options: AnnealingOptions) -> Annealing {
        Annealing {
            options,
            rng: Rng::seed_from_u64(options.seed),
            sequence: Vec::new(),
            states: Vec::new(),
            moves: 0,
            trial: None,
            started: false,
        }
    }

    fn cost(&self) -> f64 {
        self.states.last().map_or(f64::INFINITY, |s| s.1)
    }

    /// A random change of the current sequence, or None if the one drawn
    /// does not apply (deleting past the end, growing past the limit).
    fn propose(&mut self, actions: usize) -> Option<(Vec<usize>, usize)> {
        let n = self.sequence.len();
        let at = self.rng.index(n + 1);
        let mut inserted = Vec::new();
        let mut removed = 0;
        match self.rng.index(4) {
            0 => inserted.push(self.rng.index(actions)),
            1 if at < n => removed = 1,
            2 if at < n => {
                removed = 1;
                inserted.push(self.rng.index(actions));
            }
            3 => (0..2 + self.rng.index(3)).for_each(|_| inserted.push(self.rng.index(actions))),
            _ => return None,
        }
        if n + inserted.len() - removed > self.options.max_length {
            return None;
        }
        let mut sequence = self.sequence[..at].to_vec();
        sequence.extend(inserted);
        sequence.extend_from_slice(&self.sequence[at + removed..]);
        Some((sequence, at))
    }

    fn accept(&mut self, cost: f64) -> bool {
        let current = self.cost();
        if cost <= current {
            return true;
        }
        if !cost.is_finite() {
            return false;
        }
        let progress = (self.moves % self.options.cycle.max(1)) as f64 / self.options.cycle.max(1) as f64;
        let temperature = self.options.temperature * (1.0 - progress);
        if temperature <= 0.0 {
            return false;
        }
        let increase = (cost - current) / current.max(1.0);
        self.rng.next_f64() < libm::exp(-increase / temperature)
    }
}

impl Search for Annealing {
    fn name(&self) -> &str {
        "annealing"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        let actions = context.num_actions();
        if actions == 0 {
            return Ok(false);
        }
        if !self.started {
            // The first trial replays the start sequence from the root, and is kept.
            self.started = true;
            self.states.push((context.fork_root()?, context.initial_cost()));
            let env = context.fork_root()?;
            let sequence = context.start_actions();
            self.trial = Some(Trial { sequence, from: 0, env, states: Vec::new(), keep: true });
        }
        let mut trial = match self.trial.take() {
            Some(t) => t,
            None => {
                let Some((sequence, from)) = self.propose(actions) else { return Ok(true) };
                let env = self.states[from].0.fork()?;
                Trial { sequence, from, env, states: Vec::new(), keep: false }
            }
        };
        let position = trial.from + trial.states.len();
        if let Some(&action) = trial.sequence.get(position) {
            let Some(stepped) = context.step(&mut trial.env, action)? else {
                return Ok(true);
            };
            if stepped.failed() {
                self.moves += 1;
                return Ok(true);
            }
            trial.states.push((trial.env.fork()?, stepped.cost));
            if position + 1 < trial.sequence.len() {
                self.trial = Some(trial);
                return Ok(true);
            }
        }
        // The whole candidate is evaluated.
        self.moves += 1;
        let cost = trial.states.last().map_or_else(|| self.states[trial.from].1, |s| s.1);
        if trial.keep || self.accept(cost) {
            self.states.truncate(trial.from + 1);
            self.states.extend(trial.states);
            self.sequence = trial.sequence;
        }
        Ok(true)
    }
}
