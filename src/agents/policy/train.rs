//! Training a policy with REINFORCE and a learned baseline (the value head),
//! on generated programs, in resumable pieces: [`Trainer::train_batch`] is
//! one update (a batch of episodes), so a Web Worker or Node can train a
//! little, report, and go on.
//!
//! The reward of a step is `ln(cost before) - ln(cost after)`, so an
//! episode's return is `ln(initial cost / final cost)`: maximising it is
//! maximising the final program's `baseline / final` ratio, the
//! leaderboard's measure, in the same geometric terms. Advantages are the
//! returns to go less the value estimate, normalised over the batch; the
//! loss adds an entropy bonus and the value's squared error, and the
//! gradient is clipped by its norm before Adam. Every random draw comes from
//! the trainer's seeded generator, so a seed and a number of updates give
//! the same network on every platform.
//!
//! Training programs are generated with seeds in [`TRAINING_SEEDS`]; the
//! curve's validation programs and the leaderboard's unseen programs come
//! from seeds outside it.

use super::mlp::{Adam, Gradients, Trace};
use super::{argmax, match_actions, observe_vector, softmax, History, Policy};
use crate::agents::context::{action_names, action_values};
use crate::bril::generator;
use crate::compilers::make;
use crate::env::{Clock, CompilerEnv, EnvOptions, ResetOptions};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::service::{BenchmarkUri, DatasetBenchmarks};
use crate::value::Value;
use std::ops::Range;

/// The generator seeds training draws its programs from.
pub const TRAINING_SEEDS: Range<u64> = 0..1_000_000;

/// The generator seeds of the programs the training curve is validated on.
pub const VALIDATION_SEEDS: Range<u64> = 2_000_000..2_000_016;

/// The URI of a generated program.
pub fn generated_uri(seed: u64, size: u32) -> String {
    format!("{}{seed}?size={size}", generator::URI_PREFIX)
}

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub seed: u64,
    pub episode_length: usize,
    pub hidden: Vec<usize>,
    pub learning_rate: f64,
    /// Episodes per update.
    pub batch: usize,
    /// Weight of the entropy bonus.
    pub entropy: f64,
    /// Weight of the value's squared error.
    pub value_weight: f64,
    pub max_grad_norm: f64,
    /// Generated training programs' sizes are drawn uniformly from this range.
    pub sizes: Range<u32>,
    /// Benchmark URIs or dataset names (`benchmark://large-v0`) that
    /// training also draws from, besides generated programs.
    pub programs: Vec<String>,
    /// The share of episodes played on `programs` rather than on a
    /// generated program.
    pub program_share: f64,
    /// Updates between validations.
    pub validate_every: usize,
    /// Benchmarks the curve is validated on (zero-shot, greedy).
    pub validation: Vec<String>,
    /// The observation the policy reads.
    pub observation: String,
    /// The cost to lower.
    pub cost: String,
    /// The baseline the validation ratios are measured against.
    pub baseline: String,
    pub clock: Option<Clock>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            seed: 0,
            episode_length: 40,
            hidden: vec![64, 64],
            learning_rate: 1e-3,
            batch: 16,
            entropy: 0.01,
            value_weight: 0.5,
            max_grad_norm: 1.0,
            sizes: 20..81,
            programs: Vec::new(),
            program_share: 0.0,
            validate_every: 25,
            validation: VALIDATION_SEEDS.map(|s| generated_uri(s, generator::DEFAULT_SIZE)).collect(),
            observation: "Autophase".into(),
            cost: "IrInstructionCount".into(),
            baseline: "IrInstructionCountOz".into(),
            clock: None,
        }
    }
}

