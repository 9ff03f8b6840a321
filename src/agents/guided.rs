//! Guided search: a search that uses a trained policy as its prior.
//!
//! The policy chooses passes to run before its task's pipeline, so the
//! search first explores that space the way the policy ranks it:
//!
//! 1. the pipeline alone (the baseline's state) and the policy's own
//!    greedy episode, each finished by the pipeline; then the greedy
//!    episode again from where the pipeline ended, round after round while
//!    each round lowers the cost (what one round of passes before the
//!    pipeline opens up — an unrolled loop now counted, an inlined call now
//!    folded — the next round can build on, as a chain of rounds folds a
//!    loop nest a single episode cannot);
//! 2. a beam over pass prefixes, level by level: from each kept prefix, the
//!    `branching` passes the policy finds most probable there, each prefix
//!    scored by the cost the pipeline reaches from it (the `width` cheapest
//!    are kept, `depth` levels);
//! 3. with the steps left, [`Explore`] from the pipeline's state, with
//!    every finished state found in its archive: its walks go on from
//!    there too.
//!
//! Every step, the pipelines' included, goes through the search context,
//! so it counts against the budget and the best state is never lost; with
//! a step budget a run is reproducible.

use super::baseline::{apply_pipeline, pipeline_indices, ContextSteps};
use super::context::SearchContext;
use super::explore::{Explore, ExploreOptions};
use super::policy::mlp::Trace;
use super::policy::{argmax, match_actions, observe_vector, softmax, History, Policy};
use super::search::Search;
use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
pub struct GuidedOptions {
    pub seed: u64,
    /// Prefixes kept per level.
    pub width: usize,
    /// Passes tried from each kept prefix, the policy's most probable first.
    pub branching: usize,
    /// Levels of the prefix beam.
    pub depth: usize,
    /// The most greedy rounds after the first.
    pub rounds: usize,
}

impl Default for GuidedOptions {
    fn default() -> Self {
        GuidedOptions { seed: 0, width: 3, branching: 3, depth: 3, rounds: 64 }
    }
}

/// A prefix: its state and the policy's history of it.
struct Node {
    env: CompilerEnv,
    history: History,
    finished: f64,
}

enum Phase {
    Start,
    /// Prefixes to try: (index into `beam`, action), and the children so far.
    Beam {
        queue: Vec<(usize, usize)>,
        children: Vec<Node>,
        level: usize,
    },
    Explore,
}

pub struct Guided {
    policy: Rc<Policy>,
    options: GuidedOptions,
    explore: Explore,
    phase: Phase,
    beam: Vec<Node>,
    /// Policy action → context action.
    to_env: Vec<Option<usize>>,
    available: Vec<bool>,
    /// The pipeline's actions, group by group, and whether groups are conditional.
    pipeline: (Vec<Vec<usize>>, bool),
    scratch: Scratch,
}

/// Buffers for the network's input and output.
#[derive(Default)]
struct Scratch {
    input: Vec<f64>,
    trace: Trace,
}

/// The policy's probabilities at `node` (passes, then stop) and the
/// choices allowed there.
fn prior(
    policy: &Policy,
    available: &[bool],
    node: &Node,
    scratch: &mut Scratch,
) -> Result<(Vec<f64>, Vec<bool>)> {
    let observation = observe_vector(&node.env, &policy.observation, policy.observation_length)?;
    policy.input(&observation, &node.history, &mut scratch.input);
    policy.network.forward(&scratch.input, &mut scratch.trace);
    let mut allowed = Vec::new();
    node.history.allowed(available, &mut allowed);
    let mut probabilities = scratch.trace.output()[..=policy.actions.len()].to_vec();
    softmax(&mut probabilities, &allowed);
    Ok((probabilities, allowed))
}

impl Guided {
    pub fn new(policy: Rc<Policy>, options: GuidedOptions) -> Guided {
        let explore = Explore::new(ExploreOptions { seed: options.seed, ..Default::default() });
        Guided {
            policy,
            options,
            explore,
            phase: Phase::Start,
            beam: Vec::new(),
            to_env: Vec::new(),
            available: Vec::new(),
            pipeline: (Vec::new(), false),
            scratch: Scratch::default(),
        }
    }

