//! Training a policy with PPO (clipped objective, generalised advantage
//! estimates, several epochs of minibatches per batch) and action masking,
//! in resumable pieces: [`Trainer::train_batch`] is one update, so a Web
//! Worker or Node can train a little, report, and go on.
//!
//! An episode starts from an unoptimised program: the policy picks passes
//! (never one known to do nothing) until it chooses to stop or its episode
//! length is reached; then its task's pipeline (`-Oz` or `-O2`) runs. An
//! episode's return is `ln(baseline / final)`, the pipeline alone against
//! the policy's passes then the pipeline, so a return of 0 is the
//! pipeline's result, above 0 is better, and maximising the mean return
//! maximises the leaderboard's geometric mean. Stopping at once earns
//! exactly 0: a policy can always learn to do no harm. The return is paid
//! out step by step (a pass earns how much it lowered the cost the
//! pipeline would reach from there), which tells each pass what it did.
//!
//! Programs are drawn from generated ones (seeds in [`TRAINING_SEEDS`]) and
//! from `programs` (by default the hand-written programs of the train side
//! of [`Split`](crate::agents::programs::Split)); the curve is validated
//! greedily on `validation` (by default the held-out side, which is only
//! reported, never used to choose anything). Every random draw comes from
//! the trainer's seeded generator, so a seed and a number of updates give
//! the same network on every platform.

use super::mlp::{Adam, Gradients, Trace};
use super::{
    argmax, match_actions, observe_vector, softmax, History, Normalizer, Policy, DEFAULT_OBSERVATION,
};
use crate::agents::baseline::{apply_pipeline, pipeline_indices, DirectSteps};
use crate::agents::context::{action_names, action_values};
use crate::agents::programs::{bundled, OwnProgram, Split};
use crate::agents::task::Task;
// Generated training programs are random-v1's: shaped like hand-written ones
// (random-v0's fold away, and a policy trained on them learns to unroll).
use crate::bril::generator::v1 as generator;
use crate::compilers::make;
use crate::env::{Clock, CompilerEnv, EnvOptions, ResetOptions};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::service::{BenchmarkUri, DatasetBenchmarks};
use crate::value::Value;
use std::ops::Range;

/// The generator seeds training draws its programs from.
pub const TRAINING_SEEDS: Range<u64> = 0..1_000_000;

/// The generator seeds of generated programs the curve may be validated on.
pub const VALIDATION_SEEDS: Range<u64> = 2_000_000..2_000_016;

/// The URI of a generated program.
pub fn generated_uri(seed: u64, size: u32) -> String {
    format!("{}{seed}?size={size}", generator::URI_PREFIX)
}

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub seed: u64,
    /// What the policy lowers, and the pipeline that finishes its episodes.
    pub task: Task,
    /// The most passes an episode runs before the pipeline.
    pub episode_length: usize,
    pub hidden: Vec<usize>,
    pub learning_rate: f64,
    /// Decoupled weight decay (AdamW), a regulariser against fitting the
    /// few training programs too closely.
    pub weight_decay: f64,
    /// Episodes per update.
    pub batch: usize,
    /// Passes over each batch.
    pub epochs: usize,
    /// Samples per gradient step.
    pub minibatch: usize,
    /// PPO's clipping of the probability ratio.
    pub clip: f64,
    /// λ of the generalised advantage estimates.
    pub gae_lambda: f64,
    /// Weight of the entropy bonus.
    pub entropy: f64,
    /// The updates training will make, when known: the learning rate and
    /// the entropy bonus then fall linearly to a tenth of theirs by the
    /// last, so the final policy settles (as PPO's schedules do).
    pub planned_updates: Option<u64>,
    /// Weight of the value's squared error.
    pub value_weight: f64,
    pub max_grad_norm: f64,
    /// Generated training programs' sizes are drawn uniformly from this range.
    pub sizes: Range<u32>,
    /// Benchmark URIs or dataset names (`benchmark://large-v0`) training
    /// draws from besides generated programs.
    pub programs: Vec<String>,
    /// Programs of one's own added to the environment first (name them in
    /// `programs` to train on them).
    pub own_programs: Vec<OwnProgram>,
    /// The share of episodes played on `programs` rather than on a
    /// generated program.
    pub program_share: f64,
    /// Updates between validations.
    pub validate_every: usize,
    /// Benchmarks the curve is validated on (zero-shot, greedy).
    pub validation: Vec<String>,
    /// The observation the policy reads.
    pub observation: String,
    /// Episodes played uniformly at random, before training, to measure the
    /// inputs' scales.
    pub normalizer_episodes: usize,
    pub clock: Option<Clock>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            seed: 0,
            task: Task::CodeSize,
            episode_length: 6,
            hidden: vec![64, 64],
            learning_rate: 5e-4,
            weight_decay: 0.0,
            batch: 32,
            epochs: 4,
            minibatch: 64,
            clip: 0.2,
            gae_lambda: 0.95,
            entropy: 0.01,
            planned_updates: None,
            value_weight: 0.5,
            max_grad_norm: 0.5,
            sizes: 20..81,
            programs: bundled(Split::Train),
            own_programs: Vec::new(),
            program_share: 0.5,
            validate_every: 25,
            validation: bundled(Split::HeldOut),
            observation: DEFAULT_OBSERVATION.into(),
            normalizer_episodes: 48,
            clock: None,
        }
    }
}