impl TrainOptions {
    /// Checks that training can run with these options: a ValueError
    /// naming the first that cannot.
    pub fn check(&self) -> Result<()> {
        let fail = |what: String| Err(Error::value(what));
        if !(1..=10_000).contains(&self.episode_length) {
            return fail(format!("episodeLength must be from 1 to 10000, got {}", self.episode_length));
        }
        if !(1..=10_000).contains(&self.batch) {
            return fail(format!("batch must be from 1 to 10000, got {}", self.batch));
        }
        if self.hidden.len() > 8 || self.hidden.iter().any(|&h| !(1..=4096).contains(&h)) {
            return fail(format!(
                "hidden must be at most 8 layer sizes from 1 to 4096, got {:?}",
                self.hidden
            ));
        }
        let positive = [("learningRate", self.learning_rate), ("maxGradNorm", self.max_grad_norm)];
        let non_negative = [("entropy", self.entropy), ("valueWeight", self.value_weight)];
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
        if !(0.0..=1.0).contains(&self.program_share) {
            return fail(format!("programShare must be from 0 to 1, got {}", self.program_share));
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
    /// The batch's mean return, `ln(initial / final cost)`.
    pub mean_return: f64,
    /// The policy's mean entropy over the batch's steps.
    pub entropy: f64,
    /// Geometric mean of `baseline / final` over the validation programs,
    /// when validated at this update.
    pub validation: Option<f64>,
}

/// A step of an episode, kept for the update.
struct Sample {
    trace: Trace,
    /// The actions it could choose from.
    allowed: Vec<bool>,
    action: usize,
    reward: f64,
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
    /// The benchmarks of `options.programs`, datasets listed out.
    programs: Vec<String>,
    curve: Vec<CurvePoint>,
    updates: u64,
    episodes: u64,
    steps: u64,
    elapsed: f64,
    clock: Clock,
}

fn cost_of(value: Option<&Value>) -> f64 {
    value.and_then(Value::as_f64).unwrap_or(f64::INFINITY)
}

/// `ln(max(cost, 1))`: costs below 1 (an empty program) count as 1.
fn log_cost(cost: f64) -> f64 {
    libm::log(cost.max(1.0))
}

impl Trainer {
    /// A trainer with a new random policy over the actions of `bril-v0`.
    pub fn new(options: TrainOptions) -> Result<Trainer> {
        options.check()?;
        let env_options = EnvOptions {
            observation_space: Some(Some(options.cost.clone())),
            reward_space: Some(None),
            ..Default::default()
        };
        let mut env = make("bril-v0", env_options)?;
        let first =
            options.validation.first().cloned().unwrap_or_else(|| generated_uri(VALIDATION_SEEDS.start, 40));
        env.reset(ResetOptions { benchmark: Some(first), ..Default::default() })?;
        let observation_length =
            env.observation().get(&options.observation)?.as_array().map(|a| a.len()).ok_or_else(|| {
                Error::type_error(format!("observation {:?} is not a vector", options.observation))
            })?;
        let mut rng = Rng::seed_from_u64(options.seed);
        let policy = Policy::new(
            &options.observation,
            observation_length,
            action_names(&env),
            options.episode_length,
            &options.hidden,
            &mut rng,
        );
        Trainer::resume(policy, options, env, rng)
    }

    fn resume(policy: Policy, options: TrainOptions, mut env: CompilerEnv, rng: Rng) -> Result<Trainer> {
        let to_env = match_actions(&policy, &action_names(&env));
        let available = to_env.iter().map(Option::is_some).collect();
        let clock = options.clock.unwrap_or_else(|| env.clock());
        let values = action_values(&env)?;
        let programs = training_programs(&mut env, &options.programs)?;
        Ok(Trainer {
            values,
            programs,
            adam: Adam::new(&policy.network, options.learning_rate),
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

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The policy with a summary of its training, as it should be saved.
    pub fn trained_policy(&self) -> Policy {
        let mut policy = self.policy.clone();
        let o = &self.options;
        policy.training = serde_json::json!({
            "algorithm": "REINFORCE with a learned baseline",
            "seed": o.seed,
            "updates": self.updates,
            "episodes": self.episodes,
            "steps": self.steps,
            "seconds": self.elapsed,
            "batch": o.batch,
            "learningRate": o.learning_rate,
            "entropy": o.entropy,
            "programs": format!("generated, seeds {}..{}, sizes {}..{}", TRAINING_SEEDS.start, TRAINING_SEEDS.end, o.sizes.start, o.sizes.end),
            "mixedIn": if o.programs.is_empty() { serde_json::Value::Null } else { serde_json::json!({ "programs": o.programs, "share": o.program_share }) },
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

    /// The environment's value of policy action `action`.
    fn action_value(&self, action: usize) -> Result<Value> {
        self.to_env.get(action).copied().flatten().and_then(|i| self.values.get(i).cloned()).ok_or_else(
            || Error::value(format!("the environment has no action {:?}", self.policy.actions.get(action))),
        )
    }

    fn reset(&mut self, uri: String) -> Result<f64> {
        let observation = self.env.reset(ResetOptions { benchmark: Some(uri), ..Default::default() })?;
        Ok(cost_of(observation.as_ref()))
    }

    /// The program of the next training episode.
    fn draw_program(&mut self) -> String {
        // Without programs nothing extra is drawn: a seed trains as before.
        if !self.programs.is_empty() && self.rng.next_f64() < self.options.program_share {
            return self.programs[self.rng.index(self.programs.len())].clone();
        }
        let seed = TRAINING_SEEDS.start + self.rng.below(TRAINING_SEEDS.end - TRAINING_SEEDS.start);
        let sizes = &self.options.sizes;
        let size =
            sizes.start + self.rng.below(u64::from(sizes.end.saturating_sub(sizes.start)).max(1)) as u32;
        generated_uri(seed, size)
    }

    /// Plays one episode, sampling actions; its samples go to `out`.
    fn episode(&mut self, out: &mut Vec<Sample>) -> Result<f64> {
        let uri = self.draw_program();
        let initial = self.reset(uri)?;
        let n = self.policy.actions.len();
        let mut history = History::new(n, self.policy.episode_length);
        let (mut input, mut probabilities) = (Vec::new(), vec![0.0; n]);
        let mut cost = initial;
        while !history.done() {
            let mut allowed = Vec::with_capacity(n);
            history.allowed(&self.available, &mut allowed);
            if !allowed.iter().any(|&a| a) {
                break;
            }
            let observation =
                observe_vector(&self.env, &self.policy.observation, self.policy.observation_length)?;
            history.input(&observation, &mut input);
            let mut trace = Trace::default();
            self.policy.network.forward(&input, &mut trace);
            probabilities.copy_from_slice(&trace.output()[..n]);
            softmax(&mut probabilities, &allowed);
            let action = sample(&probabilities, self.rng.next_f64());
            let value = self.action_value(action)?;
            let result = self.env.step(value)?;
            self.steps += 1;
            history.record(action, !result.info.action_had_no_effect);
            let failed = result.info.error.is_some();
            let next = if failed { cost } else { cost_of(result.observation.one()) };
            out.push(Sample { trace, allowed, action, reward: log_cost(cost) - log_cost(next) });
            cost = next;
            if failed {
                break;
            }
        }
        self.episodes += 1;
        Ok(log_cost(initial) - log_cost(cost))
    }

    /// Plays a batch of episodes and updates the policy once.
    pub fn train_batch(&mut self) -> Result<&CurvePoint> {
        let started = (self.clock)();
        let mut episodes: Vec<Vec<Sample>> = Vec::with_capacity(self.options.batch);
        let mut returns = 0.0;
        for _ in 0..self.options.batch.max(1) {
            let mut samples = Vec::with_capacity(self.policy.episode_length);
            returns += self.episode(&mut samples)?;
            episodes.push(samples);
        }
        let entropy = self.update(&episodes);
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
            mean_return: returns / episodes.len() as f64,
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

    /// One REINFORCE update from a batch; returns the mean entropy.
    fn update(&mut self, episodes: &[Vec<Sample>]) -> f64 {
        let n = self.policy.actions.len();
        // Returns to go and advantages, normalised over the batch.
        let mut targets = Vec::new();
        let mut advantages = Vec::new();
        for samples in episodes {
            let mut to_go = 0.0;
            let mut g: Vec<f64> = samples
                .iter()
                .rev()
                .map(|s| {
                    to_go += s.reward;
                    to_go
                })
                .collect();
            g.reverse();
            for (s, g) in samples.iter().zip(g) {
                advantages.push(g - s.trace.output()[n]);
                targets.push(g);
            }
        }
        let count = advantages.len().max(1) as f64;
        let mean = advantages.iter().sum::<f64>() / count;
        let std = (advantages.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / count).sqrt();
        self.grads.clear();
        let mut out_grad = vec![0.0; n + 1];
        let mut probabilities = vec![0.0; n];
        let mut entropy_sum = 0.0;
        let samples = episodes.iter().flatten();
        for ((sample, advantage), target) in samples.zip(&advantages).zip(&targets) {
            let advantage = (advantage - mean) / (std + 1e-8);
            let output = sample.trace.output();
            probabilities.copy_from_slice(&output[..n]);
            softmax(&mut probabilities, &sample.allowed);
            let entropy: f64 = probabilities.iter().filter(|&&p| p > 0.0).map(|&p| -p * libm::log(p)).sum();
            entropy_sum += entropy;
            for (i, &p) in probabilities.iter().enumerate() {
                let chosen = if i == sample.action { 1.0 } else { 0.0 };
                let entropy_grad = if p > 0.0 { p * (libm::log(p) + entropy) } else { 0.0 };
                out_grad[i] = (advantage * (p - chosen) + self.options.entropy * entropy_grad) / count;
            }
            out_grad[n] = self.options.value_weight * (output[n] - target) / count;
            self.policy.network.backward(&sample.trace, &out_grad, &mut self.grads);
        }
        let norm = self.grads.norm();
        if norm > self.options.max_grad_norm {
            self.grads.scale(self.options.max_grad_norm / norm);
        }
        self.adam.step(&mut self.policy.network, &self.grads);
        entropy_sum / count
    }

    /// The geometric mean of `baseline / final` over the validation
    /// programs, each a greedy episode of the current policy.
    pub fn validate(&mut self) -> Result<f64> {
        let mut log_sum = 0.0;
        let uris = self.options.validation.clone();
        for uri in &uris {
            let (cost, baseline) = self.greedy_episode(uri)?;
            log_sum += log_cost(baseline) - log_cost(cost);
        }
        Ok(libm::exp(log_sum / uris.len().max(1) as f64))
    }

    /// One greedy episode on `uri`: the final cost and the baseline's.
    fn greedy_episode(&mut self, uri: &str) -> Result<(f64, f64)> {
        let mut cost = self.reset(uri.to_string())?;
        let baseline = cost_of(Some(&self.env.observation().get(&self.options.baseline)?));
        let n = self.policy.actions.len();
        let mut history = History::new(n, self.policy.episode_length);
        let (mut input, mut trace, mut allowed) = (Vec::new(), Trace::default(), Vec::new());
        while !history.done() {
            let observation =
                observe_vector(&self.env, &self.policy.observation, self.policy.observation_length)?;
            history.input(&observation, &mut input);
            self.policy.network.forward(&input, &mut trace);
            history.allowed(&self.available, &mut allowed);
            let Some(action) = argmax(&trace.output()[..n], &allowed) else { break };
            let result = self.env.step(self.action_value(action)?)?;
            history.record(action, !result.info.action_had_no_effect);
            if result.info.error.is_some() {
                break;
            }
            cost = cost_of(result.observation.one());
        }
        Ok((cost, baseline))
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

/// The action whose cumulative probability first exceeds `u` in `[0, 1)`.
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
        assert_eq!(trainer.programs.len(), crate::bril::suite::large::all().len() + 1);
        assert!(trainer.programs[..trainer.programs.len() - 1]
            .iter()
            .all(|u| u.starts_with("benchmark://large-v0/")));
        assert_eq!(trainer.programs.last().map(String::as_str), Some("benchmark://suite-v0/fib-iter"));
        let training = &trainer.trained_policy().training;
        assert_eq!(training["mixedIn"]["share"], 0.5);
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
}
