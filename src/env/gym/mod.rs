//! Gymnasium's face of an environment: [`GymEnv`], with `reset(seed,
//! options) -> (observation, info)` and `step(action) -> (observation,
//! reward, terminated, truncated, info)`, the spaces, the reward range, the
//! spec, the metadata, `render` and `close`.
//!
//! Seeding follows Gymnasium's `np_random`: a reset given a seed reseeds the
//! environment's own generator; a reset without one keeps drawing from it
//! (seeding it from [`Entropy`] the first time). Beyond Gymnasium, the
//! seeding reset also reseeds the action space (with a seed drawn from the
//! new generator), so one seed fixes the benchmark, the observation and the
//! `action_space().sample()` sequence natively, in Node and in browsers.
//!
//! [`compiler`] implements the trait for a `CompilerEnv`.

pub mod compiler;
#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::rng::Rng;
use crate::spaces::Space;
use crate::value::Value;

pub use compiler::{GymCompilerEnv, GymFace, GymOptions};

/// A source of fresh seeds for generators nobody seeded: the core has no
/// entropy of its own on wasm32, so JavaScript passes one in.
pub type Entropy = fn() -> u64;

/// A seed that differs between runs where the platform can tell runs apart
/// (natively: the process's random hash keys and the time); on wasm32, where
/// JavaScript passes its own, a fixed stream.
pub fn default_entropy() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::collections::hash_map::RandomState;
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(crate::env::clock::default_clock()().to_bits());
        hasher.finish()
    }
    #[cfg(target_arch = "wasm32")]
    {
        use std::sync::atomic::{AtomicU64, Ordering};
        static STATE: AtomicU64 = AtomicU64::new(0);
        let mut state = STATE.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        crate::rng::splitmix64(&mut state)
    }
}

/// The results of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct GymStep {
    pub observation: Value,
    pub reward: f64,
    /// The episode reached a terminal state (or the compiler failed).
    pub terminated: bool,
    /// The episode was cut short from outside (a step limit).
    pub truncated: bool,
    /// A dict: what happened besides the observation and reward.
    pub info: Value,
}

/// Gymnasium's `EnvSpec`, the parts an environment knows of itself.
#[derive(Clone, Debug, PartialEq)]
pub struct GymSpec {
    pub id: String,
    pub max_episode_steps: Option<u64>,
    /// Whether the same seed and actions may give different results.
    pub nondeterministic: bool,
    /// The episode return at which the task counts as solved.
    pub reward_threshold: Option<f64>,
}

/// Gymnasium's `metadata`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Metadata {
    pub render_modes: Vec<String>,
    pub render_fps: Option<f64>,
}

/// An environment with Gymnasium's API. See the module docs for seeding.
pub trait GymEnv {
    /// What `reset` takes besides the seed (Gymnasium's `options`).
    type ResetOptions: Default;

    /// Starts an episode. With a seed, reseeds the environment's generator
    /// (and the action space); returns the first observation and an info dict.
    fn reset(&mut self, seed: Option<u64>, options: Self::ResetOptions) -> Result<(Value, Value)>;
    /// Applies one action.
    fn step(&mut self, action: &Value) -> Result<GymStep>;
    fn action_space(&self) -> &Space;
    /// The action space, for sampling with its own (seeded) generator.
    fn action_space_mut(&mut self) -> &mut Space;
    fn observation_space(&self) -> &Space;
    /// `(min, max)` of the rewards.
    fn reward_range(&self) -> (f64, f64);
    fn spec(&self) -> Option<&GymSpec>;
    fn metadata(&self) -> &Metadata;
    /// One of `metadata().render_modes`, or `None`: what `render` draws.
    fn render_mode(&self) -> Option<&str>;
    /// A frame in the render mode (`None` without one).
    fn render(&mut self) -> Result<Option<Value>>;
    /// Releases what the environment holds; calling it twice is fine.
    fn close(&mut self) -> Result<()>;
    /// The environment's generator (seeded from entropy if nobody seeded it).
    fn np_random(&mut self) -> &mut Rng;
    /// The seed of the generator, `None` before it exists.
    fn np_random_seed(&self) -> Option<u64>;
}
