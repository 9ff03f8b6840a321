//! The compiler service protocol, served in-process.
//!
//! [`messages`] holds the protocol's messages (with their proto3 JSON
//! form, for JavaScript), [`event`] and [`space_json`] map [`Value`]s and
//! [`Space`]s to the protocol's `Event` and `Space`, [`session`] the traits
//! a compiler implements, [`benchmark`] URIs, datasets and the benchmark
//! store, and [`service`] the [`Service`] that owns sessions and answers
//! every RPC. The compilers that implement the traits live in
//! [`compilers`](crate::compilers).
//!
//! [`Value`]: crate::value::Value
//! [`Space`]: crate::spaces::Space

pub mod benchmark;
pub mod event;
pub mod messages;
pub mod proto_json;
#[allow(clippy::module_inception)]
pub mod service;
pub mod session;
pub mod space_json;

#[cfg(test)]
mod service_tests;

pub use benchmark::{BenchmarkStore, BenchmarkUri, Dataset, DatasetBenchmarks};
pub use event::{value_from_event, value_to_event};
pub use messages::*;
pub use service::{Service, StepOutcome, METHODS, SERVICE_VERSION};
pub use session::{ActionOutcome, CompilationSession, CompilerBackend};
pub use space_json::{space_from_message, space_to_message};
