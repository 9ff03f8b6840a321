//! Environment APIs.
//!
//! CompilerGym's face: [`compiler_env`] (`CompilerEnv` over an in-process
//! service), [`state`] (episode states and their CSV form), [`validation`]
//! (state, replay, validation), [`datasets`] and [`clock`] (injected wall
//! clock). Which compilers and environment ids exist is
//! [`compilers`](crate::compilers)' business: this layer names none.
//! The TimeStep-style face after tf_agents: [`specs`] (array specs,
//! checking and sampling), [`timestep`] (`TimeStep`, `StepType`),
//! [`timestep_env`] (the `TimeStepEnvironment` trait with tf_agents' reset
//! and auto-reset rules), [`validate`] (the environment checker) and
//! [`compiler_timestep`], which shows any `CompilerEnv` through that API.
//! [`action_mask`]: the actions known to do nothing, at no cost.
//! Gymnasium's face: [`gym`] (`GymEnv`, seeded resets, and its
//! implementation for `CompilerEnv`).

pub mod action_mask;
pub mod clock;
pub mod compiler_env;
#[cfg(test)]
mod compiler_env_tests;
pub mod compiler_timestep;
pub mod datasets;
pub mod gym;
pub mod specs;
pub mod state;
pub mod step_plan;
pub mod timestep;
pub mod timestep_env;
pub mod validate;
pub mod validation;

pub use action_mask::ActionMask;
pub use clock::{default_clock, zero_clock, Clock};
pub use compiler_env::{
    CompilerEnv, DerivedSpace, EnvExtras, EnvOptions, Observed, ResetOptions, StepInfo, StepOptions,
    StepResult,
};
pub use compiler_timestep::{CompilerTimeStepEnvironment, CompilerTimeStepOptions};
pub use datasets::Datasets;
pub use specs::{time_step_spec, ArraySpec, Bound, BoundedArraySpec, Bounds, Spec, TimeStepSpec};
pub use state::{read_csv, write_csv, CompilerEnvState};
pub use timestep::{StepType, TimeStep};
pub use timestep_env::{not_implemented, EnvState, TimeStepEnvBase, TimeStepEnvironment};
pub use validate::{check_time_step, validate_environment, validate_environment_with_policy};
pub use validation::{ValidationError, ValidationResult};
