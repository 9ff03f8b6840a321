//! Compilers by name, for clients that start a [`Service`] themselves (the
//! JavaScript `Service` class) rather than an environment.
//!
//! [`Service`]: crate::service::Service

use crate::bril::session::BrilBackend;
use crate::error::{Error, Result};
use crate::service::toy::ToyBackend;
use crate::service::CompilerBackend;

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
