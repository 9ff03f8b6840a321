//! The per-arm stochastic bandit for JavaScript, with JS callbacks or
//! built-in functions, regret helpers, and a LinUCB agent.

use super::error::to_js_error;
use super::interop::object::field;
use super::rng::JsRng;
use super::timestep::{held, time_step_methods};
use crate::bandit::builtins::{context_sampler, num_actions_sampler, reward_fn};
use crate::bandit::{
    ContextSampler, LinUcb, NumActionsSampler, PerArmObservation, RewardFn,
    StationaryStochasticPerArmEnvironment,
};
use crate::error::{Error, Result};
use crate::js::interop::{
    args,
    json::js_to_json,
    numbers::{js_to_i64, js_to_u64},
    object::type_of,
    reflect,
    typed::array_data_to_js,
};
use crate::rng::Rng;
use crate::value::ArrayData;
use js_sys::{Array as JsArray, Function};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn count(options: &JsValue, key: &str, what: &str) -> Result<usize> {
    let value = field(options, key)?;
    let n = js_to_u64(&value, &format!("{what}.{key}"))?;
    usize::try_from(n).map_err(|_| Error::value(format!("{what}.{key} is too large")))
}

/// Calls a JS callback with `args`, turning a throw into a ValueError naming it.
fn call(f: &Function, name: &str, args: &[JsValue]) -> Result<JsValue> {
    let args: JsArray = args.iter().collect();
    f.apply(&JsValue::NULL, &args)
        .map_err(|thrown| Error::value(format!("{name} threw: {}", reflect::message_of(&thrown))))
}

/// Runs a JS callback with a JS `Rng` that shares `rng`'s stream, so a
/// callback that draws from it replays exactly by seed and by state.
fn call_with_rng(f: &Function, name: &str, rng: &mut Rng, args: &[JsValue]) -> Result<JsValue> {
    let js_rng = JsRng::from_rng(*rng);
    let mut all = args.to_vec();
    all.push(js_rng.share().into());
    let out = call(f, name, &all);
    *rng = js_rng.get();
    out
}

fn to_f64_vec(value: &JsValue, name: &str) -> Result<Vec<f64>> {
    if let Some(data) = crate::js::interop::typed::typed_array_to_data(value, name)? {
        return Ok(data.to_f64_vec());
    }
    if reflect::is_array(value) {
        return reflect::array_items(value, name)?
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64().ok_or_else(|| {
                    Error::value(format!("{name} must return numbers, element {i} is a {}", type_of(x)))
                })
            })
            .collect();
    }
    Err(Error::value(format!("{name} must return an array of numbers, got {}", type_of(value))))
}

/// A context sampler: a JS function `(rng) => number[]` or a built-in
/// `{kind: "gaussian", dim, mean, std}` / `{kind: "uniform", dim, low, high}`.
struct Context(Box<dyn ContextSampler>);

impl ContextSampler for Context {
    fn sample(&mut self, rng: &mut Rng) -> Result<Vec<f64>> {
        self.0.sample(rng)
    }
}

fn context(options: &JsValue, name: &'static str) -> Result<Context> {
    let value = field(options, name)?;
    if let Some(f) = value.dyn_ref::<Function>() {
        let f = f.clone();
        return Ok(Context(Box::new(move |rng: &mut Rng| {
            to_f64_vec(&call_with_rng(&f, name, rng, &[])?, name)
        })));
    }
    Ok(Context(context_sampler(&js_to_json(&value, name)?, name)?))
}

/// A reward: a JS function `(features: Float64Array, rng) => number` or the
/// built-in `{kind: "linear", theta, noiseStd}` (which also knows its expectation).
struct Reward(Box<dyn RewardFn>);

impl RewardFn for Reward {
    fn reward(&mut self, features: &[f64], rng: &mut Rng) -> Result<f64> {
        self.0.reward(features, rng)
    }
    fn expected_reward(&self, features: &[f64]) -> Result<f64> {
        self.0.expected_reward(features)
    }
}

fn reward(options: &JsValue) -> Result<Reward> {
    const NAME: &str = "rewardFn";
    let value = field(options, NAME)?;
    if let Some(f) = value.dyn_ref::<Function>() {
        let f = f.clone();
        return Ok(Reward(Box::new(move |features: &[f64], rng: &mut Rng| {
            let x = array_data_to_js(&ArrayData::F64(features.to_vec()));
            let out = call_with_rng(&f, NAME, rng, &[x])?;
            out.as_f64()
                .ok_or_else(|| Error::value(format!("{NAME} must return a number, got {}", type_of(&out))))
        })));
    }
    Ok(Reward(reward_fn(&js_to_json(&value, NAME)?, NAME)?))
}

/// The number of available arms: `(rng) => integer` or `{kind: "uniform", low, high}`.
struct NumActions(Box<dyn NumActionsSampler>);

impl NumActionsSampler for NumActions {
    fn sample(&mut self, rng: &mut Rng) -> Result<i64> {
        self.0.sample(rng)
    }
}

