//! LinUCB with one shared linear model over the concatenated features
//! (global context then arm features), as tf_agents' LinUCB does for
//! per-arm observations.
//!
//! The model keeps `A⁻¹` for `A = λI + Σ x xᵀ` (Sherman–Morrison rank-one
//! updates, O(d²) per observation) and `b = Σ r x`; it scores an arm
//! `θ·x + α √(xᵀ A⁻¹ x)` with `θ = A⁻¹ b`, and plays the best available arm.

use super::functions::dot;
use super::observation::PerArmObservation;
use crate::ensure;
use crate::error::Result;

#[derive(Clone, Debug, PartialEq)]
pub struct LinUcb {
    dim: usize,
    alpha: f64,
    /// Row-major `d × d`.
    a_inv: Vec<f64>,
    b: Vec<f64>,
    theta: Vec<f64>,
    updates: u64,
}

impl LinUcb {
    /// A fresh model over `dim` features with exploration weight `alpha` and
    /// ridge `regularization` (λ > 0).
    pub fn new(dim: usize, alpha: f64, regularization: f64) -> Result<LinUcb> {
        ensure!(
            alpha.is_finite() && alpha >= 0.0,
            Value,
            "alpha must be finite and non-negative, got {alpha}"
        );
        ensure!(
            regularization.is_finite() && regularization > 0.0,
            Value,
            "regularization must be finite and positive, got {regularization}"
        );
        let n = dim.checked_mul(dim).ok_or_else(|| crate::Error::overflow("dim * dim overflows"))?;
        let mut a_inv = vec![0.0; n];
        for i in 0..dim {
            a_inv[i * dim + i] = 1.0 / regularization;
        }
        Ok(LinUcb { dim, alpha, a_inv, b: vec![0.0; dim], theta: vec![0.0; dim], updates: 0 })
    }

    pub fn dim(&self) -> usize {
        self.dim
    }
    /// The current reward estimate's weights.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }
    /// How many (features, reward) pairs the model has seen.
    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// The estimated reward and the exploration bonus of `features`.
    pub fn score(&self, features: &[f64]) -> Result<(f64, f64)> {
        self.check_dim(features)?;
        let ax = self.a_inv_times(features);
        // xᵀA⁻¹x > 0 for positive-definite A; clamp the rounding noise.
        let variance = dot(features, &ax).max(0.0);
        Ok((dot(&self.theta, features), self.alpha * variance.sqrt()))
    }

    /// The arm with the highest upper confidence bound among the available
    /// ones, per sample (ties: the lowest index).
    pub fn select(&self, obs: &PerArmObservation) -> Result<Vec<usize>> {
        (0..obs.batch_size())
            .map(|b| {
                let mut best = (0, f64::NEG_INFINITY);
                for arm in 0..obs.available(b) {
                    let (mean, bonus) = self.score(&obs.features(b, arm))?;
                    if mean + bonus > best.1 {
                        best = (arm, mean + bonus);
                    }
                }
                Ok(best.0)
            })
            .collect()
    }

    /// Learns from one played arm's features and its reward. Non-finite
    /// features or reward, or ones large enough to overflow the model, are
    /// a ValueError and the model stays as it was.
    pub fn update(&mut self, features: &[f64], reward: f64) -> Result<()> {
        self.check_dim(features)?;
        ensure!(reward.is_finite(), Value, "reward must be finite, got {reward}");
        if let Some((i, x)) = features.iter().enumerate().find(|(_, x)| !x.is_finite()) {
            crate::bail!(Value, "features must be finite, got {x} at {i}");
        }
        let d = self.dim;
        // Sherman–Morrison: (A + xxᵀ)⁻¹ = A⁻¹ - (A⁻¹x)(A⁻¹x)ᵀ / (1 + xᵀA⁻¹x), A⁻¹ symmetric.
        let ax = self.a_inv_times(features);
        let denominator = 1.0 + dot(features, &ax);
        let mut a_inv = self.a_inv.clone();
        for i in 0..d {
            for j in 0..d {
                a_inv[i * d + j] -= ax[i] * ax[j] / denominator;
            }
        }
        let b: Vec<f64> = self.b.iter().zip(features).map(|(bi, xi)| bi + reward * xi).collect();
        let theta = times(&a_inv, d, &b);
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        ensure!(
            finite(&a_inv) && finite(&b) && finite(&theta),
            Value,
            "the update overflows the model (reward {reward}): scale the rewards or features down"
        );
        (self.a_inv, self.b, self.theta) = (a_inv, b, theta);
        self.updates += 1;
        Ok(())
    }

