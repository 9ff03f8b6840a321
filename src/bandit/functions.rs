//! The functions a per-arm bandit is made of: context samplers, a sampler of
//! the number of available arms, and a reward function.
//!
//! Each is a trait with a blanket implementation for closures, so a caller
//! (a JavaScript callback wrapped by the JS layer, a test) passes a plain
//! closure, and the built-ins here are ordinary types. Every function gets
//! the environment's [`Rng`] and returns a [`Result`]: drawing only from that
//! RNG makes a function replayable by seed and by `get_state`/`set_state`,
//! and a failing callback surfaces as an error instead of a panic.

use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::{bail, ensure};

/// Draws one context vector: the global context, or one arm's features.
pub trait ContextSampler {
    fn sample(&mut self, rng: &mut Rng) -> Result<Vec<f64>>;
}

impl<F: FnMut(&mut Rng) -> Result<Vec<f64>>> ContextSampler for F {
    fn sample(&mut self, rng: &mut Rng) -> Result<Vec<f64>> {
        self(rng)
    }
}

/// Draws how many arms are available for one sample (capped to `[1, K]` by
/// the environment).
pub trait NumActionsSampler {
    fn sample(&mut self, rng: &mut Rng) -> Result<i64>;
}

impl<F: FnMut(&mut Rng) -> Result<i64>> NumActionsSampler for F {
    fn sample(&mut self, rng: &mut Rng) -> Result<i64> {
        self(rng)
    }
}

/// The reward of playing an arm, from the global context concatenated with
/// the arm's features.
pub trait RewardFn {
    /// A (possibly noisy) reward.
    fn reward(&mut self, features: &[f64], rng: &mut Rng) -> Result<f64>;

    /// The expected reward, for regret. Reward functions that cannot say
    /// return a TypeError starting `NotImplemented:` (the default).
    fn expected_reward(&self, features: &[f64]) -> Result<f64> {
        let _ = features;
        Err(no_expected_reward())
    }
}

impl<F: FnMut(&[f64], &mut Rng) -> Result<f64>> RewardFn for F {
    fn reward(&mut self, features: &[f64], rng: &mut Rng) -> Result<f64> {
        self(features, rng)
    }
}

fn no_expected_reward() -> Error {
    Error::type_error(
        "NotImplemented: this rewardFn has no expected value; regret needs one \
         (use the built-in linear reward or a reward with an expectation)",
    )
}

/// A reward function made of a sampling closure and an expectation closure.
pub struct RewardWithExpectation<R, E> {
    reward: R,
    expected: E,
}

/// A reward function whose expected value `expected` is known, so the
/// environment's regret helpers work with it.
pub fn reward_with_expectation<R, E>(reward: R, expected: E) -> RewardWithExpectation<R, E>
where
    R: FnMut(&[f64], &mut Rng) -> Result<f64>,
    E: Fn(&[f64]) -> Result<f64>,
{
    RewardWithExpectation { reward, expected }
}

impl<R, E> RewardFn for RewardWithExpectation<R, E>
where
    R: FnMut(&[f64], &mut Rng) -> Result<f64>,
    E: Fn(&[f64]) -> Result<f64>,
{
    fn reward(&mut self, features: &[f64], rng: &mut Rng) -> Result<f64> {
        (self.reward)(features, rng)
    }
    fn expected_reward(&self, features: &[f64]) -> Result<f64> {
        (self.expected)(features)
    }
}

fn ensure_finite(name: &str, x: f64) -> Result<()> {
    ensure!(x.is_finite(), Value, "{name} must be finite, got {x}");
    Ok(())
}

/// Independent normal coordinates: `dim` draws of `mean + std * N(0, 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct GaussianContext {
    dim: usize,
    mean: f64,
    std: f64,
}

impl GaussianContext {
    pub fn new(dim: usize, mean: f64, std: f64) -> Result<GaussianContext> {
        ensure_finite("mean", mean)?;
        ensure_finite("std", std)?;
        if std < 0.0 {
            bail!(Value, "std must be non-negative, got {std}");
        }
        Ok(GaussianContext { dim, mean, std })
    }
}

impl ContextSampler for GaussianContext {
    fn sample(&mut self, rng: &mut Rng) -> Result<Vec<f64>> {
        Ok((0..self.dim).map(|_| self.mean + self.std * rng.standard_normal()).collect())
    }
}

/// Independent uniform coordinates in `[low, high]`.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformContext {
    dim: usize,
    low: f64,
    high: f64,
}

impl UniformContext {
    pub fn new(dim: usize, low: f64, high: f64) -> Result<UniformContext> {
        ensure_finite("low", low)?;
        ensure_finite("high", high)?;
        if low > high {
            bail!(Value, "low ({low}) must not exceed high ({high})");
        }
        Ok(UniformContext { dim, low, high })
    }
}

impl ContextSampler for UniformContext {
    fn sample(&mut self, rng: &mut Rng) -> Result<Vec<f64>> {
        Ok((0..self.dim).map(|_| rng.uniform(self.low, self.high)).collect())
    }
}

/// `theta · features + noise_std * N(0, 1)`: the linear reward LinUCB is
/// built for. `theta` covers the global then the arm features.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearNormalReward {
    theta: Vec<f64>,
    noise_std: f64,
}