impl TrainOptions {
    /// Checks that training can run with these options: a ValueError
    /// naming the first that cannot.
    pub fn check(&self) -> Result<()> {
        let fail = |what: String| Err(Error::value(what));
        let counts = [
            ("episodeLength", self.episode_length),
            ("batch", self.batch),
            ("epochs", self.epochs),
            ("minibatch", self.minibatch),
        ];
        for (name, n) in counts {
            if !(1..=10_000).contains(&n) {
                return fail(format!("{name} must be from 1 to 10000, got {n}"));
            }
        }
        if self.hidden.len() > 8 || self.hidden.iter().any(|&h| !(1..=4096).contains(&h)) {
            return fail(format!(
                "hidden must be at most 8 layer sizes from 1 to 4096, got {:?}",
                self.hidden
            ));
        }
        let positive = [("learningRate", self.learning_rate), ("maxGradNorm", self.max_grad_norm)];
        let non_negative = [
            ("entropy", self.entropy),
            ("valueWeight", self.value_weight),
            ("weightDecay", self.weight_decay),
        ];
        for (name, x) in positive {
            if !(x.is_finite() && x > 0.0) {
                return fail(format!("{name} must be positive and finite, got {x}"));
            }
        }
        for (name, x) in non_negative {
            if !(x.is_finite() && x >= 0.0) {
                return fail(format!("{name} must be finite and not negative, got {x}"));
            }
        }
        let unit = [("programShare", self.program_share), ("gaeLambda", self.gae_lambda)];
        for (name, x) in unit {
            if !(0.0..=1.0).contains(&x) {
                return fail(format!("{name} must be from 0 to 1, got {x}"));
            }
        }
        if !(self.clip > 0.0 && self.clip < 1.0) {
            return fail(format!("clip must be above 0 and below 1, got {}", self.clip));
        }
        if self.program_share > 0.0 && self.programs.is_empty() {
            return fail("programShare is above 0 but no programs are given".into());
        }
        let (lo, hi) = (self.sizes.start, self.sizes.end);
        if lo < 1 || hi <= lo || hi > generator::MAX_SIZE + 1 {
            return fail(format!(
                "sizes must be a range from 1 to {} with min < max, got {lo}..{hi}",
                generator::MAX_SIZE + 1
            ));
        }
        Ok(())
    }
}

/// One point of the training curve (after an update).
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub update: u64,
    pub episodes: u64,
    pub steps: u64,
    /// Seconds of training so far.
    pub seconds: f64,
    /// The batch's mean return, `ln(baseline / final cost)`.
    pub mean_return: f64,
    /// The policy's mean entropy over the batch's choices.
    pub entropy: f64,
    /// Geometric mean of `baseline / final` over the validation programs,
    /// when validated at this update.
    pub validation: Option<f64>,
}

/// A choice of an episode, kept for the update.
struct Sample {
    input: Vec<f64>,
    /// The choices it could make (passes, then stop).
    allowed: Vec<bool>,
    choice: usize,
    log_probability: f64,
    value: f64,
    reward: f64,
    /// The episode's last choice.
    last: bool,
}

/// What an episode ended with.
struct Played {
    baseline: f64,
    cost: f64,
}

impl Played {
    fn log_ratio(&self) -> f64 {
        log_cost(self.baseline) - log_cost(self.cost)
    }
}

