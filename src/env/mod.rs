//! Environment APIs.
//!
//! So far the TimeStep-style face after tf_agents: [`specs`] (array specs,
//! checking and sampling), [`timestep`] (`TimeStep`, `StepType`),
//! [`timestep_env`] (the `TimeStepEnvironment` trait with tf_agents' reset
//! and auto-reset rules) and [`validate`] (the environment checker).

pub mod specs;
pub mod timestep;
pub mod timestep_env;
pub mod validate;

pub use specs::{time_step_spec, ArraySpec, Bound, BoundedArraySpec, Bounds, Spec, TimeStepSpec};
pub use timestep::{StepType, TimeStep};
pub use timestep_env::{not_implemented, EnvState, TimeStepEnvBase, TimeStepEnvironment};
pub use validate::{check_time_step, validate_environment, validate_environment_with_policy};
