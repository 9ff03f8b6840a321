//! The per-arm observation layout shared by per-arm bandit environments and
//! agents: `{global: [B, dg], per_arm: [B, K, da], num_actions?: [B]}` (the
//! `num_actions` entry is tf_agents' NUM_ACTIONS_FEATURE encoding of a
//! varying number of available arms: the first `num_actions[b]` arms).
//!
//! Agents read observations through [`PerArmObservation::from_value`], so
//! any environment emitting this layout (the compiler bandit too) works with
//! them.

use crate::env::specs::{bounded_int32, ArraySpec, Spec};
use crate::error::Result;
use crate::rng::Rng;
use crate::value::{Array, ArrayData, DType, Value};
use crate::{bail, ensure};

/// Key of the global context (tf_agents' `GLOBAL_FEATURE_KEY`).
pub const GLOBAL_KEY: &str = "global";
/// Key of the arm features (tf_agents' `PER_ARM_FEATURE_KEY`).
pub const PER_ARM_KEY: &str = "per_arm";
/// Key of the number of available arms (tf_agents' `NUM_ACTIONS_FEATURE_KEY`).
pub const NUM_ACTIONS_KEY: &str = "num_actions";

/// A batch of per-arm observations, flat and row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct PerArmObservation {
    batch_size: usize,
    num_arms: usize,
    global_dim: usize,
    arm_dim: usize,
    global: Vec<f64>,
    per_arm: Vec<f64>,
    num_actions: Option<Vec<i32>>,
}

impl PerArmObservation {
    /// An observation from flat parts: `global` `[B * dg]`, `per_arm`
    /// `[B * K * da]`, `num_actions` `[B]` each in `[1, K]` if given.
    pub fn new(
        batch_size: usize,
        num_arms: usize,
        global: Vec<f64>,
        per_arm: Vec<f64>,
        num_actions: Option<Vec<i32>>,
    ) -> Result<PerArmObservation> {
        ensure!(batch_size > 0 && num_arms > 0, Value, "batch size and number of arms must be positive");
        ensure!(
            global.len() % batch_size == 0,
            Value,
            "global: {} values do not split into {batch_size} samples",
            global.len()
        );
        let rows =
            batch_size.checked_mul(num_arms).ok_or_else(|| crate::Error::overflow("B * K overflows"))?;
        ensure!(
            per_arm.len() % rows == 0,
            Value,
            "per_arm: {} values do not split into {rows} arms",
            per_arm.len()
        );
        if let Some(n) = &num_actions {
            ensure!(
                n.len() == batch_size,
                Value,
                "num_actions: expected {batch_size} values, got {}",
                n.len()
            );
            if let Some(bad) = n.iter().find(|&&k| k < 1 || k as i64 > num_arms as i64) {
                bail!(Value, "num_actions: {bad} is outside [1, {num_arms}]");
            }
        }
        Ok(PerArmObservation {
            batch_size,
            num_arms,
            global_dim: global.len() / batch_size,
            arm_dim: per_arm.len() / rows,
            global,
            per_arm,
            num_actions,
        })
    }

    /// Reads the per-arm layout from an observation value; arrays of any
    /// numeric dtype are read as f64.
    pub fn from_value(value: &Value) -> Result<PerArmObservation> {
        let field = |key: &str| -> Result<&Array> {
            match value.get(key) {
                Some(Value::Array(a)) => Ok(a),
                Some(other) => {
                    bail!(Type, "observation.{key}: expected an array, got a {}", other.kind_name())
                }
                None => bail!(Value, "observation: missing key {key:?} of the per-arm layout"),
            }
        };
        let global = field(GLOBAL_KEY)?;
        let per_arm = field(PER_ARM_KEY)?;
        let [b, _] = global.shape() else {
            bail!(Value, "observation.global: expected shape [batch, dim], got {:?}", global.shape());
        };
        let [b2, k, _] = per_arm.shape() else {
            bail!(Value, "observation.per_arm: expected shape [batch, arms, dim], got {:?}", per_arm.shape());
        };
        ensure!(b == b2, Value, "observation: global has batch {b} but per_arm has {b2}");
        let num_actions = match value.get(NUM_ACTIONS_KEY) {
            None => None,
            Some(Value::Array(a)) => {
                ensure!(
                    a.shape() == [*b],
                    Value,
                    "observation.num_actions: expected shape [{b}], got {:?}",
                    a.shape()
                );
                let mut counts = Vec::with_capacity(*b);
                for i in 0..a.len() {
                    let Some(n) = a.data().get_i128(i) else {
                        bail!(Type, "observation.num_actions: expected integers, got {}", a.dtype());
                    };
                    counts.push(i32::try_from(n).unwrap_or(i32::MAX));
                }
                Some(counts)
            }
            Some(other) => {
                bail!(Type, "observation.num_actions: expected an array, got a {}", other.kind_name())
            }
        };
        PerArmObservation::new(*b, *k, global.data().to_f64_vec(), per_arm.data().to_f64_vec(), num_actions)
    }

