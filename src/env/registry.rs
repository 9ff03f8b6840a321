//! `make(id, options)`: environments by id, as Gymnasium's registry.
//!
//! A compiler registers one [`EnvSpec`] per id: an entry point that builds
//! the environment and the default options of that id (for instance the
//! same compiler with different default rewards). Built-in ids come from
//! [`builtin_specs`]; more can be added at run time with [`register`].

use super::compiler_env::{CompilerEnv, EnvOptions};
use crate::error::{Error, Result};
use std::sync::Mutex;

/// How to make the environment of one id.
#[derive(Clone, Debug)]
pub struct EnvSpec {
    pub id: String,
    /// Builds the environment from the merged options.
    pub entry_point: fn(EnvOptions) -> Result<CompilerEnv>,
    /// Options of this id, under those given to `make`.
    pub defaults: EnvOptions,
}

static REGISTRY: Mutex<Vec<EnvSpec>> = Mutex::new(Vec::new());

/// The ids every build knows. Compilers add theirs here.
pub fn builtin_specs() -> Vec<EnvSpec> {
    crate::bril::session::envs::specs()
}

fn with_registry<R>(f: impl FnOnce(&mut Vec<EnvSpec>) -> R) -> R {
    // A panic while holding the lock cannot leave the list half-written.
    let mut specs = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if specs.is_empty() {
        *specs = builtin_specs();
    }
    f(&mut specs)
}

/// Registers an id; a ValueError if it is taken.
pub fn register(spec: EnvSpec) -> Result<()> {
    with_registry(|specs| {
        if specs.iter().any(|s| s.id == spec.id) {
            return Err(Error::value(format!("environment {:?} is already registered", spec.id)));
        }
        specs.push(spec);
        Ok(())
    })
}

/// Every registered id, sorted.
pub fn registered_ids() -> Vec<String> {
    let mut ids = with_registry(|specs| specs.iter().map(|s| s.id.clone()).collect::<Vec<_>>());
    ids.sort();
    ids
}

pub fn spec(id: &str) -> Result<EnvSpec> {
    with_registry(|specs| specs.iter().find(|s| s.id == id).cloned())
        .ok_or_else(|| Error::lookup(format!("unknown environment {id:?}")))
}

/// Makes the environment `id`; `options` override the id's defaults.
pub fn make(id: &str, options: EnvOptions) -> Result<CompilerEnv> {
    let spec = spec(id)?;
    (spec.entry_point)(options.or(&spec.defaults))
}