impl LinearNormalReward {
    pub fn new(theta: Vec<f64>, noise_std: f64) -> Result<LinearNormalReward> {
        for (i, &t) in theta.iter().enumerate() {
            ensure_finite(&format!("theta[{i}]"), t)?;
        }
        ensure_finite("noise_std", noise_std)?;
        if noise_std < 0.0 {
            bail!(Value, "noise_std must be non-negative, got {noise_std}");
        }
        Ok(LinearNormalReward { theta, noise_std })
    }

    pub fn theta(&self) -> &[f64] {
        &self.theta
    }
}

impl RewardFn for LinearNormalReward {
    fn reward(&mut self, features: &[f64], rng: &mut Rng) -> Result<f64> {
        let mean = self.expected_reward(features)?;
        // No draw without noise, so a noiseless reward leaves the stream alone.
        Ok(if self.noise_std > 0.0 { mean + self.noise_std * rng.standard_normal() } else { mean })
    }

    fn expected_reward(&self, features: &[f64]) -> Result<f64> {
        ensure!(
            features.len() == self.theta.len(),
            Value,
            "the linear reward has {} weights (theta) but got {} features (global + arm)",
            self.theta.len(),
            features.len()
        );
        Ok(dot(&self.theta, features))
    }
}

/// Uniform integer in `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformNumActions {
    low: i64,
    high: i64,
}

impl UniformNumActions {
    pub fn new(low: i64, high: i64) -> Result<UniformNumActions> {
        ensure!(low <= high, Value, "low ({low}) must not exceed high ({high})");
        Ok(UniformNumActions { low, high })
    }
}

impl NumActionsSampler for UniformNumActions {
    fn sample(&mut self, rng: &mut Rng) -> Result<i64> {
        Ok(rng.int_inclusive(self.low, self.high))
    }
}

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn built_ins_validate_their_parameters() {
        assert!(GaussianContext::new(3, 0.0, -1.0).is_err());
        assert!(GaussianContext::new(3, f64::NAN, 1.0).is_err());
        assert!(UniformContext::new(2, 1.0, 0.0).is_err());
        assert!(LinearNormalReward::new(vec![1.0, f64::INFINITY], 0.1).is_err());
        assert!(LinearNormalReward::new(vec![1.0], -0.1).is_err());
        assert_eq!(UniformNumActions::new(3, 2).unwrap_err().name(), "ValueError");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn samplers_keep_to_their_parameters_and_seed() {
        let mut rng = Rng::seed_from_u64(4);
        let mut u = UniformContext::new(5, -2.0, 3.0).unwrap();
        let x = u.sample(&mut rng).unwrap();
        assert_eq!(x.len(), 5);
        assert!(x.iter().all(|v| (-2.0..=3.0).contains(v)));
        let mut g = GaussianContext::new(2000, 10.0, 0.5).unwrap();
        let y = g.sample(&mut rng).unwrap();
        let mean = y.iter().sum::<f64>() / 2000.0;
        assert!((mean - 10.0).abs() < 0.05, "{mean}");
        let mut n = UniformNumActions::new(2, 4).unwrap();
        let counts: Vec<i64> = (0..100).map(|_| n.sample(&mut rng).unwrap()).collect();
        assert!((2..=4).all(|k| counts.contains(&k)) && counts.iter().all(|k| (2..=4).contains(k)));
        let a = g.sample(&mut Rng::seed_from_u64(1)).unwrap();
        assert_eq!(a, g.sample(&mut Rng::seed_from_u64(1)).unwrap());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn linear_reward_is_theta_dot_features_plus_noise() {
        let mut r = LinearNormalReward::new(vec![1.0, -2.0, 0.5], 0.0).unwrap();
        let mut rng = Rng::seed_from_u64(1);
        assert_eq!(r.reward(&[1.0, 1.0, 2.0], &mut rng).unwrap(), 0.0);
        assert_eq!(r.expected_reward(&[2.0, 0.0, 0.0]).unwrap(), 2.0);
        let e = r.expected_reward(&[1.0]).unwrap_err();
        assert!(e.message().contains("3 weights") && e.message().contains("1 features"), "{e}");
        let mut noisy = LinearNormalReward::new(vec![1.0], 1.0).unwrap();
        let draws: Vec<f64> = (0..4000).map(|_| noisy.reward(&[3.0], &mut rng).unwrap()).collect();
        let mean = draws.iter().sum::<f64>() / 4000.0;
        assert!((mean - 3.0).abs() < 0.06 && draws.iter().any(|&d| d != 3.0), "{mean}");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn closures_are_functions_and_expectation_is_optional() {
        let mut plain = |x: &[f64], _: &mut Rng| Ok(x.iter().sum::<f64>());
        assert_eq!(RewardFn::reward(&mut plain, &[1.0, 2.0], &mut Rng::seed_from_u64(0)).unwrap(), 3.0);
        let e = RewardFn::expected_reward(&plain, &[1.0]).unwrap_err();
        assert!(e.message().starts_with("NotImplemented:"));
        let with = reward_with_expectation(|x: &[f64], _: &mut Rng| Ok(x[0]), |x: &[f64]| Ok(x[0] * 2.0));
        assert_eq!(with.expected_reward(&[2.0]).unwrap(), 4.0);
    }
}
