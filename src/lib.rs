//! compgym: compiler optimisation as a reinforcement-learning environment.
//!
//! The crate is a pure Rust core (everything but [`js`](crate) bindings) that
//! builds natively and for `wasm32-unknown-unknown`. See `ARCHITECTURE.md`.

pub mod agents;
pub mod bandit;
pub mod bril;
pub mod catalog;
pub mod cli;
pub mod compilers;
pub mod env;
pub mod error;
pub mod first_step;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod limits;
#[cfg(not(target_arch = "wasm32"))]
pub mod native_allocator;
pub mod rewards;
pub mod rng;
pub mod service;
pub mod spaces;
pub mod value;
pub mod views;

pub use error::{Error, ErrorKind, Result};
pub use rng::Rng;
pub use spaces::{space_from_json, Space, SpaceKind};

/// The crate version, as in `Cargo.toml` and the npm package.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(all(target_arch = "wasm32", not(feature = "first-step")))]
pub mod js;

/// The first-step module's bindings, alone in place of `js`'s (the
/// `first-step` feature: only `first_step`'s engine, bound for JS).
#[cfg(all(target_arch = "wasm32", feature = "first-step"))]
#[path = "js/first_step.rs"]
mod first_step_js;

/// The Rust examples of the guides in `docs/`, compiled and run as doc tests
/// (`tests/js/docs.test.mjs` checks that every guide with one is here).
#[cfg(doctest)]
pub mod guides {
    #[doc = include_str!("../docs/agents.md")]
    pub struct Agents;
    #[doc = include_str!("../docs/environments.md")]
    pub struct Environments;
}
