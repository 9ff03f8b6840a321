//! Views into an environment's observation spaces (CompilerGym's
//! `env.observation`) and the link to the session they observe. Nothing is
//! computed until asked for. The reward view is [`crate::rewards::RewardView`].

pub mod link;
pub mod observation;
pub mod observation_spec;

#[cfg(test)]
pub(crate) mod tests;

pub use link::{SessionLink, SharedService};
pub use observation::ObservationView;
pub use observation_spec::{DerivedSpaceOptions, Format, ObservationSpaceSpec, Translate};
