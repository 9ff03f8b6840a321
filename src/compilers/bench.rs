//! Environment throughput, measured the same way natively and in wasm:
//! steps per second of `bril-ic-v0`-style episodes (random actions, a fixed
//! episode length, the IrInstructionCount reward) on the median-size suite
//! program, the latency of a fork, and of computing the Autophase and Ir
//! observations. The clock is passed in, because wasm has none of its own.
//!
//! Sessions remember the transitions passes made (see `compilers::bril`), so
//! repeated episodes mostly revisit known states. "First visits" measures
//! the other extreme: every episode on a copy of the program the compiler
//! has not seen recently (added under one of [`COLD_URIS`] rotating URIs,
//! more than the compiler keeps, each copy with a comment of its own, since
//! environments share what they learnt of the same text), so every pass
//! really runs; its resets, which parse the copy, are not timed.

use crate::env::{CompilerEnv, EnvOptions, ResetOptions};
use crate::error::{Error, Result};
use crate::value::Value;

/// What to measure; `seconds` is the time spent on each of the four measures.
#[derive(Clone, Debug)]
pub struct EnvBenchConfig {
    pub benchmark: String,
    pub episode_length: usize,
    pub seconds: f64,
}

#[derive(Clone, Debug)]
pub struct EnvBenchResult {
    pub benchmark: String,
    pub episode_length: usize,
    pub steps_per_second: f64,
    /// Steps per second when every state is new (resets not timed).
    pub first_visit_steps_per_second: f64,
    /// One reset alone (included in `steps_per_second`, once per episode).
    pub reset_us: f64,
    pub fork_us: f64,
    pub autophase_us: f64,
    pub ir_us: f64,
}

impl EnvBenchResult {
    /// `{benchmark, episodeLength, coldUris, stepsPerSecond, firstVisitStepsPerSecond, resetUs,
    /// forkUs, autophaseUs, irUs}` (`coldUris`: how many URIs the first visits rotate through,
    /// for the JS side's loop).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "benchmark": self.benchmark,
            "episodeLength": self.episode_length,
            "coldUris": COLD_URIS,
            "stepsPerSecond": self.steps_per_second,
            "firstVisitStepsPerSecond": self.first_visit_steps_per_second,
            "resetUs": self.reset_us,
            "forkUs": self.fork_us,
            "autophaseUs": self.autophase_us,
            "irUs": self.ir_us,
        })
    }
}

/// The URI of the suite program with the median static instruction count
/// (ties broken by name), the program every environment benchmark uses.
pub fn median_suite_benchmark() -> Result<String> {
    let mut sized = crate::bril::suite::all()
        .iter()
        .map(|b| Ok((b.program()?.instr_count(), b.name, b.uri())))
        .collect::<Result<Vec<_>>>()?;
    sized.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    sized.get(sized.len() / 2).map(|s| s.2.clone()).ok_or_else(|| Error::lookup("the suite is empty"))
}

/// The default configuration: the median suite program, 20-step episodes.
pub fn default_config(seconds: f64) -> Result<EnvBenchConfig> {
    Ok(EnvBenchConfig { benchmark: median_suite_benchmark()?, episode_length: 20, seconds })
}

/// The action sequence: a 32-bit xorshift, written the same way in
/// `bench/env-measure.mjs` so every side applies the same passes.
struct XorShift32(u32);

impl XorShift32 {
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x as usize % n.max(1)
    }
}

/// Calls `f` in rounds of `batch` until `seconds` pass; returns seconds per call.
fn per_call(
    seconds: f64,
    batch: usize,
    clock: &mut dyn FnMut() -> f64,
    mut f: impl FnMut() -> Result<()>,
) -> Result<f64> {
    let start = clock();
    let mut calls = 0usize;
    loop {
        for _ in 0..batch {
            f()?;
        }
        calls += batch;
        let elapsed = clock() - start;
        if elapsed >= seconds {
            return Ok(elapsed / calls as f64);
        }
    }
}

/// How many URIs the first-visit measure rotates through: more than the
/// Bril compiler keeps, so each comes back forgotten (it drops the least
/// recently used first, and each URI's copy has contents of its own anyway).
pub const COLD_URIS: usize = super::bril::RECENT_BENCHMARKS + 1;

