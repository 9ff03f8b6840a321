//! The compiler bandit for JavaScript: `new CompilerBandit({seed, batchSize,
//! programs})`, the TimeStep methods, regret helpers and the arms' names.

use super::bandit::{read_actions, usize_list};
use super::convert::{js_to_u64, type_of};
use super::error::to_js_error;
use super::timestep::time_step_methods;
use crate::bandit::compiler::PROPERTY_NAMES;
use crate::bandit::{CompilerBandit, CompilerBanditOptions, PerArmObservation};
use crate::env::validate_environment_with_policy;
use crate::error::{Error, Result};
use crate::rng::Rng;
use js_sys::{Array as JsArray, Reflect};
use wasm_bindgen::prelude::*;

fn field(options: &JsValue, key: &str) -> JsValue {
    Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `{seed, batchSize, programs}`; every key is optional.
fn read_options(options: &JsValue) -> Result<CompilerBanditOptions> {
    let mut out = CompilerBanditOptions::default();
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(Error::type_error(format!("options must be an object, got {}", type_of(options))));
    }
    let seed = field(options, "seed");
    if !seed.is_undefined() {
        out.seed = js_to_u64(&seed, "options.seed")?;
    }
    let batch = field(options, "batchSize");
    if !batch.is_undefined() {
        let b = js_to_u64(&batch, "options.batchSize")?;
        out.batch_size = usize::try_from(b).map_err(|_| Error::value("options.batchSize is too large"))?;
    }
    let programs = field(options, "programs");
    if !programs.is_undefined() {
        if !JsArray::is_array(&programs) {
            return Err(Error::type_error(format!(
                "options.programs must be an array of program names, got {}",
                type_of(&programs)
            )));
        }
        let names = JsArray::from(&programs)
            .iter()
            .enumerate()
            .map(|(i, n)| {
                n.as_string().ok_or_else(|| {
                    Error::type_error(format!("options.programs[{i}] must be a string, got {}", type_of(&n)))
                })
            })
            .collect::<Result<_>>()?;
        out.programs = Some(names);
    }
    Ok(out)
}

/// A per-arm bandit whose arms are the Bril passes: the context is a suite
/// program's Autophase features, the reward the relative instruction-count
/// reduction of the chosen pass. Every step is LAST.
#[wasm_bindgen(js_name = CompilerBandit)]
pub struct JsCompilerBandit {
    env: CompilerBandit,
}

#[wasm_bindgen(js_class = CompilerBandit)]
impl JsCompilerBandit {
    /// Options (all optional): `seed`, `batchSize` (default 1), `programs`
    /// (suite program names or URIs; default the whole suite).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsCompilerBandit, JsValue> {
        read_options(&options)
            .and_then(CompilerBandit::new)
            .map(|env| JsCompilerBandit { env })
            .map_err(to_js_error)
    }

    /// K, the number of arms (passes).
    #[wasm_bindgen(getter, js_name = numArms)]
    pub fn num_arms(&self) -> u32 {
        self.env.num_arms() as u32
    }
    #[wasm_bindgen(getter, js_name = globalDim)]
    pub fn global_dim(&self) -> u32 {
        self.env.global_dim() as u32
    }
    #[wasm_bindgen(getter, js_name = armDim)]
    pub fn arm_dim(&self) -> u32 {
        self.env.arm_dim() as u32
    }
    /// The pass flag of every arm, in arm order (`-dce`, `-lvn`, ...).
    #[wasm_bindgen(getter, js_name = armNames)]
    pub fn arm_names(&self) -> Vec<String> {
        self.env.arm_names().into_iter().map(String::from).collect()
    }
    /// The names of the properties after each arm's one-hot.
    #[wasm_bindgen(getter, js_name = propertyNames)]
    pub fn property_names(&self) -> Vec<String> {
        PROPERTY_NAMES.iter().map(|p| p.to_string()).collect()
    }
    /// The programs the bandit draws from.
    #[wasm_bindgen(getter, js_name = programNames)]
    pub fn program_names(&self) -> Vec<String> {
        self.env.program_names().to_vec()
    }
    /// The program of each batch element now, or `null` before the first reset.
    #[wasm_bindgen(getter, js_name = currentPrograms)]
    pub fn current_programs(&self) -> Option<Vec<String>> {
        self.env.current_programs().map(|p| p.into_iter().map(String::from).collect())
    }

    /// The best pass of each batch element for the current programs.
    #[wasm_bindgen(js_name = optimalActions)]
    pub fn optimal_actions(&self) -> Result<js_sys::Int32Array, JsValue> {
        self.env.optimal_actions().map(usize_list).map_err(to_js_error)
    }
    /// The reward of the best pass of each batch element.
    #[wasm_bindgen(js_name = optimalExpectedRewards)]
    pub fn optimal_expected_rewards(&self) -> Result<js_sys::Float64Array, JsValue> {
        self.env.optimal_expected_rewards().map(|v| js_sys::Float64Array::from(&v[..])).map_err(to_js_error)
    }
    /// The reward `actions` (one per batch element) would get now.
    #[wasm_bindgen(js_name = expectedRewards)]
    pub fn expected_rewards(&self, actions: JsValue) -> Result<js_sys::Float64Array, JsValue> {
        let actions = read_actions(&actions).map_err(to_js_error)?;
        self.env.expected_rewards(&actions).map(|v| js_sys::Float64Array::from(&v[..])).map_err(to_js_error)
    }

    /// Plays `episodes` episodes with random arms, checking every time step
    /// against the specs (tf_agents' `validate_py_environment`).
    pub fn validate(&mut self, episodes: Option<u32>, seed: Option<u32>) -> Result<(), JsValue> {
        let mut rng = Rng::seed_from_u64(seed.unwrap_or(0) as u64);
        let mut policy = |ts: &crate::env::TimeStep, rng: &mut Rng| {
            let obs = PerArmObservation::from_value(&ts.observation)?;
            Ok(crate::bandit::actions_value(&obs.random_available_actions(rng)))
        };
        validate_environment_with_policy(&mut self.env, episodes.unwrap_or(5) as usize, &mut rng, &mut policy)
            .map_err(to_js_error)
    }
}

time_step_methods!(JsCompilerBandit, "CompilerBandit");
