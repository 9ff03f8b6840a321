//! Rewards: incremental and stateful, as in CompilerGym. A reward is reset
//! at the start of each episode and updated after each step with the
//! observations it asked for; forking an environment clones its rewards'
//! state. [`cost`] has the generic kinds: delta, normalised and
//! baseline-relative rewards over a cost observation; [`view`] the reward
//! spaces of an environment by name (CompilerGym's `env.reward`).

pub mod cost;
pub mod view;

#[cfg(test)]
mod tests;

pub use cost::{CostReward, Normalization};
pub use view::RewardView;

use crate::error::{Error, Result};
use crate::spaces::RewardSpace;
use crate::value::Value;
use crate::views::ObservationView;

/// A reward signal. Object safe; simple enough to be implemented by a
/// JavaScript object with `reset` and `update` methods.
pub trait Reward {
    /// The reward's description: name, the observation spaces `update`
    /// receives, default value, range, success threshold...
    fn space(&self) -> &RewardSpace;

    /// Called at the start of each episode, before any action.
    fn reset(&mut self, benchmark: &str, observation: &ObservationView) -> Result<()>;

    /// The reward for `actions`, given the observations named by
    /// `space().observation_spaces()` computed after them, in that order.
    /// `observation` can compute any other observation of the session.
    fn update(
        &mut self,
        actions: &[Value],
        observations: &[Value],
        observation: &ObservationView,
    ) -> Result<f64>;

    /// The reward for a step on which the service failed: the default
    /// value, less the episode's reward so far when
    /// `default_negates_returns`.
    fn reward_on_error(&self, episode_reward: f64) -> f64 {
        self.space().reward_on_error(episode_reward)
    }

    /// A copy with the same state, for forks.
    fn box_clone(&self) -> Box<dyn Reward>;

    /// Whether a fork copies this reward as it is made. A reward whose state
    /// is plain data is shared by a fork and its parent until one of them
    /// writes to it (see [`RewardView`]); one whose state is an object that
    /// others hold and may change (a JS reward) is copied at once, so the
    /// parent keeps its own object and the fork gets the copy.
    fn copied_at_fork(&self) -> bool {
        false
    }

    /// The reward as a [`CostReward`], if it is one: its formula can then
    /// be applied to costs measured outside an environment.
    fn as_cost(&self) -> Option<&CostReward> {
        None
    }

    fn name(&self) -> &str {
        use crate::spaces::Kind;
        self.space().name()
    }
}

impl Clone for Box<dyn Reward> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// An observation as a number; a TypeError names the reward and space.
pub fn observation_as_f64(value: &Value, reward: &str, space: &str) -> Result<f64> {
    value.as_f64().ok_or_else(|| {
        Error::type_error(format!(
            "reward {reward:?}: observation {space:?} is a {}, not a number",
            value.kind_name()
        ))
    })
}