    /// Finishes a fork of `env` with the pipeline, offers it to explore;
    /// the finished state and its cost (None when the budget ran out).
    fn finish(
        &mut self,
        context: &mut SearchContext,
        env: &mut CompilerEnv,
    ) -> Result<Option<(CompilerEnv, f64)>> {
        let mut finished = env.fork()?;
        let start = context.observe(&finished, context.cost_name())?.as_f64().unwrap_or(f64::INFINITY);
        let (groups, conditional) = (&self.pipeline.0, self.pipeline.1);
        let cost = apply_pipeline(&mut finished, groups, conditional, start, &mut ContextSteps(context))?;
        if context.out_of_steps() {
            return Ok(None);
        }
        // Archived for walks to go on from, not made explore's start (the
        // pipeline's state stays it): as the start, the best finished state
        // drew the walks into its neighbourhood, while cheaper states lay
        // elsewhere.
        self.explore.seed(context, &mut finished, cost)?;
        Ok(Some((finished, cost)))
    }

    /// Steps `env` by policy action `action` through the context; whether
    /// it changed the program (None: out of steps or failed).
    fn take(
        &self,
        context: &mut SearchContext,
        env: &mut CompilerEnv,
        action: usize,
    ) -> Result<Option<bool>> {
        let Some(env_action) = self.to_env.get(action).copied().flatten() else { return Ok(None) };
        Ok(context.step(env, env_action)?.filter(|s| !s.failed()).map(|s| s.changed))
    }

    /// Phase 1: the pipeline alone, the policy's greedy episode, then its
    /// greedy rounds from the better of the two.
    fn start(&mut self, context: &mut SearchContext) -> Result<()> {
        let names = context.action_names();
        self.to_env = match_actions(&self.policy, &names);
        self.available = self.to_env.iter().map(Option::is_some).collect();
        if !self.available.contains(&true) {
            return Err(Error::value("the policy knows none of the environment's actions"));
        }
        let pipeline = self.policy.task()?.baseline_pipeline()?;
        self.pipeline = (pipeline_indices(&pipeline, &names)?, pipeline.conditional);
        context.begin_episode();
        let mut root =
            Node { env: context.fork_root()?, history: self.fresh_history(), finished: f64::INFINITY };
        let Some((mut best, mut cost)) = self.finish(context, &mut root.env)? else { return Ok(()) };
        root.finished = cost;
        let mut from = root.env.fork()?;
        for round in 0..=self.options.rounds {
            let Some(mut episode) = self.greedy_episode(context, &mut from)? else { return Ok(()) };
            let mut lowered = false;
            if episode.history.steps() > 0 {
                let Some((finished, finished_cost)) = self.finish(context, &mut episode.env)? else {
                    return Ok(());
                };
                lowered = finished_cost < cost;
                if lowered {
                    (best, cost) = (finished, finished_cost);
                }
            }
            // The first episode starts from the unoptimised program; the
            // rounds go on from the cheaper of its end and the pipeline's.
            if !lowered && round > 0 {
                break;
            }
            from = best.fork()?;
        }
        self.beam = vec![root];
        self.phase = self.level_queue(0)?;
        Ok(())
    }

    fn fresh_history(&self) -> History {
        History::new(self.policy.actions.len(), self.policy.episode_length)
    }

    /// The policy's greedy episode from `env`'s state (None when the budget
    /// ran out).
    fn greedy_episode(&mut self, context: &mut SearchContext, env: &mut CompilerEnv) -> Result<Option<Node>> {
        let mut node = Node { env: env.fork()?, history: self.fresh_history(), finished: f64::INFINITY };
        let stop = self.policy.stop_index();
        while !node.history.done() {
            let (probabilities, allowed) = prior(&self.policy, &self.available, &node, &mut self.scratch)?;
            let choice = argmax(&probabilities, &allowed).unwrap_or(stop);
            if choice == stop {
                break;
            }
            let Some(changed) = self.take(context, &mut node.env, choice)? else { return Ok(None) };
            node.history.record(choice, changed);
        }
        Ok(Some(node))
    }

    /// The prefixes to try from the current beam at `level`.
    fn level_queue(&mut self, level: usize) -> Result<Phase> {
        if level >= self.options.depth || self.beam.is_empty() {
            return Ok(Phase::Explore);
        }
        let mut queue = Vec::new();
        for i in 0..self.beam.len() {
            if self.beam[i].history.done() {
                continue;
            }
            let (probabilities, _) = prior(&self.policy, &self.available, &self.beam[i], &mut self.scratch)?;
            let mut ranked: Vec<usize> =
                (0..self.policy.actions.len()).filter(|&a| probabilities[a] > 0.0).collect();
            ranked.sort_by(|&a, &b| probabilities[b].total_cmp(&probabilities[a]));
            queue.extend(ranked.into_iter().take(self.options.branching).map(|a| (i, a)));
        }
        queue.reverse(); // popped from the back: the first node's best pass first
        Ok(Phase::Beam { queue, children: Vec::new(), level })
    }
}

