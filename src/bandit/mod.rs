//! Per-arm contextual bandits after tf_agents.
//!
//! - [`functions`] holds the context samplers, arm-count sampler and reward
//!   function a bandit is made of (closures or built-ins), and [`builtins`]
//!   the built-ins by JSON description (`{kind: "gaussian", dim}`...);
//! - [`observation`] holds the per-arm observation layout shared by environments
//!   and agents;
//! - [`stationary`] holds `StationaryStochasticPerArmEnvironment`;
//! - [`state`] holds its JSON state token;
//! - [`linucb`] holds a LinUCB agent over the concatenated features;
//! - [`actions`] holds the action spec and action checks every per-arm bandit shares;
//! - [`compiler`] holds the compiler bandit, whose arms are the Bril passes.
//!
//! Another arm or context source plugs in either as these functions or, as
//! the compiler bandit does, as its own `TimeStepEnvironment` emitting the
//! same observation layout, which the agents read through
//! [`PerArmObservation::from_value`].

pub mod actions;
pub mod builtins;
pub mod compiler;
pub mod functions;
pub mod linucb;
pub mod observation;
pub mod state;
pub mod stationary;

pub use functions::{
    reward_with_expectation, ContextSampler, GaussianContext, LinearNormalReward, NumActionsSampler,
    RewardFn, UniformContext, UniformNumActions,
};

pub use compiler::{CompilerBandit, CompilerBanditOptions};
pub use linucb::LinUcb;
pub use observation::{actions_value, PerArmObservation};
pub use stationary::{StationaryStochasticPerArmBuilder, StationaryStochasticPerArmEnvironment};
