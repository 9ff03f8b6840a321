//! The state token of the stationary per-arm bandit: everything needed to
//! replay it exactly, as JSON.
//!
//! ```json
//! { "kind": "stationary_stochastic_per_arm", "version": 1,
//!   "rng": ["0123456789abcdef", "...", "...", "..."],
//!   "batch_size": 2, "max_num_actions": 5, "global_dim": 3, "arm_dim": 4,
//!   "observation": { "global": [...], "per_arm": [...], "num_actions": [...] | null } | null,
//!   "time_step": { "step_type": [...], "reward": [...], "discount": [...] } | null }
//! ```
//!
//! The RNG words are 16-digit hex strings because JavaScript numbers cannot
//! hold 64-bit integers; observation arrays are flat and row-major. The
//! current time step's observation is the current observation, so it is
//! stored once. What the token cannot hold is state kept inside custom
//! callbacks: functions that draw only from the RNG they are given replay
//! exactly.

use super::observation::PerArmObservation;
use crate::env::timestep::StepType;
use crate::env::TimeStep;
use crate::error::{Error, Result};
use crate::value::{Array, ArrayData, Value};
use crate::{bail, ensure};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationaryState {
    pub kind: String,
    pub version: u32,
    pub rng: [String; 4],
    pub batch_size: usize,
    pub max_num_actions: usize,
    pub global_dim: usize,
    pub arm_dim: usize,
    pub observation: Option<ObservationState>,
    pub time_step: Option<TimeStepState>,
}

impl StationaryState {
    pub const KIND: &'static str = "stationary_stochastic_per_arm";
    pub const VERSION: u32 = 1;
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservationState {
    pub global: Vec<f64>,
    pub per_arm: Vec<f64>,
    pub num_actions: Option<Vec<i32>>,
}

impl ObservationState {
    pub fn from_observation(obs: &PerArmObservation) -> ObservationState {
        ObservationState {
            global: obs.global_flat().to_vec(),
            per_arm: obs.per_arm_flat().to_vec(),
            num_actions: obs.num_actions().map(<[i32]>::to_vec),
        }
    }

    /// The observation, checked against the environment's dimensions.
    pub fn into_observation(
        self,
        batch_size: usize,
        num_arms: usize,
        dims: (usize, usize),
        has_num_actions: bool,
    ) -> Result<PerArmObservation> {
        let (global_dim, arm_dim) = dims;
        ensure!(
            self.num_actions.is_some() == has_num_actions,
            Value,
            "state: num_actions is {} but the environment {} numActionsFn",
            if self.num_actions.is_some() { "present" } else { "absent" },
            if has_num_actions { "has a" } else { "has no" }
        );
        let expect = |what: &str, got: usize, want: Option<usize>| -> Result<()> {
            let want = want.ok_or_else(|| Error::overflow("state: sizes overflow"))?;
            ensure!(got == want, Value, "state: observation.{what} has {got} values, expected {want}");
            Ok(())
        };
        expect("global", self.global.len(), batch_size.checked_mul(global_dim))?;
        expect(
            "per_arm",
            self.per_arm.len(),
            batch_size.checked_mul(num_arms).and_then(|n| n.checked_mul(arm_dim)),
        )?;
        if self.global.iter().chain(&self.per_arm).any(|x| !x.is_finite()) {
            bail!(Value, "state: observation values must be finite");
        }
        PerArmObservation::new(batch_size, num_arms, self.global, self.per_arm, self.num_actions)
            .map_err(|e| e.context("state"))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeStepState {
    pub step_type: Vec<i32>,
    pub reward: Vec<f32>,
    pub discount: Vec<f32>,
}

impl TimeStepState {
    pub fn from_time_step(ts: &TimeStep) -> Result<TimeStepState> {
        Ok(TimeStepState {
            step_type: ts.step_types()?.into_iter().map(StepType::as_i32).collect(),
            reward: ts.rewards()?.into_iter().map(|r| r as f32).collect(),
            discount: ts.discounts()?.into_iter().map(|d| d as f32).collect(),
        })
    }

    pub fn into_time_step(self, observation: Value, batch_size: usize) -> Result<TimeStep> {
        for (what, len) in [
            ("step_type", self.step_type.len()),
            ("reward", self.reward.len()),
            ("discount", self.discount.len()),
        ] {
            ensure!(
                len == batch_size,
                Value,
                "state: time_step.{what} has {len} values, expected {batch_size}"
            );
        }
        for &t in &self.step_type {
            StepType::from_i32(t).map_err(|e| e.context("state: time_step.step_type"))?;
        }
        let field =
            |data: ArrayData| -> Result<Value> { Ok(Value::Array(Array::new(vec![batch_size], data)?)) };
        Ok(TimeStep {
            step_type: field(ArrayData::I32(self.step_type))?,
            reward: field(ArrayData::F32(self.reward))?,
            discount: field(ArrayData::F32(self.discount))?,
            observation,
        })
    }
}

/// A bandit's state token as JSON.
pub fn encode_token<T: Serialize>(token: &T) -> Result<crate::env::EnvState> {
    serde_json::to_value(token).map_err(|e| Error::value(format!("state: cannot encode: {e}")))
}

/// A state token read back; a ValueError names the `kind` expected.
pub fn decode_token<T: DeserializeOwned>(state: &crate::env::EnvState, kind: &str) -> Result<T> {
    serde_json::from_value(state.clone()).map_err(|e| Error::value(format!("state: not a {kind} token: {e}")))
}