fn num_actions(value: &JsValue) -> Result<NumActions> {
    const NAME: &str = "numActionsFn";
    if let Some(f) = value.dyn_ref::<Function>() {
        let f = f.clone();
        return Ok(NumActions(Box::new(move |rng: &mut Rng| {
            js_to_i64(&call_with_rng(&f, NAME, rng, &[])?, NAME)
        })));
    }
    Ok(NumActions(num_actions_sampler(&js_to_json(value, NAME)?, NAME)?))
}

fn build(options: &JsValue) -> Result<StationaryStochasticPerArmEnvironment> {
    if !options.is_object() {
        return Err(Error::type_error(format!("options must be an object, got {}", type_of(options))));
    }
    let mut builder = StationaryStochasticPerArmEnvironment::builder(
        context(options, "globalContextSamplingFn")?,
        context(options, "armContextSamplingFn")?,
        count(options, "maxNumActions", "options")?,
        reward(options)?,
    );
    let num_actions_fn = field(options, "numActionsFn")?;
    if !num_actions_fn.is_undefined() {
        builder = builder.num_actions_fn(num_actions(&num_actions_fn)?);
    }
    if !field(options, "batchSize")?.is_undefined() {
        builder = builder.batch_size(count(options, "batchSize", "options")?);
    }
    if let Some(name) = crate::js::interop::options::string(options, "name", "options")? {
        builder = builder.name(name);
    }
    let seed = field(options, "seed")?;
    if !seed.is_undefined() {
        builder = builder.seed(js_to_u64(&seed, "options.seed")?);
    }
    builder.build()
}

/// tf_agents' `StationaryStochasticPerArmPyEnvironment`: every step is LAST;
/// the reward is `rewardFn([global, arm])` of the chosen arm.
#[wasm_bindgen(js_name = StationaryStochasticPerArmEnvironment)]
pub struct JsPerArmBandit {
    env: RefCell<StationaryStochasticPerArmEnvironment>,
}

pub(crate) fn usize_list(values: Vec<usize>) -> js_sys::Int32Array {
    let values: Vec<i32> = values.into_iter().map(|v| v as i32).collect();
    js_sys::Int32Array::from(&values[..])
}

#[wasm_bindgen(js_class = StationaryStochasticPerArmEnvironment)]
impl JsPerArmBandit {
    /// Options: `globalContextSamplingFn`, `armContextSamplingFn`, `maxNumActions`,
    /// `rewardFn`, and optionally `numActionsFn`, `batchSize`, `name`, `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "PerArmBanditOptions")] options: JsValue,
    ) -> Result<JsPerArmBandit, JsValue> {
        build(&options).map(|env| JsPerArmBandit { env: RefCell::new(env) }).map_err(to_js_error)
    }

    #[wasm_bindgen(getter, js_name = maxNumActions)]
    pub fn max_num_actions(&self) -> Result<u32, JsValue> {
        Ok(held(&self.env)?.max_num_actions() as u32)
    }
}

/// Writes the feature sizes (`globalDim`, `armDim`), the regret helpers
/// (`optimalActions`, `optimalExpectedRewards`, `expectedRewards`) and
/// `validate` on a per-arm bandit class whose `env` has the methods of the
/// same names.
macro_rules! per_arm_bandit_methods {
    ($class:ident, $js_class:literal) => {
        #[wasm_bindgen::prelude::wasm_bindgen(js_class = $js_class)]
        impl $class {
            /// The length of the global context.
            #[wasm_bindgen(getter, js_name = globalDim)]
            pub fn global_dim(&self) -> Result<u32, JsValue> {
                Ok($crate::js::timestep::held(&self.env)?.global_dim() as u32)
            }
            /// The length of each arm's features.
            #[wasm_bindgen(getter, js_name = armDim)]
            pub fn arm_dim(&self) -> Result<u32, JsValue> {
                Ok($crate::js::timestep::held(&self.env)?.arm_dim() as u32)
            }

            /// The best available arm of each batch element for the current observation.
            #[wasm_bindgen(js_name = optimalActions)]
            pub fn optimal_actions(&self) -> Result<js_sys::Int32Array, JsValue> {
                $crate::js::timestep::held(&self.env)?
                    .optimal_actions()
                    .map($crate::js::bandit::usize_list)
                    .map_err($crate::js::to_js_error)
            }

            /// The expected reward of the best available arm of each batch element.
            #[wasm_bindgen(js_name = optimalExpectedRewards)]
            pub fn optimal_expected_rewards(&self) -> Result<js_sys::Float64Array, JsValue> {
                $crate::js::timestep::held(&self.env)?
                    .optimal_expected_rewards()
                    .map(|v| js_sys::Float64Array::from(&v[..]))
                    .map_err($crate::js::to_js_error)
            }

            /// The expected reward of `actions` (one per batch element) for the current observation.
            #[wasm_bindgen(js_name = expectedRewards)]
            pub fn expected_rewards(
                &self,
                #[wasm_bindgen(unchecked_param_type = "number | number[] | TypedArray")] actions: JsValue,
            ) -> Result<js_sys::Float64Array, JsValue> {
                let actions = $crate::js::bandit::read_actions(&actions).map_err($crate::js::to_js_error)?;
                $crate::js::timestep::held(&self.env)?
                    .expected_rewards(&actions)
                    .map(|v| js_sys::Float64Array::from(&v[..]))
                    .map_err($crate::js::to_js_error)
            }

            /// Plays `episodes` episodes with random available arms, checking every time
            /// step against the specs (tf_agents' `validate_py_environment`).
            pub fn validate(
                &self,
                #[wasm_bindgen(unchecked_optional_param_type = "number | null")] episodes: JsValue,
                #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seed: JsValue,
            ) -> Result<(), JsValue> {
                let (episodes, seed) = $crate::js::timestep::episodes_and_seed(&episodes, &seed)?;
                let mut env = $crate::js::timestep::held_mut(&self.env)?;
                $crate::bandit::actions::validate_with_random_arms(&mut *env, episodes, seed)
                    .map_err($crate::js::to_js_error)
            }
        }
    };
}
pub(crate) use per_arm_bandit_methods;

