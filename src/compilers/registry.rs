//! `make(id, options)`: environments by id, as Gymnasium's registry.
//!
//! A compiler registers one [`EnvSpec`] per id: an entry point that builds
//! the environment and the default options of that id (for instance the
//! same compiler with different default rewards). Built-in ids come from
//! [`builtin_specs`]; more can be added at run time with [`register`].

use super::env_spec::EnvSpec;
use crate::env::{CompilerEnv, EnvOptions};
use crate::error::{Error, Result};
use std::sync::Mutex;

static REGISTRY: Mutex<Vec<EnvSpec>> = Mutex::new(Vec::new());

/// The ids every build knows. Compilers add theirs here.
pub fn builtin_specs() -> Vec<EnvSpec> {
    super::bril::envs::specs()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compilers::toy::ToyBackend;
    use crate::env::{EnvExtras, ResetOptions};
    use crate::rewards::CostReward;
    use crate::spaces::RewardSpace;
    use crate::value::Value;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn make_toy(options: EnvOptions) -> Result<CompilerEnv> {
        let inversions = RewardSpace::new("Inversions")?;
        let reward = CostReward::delta(inversions, "Inversions").with_init_cost("InversionsO0");
        let extras = EnvExtras { rewards: vec![Box::new(reward)], derived_spaces: Vec::new() };
        CompilerEnv::new(Box::new(ToyBackend), extras, options)
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn registry_makes_environments_by_id() {
        let spec = EnvSpec {
            id: "toy-ic-v0".into(),
            entry_point: make_toy,
            defaults: EnvOptions {
                reward_space: Some(Some("Inversions".into())),
                benchmark: Some("toy-v0/b".into()),
                ..Default::default()
            },
        };
        // Registration is process-wide; tolerate a second registration by a rerun.
        let _ = register(spec.clone());
        assert_eq!(register(spec).unwrap_err().name(), "ValueError");
        assert!(registered_ids().contains(&"toy-ic-v0".to_string()));
        let mut e = make("toy-ic-v0", EnvOptions::default()).unwrap();
        assert_eq!(e.reward_space().unwrap().name(), "Inversions");
        e.reset(ResetOptions::default()).unwrap();
        let bubble = Value::Int(0);
        assert_eq!(e.step(bubble).unwrap().reward.one(), Some(&4.0));
        let e = make("toy-ic-v0", EnvOptions { reward_space: Some(None), ..Default::default() }).unwrap();
        assert!(e.reward_space().is_none(), "options override the id's defaults");
        assert_eq!(make("nope-v0", EnvOptions::default()).unwrap_err().name(), "LookupError");
        let bad_observation =
            EnvOptions { observation_space: Some(Some("Nope".into())), ..Default::default() };
        assert_eq!(make("toy-ic-v0", bad_observation).unwrap_err().name(), "LookupError");
    }
}