/// How an episode picks: sampling (training), the most probable choice
/// (validation), or uniformly among the allowed (measuring the inputs).
#[derive(Clone, Copy, PartialEq)]
enum Pick {
    Sample,
    Greedy,
    Uniform,
}

pub struct Trainer {
    options: TrainOptions,
    policy: Policy,
    adam: Adam,
    grads: Gradients,
    env: CompilerEnv,
    rng: Rng,
    /// Policy actions the environment has.
    available: Vec<bool>,
    to_env: Vec<Option<usize>>,
    /// The environment's action values, by index.
    values: Vec<Value>,
    /// The task's pipeline, as action indices, group by group.
    pipeline: (Vec<Vec<usize>>, bool),
    /// The benchmarks of `options.programs`, datasets listed out.
    programs: Vec<String>,
    curve: Vec<CurvePoint>,
    updates: u64,
    episodes: u64,
    steps: u64,
    elapsed: f64,
    clock: Clock,
}

/// `ln(max(cost, 1))`: costs below 1 (an empty program) count as 1.
fn log_cost(cost: f64) -> f64 {
    libm::log(cost.max(1.0))
}

impl Trainer {
    /// A trainer with a new random policy over the actions of `bril-v0`.
    pub fn new(options: TrainOptions) -> Result<Trainer> {
        options.check()?;
        let env_options =
            EnvOptions { observation_space: Some(None), reward_space: Some(None), ..Default::default() };
        let mut env = make("bril-v0", env_options)?;
        for program in &options.own_programs {
            program.add_to(&mut env)?;
        }
        let first = generated_uri(VALIDATION_SEEDS.start, generator::DEFAULT_SIZE);
        env.reset(ResetOptions { benchmark: Some(first), ..Default::default() })?;
        let observation_length =
            env.observation().get(&options.observation)?.as_array().map(|a| a.len()).ok_or_else(|| {
                Error::type_error(format!("observation {:?} is not a vector", options.observation))
            })?;
        let mut rng = Rng::seed_from_u64(options.seed);
        let policy = Policy::new(
            options.task,
            &options.observation,
            observation_length,
            action_names(&env),
            options.episode_length,
            &options.hidden,
            &mut rng,
        );
        let mut trainer = Trainer::resume(policy, options, env, rng)?;
        trainer.fit_normalizer()?;
        Ok(trainer)
    }

    fn resume(policy: Policy, options: TrainOptions, mut env: CompilerEnv, rng: Rng) -> Result<Trainer> {
        let names = action_names(&env);
        let to_env = match_actions(&policy, &names);
        let available = to_env.iter().map(Option::is_some).collect();
        let clock = options.clock.unwrap_or_else(|| env.clock());
        let values = action_values(&env)?;
        let pipeline = options.task.baseline_pipeline()?;
        let pipeline = (pipeline_indices(&pipeline, &names)?, pipeline.conditional);
        let programs = training_programs(&mut env, &options.programs)?;
        Ok(Trainer {
            values,
            pipeline,
            programs,
            adam: Adam::new(&policy.network, options.learning_rate).with_weight_decay(options.weight_decay),
            grads: Gradients::zeros(&policy.network),
            policy,
            options,
            env,
            rng,
            available,
            to_env,
            curve: Vec::new(),
            updates: 0,
            episodes: 0,
            steps: 0,
            elapsed: 0.0,
            clock,
        })
    }

