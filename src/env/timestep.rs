//! tf_agents' `TimeStep`: what an environment emits on `reset` and `step`.
//!
//! Every field is a [`Value`] so a time step checks against a
//! [`TimeStepSpec`](super::TimeStepSpec) like any other value. The
//! constructors build the conventional fields: `step_type` int32, `reward`
//! and `discount` float32. Unbatched fields are 0-d arrays; a batched time
//! step (`batch_size: Some(b)`) has a leading dimension `b` on every field,
//! the observation included.

use super::specs::Spec;
use crate::bail;
use crate::error::{Error, Result};
use crate::value::{shape_len, Array, ArrayData, Value};
use serde::{Deserialize, Serialize};

/// Where a time step sits in its episode. The numeric values are tf_agents'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(i32)]
pub enum StepType {
    First = 0,
    Mid = 1,
    Last = 2,
}

impl StepType {
    pub const fn as_i32(self) -> i32 {
        self as i32
    }

    pub fn from_i32(value: i32) -> Result<StepType> {
        match value {
            0 => Ok(StepType::First),
            1 => Ok(StepType::Mid),
            2 => Ok(StepType::Last),
            _ => bail!(Value, "no step type has the value {value}; expected 0 (FIRST), 1 (MID) or 2 (LAST)"),
        }
    }

    /// tf_agents' names: `FIRST`, `MID`, `LAST`.
    pub const fn name(self) -> &'static str {
        match self {
            StepType::First => "FIRST",
            StepType::Mid => "MID",
            StepType::Last => "LAST",
        }
    }
}

/// One step of interaction: step type, reward, discount and observation.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeStep {
    pub step_type: Value,
    pub reward: Value,
    pub discount: Value,
    pub observation: Value,
}

impl TimeStep {
    /// The first step of an episode: FIRST, zero reward, discount 1.
    ///
    /// The reward is zeros shaped like `reward_spec` (a float32 scalar
    /// without one), with the batch dimension first when batched.
    pub fn restart(
        observation: Value,
        batch_size: Option<usize>,
        reward_spec: Option<&Spec>,
    ) -> Result<TimeStep> {
        let reward = match reward_spec {
            Some(spec) => zeros_like(spec, batch_size)?,
            None => float32_field(0.0, batch_size)?,
        };
        Ok(TimeStep {
            step_type: step_type_field(StepType::First, batch_size)?,
            reward,
            discount: float32_field(1.0, batch_size)?,
            observation,
        })
    }

    /// A middle step: MID, the given reward and discount (1.0 normally).
    pub fn transition(
        observation: Value,
        reward: Value,
        discount: f32,
        batch_size: Option<usize>,
    ) -> Result<TimeStep> {
        Ok(TimeStep {
            step_type: step_type_field(StepType::Mid, batch_size)?,
            reward,
            discount: float32_field(discount, batch_size)?,
            observation,
        })
    }

    /// The last step of an episode that ended: LAST with discount 0.
    pub fn termination(observation: Value, reward: Value, batch_size: Option<usize>) -> Result<TimeStep> {
        Ok(TimeStep {
            step_type: step_type_field(StepType::Last, batch_size)?,
            reward,
            discount: float32_field(0.0, batch_size)?,
            observation,
        })
    }

    /// The last step of an episode cut short (a time limit): LAST, but the
    /// discount stays 1 because the future still has value.
    pub fn truncation(observation: Value, reward: Value, batch_size: Option<usize>) -> Result<TimeStep> {
        Ok(TimeStep {
            step_type: step_type_field(StepType::Last, batch_size)?,
            reward,
            discount: float32_field(1.0, batch_size)?,
            observation,
        })
    }

    /// The step types, one per batch element (one when unbatched).
    pub fn step_types(&self) -> Result<Vec<StepType>> {
        let Value::Array(a) = &self.step_type else {
            bail!(Type, "step_type: expected an int32 array, got a {}", self.step_type.kind_name());
        };
        let ArrayData::I32(v) = a.data() else {
            bail!(Type, "step_type: expected dtype int32, got {}", a.dtype());
        };
        v.iter().map(|&x| StepType::from_i32(x).map_err(|e| e.context("step_type"))).collect()
    }

    /// Whether every step type is `t` (numpy's `np.all(step_type == t)`);
    /// false for a malformed or empty step type.
    pub fn all(&self, t: StepType) -> bool {
        matches!(self.step_types(), Ok(v) if !v.is_empty() && v.iter().all(|&s| s == t))
    }

    pub fn is_first(&self) -> bool {
        self.all(StepType::First)
    }
    pub fn is_mid(&self) -> bool {
        self.all(StepType::Mid)
    }
    pub fn is_last(&self) -> bool {
        self.all(StepType::Last)
    }

    /// A scalar or batched reward as f64s, one per batch element.
    pub fn rewards(&self) -> Result<Vec<f64>> {
        numbers(&self.reward).map_err(|e| e.context("reward"))
    }

    /// The discounts as f64s, one per batch element.
    pub fn discounts(&self) -> Result<Vec<f64>> {
        numbers(&self.discount).map_err(|e| e.context("discount"))
    }
}

/// Rewards as a float32 field: a 0-d array unbatched, `[b]` batched.
pub fn float32_rewards(rewards: &[f64], batch_size: Option<usize>) -> Result<Value> {
    let data = ArrayData::F32(rewards.iter().map(|&r| r as f32).collect());
    batch_field(data, batch_size).map_err(|e| e.context("reward"))
}