    /// Learns from a batch: the observation acted on, the arms played and
    /// the rewards received; all of it, or (on an error) none of it.
    pub fn observe(&mut self, obs: &PerArmObservation, actions: &[usize], rewards: &[f64]) -> Result<()> {
        ensure!(
            actions.len() == obs.batch_size() && rewards.len() == obs.batch_size(),
            Value,
            "expected {} actions and rewards, got {} and {}",
            obs.batch_size(),
            actions.len(),
            rewards.len()
        );
        let mut learnt = self.clone();
        for (b, (&arm, &r)) in actions.iter().zip(rewards).enumerate() {
            ensure!(arm < obs.num_arms(), Value, "action {arm} for sample {b} is not an arm");
            learnt.update(&obs.features(b, arm), r)?;
        }
        *self = learnt;
        Ok(())
    }

    fn check_dim(&self, features: &[f64]) -> Result<()> {
        ensure!(
            features.len() == self.dim,
            Value,
            "LinUCB has {} features but got {}",
            self.dim,
            features.len()
        );
        Ok(())
    }

    fn a_inv_times(&self, x: &[f64]) -> Vec<f64> {
        times(&self.a_inv, self.dim, x)
    }
}

/// The row-major `d × d` matrix `m` times `x`.
fn times(m: &[f64], d: usize, x: &[f64]) -> Vec<f64> {
    m.chunks_exact(d.max(1)).take(d).map(|row| dot(row, x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn sherman_morrison_matches_ridge_regression() {
        // Noiseless y = 2 x0 - x1 with λ = 1e-6: θ must come out as the truth.
        let mut m = LinUcb::new(2, 1.0, 1e-6).unwrap();
        for x in [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]] {
            m.update(&x, 2.0 * x[0] - x[1]).unwrap();
        }
        assert!((m.theta()[0] - 2.0).abs() < 1e-5 && (m.theta()[1] + 1.0).abs() < 1e-5, "{:?}", m.theta());
        // The bonus shrinks along directions seen often.
        let (_, seen) = m.score(&[1.0, 0.0]).unwrap();
        let fresh = LinUcb::new(2, 1.0, 1.0).unwrap().score(&[1.0, 0.0]).unwrap().1;
        assert!(seen < fresh);
        assert_eq!(m.updates(), 4);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn rejects_bad_parameters_and_dimensions() {
        assert!(LinUcb::new(2, -1.0, 1.0).is_err());
        assert!(LinUcb::new(2, 1.0, 0.0).is_err());
        let mut m = LinUcb::new(2, 1.0, 1.0).unwrap();
        assert_eq!(m.update(&[1.0], 1.0).unwrap_err().name(), "ValueError");
        assert!(m.update(&[1.0, 2.0], f64::NAN).is_err());
    }

    /// A reward or feature that is not finite, or finite but large enough to
    /// overflow the model, is a ValueError that leaves the model as it was.
    #[wasm_bindgen_test(unsupported = test)]
    fn overflowing_updates_are_refused_and_change_nothing() {
        let mut m = LinUcb::new(2, 1.0, 1.0).unwrap();
        m.update(&[1.0, 0.5], 2.0).unwrap();
        let before = m.clone();
        let bad: [(&[f64], f64); 6] = [
            (&[2.0, 2.0], 1e308),
            (&[1e308, 1e308], 1.0),
            (&[1e200, 0.0], 1e200),
            (&[f64::INFINITY, 0.0], 1.0),
            (&[f64::NAN, 0.0], 1.0),
            (&[1.0, 0.0], f64::NEG_INFINITY),
        ];
        for (x, r) in bad {
            let e = m.update(x, r).unwrap_err();
            assert_eq!(e.name(), "ValueError", "{x:?} {r}");
            assert_eq!(m, before, "{x:?} {r} changed the model");
        }
        assert!(m.theta().iter().all(|t| t.is_finite()));
        m.update(&[0.0, 1.0], 1.0).unwrap();
        assert_eq!(m.updates(), 2, "the model keeps learning");
    }

    /// A batch is learnt whole or not at all.
    #[wasm_bindgen_test(unsupported = test)]
    fn a_batch_with_one_bad_reward_changes_nothing() {
        let per_arm = vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.5, 0.5];
        let obs = PerArmObservation::new(2, 2, vec![], per_arm, None).unwrap();
        let mut m = LinUcb::new(2, 1.0, 1.0).unwrap();
        let before = m.clone();
        // Each reward alone fits; the second pushes Σ r x past f64::MAX.
        let e = m.observe(&obs, &[0, 0], &[1e308, 1e308]).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        assert_eq!(m, before);
        m.observe(&obs, &[0, 1], &[1.0, 2.0]).unwrap();
        assert_eq!(m.updates(), 2);
    }
}