per_arm_bandit_methods!(JsPerArmBandit, "StationaryStochasticPerArmEnvironment");
time_step_methods!(JsPerArmBandit, "StationaryStochasticPerArmEnvironment", {
    time_step: "PerArmTimeStep",
    current_time_step: "PerArmTimeStep | null",
    time_step_spec: "TimeStepSpec<PerArmObservationSpec>",
    observation_spec: "PerArmObservationSpec",
    info: "never",
});

pub(crate) fn read_actions(actions: &JsValue) -> Result<Vec<usize>> {
    let values = to_f64_vec(actions, "actions").or_else(|_| actions.as_f64().map(|x| vec![x]).ok_or(()));
    let values = values
        .map_err(|_| Error::type_error(format!("actions must be integers, got {}", type_of(actions))))?;
    values
        .into_iter()
        .map(|x| {
            if x.fract() == 0.0 && (0.0..4294967296.0).contains(&x) {
                Ok(x as usize)
            } else {
                Err(Error::value(format!("actions must be non-negative integers, got {x}")))
            }
        })
        .collect()
}

/// A LinUCB agent over `[global, arm]` features: `act(env)` picks arms for the
/// environment's current observation, `learn(rewards)` updates with them.
#[wasm_bindgen(js_name = LinUcb)]
pub struct JsLinUcb {
    agent: LinUcb,
    pending: Option<(PerArmObservation, Vec<usize>)>,
}

#[wasm_bindgen(js_class = LinUcb)]
impl JsLinUcb {
    /// `dim` is the feature length (global + arm), `alpha` the exploration
    /// weight (default 1), `regularization` the ridge term (default 1).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] dim: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] alpha: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] regularization: JsValue,
    ) -> Result<JsLinUcb, JsValue> {
        let run = || -> Result<JsLinUcb> {
            let dim = args::count(&dim, "dim")?;
            let alpha = args::optional_number(&alpha, "alpha")?.unwrap_or(1.0);
            let regularization = args::optional_number(&regularization, "regularization")?.unwrap_or(1.0);
            LinUcb::new(dim as usize, alpha, regularization).map(|agent| JsLinUcb { agent, pending: None })
        };
        run().map_err(to_js_error)
    }

    /// The arms to play for `env`'s current observation (reset it first).
    pub fn act(&mut self, env: &JsPerArmBandit) -> Result<js_sys::Int32Array, JsValue> {
        let obs = held(&env.env)?.observation().cloned();
        self.act_on(obs)
    }
}

impl JsLinUcb {
    /// Picks arms for `obs` (None: the environment was not reset) and keeps them for `learn`.
    pub(super) fn act_on(&mut self, obs: Option<PerArmObservation>) -> Result<js_sys::Int32Array, JsValue> {
        let obs = obs.ok_or_else(|| {
            to_js_error(Error::value("the environment has no observation yet: call reset()"))
        })?;
        let actions = self.agent.select(&obs).map_err(to_js_error)?;
        let out = usize_list(actions.clone());
        self.pending = Some((obs, actions));
        Ok(out)
    }
}

#[wasm_bindgen(js_class = LinUcb)]
impl JsLinUcb {
    /// Updates the model with the rewards of the arms `act` chose last.
    pub fn learn(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number[] | TypedArray")] rewards: JsValue,
    ) -> Result<(), JsValue> {
        let rewards = to_f64_vec(&rewards, "rewards").map_err(to_js_error)?;
        let (obs, actions) =
            self.pending.take().ok_or_else(|| to_js_error(Error::value("learn() needs a prior act()")))?;
        self.agent.observe(&obs, &actions, &rewards).map_err(|e| {
            self.pending = Some((obs.clone(), actions.clone()));
            to_js_error(e)
        })
    }

    /// The current estimate of the reward weights.
    #[wasm_bindgen(getter)]
    pub fn theta(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(self.agent.theta())
    }
}
