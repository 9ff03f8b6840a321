//! Running a search: the [`Search`] trait every agent implements, and
//! [`SearchRun`], the resumable state machine that drives one under a
//! budget and reports progress.
//!
//! A search does its work in small pieces ([`Search::step_once`]: at most a
//! few environment steps each), so a caller that must stay responsive — a
//! Web Worker answering messages, a page drawing progress — runs a chunk
//! ([`SearchRun::run_chunk`]), reports, and comes back; cancelling is simply
//! not coming back, or [`SearchRun::cancel`]. Time comes from an injected
//! clock because wasm has none. With a step budget a run is reproducible:
//! the same seed and budget give the same result on every platform; a time
//! budget only decides when it stops.

use super::context::SearchContext;
use crate::env::{Clock, CompilerEnv, CompilerEnvState};
use crate::error::Result;

/// An agent searching for a good action sequence.
pub trait Search {
    /// The agent's name in tables (`random`, `greedy`, ...).
    fn name(&self) -> &str;

    /// Does one small piece of work through `context` (which counts steps
    /// and keeps the best state); `Ok(false)` when the search has nothing
    /// left to do. It must return soon after `context` runs out of steps.
    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool>;

    /// Whether the result is the best state visited (true) or one the
    /// search picks itself with `SearchContext::set_result`.
    fn keeps_best(&self) -> bool {
        true
    }
}

/// When a run stops: whichever limit comes first; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    pub steps: Option<u64>,
    pub seconds: Option<f64>,
}

impl Budget {
    pub fn steps(steps: u64) -> Budget {
        Budget { steps: Some(steps), seconds: None }
    }
    pub fn seconds(seconds: f64) -> Budget {
        Budget { steps: None, seconds: Some(seconds) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// More work to do: call again.
    Running,
    /// The search finished on its own.
    Done,
    /// The budget is spent.
    OutOfBudget,
    Cancelled,
}

impl Status {
    pub fn is_running(self) -> bool {
        self == Status::Running
    }
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Done => "done",
            Status::OutOfBudget => "out of budget",
            Status::Cancelled => "cancelled",
        }
    }
}

/// Where a run is.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub best_cost: f64,
    /// The best state's actions, as indices into the action space.
    pub best_actions: Vec<usize>,
    pub initial_cost: f64,
    pub steps: u64,
    /// Trajectories started: random search's episodes, explore's walks,
    /// greedy's moves, beam search's levels, the policy's one episode.
    pub episodes: u64,
    /// Seconds spent in the run (not counting the time between chunks).
    pub elapsed: f64,
    /// How much of the budget is spent, from 0 to 1: the larger of the
    /// shares of steps and seconds (0 without a budget), 1 once the run is over.
    pub fraction: f64,
    pub status: Status,
}

/// What a run found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub agent: String,
    pub benchmark: String,
    /// The best action sequence, as indices into the action space.
    pub actions: Vec<usize>,
    pub commandline: String,
    pub cost: f64,
    pub initial_cost: f64,
    pub steps: u64,
    pub episodes: u64,
    pub walltime: f64,
    pub status: Status,
}

impl SearchResult {
    /// The episode state of the result (CompilerGym's `CompilerEnvState`;
    /// `to_csv()` gives its CSV row). Its reward is left empty: the cost is
    /// not a reward.
    pub fn state(&self) -> CompilerEnvState {
        CompilerEnvState {
            benchmark: self.benchmark.clone(),
            commandline: self.commandline.clone(),
            walltime: self.walltime,
            reward: None,
        }
    }
}

/// How to run a search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// The observation to minimise (e.g. `IrInstructionCount`).
    pub cost: String,
    pub budget: Budget,
    /// The actions (indices) the search starts from, e.g. a baseline's.
    pub start: Vec<usize>,
    /// The clock for the time budget and walltimes (default: the environment's).
    pub clock: Option<Clock>,
}

pub struct SearchRun {
    search: Box<dyn Search>,
    context: SearchContext,
    budget: Budget,
    clock: Clock,
    elapsed: f64,
    status: Status,
}

