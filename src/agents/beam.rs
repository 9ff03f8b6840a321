//! Beam search: level by level from the start state, every action from
//! every state of the beam, keeping the `width` cheapest new states (the
//! first found on ties) as the next beam, up to `depth` levels. Unlike
//! greedy it keeps states that cost more than their parent, so it can take
//! a step that pays off later (into SSA form and out, say). States seen
//! before (same [`state_key`](BeamSearchOptions::state_key) observation)
//! are not kept twice. Deterministic; each piece of work is one step.

use super::context::SearchContext;
use super::search::Search;
use super::state_keys::StateKeys;
use crate::env::CompilerEnv;
use crate::error::Result;

#[derive(Clone, Debug, PartialEq)]
pub struct BeamSearchOptions {
    pub width: usize,
    pub depth: usize,
    /// The observation that tells states apart (`None`: keep duplicates).
    pub state_key: Option<String>,
}

impl Default for BeamSearchOptions {
    fn default() -> Self {
        BeamSearchOptions { width: 8, depth: 40, state_key: Some("IrSha1".into()) }
    }
}

pub struct BeamSearch {
    options: BeamSearchOptions,
    beam: Vec<(CompilerEnv, f64)>,
    /// The next state of the beam and action to expand.
    next: (usize, usize),
    children: Vec<(CompilerEnv, f64)>,
    level: usize,
    keys: StateKeys,
    started: bool,
}

impl BeamSearch {
    pub fn new(options: BeamSearchOptions) -> BeamSearch {
        let keys = StateKeys::new(options.state_key.clone());
        BeamSearch {
            options,
            beam: Vec::new(),
            next: (0, 0),
            children: Vec::new(),
            level: 0,
            keys,
            started: false,
        }
    }
}

impl Search for BeamSearch {
    fn name(&self) -> &str {
        "beam"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        if !self.started {
            self.started = true;
            context.begin_episode();
            let start = context.fork_start()?;
            self.keys.insert(context, &start)?;
            self.beam.push((start, context.start_cost()));
        }
        let (state, action) = self.next;
        if let Some((parent, _)) = self.beam.get_mut(state) {
            let mut child = parent.fork()?;
            let Some(stepped) = context.step(&mut child, action)? else {
                return Ok(true);
            };
            if stepped.changed && !stepped.failed() && self.keys.insert(context, &child)? {
                self.children.push((child, stepped.cost));
            }
            self.next = if action + 1 < context.num_actions() { (state, action + 1) } else { (state + 1, 0) };
            return Ok(true);
        }
        // The level is done: the cheapest children are the next beam.
        self.level += 1;
        let mut children = std::mem::take(&mut self.children);
        // Stable: ties keep the order they were found in.
        children.sort_by(|a, b| a.1.total_cmp(&b.1));
        children.truncate(self.options.width.max(1));
        self.beam = children;
        self.next = (0, 0);
        let more = !self.beam.is_empty() && self.level < self.options.depth && context.num_actions() > 0;
        if more {
            context.begin_episode();
        }
        Ok(more)
    }
}
