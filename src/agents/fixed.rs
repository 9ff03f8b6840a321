//! The fixed-sequence ablation: the one pass sequence that, run before the
//! task's pipeline, does best over the programs training sees, applied
//! unchanged to every program. A learned policy is worth something only
//! where it beats this: same place in the episode (before the pipeline),
//! same programs to learn from, no per-program choice.
//!
//! [`best_sequence`] grows the sequence greedily, one pass at a time, each
//! time adding the pass that most raises the geometric mean of
//! `baseline / final` over the programs, and stops when no pass raises it
//! (so it may be empty: the pipeline alone). [`FixedSequence`] plays it.

use super::baseline::{apply_pipeline, pipeline_indices, ContextSteps, DirectSteps, PipelineStep};
use super::context::{action_names, action_values, SearchContext};
use super::search::Search;
use super::task::Task;
use crate::env::{CompilerEnv, ResetOptions};
use crate::error::{Error, Result};

/// A pass sequence run before a task's pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    pub task: Task,
    /// Pass flags, in order.
    pub passes: Vec<String>,
    /// The geometric mean of `baseline / final` it reached on the programs
    /// it was chosen on.
    pub train_ratio: f64,
}

/// The longest sequence [`best_sequence`] builds.
pub const MAX_LENGTH: usize = 4;

/// The best sequence of at most `max_length` passes for `task` over
/// `programs` (benchmark URIs `env` can load), grown greedily.
pub fn best_sequence(
    env: &CompilerEnv,
    task: Task,
    programs: &[String],
    max_length: usize,
) -> Result<Sequence> {
    if programs.is_empty() {
        return Err(Error::value("the fixed sequence needs programs to be chosen on"));
    }
    let mut scorer = Scorer::new(env, task)?;
    let names = action_names(&scorer.env);
    let mut passes: Vec<usize> = Vec::new();
    let mut best = scorer.score(programs, &passes)?;
    while passes.len() < max_length {
        let mut round: Option<(f64, usize)> = None;
        for action in 0..names.len() {
            passes.push(action);
            let score = scorer.score(programs, &passes)?;
            passes.pop();
            if score > round.map_or(best, |(s, _)| s) {
                round = Some((score, action));
            }
        }
        let Some((score, action)) = round else { break };
        passes.push(action);
        best = score;
    }
    Ok(Sequence {
        task,
        passes: passes.iter().map(|&a| names[a].clone()).collect(),
        train_ratio: libm::exp(best),
    })
}

/// Plays sequences on programs: the mean log ratio to the baseline.
struct Scorer {
    env: CompilerEnv,
    task: Task,
    values: Vec<crate::value::Value>,
    groups: Vec<Vec<usize>>,
    conditional: bool,
}

impl Scorer {
    fn new(env: &CompilerEnv, task: Task) -> Result<Scorer> {
        let mut env = env.sibling();
        env.set_max_episode_steps(None);
        env.set_reward_space(None)?;
        env.set_observation_space(None)?;
        let pipeline = task.baseline_pipeline()?;
        let groups = pipeline_indices(&pipeline, &action_names(&env))?;
        Ok(Scorer { values: action_values(&env)?, env, task, groups, conditional: pipeline.conditional })
    }

    fn score(&mut self, programs: &[String], passes: &[usize]) -> Result<f64> {
        let mut sum = 0.0;
        for uri in programs {
            self.env.reset(ResetOptions { benchmark: Some(uri.clone()), ..Default::default() })?;
            let baseline = cost(&self.env, self.task.baseline_cost())?;
            let mut steps = DirectSteps { cost: self.task.cost(), values: &self.values };
            for &p in passes {
                steps.step(&mut self.env, p)?;
            }
            let start = steps.cost(&self.env)?;
            let finished = apply_pipeline(&mut self.env, &self.groups, self.conditional, start, &mut steps)?;
            sum += libm::log(baseline.max(1.0)) - libm::log(finished.max(1.0));
        }
        Ok(sum / programs.len() as f64)
    }
}

fn cost(env: &CompilerEnv, id: &str) -> Result<f64> {
    env.observation().get(id)?.as_f64().ok_or_else(|| Error::type_error(format!("{id} is not a number")))
}

/// Plays a fixed sequence, then its task's pipeline, from the unoptimised
/// program: one episode, no choice.
pub struct FixedSequence {
    sequence: Sequence,
    done: bool,
}

impl FixedSequence {
    pub fn new(sequence: Sequence) -> FixedSequence {
        FixedSequence { sequence, done: false }
    }
}

impl Search for FixedSequence {
    fn name(&self) -> &str {
        "fixed"
    }

    fn keeps_best(&self) -> bool {
        false
    }

    fn step_once(&mut self, context: &mut SearchContext) -> Result<bool> {
        if self.done {
            return Ok(false);
        }
        self.done = true;
        context.begin_episode();
        let mut env = context.fork_root()?;
        let names = context.action_names();
        let index = |flag: &String| {
            names.iter().position(|n| n == flag).ok_or_else(|| Error::lookup(format!("no action {flag:?}")))
        };
        let mut cost = context.initial_cost();
        for flag in &self.sequence.passes {
            match context.step(&mut env, index(flag)?)? {
                Some(s) if s.failed() => return Err(Error::service(format!("{flag} failed"))),
                Some(s) => cost = s.cost,
                None => break,
            }
        }
        let pipeline = self.sequence.task.baseline_pipeline()?;
        let groups = pipeline_indices(&pipeline, &names)?;
        let cost = apply_pipeline(&mut env, &groups, pipeline.conditional, cost, &mut ContextSteps(context))?;
        context.set_result(&env, cost);
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::search::{SearchOptions, SearchRun};
    use crate::compilers::make;
    use crate::env::EnvOptions;

    #[test]
    fn the_best_sequence_is_never_worse_than_the_pipeline_on_its_programs() {
        let env = make("bril-v0", EnvOptions::default()).unwrap();
        let programs: Vec<String> = ["fib-iter", "histogram", "trapezoid"]
            .iter()
            .map(|n| format!("benchmark://suite-v0/{n}"))
            .collect();
        let sequence = best_sequence(&env, Task::CodeSize, &programs, 2).unwrap();
        assert!(sequence.passes.len() <= 2);
        assert!(sequence.train_ratio >= 1.0, "{sequence:?}");
        assert_eq!(best_sequence(&env, Task::CodeSize, &[], 2).unwrap_err().name(), "ValueError");
        // Played as an agent it reaches what it was scored at.
        let mut product = 1.0;
        for uri in &programs {
            let mut env = make("bril-v0", EnvOptions::default()).unwrap();
            env.reset(ResetOptions { benchmark: Some(uri.clone()), ..Default::default() }).unwrap();
            let oz = cost(&env, "IrInstructionCountOz").unwrap();
            let options = SearchOptions { cost: "IrInstructionCount".into(), ..Default::default() };
            let mut run =
                SearchRun::new(&env, Box::new(FixedSequence::new(sequence.clone())), options).unwrap();
            run.run(10.0, |_| true).unwrap();
            let result = run.result().unwrap();
            assert!(result.commandline.starts_with(&sequence.passes.join(" ")), "{}", result.commandline);
            product *= oz / result.cost;
        }
        let played = libm::pow(product, 1.0 / 3.0);
        assert!((played - sequence.train_ratio).abs() < 1e-9, "{played} vs {sequence:?}");
    }
}