impl SearchRun {
    /// A run of `search` on the benchmark of `env`'s current episode (`env`
    /// itself is not touched: the run has sessions of its own on the same
    /// compiler, and shares what it knows of the benchmark).
    pub fn new(env: &CompilerEnv, search: Box<dyn Search>, options: SearchOptions) -> Result<SearchRun> {
        let clock = options.clock.unwrap_or_else(|| env.clock());
        let started = clock();
        let context = SearchContext::new(
            env,
            &options.cost,
            &options.start,
            options.budget.steps,
            search.keeps_best(),
        )?;
        let mut run = SearchRun {
            search,
            context,
            budget: options.budget,
            clock,
            elapsed: 0.0,
            status: Status::Running,
        };
        run.elapsed = (clock() - started).max(0.0);
        run.update_status();
        Ok(run)
    }

    fn update_status(&mut self) {
        if self.status != Status::Running {
            return;
        }
        let out_of_time = self.budget.seconds.is_some_and(|s| self.elapsed >= s);
        if self.context.out_of_steps() || out_of_time {
            self.status = Status::OutOfBudget;
        }
    }

    /// One piece of work, unless the run is over.
    pub fn step_once(&mut self) -> Result<Status> {
        if !self.status.is_running() {
            return Ok(self.status);
        }
        let started = (self.clock)();
        let more = self.search.step_once(&mut self.context);
        self.elapsed += ((self.clock)() - started).max(0.0);
        if !more? {
            self.status = Status::Done;
        }
        self.update_status();
        Ok(self.status)
    }

    /// Works for about `seconds` (at least one piece), or until the run is
    /// over. The clock is read once per piece.
    pub fn run_chunk(&mut self, seconds: f64) -> Result<Status> {
        let until = self.elapsed + seconds;
        while self.step_once()?.is_running() && self.elapsed < until {}
        Ok(self.status)
    }

    /// Runs to the end, calling `on_progress` about every `every` seconds;
    /// `on_progress` returning false cancels the run.
    pub fn run(&mut self, every: f64, mut on_progress: impl FnMut(&Progress) -> bool) -> Result<Status> {
        while self.run_chunk(every)?.is_running() {
            if !on_progress(&self.progress()) {
                self.cancel();
            }
        }
        on_progress(&self.progress());
        Ok(self.status)
    }

    /// Stops the run; the result so far stays available.
    pub fn cancel(&mut self) {
        if self.status.is_running() {
            self.status = Status::Cancelled;
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn progress(&self) -> Progress {
        let best = self.context.best();
        Progress {
            best_cost: best.cost,
            best_actions: best.actions.clone(),
            initial_cost: self.context.initial_cost(),
            steps: self.context.steps(),
            episodes: self.context.episodes(),
            elapsed: self.elapsed,
            fraction: self.fraction(),
            status: self.status,
        }
    }

    fn fraction(&self) -> f64 {
        if !self.status.is_running() {
            return 1.0;
        }
        let steps = self.budget.steps.map_or(0.0, |s| self.context.steps() as f64 / s.max(1) as f64);
        let seconds = self.budget.seconds.map_or(0.0, |s| if s > 0.0 { self.elapsed / s } else { 1.0 });
        steps.max(seconds).clamp(0.0, 1.0)
    }

    /// The agent's name.
    pub fn name(&self) -> &str {
        self.search.name()
    }

    /// The names of the actions, by index (what result actions index).
    pub fn action_names(&self) -> Vec<String> {
        self.context.action_names()
    }

    /// The budget the run was given.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    pub fn result(&self) -> Result<SearchResult> {
        let best = self.context.best();
        Ok(SearchResult {
            agent: self.search.name().to_string(),
            benchmark: self.context.benchmark().to_string(),
            actions: best.actions.clone(),
            commandline: self.context.commandline(&best.actions)?,
            cost: best.cost,
            initial_cost: self.context.initial_cost(),
            steps: self.context.steps(),
            episodes: self.context.episodes(),
            walltime: self.elapsed,
            status: self.status,
        })
    }
}