    /// Plays episodes uniformly at random and standardises the inputs they met.
    fn fit_normalizer(&mut self) -> Result<()> {
        let mut inputs = Vec::new();
        for _ in 0..self.options.normalizer_episodes {
            let uri = self.draw_program();
            let mut samples = Vec::new();
            self.play(&uri, Pick::Uniform, Some(&mut samples))?;
            inputs.extend(samples.into_iter().map(|s| s.input));
        }
        self.policy.normalizer = Normalizer::fit(&inputs, self.policy.network.inputs());
        self.steps = 0; // the count is training's
        Ok(())
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The policy with a summary of its training, as it should be saved.
    pub fn trained_policy(&self) -> Policy {
        let mut policy = self.policy.clone();
        let o = &self.options;
        policy.training = serde_json::json!({
            "algorithm": "PPO with action masking",
            "seed": o.seed,
            "task": o.task.short_name(),
            "updates": self.updates,
            "episodes": self.episodes,
            "steps": self.steps,
            "seconds": self.elapsed,
            "batch": o.batch,
            "epochs": o.epochs,
            "minibatch": o.minibatch,
            "learningRate": o.learning_rate,
            "weightDecay": o.weight_decay,
            "entropy": o.entropy,
            "plannedUpdates": o.planned_updates,
            "hidden": o.hidden,
            "episodeLength": o.episode_length,
            "generated": format!("{}, seeds {}..{}, sizes {}..{}", generator::URI_PREFIX, TRAINING_SEEDS.start, TRAINING_SEEDS.end, o.sizes.start, o.sizes.end),
            "programs": o.programs,
            "programShare": o.program_share,
            "validation": self.curve.iter().rev().find_map(|p| p.validation),
        });
        policy
    }

    pub fn curve(&self) -> &[CurvePoint] {
        &self.curve
    }

    /// Seconds spent training so far.
    pub fn elapsed(&self) -> f64 {
        self.elapsed
    }

    /// The program of the next training episode.
    fn draw_program(&mut self) -> String {
        if !self.programs.is_empty() && self.rng.next_f64() < self.options.program_share {
            return self.programs[self.rng.index(self.programs.len())].clone();
        }
        let seed = TRAINING_SEEDS.start + self.rng.below(TRAINING_SEEDS.end - TRAINING_SEEDS.start);
        let sizes = &self.options.sizes;
        let size =
            sizes.start + self.rng.below(u64::from(sizes.end.saturating_sub(sizes.start)).max(1)) as u32;
        generated_uri(seed, size)
    }

    fn cost(&self, id: &str) -> Result<f64> {
        self.env
            .observation()
            .get(id)?
            .as_f64()
            .ok_or_else(|| Error::type_error(format!("{id} is not a number")))
    }

    /// The cost `env`'s program would have after the task's pipeline (its
    /// potential: what stopping here would earn). `env` is left as it is.
    fn finished_cost(&mut self) -> Result<f64> {
        let task = self.options.task;
        let start = self.cost(task.cost())?;
        let mut finished = self.env.fork()?;
        let mut steps = DirectSteps { cost: task.cost(), values: &self.values };
        apply_pipeline(&mut finished, &self.pipeline.0, self.pipeline.1, start, &mut steps)
    }

    /// Plays one episode on `uri`: passes chosen by `pick` until the policy
    /// stops, then the pipeline. Its choices go to `samples` when given,
    /// each rewarded by how much it lowered the cost the pipeline would
    /// reach from there (so an episode's rewards add up to
    /// `ln(baseline / final)`, and each pass gets the credit it earned).
    fn play(&mut self, uri: &str, pick: Pick, mut samples: Option<&mut Vec<Sample>>) -> Result<Played> {
        self.env.reset(ResetOptions { benchmark: Some(uri.to_string()), ..Default::default() })?;
        let task = self.options.task;
        let baseline = self.cost(task.baseline_cost())?;
        let n = self.policy.actions.len();
        let stop = self.policy.stop_index();
        let mut history = History::new(n, self.policy.episode_length);
        let (mut input, mut trace, mut probabilities) = (Vec::new(), Trace::default(), vec![0.0; n + 1]);
        let first = samples.as_ref().map_or(0, |s| s.len());
        // The potential: the pipeline's cost from the current state.
        let mut potential = baseline;
        loop {
            let mut allowed = Vec::with_capacity(n + 1);
            history.allowed(&self.available, &mut allowed);
            let observation =
                observe_vector(&self.env, &self.policy.observation, self.policy.observation_length)?;
            if pick == Pick::Uniform {
                history.input(&observation, &mut input);
            } else {
                self.policy.input(&observation, &history, &mut input);
            }
            self.policy.network.forward(&input, &mut trace);
            probabilities.copy_from_slice(&trace.output()[..=n]);
            let choice = match pick {
                Pick::Greedy => argmax(&probabilities, &allowed).unwrap_or(stop),
                Pick::Sample => {
                    softmax(&mut probabilities, &allowed);
                    sample(&probabilities, self.rng.next_f64())
                }
                Pick::Uniform => {
                    let open: Vec<usize> = (0..=n).filter(|&i| allowed[i]).collect();
                    open[self.rng.index(open.len())]
                }
            };
            let mut reward = 0.0;
            if choice != stop {
                let value = self.action_value(choice)?;
                let result = self.env.step(value)?;
                self.steps += 1;
                if let Some(e) = result.info.error {
                    return Err(Error::service(format!(
                        "{} failed on {uri}: {e}",
                        self.policy.actions[choice]
                    )));
                }
                let changed = !result.info.action_had_no_effect;
                history.record(choice, changed);
                if changed {
                    let next = self.finished_cost()?;
                    reward = log_cost(potential) - log_cost(next);
                    potential = next;
                }
            }
            if let Some(out) = samples.as_deref_mut() {
                if pick == Pick::Greedy {
                    softmax(&mut probabilities, &allowed);
                }
                out.push(Sample {
                    log_probability: libm::log(probabilities[choice].max(1e-300)),
                    value: trace.output()[n + 1],
                    input: input.clone(),
                    allowed,
                    choice,
                    reward,
                    last: false,
                });
            }
            if choice == stop || history.done() {
                break;
            }
        }
        if let Some(last) = samples.and_then(|out| out.get_mut(first..)).and_then(|s| s.last_mut()) {
            last.last = true;
        }
        Ok(Played { baseline, cost: potential })
    }

    /// The environment's value of policy action `action`.
    fn action_value(&self, action: usize) -> Result<Value> {
        self.to_env.get(action).copied().flatten().and_then(|i| self.values.get(i).cloned()).ok_or_else(
            || Error::value(format!("the environment has no action {:?}", self.policy.actions.get(action))),
        )
    }

    /// Plays a batch of episodes and updates the policy on them.
    pub fn train_batch(&mut self) -> Result<&CurvePoint> {
        let started = (self.clock)();
        let mut samples = Vec::new();
        let mut returns = 0.0;
        let batch = self.options.batch.max(1);
        for _ in 0..batch {
            let uri = self.draw_program();
            returns += self.play(&uri, Pick::Sample, Some(&mut samples))?.log_ratio();
        }
        self.episodes += batch as u64;
        let entropy = self.update(&samples);
        self.updates += 1;
        let validation =
            if self.options.validate_every > 0 && self.updates % self.options.validate_every as u64 == 0 {
                Some(self.validate()?)
            } else {
                None
            };
        self.elapsed += ((self.clock)() - started).max(0.0);
        self.curve.push(CurvePoint {
            update: self.updates,
            episodes: self.episodes,
            steps: self.steps,
            seconds: self.elapsed,
            mean_return: returns / batch as f64,
            entropy,
            validation,
        });
        self.curve.last().ok_or_else(|| Error::value("no curve point"))
    }

    /// Trains for about `seconds` (at least one update).
    pub fn train_for(&mut self, seconds: f64) -> Result<()> {
        let until = self.elapsed + seconds;
        loop {
            self.train_batch()?;
            if self.elapsed >= until {
                return Ok(());
            }
        }
    }

    /// Advantages (GAE with γ = 1, the one reward at the end) and the
    /// values' targets, per sample.
    fn advantages(&self, samples: &[Sample]) -> (Vec<f64>, Vec<f64>) {
        let lambda = self.options.gae_lambda;
        let mut advantages = vec![0.0; samples.len()];
        let mut running = 0.0;
        for i in (0..samples.len()).rev() {
            let s = &samples[i];
            let next_value = if s.last { 0.0 } else { samples.get(i + 1).map_or(0.0, |n| n.value) };
            if s.last {
                running = 0.0;
            }
            let delta = s.reward + next_value - s.value;
            running = delta + lambda * running;
            advantages[i] = running;
        }
        let targets = advantages.iter().zip(samples).map(|(a, s)| a + s.value).collect();
        (advantages, targets)
    }

    /// PPO's update: epochs of shuffled minibatches over the batch's
    /// choices; the mean entropy of the first pass.
    fn update(&mut self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let (mut advantages, targets) = self.advantages(samples);
        let count = advantages.len() as f64;
        let mean = advantages.iter().sum::<f64>() / count;
        let std = libm::sqrt(advantages.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / count);
        advantages.iter_mut().for_each(|a| *a = (*a - mean) / (std + 1e-8));
        let mut o = self.options.clone();
        if let Some(planned) = o.planned_updates.filter(|&p| p > 0) {
            let left = 1.0 - (self.updates as f64 / planned as f64).min(1.0);
            let scale = 0.1 + 0.9 * left;
            self.adam.learning_rate = o.learning_rate * scale;
            o.entropy *= scale;
        }
        let choices = self.policy.actions.len() + 1;
        let mut order: Vec<usize> = (0..samples.len()).collect();
        let (mut trace, mut probabilities, mut out_grad) =
            (Trace::default(), vec![0.0; choices], vec![0.0; choices + 1]);
        let (mut entropy_sum, mut entropy_count) = (0.0, 0usize);
        for epoch in 0..o.epochs {
            self.rng.shuffle(&mut order);
            for chunk in order.chunks(o.minibatch.max(1)) {
                self.grads.clear();
                let m = chunk.len() as f64;
                for &i in chunk {
                    let s = &samples[i];
                    self.policy.network.forward(&s.input, &mut trace);
                    let output = trace.output();
                    probabilities.copy_from_slice(&output[..choices]);
                    softmax(&mut probabilities, &s.allowed);
                    let entropy: f64 =
                        probabilities.iter().filter(|&&p| p > 0.0).map(|&p| -p * libm::log(p)).sum();
                    if epoch == 0 {
                        entropy_sum += entropy;
                        entropy_count += 1;
                    }
                    let ratio = libm::exp(libm::log(probabilities[s.choice].max(1e-300)) - s.log_probability);
                    let a = advantages[i];
                    // The clipped objective has no gradient where the ratio
                    // has moved past the clip in the advantage's direction.
                    let clipped = (a > 0.0 && ratio > 1.0 + o.clip) || (a < 0.0 && ratio < 1.0 - o.clip);
                    let weight = if clipped { 0.0 } else { ratio * a };
                    for (j, &p) in probabilities.iter().enumerate() {
                        let chosen = if j == s.choice { 1.0 } else { 0.0 };
                        let entropy_grad = if p > 0.0 { p * (libm::log(p) + entropy) } else { 0.0 };
                        out_grad[j] = (weight * (p - chosen) + o.entropy * entropy_grad) / m;
                    }
                    out_grad[choices] = o.value_weight * (output[choices] - targets[i]) / m;
                    self.policy.network.backward(&trace, &out_grad, &mut self.grads);
                }
                let norm = self.grads.norm();
                if norm > o.max_grad_norm {
                    self.grads.scale(o.max_grad_norm / norm);
                }
                self.adam.step(&mut self.policy.network, &self.grads);
            }
        }
        entropy_sum / entropy_count.max(1) as f64
    }

    /// The geometric mean of `baseline / final` over the validation
    /// programs, each a greedy episode of the current policy.
    pub fn validate(&mut self) -> Result<f64> {
        let mut log_sum = 0.0;
        let uris = self.options.validation.clone();
        let training_steps = self.steps; // validating is not training
        for uri in &uris {
            log_sum += self.play(uri, Pick::Greedy, None)?.log_ratio();
        }
        self.steps = training_steps;
        Ok(libm::exp(log_sum / uris.len().max(1) as f64))
    }
}

/// The benchmarks `names` stand for in `env`: a dataset's name stands for
/// every benchmark it lists, anything else for itself. A LookupError names
/// a dataset that lists none (a generator) or a benchmark `env` cannot load.
fn training_programs(env: &mut CompilerEnv, names: &[String]) -> Result<Vec<String>> {
    let mut uris = Vec::new();
    for name in names {
        // A URI with a benchmark path names that benchmark, not its dataset.
        let is_dataset = BenchmarkUri::parse(name).is_ok_and(|u| u.path.is_empty());
        match env.datasets().dataset(name).ok().filter(|_| is_dataset) {
            Some(dataset) => match &dataset.benchmarks {
                DatasetBenchmarks::Listed(listed) if !listed.is_empty() => {
                    uris.extend(listed.iter().cloned())
                }
                _ => return Err(Error::lookup(format!("dataset {name:?} lists no benchmarks to train on"))),
            },
            None => {
                env.reset(ResetOptions { benchmark: Some(name.clone()), ..Default::default() })?;
                uris.push(name.clone());
            }
        }
    }
    Ok(uris)
}

/// The choice whose cumulative probability first exceeds `u` in `[0, 1)`.
fn sample(probabilities: &[f64], u: f64) -> usize {
    let mut cumulative = 0.0;
    let mut last = 0;
    for (i, &p) in probabilities.iter().enumerate() {
        if p > 0.0 {
            cumulative += p;
            last = i;
            if u < cumulative {
                return i;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn mixed(programs: &[&str], program_share: f64) -> Result<Trainer> {
        Trainer::new(TrainOptions {
            episode_length: 3,
            hidden: vec![4],
            batch: 4,
            sizes: 10..12,
            validate_every: 0,
            programs: programs.iter().map(|p| p.to_string()).collect(),
            program_share,
            ..Default::default()
        })
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn datasets_stand_for_the_benchmarks_they_list() {
        let trainer = mixed(&["benchmark://large-v0", "benchmark://suite-v0/fib-iter"], 0.5).unwrap();
        assert_eq!(trainer.programs.len(), crate::bril::suite::large::names().count() + 1);
        assert!(trainer.programs[..trainer.programs.len() - 1]
            .iter()
            .all(|u| u.starts_with("benchmark://large-v0/")));
        assert_eq!(trainer.programs.last().map(String::as_str), Some("benchmark://suite-v0/fib-iter"));
        let training = &trainer.trained_policy().training;
        assert_eq!(training["programShare"], 0.5);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn episodes_play_the_share_of_programs_asked_for() {
        let fib = "benchmark://suite-v0/fib-iter";
        let mut always = mixed(&[fib], 1.0).unwrap();
        let mut never = mixed(&[fib], 0.0).unwrap();
        for _ in 0..3 {
            always.train_batch().unwrap();
            assert_eq!(always.env.benchmark(), Some(fib));
            never.train_batch().unwrap();
            assert!(never.env.benchmark().is_some_and(|b| b.starts_with(generator::URI_PREFIX)));
        }
        // A share in between draws both.
        let mut half = mixed(&[fib], 0.5).unwrap();
        let drawn: Vec<String> = (0..40).map(|_| half.draw_program()).collect();
        let from_programs = drawn.iter().filter(|u| *u == fib).count();
        assert!((8..=32).contains(&from_programs), "{from_programs} of 40");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn programs_that_cannot_be_trained_on_are_errors() {
        let e = mixed(&["generator://random-v0"], 0.5).err().unwrap();
        assert_eq!(e.name(), "LookupError", "{e}");
        assert!(e.to_string().contains("lists no benchmarks"), "{e}");
        assert!(mixed(&["benchmark://suite-v0/no-such-program"], 0.5).is_err());
        assert_eq!(mixed(&[], 0.5).err().unwrap().name(), "ValueError");
        for share in [-0.1, 1.5, f64::NAN] {
            assert_eq!(mixed(&["benchmark://suite-v0/fib-iter"], share).err().unwrap().name(), "ValueError");
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn stopping_at_once_earns_exactly_the_pipeline() {
        let mut trainer = mixed(&["benchmark://suite-v0/fib-iter"], 1.0).unwrap();
        // A policy that can only stop: every pass unavailable.
        trainer.available.iter_mut().for_each(|a| *a = false);
        for task in [Task::CodeSize, Task::Runtime] {
            trainer.options.task = task;
            let pipeline = task.baseline_pipeline().unwrap();
            trainer.pipeline =
                (pipeline_indices(&pipeline, &action_names(&trainer.env)).unwrap(), pipeline.conditional);
            let mut samples = Vec::new();
            let played =
                trainer.play("benchmark://suite-v0/fib-iter", Pick::Sample, Some(&mut samples)).unwrap();
            assert_eq!(played.cost, played.baseline, "{task:?}");
            assert_eq!(samples.len(), 1);
            assert!(
                samples[0].last
                    && samples[0].reward == 0.0
                    && samples[0].choice == trainer.policy.stop_index()
            );
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn advantages_run_back_from_each_episodes_end() {
        let trainer = mixed(&["benchmark://suite-v0/fib-iter"], 1.0).unwrap();
        let s = |value: f64, reward: f64, last: bool| Sample {
            input: Vec::new(),
            allowed: Vec::new(),
            choice: 0,
            log_probability: 0.0,
            value,
            reward,
            last,
        };
        // Two episodes: (0.5, 0.2 | end 1.0) and (0.1 | end -0.5).
        let samples = [s(0.5, 0.0, false), s(0.2, 1.0, true), s(0.1, -0.5, true)];
        let (advantages, targets) = trainer.advantages(&samples);
        let lambda = trainer.options.gae_lambda;
        assert!((advantages[1] - 0.8).abs() < 1e-12);
        assert!((advantages[0] - ((0.2 - 0.5) + lambda * 0.8)).abs() < 1e-12);
        assert!((advantages[2] - (-0.6)).abs() < 1e-12, "nothing leaks from the episode before");
        assert!((targets[1] - 1.0).abs() < 1e-12);
    }
}
