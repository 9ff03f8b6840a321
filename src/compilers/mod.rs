//! The compilers behind the environments: the one place that knows which
//! backends exist and which environments are registered.
//!
//! Each compiler adapts itself to the service's [`CompilerBackend`] and
//! [`CompilationSession`] traits here: [`bril`] (the Bril compiler of
//! [`crate::bril`]: passes as actions, features as observations) and
//! [`toy`] (a tiny compiler that proves the traits general). [`registry`]
//! holds the environment ids (`bril-v0`, ...) and [`make`]s them. Layers
//! below (`service`, `views`, `rewards`, `env`) name no compiler.
//!
//! [`CompilationSession`]: crate::service::CompilationSession

#[cfg(feature = "bench")]
pub mod bench;
pub mod bril;
pub mod env_spec;
pub mod registry;
pub mod toy;

pub use env_spec::EnvSpec;
pub use registry::{make, register, registered_ids};

use crate::error::{Error, Result};
use crate::service::CompilerBackend;
use bril::BrilBackend;
use toy::ToyBackend;

/// The compiler a service gets when none is named.
pub const DEFAULT_COMPILER: &str = "bril";

/// Every compiler name [`backend`] knows.
pub const COMPILERS: [&str; 2] = ["bril", "toy"];

/// A fresh backend of the compiler `name`; a LookupError listing the known
/// names otherwise.
pub fn backend(name: &str) -> Result<Box<dyn CompilerBackend>> {
    match name {
        "bril" => Ok(Box::new(BrilBackend::new())),
        "toy" => Ok(Box::new(ToyBackend)),
        _ => Err(Error::lookup(format!(
            "unknown compiler {name:?}: the compilers are {}",
            COMPILERS.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn every_listed_compiler_starts_and_others_are_lookup_errors() {
        for name in COMPILERS {
            assert!(!backend(name).unwrap().action_spaces().is_empty(), "{name}");
        }
        assert!(COMPILERS.contains(&DEFAULT_COMPILER));
        let e = backend("gcc").err().unwrap();
        assert_eq!(e.name(), "LookupError");
        assert!(e.message().contains("\"gcc\"") && e.message().contains("bril, toy"), "{e}");
    }
}
