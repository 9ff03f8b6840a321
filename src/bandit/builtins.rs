//! The built-in bandit functions by description, as JavaScript (or any JSON
//! caller) names them: `{kind: "gaussian", dim, mean, std}` and
//! `{kind: "uniform", dim, low, high}` contexts, the `{kind: "linear",
//! theta, noiseStd}` reward and the `{kind: "uniform", low, high}` number of
//! arms. Which kinds exist and what their defaults are is decided here, so
//! the binding layer only converts its value to JSON.

use super::functions::{
    ContextSampler, GaussianContext, LinearNormalReward, NumActionsSampler, RewardFn, UniformContext,
    UniformNumActions,
};
use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value as Json;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum ContextDescription {
    Gaussian {
        dim: usize,
        #[serde(default)]
        mean: f64,
        #[serde(default = "one")]
        std: f64,
    },
    Uniform {
        dim: usize,
        #[serde(default)]
        low: f64,
        #[serde(default = "one")]
        high: f64,
    },
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum RewardDescription {
    Linear {
        theta: Vec<f64>,
        #[serde(default, rename = "noiseStd")]
        noise_std: f64,
    },
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum NumActionsDescription {
    Uniform { low: i64, high: i64 },
}

fn one() -> f64 {
    1.0
}

/// Reads a description of one of `kinds`; `expected` is what `name` may be,
/// for the message. Not a description of a known kind: a TypeError (the
/// caller gave something else than a function or a built-in); a known kind
/// with bad fields: a ValueError.
fn read<T: DeserializeOwned>(description: &Json, name: &str, kinds: &[&str], expected: &str) -> Result<T> {
    let kind = description.get("kind").and_then(Json::as_str);
    let known_kind = kind.is_some_and(|k| kinds.contains(&k));
    serde_json::from_value(description.clone()).map_err(|e| {
        if known_kind {
            Error::value(format!("{name}: {e}"))
        } else {
            Error::type_error(format!("{name} must be a function or {expected}"))
        }
    })
}

/// A built-in context sampler from its description.
pub fn context_sampler(description: &Json, name: &str) -> Result<Box<dyn ContextSampler>> {
    let expected = "{kind: \"gaussian\" | \"uniform\", dim, ...}";
    Ok(match read(description, name, &["gaussian", "uniform"], expected)? {
        ContextDescription::Gaussian { dim, mean, std } => Box::new(GaussianContext::new(dim, mean, std)?),
        ContextDescription::Uniform { dim, low, high } => Box::new(UniformContext::new(dim, low, high)?),
    })
}

/// The built-in reward function from its description.
pub fn reward_fn(description: &Json, name: &str) -> Result<Box<dyn RewardFn>> {
    let RewardDescription::Linear { theta, noise_std } =
        read(description, name, &["linear"], "{kind: \"linear\", theta, noiseStd}")?;
    Ok(Box::new(LinearNormalReward::new(theta, noise_std)?))
}

/// The built-in sampler of the number of arms from its description.
pub fn num_actions_sampler(description: &Json, name: &str) -> Result<Box<dyn NumActionsSampler>> {
    let NumActionsDescription::Uniform { low, high } =
        read(description, name, &["uniform"], "{kind: \"uniform\", low, high}")?;
    Ok(Box::new(UniformNumActions::new(low, high)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn descriptions_build_the_builtins_with_their_defaults() {
        let mut rng = Rng::seed_from_u64(1);
        let mut gaussian = context_sampler(&json!({"kind": "gaussian", "dim": 3}), "f").unwrap();
        assert_eq!(gaussian.sample(&mut rng).unwrap().len(), 3);
        let mut uniform = context_sampler(&json!({"kind": "uniform", "dim": 50}), "f").unwrap();
        assert!(uniform.sample(&mut rng).unwrap().iter().all(|x| (0.0..=1.0).contains(x)));
        let linear = reward_fn(&json!({"kind": "linear", "theta": [1.0, 2.0]}), "r").unwrap();
        assert_eq!(linear.expected_reward(&[3.0, 4.0]).unwrap(), 11.0);
        let mut n = num_actions_sampler(&json!({"kind": "uniform", "low": 2, "high": 2}), "n").unwrap();
        assert_eq!(n.sample(&mut rng).unwrap(), 2);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn unknown_kinds_are_type_errors_and_bad_fields_value_errors() {
        let e =
            context_sampler(&json!({"kind": "cauchy", "dim": 1}), "globalContextSamplingFn").err().unwrap();
        assert_eq!(e.name(), "TypeError", "{e}");
        let e = context_sampler(&json!({"kind": "gaussian"}), "globalContextSamplingFn").err().unwrap();
        assert_eq!(e.name(), "ValueError", "{e}");
        assert!(e.message().contains("dim"), "{e}");
        let e = context_sampler(&json!(3), "globalContextSamplingFn").err().unwrap();
        assert_eq!(e.name(), "TypeError");
        assert!(e.message().starts_with("globalContextSamplingFn must be a function or"), "{e}");
        let e = reward_fn(&json!({"kind": "linear", "theta": [1.0], "noiseStd": -1.0}), "rewardFn")
            .err()
            .unwrap();
        assert_eq!(e.name(), "ValueError");
        let e = num_actions_sampler(&json!({"kind": "uniform", "low": 3}), "numActionsFn").err().unwrap();
        assert!(e.message().contains("high"), "{e}");
    }
}