impl Search for Guided {
    fn name(&self) -> &str {
        "guided"
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        if context.out_of_steps() {
            return Ok(false);
        }
        match std::mem::replace(&mut self.phase, Phase::Explore) {
            Phase::Start => {
                self.start(context)?;
                Ok(true)
            }
            Phase::Beam { mut queue, mut children, level } => {
                if let Some((i, action)) = queue.pop() {
                    let parent = &mut self.beam[i];
                    let mut env = parent.env.fork()?;
                    let mut history = parent.history.clone();
                    if let Some(changed) = self.take(context, &mut env, action)? {
                        history.record(action, changed);
                        if changed {
                            let mut child = Node { env, history, finished: f64::INFINITY };
                            if let Some((_, finished)) = self.finish(context, &mut child.env)? {
                                child.finished = finished;
                                children.push(child);
                            }
                        }
                    }
                    self.phase = Phase::Beam { queue, children, level };
                    return Ok(true);
                }
                // The level is done: the cheapest finished prefixes go on.
                children.sort_by(|a, b| a.finished.total_cmp(&b.finished));
                children.truncate(self.options.width.max(1));
                self.beam = children;
                context.begin_episode();
                self.phase = self.level_queue(level + 1)?;
                Ok(true)
            }
            Phase::Explore => {
                self.beam.clear();
                self.explore.step_once(context)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::search::{Budget, SearchOptions, SearchRun};
    use crate::agents::task::Task;
    use crate::compilers::make;
    use crate::env::{EnvOptions, ResetOptions};
    use crate::service::Benchmark;

    fn run(benchmark: &str, task: Task, steps: u64, seed: u64) -> (crate::agents::SearchResult, f64) {
        run_with(benchmark, task, steps, GuidedOptions { seed, ..Default::default() })
    }

    fn run_with(
        benchmark: &str,
        task: Task,
        steps: u64,
        guided: GuidedOptions,
    ) -> (crate::agents::SearchResult, f64) {
        let mut env = make("bril-v0", EnvOptions::default()).unwrap();
        if benchmark == NORM.0 {
            env.add_benchmark(Benchmark::from_contents(NORM.0, NORM.1)).unwrap();
        }
        env.reset(ResetOptions { benchmark: Some(benchmark.into()), ..Default::default() }).unwrap();
        let baseline = env.observation().get(task.baseline_cost()).unwrap().as_f64().unwrap();
        let policy = Rc::new(Policy::pretrained_for(task).unwrap());
        let options =
            SearchOptions { cost: task.cost().into(), budget: Budget::steps(steps), ..Default::default() };
        let guided = Guided::new(policy, guided);
        let mut run = SearchRun::new(&env, Box::new(guided), options).unwrap();
        run.run(1.0, |_| true).unwrap();
        (run.result().unwrap(), baseline)
    }

    #[test]
    fn it_is_never_worse_than_the_pipeline_and_replays() {
        for (benchmark, task) in [
            ("benchmark://suite-v0/histogram", Task::CodeSize),
            ("benchmark://suite-v0/fib-iter", Task::Runtime),
        ] {
            let (result, baseline) = run(benchmark, task, 600, 1);
            assert!(result.cost <= baseline, "{task:?}: {} > {baseline}", result.cost);
            assert!(result.steps <= 600);
            let mut env = make("bril-v0", EnvOptions::default()).unwrap();
            env.apply(&result.state()).unwrap();
            assert_eq!(env.observation().get(task.cost()).unwrap().as_f64(), Some(result.cost));
            let (again, _) = run(benchmark, task, 600, 1);
            assert_eq!(
                (again.actions, again.cost),
                (result.actions, result.cost),
                "a step budget reproduces it"
            );
        }
    }

    /// A community program that reads no input: loops with constant trip
    /// counts around calls.
    const NORM: (&str, &str) =
        ("benchmark://own-v0/norm", include_str!("../../data/bril-community/float/norm.bril"));

    #[test]
    fn greedy_rounds_build_on_each_other() {
        // One round (the runtime policy's unrolling and inlining, then -O2)
        // leaves loops another round can count and fold.
        let cost = |rounds| {
            let options = GuidedOptions { seed: 0, rounds, ..Default::default() };
            run_with(NORM.0, Task::Runtime, 2500, options).0.cost
        };
        let (rounds, one_round) = (cost(64), cost(0));
        assert!(rounds * 10.0 < one_round, "{rounds} against {one_round}");
    }

    #[test]
    fn a_budget_too_small_for_the_pipeline_still_ends() {
        let (result, _) = run("benchmark://suite-v0/histogram", Task::CodeSize, 10, 0);
        assert!(result.steps <= 10);
    }
}
