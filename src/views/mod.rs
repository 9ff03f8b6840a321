//! Views into an environment's observation and reward spaces (CompilerGym's
//! `env.observation` and `env.reward`). Nothing is computed until asked for.

pub mod link;
pub mod observation;
pub mod observation_spec;
pub mod reward;

#[cfg(test)]
pub(crate) mod tests;

pub use link::{SessionLink, SharedService};
pub use observation::ObservationView;
pub use observation_spec::{DerivedSpaceOptions, Format, ObservationSpaceSpec, Translate};
pub use reward::RewardView;