    /// The observation value: float64 `global` and `per_arm`, int32 `num_actions`.
    pub fn to_value(&self) -> Result<Value> {
        let mut entries = vec![
            (
                GLOBAL_KEY.to_string(),
                Value::Array(Array::new(
                    vec![self.batch_size, self.global_dim],
                    ArrayData::F64(self.global.clone()),
                )?),
            ),
            (
                PER_ARM_KEY.to_string(),
                Value::Array(Array::new(
                    vec![self.batch_size, self.num_arms, self.arm_dim],
                    ArrayData::F64(self.per_arm.clone()),
                )?),
            ),
        ];
        if let Some(n) = &self.num_actions {
            entries
                .push((NUM_ACTIONS_KEY.to_string(), Value::Array(Array::vector(ArrayData::I32(n.clone())))));
        }
        Ok(Value::Dict(entries))
    }

    pub fn batch_size(&self) -> usize {
        self.batch_size
    }
    /// K: the arms every sample has room for.
    pub fn num_arms(&self) -> usize {
        self.num_arms
    }
    pub fn global_dim(&self) -> usize {
        self.global_dim
    }
    pub fn arm_dim(&self) -> usize {
        self.arm_dim
    }
    pub fn global_flat(&self) -> &[f64] {
        &self.global
    }
    pub fn per_arm_flat(&self) -> &[f64] {
        &self.per_arm
    }
    pub fn num_actions(&self) -> Option<&[i32]> {
        self.num_actions.as_deref()
    }

    /// The global context of sample `b`.
    pub fn global(&self, b: usize) -> &[f64] {
        &self.global[b * self.global_dim..(b + 1) * self.global_dim]
    }

    /// The features of arm `arm` of sample `b`.
    pub fn arm(&self, b: usize, arm: usize) -> &[f64] {
        let start = (b * self.num_arms + arm) * self.arm_dim;
        &self.per_arm[start..start + self.arm_dim]
    }

    /// How many arms sample `b` offers: the first `available(b)` arms.
    pub fn available(&self, b: usize) -> usize {
        match &self.num_actions {
            Some(n) => n[b] as usize,
            None => self.num_arms,
        }
    }

    /// The global context of sample `b` followed by arm `arm`'s features:
    /// what the reward function and linear agents see.
    pub fn features(&self, b: usize, arm: usize) -> Vec<f64> {
        [self.global(b), self.arm(b, arm)].concat()
    }

    /// One uniformly random available arm per sample: the random policy.
    pub fn random_available_actions(&self, rng: &mut Rng) -> Vec<usize> {
        (0..self.batch_size).map(|b| rng.index(self.available(b))).collect()
    }
}

/// The spec of one sample of the layout: float64 `global` `[dg]` and
/// `per_arm` `[K, da]`, and with `num_actions` an int32 in `[1, K]`.
pub fn per_arm_observation_spec(
    global_dim: usize,
    num_arms: usize,
    arm_dim: usize,
    num_actions: bool,
) -> Spec {
    let global = ArraySpec::new(vec![global_dim], DType::F64).with_name(GLOBAL_KEY);
    let per_arm = ArraySpec::new(vec![num_arms, arm_dim], DType::F64).with_name(PER_ARM_KEY);
    let mut entries =
        vec![(GLOBAL_KEY.to_string(), global.into()), (PER_ARM_KEY.to_string(), per_arm.into())];
    if num_actions {
        entries.push((NUM_ACTIONS_KEY.to_string(), bounded_int32(1, num_arms as i64, NUM_ACTIONS_KEY)));
    }
    Spec::Dict(entries)
}

/// Actions as an int32 `[B]` array, the batched form of the action spec.
pub fn actions_value(actions: &[usize]) -> Value {
    Value::Array(Array::vector(ArrayData::I32(
        actions.iter().map(|&a| a.min(i32::MAX as usize) as i32).collect(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn sample() -> PerArmObservation {
        // B = 2, K = 3, dg = 1, da = 2.
        let per_arm = (0..12).map(f64::from).collect();
        PerArmObservation::new(2, 3, vec![10.0, 20.0], per_arm, Some(vec![3, 1])).unwrap()
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn features_concatenate_global_and_arm() {
        let o = sample();
        assert_eq!((o.global_dim(), o.arm_dim()), (1, 2));
        assert_eq!(o.features(1, 2), [20.0, 10.0, 11.0]);
        assert_eq!((o.available(0), o.available(1)), (3, 1));
        let mut rng = Rng::seed_from_u64(2);
        for _ in 0..20 {
            let a = o.random_available_actions(&mut rng);
            assert!(a[0] < 3 && a[1] == 0);
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn round_trips_through_the_value_layout() {
        let o = sample();
        let v = o.to_value().unwrap();
        assert_eq!(v.get("per_arm").unwrap().as_array().unwrap().shape(), [2, 3, 2]);
        assert_eq!(PerArmObservation::from_value(&v).unwrap(), o);
        let e = PerArmObservation::from_value(&Value::Dict(vec![])).unwrap_err();
        assert!(e.message().contains("missing key \"global\""), "{e}");
        assert!(PerArmObservation::new(2, 3, vec![1.0; 2], vec![0.0; 12], Some(vec![4, 1])).is_err());
    }
}