/// Seconds per step of episodes on programs the compiler has not seen
/// recently; resets are not timed.
fn first_visits(
    env: &mut CompilerEnv,
    config: &EnvBenchConfig,
    n: usize,
    rng: &mut XorShift32,
    clock: &mut dyn FnMut() -> f64,
) -> Result<f64> {
    env.reset(ResetOptions { benchmark: Some(config.benchmark.clone()), ..Default::default() })?;
    let source = match env.observation().get("Ir")? {
        Value::Str(text) => text,
        other => return Err(Error::type_error(format!("Ir is a {}, not text", other.kind_name()))),
    };
    let (mut busy, mut steps, mut episode) = (0.0, 0usize, 0usize);
    loop {
        let uri = format!("benchmark://bench-v0/first-visit-{}", episode % COLD_URIS);
        let copy = format!("{source}# first visit {episode}\n");
        env.add_benchmark(crate::service::Benchmark::from_contents(&uri, copy.as_str()))?;
        env.reset(ResetOptions { benchmark: Some(uri), ..Default::default() })?;
        let start = clock();
        for _ in 0..config.episode_length.max(1) {
            env.step(Value::Int(rng.below(n) as i64))?;
        }
        busy += clock() - start;
        steps += config.episode_length.max(1);
        episode += 1;
        if busy >= config.seconds {
            break;
        }
    }
    env.reset(ResetOptions { benchmark: Some(config.benchmark.clone()), ..Default::default() })?;
    Ok(busy / steps as f64)
}

/// Runs the five measures.
pub fn run(config: &EnvBenchConfig, clock: &mut dyn FnMut() -> f64) -> Result<EnvBenchResult> {
    let options = EnvOptions {
        benchmark: Some(config.benchmark.clone()),
        reward_space: Some(Some("IrInstructionCount".into())),
        ..Default::default()
    };
    let mut env: CompilerEnv = super::registry::make("bril-ic-v0", options)?;
    let n = match env.action_space().space.kind() {
        crate::spaces::SpaceKind::Commandline(c) => c.n() as usize,
        _ => return Err(Error::type_error("the benchmark needs a Commandline action space")),
    };
    let mut rng = XorShift32(0x9e37_79b9);
    let length = config.episode_length.max(1);
    let episode = per_call(config.seconds, 4, clock, || {
        env.reset(ResetOptions::default())?;
        for _ in 0..length {
            env.step(Value::Int(rng.below(n) as i64))?;
        }
        Ok(())
    })?;
    let first_visit = first_visits(&mut env, config, n, &mut rng, clock)?;
    let reset = per_call(config.seconds, 10, clock, || env.reset(ResetOptions::default()).map(drop))?;
    // The later measures start from a partly optimised program.
    env.reset(ResetOptions::default())?;
    for _ in 0..length / 2 {
        env.step(Value::Int(rng.below(n) as i64))?;
    }
    // Forks are dropped outside the timed part, 100 at a time.
    let mut forks = Vec::with_capacity(100);
    let mut fork_time = 0.0;
    let mut fork_calls = 0usize;
    loop {
        let start = clock();
        for _ in 0..100 {
            forks.push(env.fork()?);
        }
        fork_time += clock() - start;
        fork_calls += 100;
        forks.clear();
        if fork_time >= config.seconds {
            break;
        }
    }
    let observation = env.observation().clone();
    let autophase = per_call(config.seconds, 10, clock, || observation.get("Autophase").map(drop))?;
    let ir = per_call(config.seconds, 10, clock, || observation.get("Ir").map(drop))?;
    Ok(EnvBenchResult {
        benchmark: config.benchmark.clone(),
        episode_length: length,
        steps_per_second: length as f64 / episode,
        first_visit_steps_per_second: 1.0 / first_visit,
        reset_us: reset * 1e6,
        fork_us: fork_time / fork_calls as f64 * 1e6,
        autophase_us: autophase * 1e6,
        ir_us: ir * 1e6,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn measures_every_number_on_the_median_program() {
        let config = EnvBenchConfig { seconds: 0.0, ..default_config(0.0).unwrap() };
        assert!(config.benchmark.starts_with("benchmark://suite-v0/"));
        let mut t = 0.0;
        let mut clock = move || {
            t += 0.001;
            t
        };
        let r = run(&config, &mut clock).unwrap();
        assert_eq!(r.episode_length, 20);
        for x in [
            r.steps_per_second,
            r.first_visit_steps_per_second,
            r.reset_us,
            r.fork_us,
            r.autophase_us,
            r.ir_us,
        ] {
            assert!(x.is_finite() && x > 0.0, "{r:?}");
        }
        assert_eq!(r.to_json()["benchmark"], config.benchmark.as_str());
    }
}