fn step_type_field(t: StepType, batch_size: Option<usize>) -> Result<Value> {
    let n = batch_size.unwrap_or(1);
    batch_field(ArrayData::I32(vec![t.as_i32(); n]), batch_size)
}

/// One float32 value repeated over the batch.
fn float32_field(value: f32, batch_size: Option<usize>) -> Result<Value> {
    let n = batch_size.unwrap_or(1);
    batch_field(ArrayData::F32(vec![value; n]), batch_size)
}

/// `data` as a 0-d array unbatched, or a `[b]` vector batched.
fn batch_field(data: ArrayData, batch_size: Option<usize>) -> Result<Value> {
    let shape: Vec<usize> = batch_size.into_iter().collect();
    Ok(Value::Array(Array::new(shape, data)?))
}

/// Zeros for every leaf of `spec`, with the batch dimension first.
fn zeros_like(spec: &Spec, batch_size: Option<usize>) -> Result<Value> {
    let outer: Vec<usize> = batch_size.into_iter().collect();
    Ok(match spec {
        Spec::Array(_) | Spec::Bounded(_) => {
            let leaf = spec.array_spec().ok_or_else(|| Error::value("reward spec leaf"))?;
            let shape: Vec<usize> = [&outer[..], leaf.shape()].concat();
            shape_len(&shape)?;
            Value::Array(Array::zeros(leaf.dtype(), shape)?)
        }
        Spec::Dict(entries) => Value::Dict(
            entries
                .iter()
                .map(|(k, s)| Ok((k.clone(), zeros_like(s, batch_size)?)))
                .collect::<Result<_>>()?,
        ),
        Spec::List(items) => {
            Value::List(items.iter().map(|s| zeros_like(s, batch_size)).collect::<Result<_>>()?)
        }
    })
}

fn numbers(value: &Value) -> Result<Vec<f64>> {
    match value {
        Value::Array(a) => Ok(a.data().to_f64_vec()),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Ok(value.as_f64().into_iter().collect()),
        other => bail!(Type, "expected a number or an array, got a {}", other.kind_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::specs::{check_value_batched, time_step_spec, ArraySpec};
    use crate::value::DType;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn obs(batch: Option<usize>) -> Value {
        let shape = match batch {
            None => vec![2],
            Some(b) => vec![b, 2],
        };
        let n = shape_len(&shape).unwrap();
        Value::Array(Array::new(shape, ArrayData::F64(vec![0.5; n])).unwrap())
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn constructors_follow_tf_agents_conventions() {
        let first = TimeStep::restart(obs(None), None, None).unwrap();
        assert!(first.is_first());
        assert_eq!(first.rewards().unwrap(), [0.0]);
        assert_eq!(first.discounts().unwrap(), [1.0]);

        let r = float32_rewards(&[2.5], None).unwrap();
        let mid = TimeStep::transition(obs(None), r.clone(), 0.9, None).unwrap();
        assert!(mid.is_mid());
        assert_eq!(mid.discounts().unwrap(), [0.9f32 as f64]);

        let end = TimeStep::termination(obs(None), r.clone(), None).unwrap();
        assert!(end.is_last());
        assert_eq!(end.discounts().unwrap(), [0.0]);
        assert_eq!(end.rewards().unwrap(), [2.5]);

        let cut = TimeStep::truncation(obs(None), r, None).unwrap();
        assert!(cut.is_last());
        assert_eq!(cut.discounts().unwrap(), [1.0]);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn batched_fields_carry_the_batch_dimension_and_match_the_spec() {
        let obs_spec: Spec = ArraySpec::new(vec![2], DType::F64).into();
        let spec = time_step_spec(obs_spec, None);
        let steps = [
            TimeStep::restart(obs(Some(3)), Some(3), None).unwrap(),
            TimeStep::termination(obs(Some(3)), float32_rewards(&[1.0, 2.0, 3.0], Some(3)).unwrap(), Some(3))
                .unwrap(),
        ];
        for ts in &steps {
            assert_eq!(ts.step_types().unwrap().len(), 3);
            check_value_batched(&spec.step_type, &ts.step_type, &[3], "step_type").unwrap();
            check_value_batched(&spec.reward, &ts.reward, &[3], "reward").unwrap();
            check_value_batched(&spec.discount, &ts.discount, &[3], "discount").unwrap();
            check_value_batched(&spec.observation, &ts.observation, &[3], "observation").unwrap();
        }
        assert_eq!(steps[1].discounts().unwrap(), [0.0; 3]);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn restart_shapes_the_reward_after_its_spec() {
        let reward_spec: Spec = ArraySpec::new(vec![2], DType::F64).into();
        let ts = TimeStep::restart(obs(Some(4)), Some(4), Some(&reward_spec)).unwrap();
        let a = ts.reward.as_array().unwrap();
        assert_eq!(a.shape(), [4, 2]);
        assert_eq!(a.dtype(), DType::F64);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn all_requires_every_element() {
        let mut ts = TimeStep::restart(obs(Some(2)), Some(2), None).unwrap();
        ts.step_type = Value::Array(Array::vector(ArrayData::I32(vec![2, 1])));
        assert!(!ts.is_last() && !ts.is_mid());
        ts.step_type = Value::Array(Array::vector(ArrayData::I32(vec![2, 7])));
        assert_eq!(ts.step_types().unwrap_err().name(), "ValueError");
        assert_eq!(StepType::from_i32(1).unwrap(), StepType::Mid);
        assert_eq!(StepType::Last.name(), "LAST");
    }
}
