//! Actions of per-arm bandits: the action spec (an arm index per sample),
//! reading actions, and checking them against the available arms. Shared by
//! every per-arm environment so they reject bad actions with the same errors.

use super::observation::{actions_value, PerArmObservation};
use crate::env::specs::{bounded_int32, Spec};
use crate::error::{Error, Result};
use crate::value::Value;
use crate::{bail, ensure};

/// `BoundedArraySpec((), int32, 0, K - 1)` named `action`, per sample.
pub fn arm_action_spec(num_arms: usize) -> Spec {
    bounded_int32(0, num_arms as i64 - 1, "action")
}

/// Reads actions: an integer array (any integer dtype) or a list of
/// integers, one per sample; a bare integer when the batch size is 1.
pub(crate) fn parse_actions(action: &Value, batch_size: usize) -> Result<Vec<i128>> {
    let actions: Vec<i128> = match action {
        Value::Array(a) => {
            ensure!(
                a.shape().len() == 1,
                Value,
                "action: expected {batch_size} actions (shape [{batch_size}]), got shape {:?}",
                a.shape()
            );
            (0..a.len())
                .map(|i| {
                    a.data().get_i128(i).ok_or_else(|| {
                        Error::type_error(format!(
                            "action: expected integer actions, got dtype {}",
                            a.dtype()
                        ))
                    })
                })
                .collect::<Result<_>>()?
        }
        Value::List(items) => items
            .iter()
            .map(|v| match v {
                Value::Int(i) => Ok(*i as i128),
                other => bail!(Type, "action: expected integer actions, got a {}", other.kind_name()),
            })
            .collect::<Result<_>>()?,
        Value::Int(i) => vec![*i as i128],
        other => bail!(
            Type,
            "action: expected an int32 array of {batch_size} actions, got a {}",
            other.kind_name()
        ),
    };
    ensure!(
        actions.len() == batch_size,
        Value,
        "action: the number of actions ({}) must match the batch size ({batch_size})",
        actions.len()
    );
    Ok(actions)
}

/// Every action must be one of its sample's available arms.
pub fn check_actions(obs: &PerArmObservation, actions: &[usize]) -> Result<()> {
    ensure!(
        actions.len() == obs.batch_size(),
        Value,
        "action: the number of actions ({}) must match the batch size ({})",
        actions.len(),
        obs.batch_size()
    );
    for (b, &a) in actions.iter().enumerate() {
        let available = obs.available(b);
        ensure!(
            a < available,
            Value,
            "action: action {a} for sample {b} is out of range: {available} arms are available (0..{})",
            available - 1
        );
    }
    Ok(())
}

/// [`parse_actions`] as arm indices: a negative action is a ValueError.
pub fn parse_arm_actions(action: &Value, batch_size: usize) -> Result<Vec<usize>> {
    parse_actions(action, batch_size)?
        .into_iter()
        .enumerate()
        .map(|(b, a)| {
            usize::try_from(a).map_err(|_| {
                Error::value(format!(
                    "action: action {a} for sample {b} is out of range: actions are arm indices >= 0"
                ))
            })
        })
        .collect()
}

/// tf_agents' `validate_py_environment` for a per-arm bandit: `episodes`
/// episodes choosing a random available arm per sample (seeded by `seed`),
/// every time step checked against the specs.
pub fn validate_with_random_arms(
    env: &mut dyn crate::env::TimeStepEnvironment,
    episodes: usize,
    seed: u64,
) -> Result<()> {
    let mut rng = crate::rng::Rng::seed_from_u64(seed);
    let mut policy = |ts: &crate::env::TimeStep, rng: &mut crate::rng::Rng| {
        let obs = PerArmObservation::from_value(&ts.observation)?;
        Ok(actions_value(&obs.random_available_actions(rng)))
    };
    crate::env::validate_environment_with_policy(env, episodes, &mut rng, &mut policy)
}
