//! The `CompilerEnv` class and `make(id, options)`.

use super::observation_view::JsObservationView;
use super::options::{env_options, max_episode_steps, reset_options, step_options};
use super::reward_view::JsRewardView;
use super::{borrow, borrow_mut, with_keys, SharedEnv};
use crate::env::{CompilerEnv, Observed, StepResult};
use crate::error::{Error, Result};
use crate::js::interop::space_value::{js_to_value, value_to_js};
use crate::js::interop::typed::array_data_to_js;
use crate::js::interop::{
    args,
    object::{set_fresh, type_of},
    reflect,
    value::to_js,
};
use crate::js::spaces::{JsSpace, SharedSpace};
use crate::js::to_js_error;
use crate::value::{ArrayData, Value};
use js_sys::{Array as JsArray, Object};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

/// Makes the environment registered as `id` (LookupError if unknown).
#[wasm_bindgen(js_name = make)]
pub fn make(
    #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EnvOptions | void")] options: Option<JsValue>,
) -> JsResult<JsCompilerEnv> {
    let id = args::string(&id, "id").map_err(to_js_error)?;
    let options = env_options(&options.unwrap_or(JsValue::UNDEFINED)).map_err(to_js_error)?;
    crate::compilers::make(&id, options).map(JsCompilerEnv::wrap).map_err(to_js_error)
}

/// Every registered environment id, sorted.
#[wasm_bindgen(js_name = registeredEnvs)]
pub fn registered_envs() -> Vec<String> {
    crate::compilers::registered_ids()
}

/// A compiler environment (CompilerGym's `CompilerEnv`, Gymnasium's step results).
#[wasm_bindgen(js_name = CompilerEnv)]
pub struct JsCompilerEnv {
    env: SharedEnv,
    /// The generator of `actionSpace`, kept while the action space stays the same.
    action_space: RefCell<Option<SharedSpace>>,
}

impl JsCompilerEnv {
    pub fn wrap(env: CompilerEnv) -> JsCompilerEnv {
        JsCompilerEnv::from_shared(Rc::new(RefCell::new(env)))
    }
    pub fn shared(&self) -> &SharedEnv {
        &self.env
    }
    /// A second JS object for the same environment.
    pub fn from_shared(env: SharedEnv) -> JsCompilerEnv {
        JsCompilerEnv { env, action_space: RefCell::new(None) }
    }

    /// `step` and `multistep`: `what` names the options in errors.
    fn run_steps(&self, actions: &[Value], options: Option<JsValue>, what: &str) -> Result<JsValue> {
        let options = step_options(&options.unwrap_or(JsValue::UNDEFINED), what)?;
        let mut env = borrow_mut(&self.env)?;
        let result = env.multistep(actions, &options)?;
        // Lists hold the spaces asked for, or the environment's own
        // observation space when only reward spaces were asked for.
        let ids = match options.observation_spaces {
            Some(ids) => ids,
            None => env.observation_space().map(|spec| vec![spec.id.clone()]).unwrap_or_default(),
        };
        Ok(step_result_to_js(&env, result, &ids))
    }
}

/// An action from JS: an integer, or a pass name for a NamedDiscrete or
/// Commandline action space.
fn read_action(env: &CompilerEnv, value: &JsValue) -> Result<Value> {
    if let Some(name) = reflect::string(value, "action")? {
        let actions = env.commandline_to_actions(&name)?;
        return match <[Value; 1]>::try_from(actions) {
            Ok([a]) => Ok(a),
            Err(_) => Err(Error::value(format!("action {name:?} must name exactly one action"))),
        };
    }
    js_to_value(value, &env.action_space().space).map_err(|e| e.context("action"))
}

fn read_actions(env: &CompilerEnv, values: &JsValue) -> Result<Vec<Value>> {
    if !reflect::is_array(values) {
        return Err(Error::type_error(format!("actions must be an array, got {}", type_of(values))));
    }
    reflect::array_items(values, "actions")?.iter().map(|a| read_action(env, a)).collect()
}

/// An observation of space `id` in its JS form.
fn observation_to_js(env: &CompilerEnv, id: &str, value: &Value) -> JsValue {
    match env.observation().spec(id) {
        Ok(spec) => value_to_js(value, &spec.space),
        Err(_) => to_js(value),
    }
}

fn step_result_to_js(env: &CompilerEnv, result: StepResult, observation_ids: &[String]) -> JsValue {
    let observation = match &result.observation {
        Observed::None => JsValue::NULL,
        Observed::One(v) => match env.observation_space() {
            Some(spec) => value_to_js(v, &spec.space),
            None => to_js(v),
        },
        Observed::Many(values) => values
            .iter()
            .zip(observation_ids)
            .map(|(v, id)| observation_to_js(env, id, v))
            .collect::<JsArray>()
            .into(),
    };
    let reward = match &result.reward {
        Observed::None => JsValue::NULL,
        Observed::One(r) => JsValue::from_f64(*r),
        Observed::Many(rs) => rs.iter().map(|&r| JsValue::from_f64(r)).collect::<JsArray>().into(),
    };
    // Objects made here: plain assignments (`set_fresh`), the cheapest way to build them.
    with_keys(|k| {
        let info = Object::new();
        set_fresh(&info, &k.action_had_no_effect, &result.info.action_had_no_effect.into());
        set_fresh(&info, &k.new_action_space, &result.info.new_action_space.into());
        if let Some(e) = result.info.error {
            set_fresh(&info, &k.error, &to_js_error(e));
        }
        if let Ok(Some(mask)) = env.action_mask() {
            set_fresh(&info, &k.action_mask, &array_data_to_js(&ArrayData::U8(mask.allowed)));
            if mask.fixed_point {
                set_fresh(&info, &k.fixed_point, &JsValue::TRUE);
            }
        }
        let out = Object::new();
        set_fresh(&out, &k.observation, &observation);
        set_fresh(&out, &k.reward, &reward);
        set_fresh(&out, &k.terminated, &result.terminated.into());
        set_fresh(&out, &k.truncated, &result.truncated.into());
        set_fresh(&out, &k.info, &info);
        out.into()
    })
}

fn option_f64(x: Option<f64>) -> JsValue {
    x.map_or(JsValue::NULL, JsValue::from_f64)
}

#[wasm_bindgen(js_class = CompilerEnv)]
impl JsCompilerEnv {
    /// Starts an episode; returns the observation of the observation space, or null.
    #[wasm_bindgen(unchecked_return_type = "SpaceValue")]
    pub fn reset(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ResetOptions | void")] options: Option<JsValue>,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let options = reset_options(&options.unwrap_or(JsValue::UNDEFINED))?;
            let mut env = borrow_mut(&self.env)?;
            let observation = env.reset(options)?;
            Ok(match (observation, env.observation_space()) {
                (Some(v), Some(spec)) => value_to_js(&v, &spec.space),
                (Some(v), None) => to_js(&v),
                (None, _) => JsValue::NULL,
            })
        };
        run().map_err(to_js_error)
    }

    /// One action: an integer, or a pass name like `"-dce"`. With
    /// `observationSpaces`/`rewardSpaces` (CompilerGym's `step(action,
    /// observation_spaces, reward_spaces)`) the observation and reward are
    /// arrays in the order asked. Declared as overloads in `typescript.rs`.
    #[wasm_bindgen(skip_typescript)]
    pub fn step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SpaceValue")] action: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StepOptions | void")] options: Option<JsValue>,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let action = read_action(&*borrow(&self.env)?, &action)?;
            self.run_steps(std::slice::from_ref(&action), options, "step options")
        };
        run().map_err(to_js_error)
    }

    /// Several actions in one call. With `observationSpaces`/`rewardSpaces`
    /// the observation and reward are arrays in the order asked.
    #[wasm_bindgen(unchecked_return_type = "StepResult")]
    pub fn multistep(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SpaceValue[]")] actions: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StepOptions | void")] options: Option<JsValue>,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let actions = read_actions(&*borrow(&self.env)?, &actions)?;
            self.run_steps(&actions, options, "multistep options")
        };
        run().map_err(to_js_error)
    }

    /// A copy in the same state on its own session, with its own copy of
    /// the rewards' state (JS rewards are copied, see `reward.addSpace`).
    pub fn fork(&self) -> JsResult<JsCompilerEnv> {
        let run = || -> Result<JsCompilerEnv> { Ok(JsCompilerEnv::wrap(borrow_mut(&self.env)?.fork()?)) };
        run().map_err(to_js_error)
    }

    /// Ends the episode and frees its session; the environment can be reset again.
    pub fn close(&self) -> JsResult<()> {
        borrow_mut(&self.env).map(|mut e| e.close()).map_err(to_js_error)
    }

    // ----- properties -----------------------------------------------------

    /// The actions of this episode, as integers.
    #[wasm_bindgen(getter, unchecked_return_type = "number[]")]
    pub fn actions(&self) -> JsResult<JsValue> {
        let env = borrow(&self.env).map_err(to_js_error)?;
        Ok(env.actions().iter().map(to_js).collect::<JsArray>().into())
    }
    /// The sum of this episode's rewards; null without a reward space.
    #[wasm_bindgen(getter, js_name = episodeReward, unchecked_return_type = "number | null")]
    pub fn episode_reward(&self) -> JsResult<JsValue> {
        borrow(&self.env).map(|e| option_f64(e.episode_reward())).map_err(to_js_error)
    }
    /// Seconds since the episode started.
    #[wasm_bindgen(getter, js_name = episodeWalltime)]
    pub fn episode_walltime(&self) -> JsResult<f64> {
        borrow(&self.env).map(|e| e.episode_walltime()).map_err(to_js_error)
    }
    /// The benchmark of the current (or last) episode, or null.
    #[wasm_bindgen(getter)]
    pub fn benchmark(&self) -> JsResult<Option<String>> {
        borrow(&self.env).map(|e| e.benchmark().map(String::from)).map_err(to_js_error)
    }
    /// The benchmark of the next reset.
    #[wasm_bindgen(setter)]
    pub fn set_benchmark(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
    ) -> JsResult<()> {
        let uri = args::string(&uri, "benchmark").map_err(to_js_error)?;
        borrow_mut(&self.env).and_then(|mut e| e.set_benchmark(&uri)).map_err(to_js_error)
    }
    #[wasm_bindgen(getter, js_name = inEpisode)]
    pub fn in_episode(&self) -> JsResult<bool> {
        borrow(&self.env).map(|e| e.in_episode()).map_err(to_js_error)
    }
    /// The service protocol version.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> JsResult<String> {
        borrow(&self.env).map(|e| e.version()).map_err(to_js_error)
    }
    #[wasm_bindgen(getter, js_name = compilerVersion)]
    pub fn compiler_version(&self) -> JsResult<String> {
        borrow(&self.env).and_then(|e| e.compiler_version()).map_err(to_js_error)
    }
    /// The action space of the episode (it may change during one). Every
    /// object it returns draws from one generator, kept while the action
    /// space stays the same: `env.actionSpace.sample()` advances it, as
    /// Gymnasium's `env.action_space.sample()` does.
    #[wasm_bindgen(getter, js_name = actionSpace)]
    pub fn action_space(&self) -> JsResult<JsSpace> {
        let env = borrow(&self.env).map_err(to_js_error)?;
        let current = &env.action_space().space;
        let Ok(mut kept) = self.action_space.try_borrow_mut() else {
            return Ok(JsSpace::new(current.clone()));
        };
        let same = kept.as_ref().is_some_and(|home| home.try_borrow().is_ok_and(|space| *space == *current));
        if !same {
            *kept = Some(Rc::new(RefCell::new(current.clone())));
        }
        Ok(match kept.as_ref() {
            Some(home) => JsSpace::sharing(current.clone(), home.clone()),
            None => JsSpace::new(current.clone()),
        })
    }
    /// Selects the action space of the next reset by name.
    #[wasm_bindgen(setter, js_name = actionSpace)]
    pub fn set_action_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> JsResult<()> {
        let name = args::string(&name, "actionSpace").map_err(to_js_error)?;
        borrow_mut(&self.env).and_then(|mut e| e.set_action_space(&name)).map_err(to_js_error)
    }
    /// Every action space a session can start with.
    #[wasm_bindgen(getter, js_name = actionSpaces)]
    pub fn action_spaces(&self) -> JsResult<Vec<JsSpace>> {
        borrow(&self.env)
            .map(|e| e.action_spaces().iter().map(|a| JsSpace::new(a.space.clone())).collect())
            .map_err(to_js_error)
    }
    #[wasm_bindgen(getter, js_name = maxEpisodeSteps, unchecked_return_type = "number | null")]
    pub fn max_episode_steps(&self) -> JsResult<JsValue> {
        borrow(&self.env).map(|e| option_f64(e.max_episode_steps().map(|n| n as f64))).map_err(to_js_error)
    }
    #[wasm_bindgen(setter, js_name = maxEpisodeSteps)]
    pub fn set_max_episode_steps(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | null")] n: JsValue,
    ) -> JsResult<()> {
        let n = max_episode_steps(&n).map_err(to_js_error)?;
        borrow_mut(&self.env).map(|mut e| e.set_max_episode_steps(n)).map_err(to_js_error)
    }
    /// `[min, max]` of the reward space (unbounded without one).
    #[wasm_bindgen(getter, js_name = rewardRange)]
    pub fn reward_range(&self) -> JsResult<Vec<f64>> {
        borrow(&self.env).map(|e| vec![e.reward_range().0, e.reward_range().1]).map_err(to_js_error)
    }
    /// The id of the observation returned by reset and step, or null.
    #[wasm_bindgen(getter, js_name = observationSpace)]
    pub fn observation_space(&self) -> JsResult<Option<String>> {
        borrow(&self.env).map(|e| e.observation_space().map(|s| s.id.clone())).map_err(to_js_error)
    }
    /// Sets the observation space by id, or none with null (LookupError if unknown).
    #[wasm_bindgen(setter, js_name = observationSpace)]
    pub fn set_observation_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] id: JsValue,
    ) -> JsResult<()> {
        let id = args::optional_string(&id, "observationSpace").map_err(to_js_error)?;
        borrow_mut(&self.env).and_then(|mut e| e.set_observation_space(id.as_deref())).map_err(to_js_error)
    }
    /// The name of the reward returned by step, or null.
    #[wasm_bindgen(getter, js_name = rewardSpace)]
    pub fn reward_space(&self) -> JsResult<Option<String>> {
        borrow(&self.env).map(|e| e.reward_space().map(|r| r.name().to_string())).map_err(to_js_error)
    }
    /// Sets the reward space by name, or none with null (LookupError if unknown).
    #[wasm_bindgen(setter, js_name = rewardSpace)]
    pub fn set_reward_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] name: JsValue,
    ) -> JsResult<()> {
        let name = args::optional_string(&name, "rewardSpace").map_err(to_js_error)?;
        borrow_mut(&self.env).and_then(|mut e| e.set_reward_space(name.as_deref())).map_err(to_js_error)
    }
    /// The lazy observation view: `env.observation.get("Autophase")`.
    #[wasm_bindgen(getter)]
    pub fn observation(&self) -> JsObservationView {
        JsObservationView::of_env(self.env.clone())
    }
    /// The reward view: `env.reward.get("IrInstructionCount")`.
    #[wasm_bindgen(getter)]
    pub fn reward(&self) -> JsRewardView {
        JsRewardView::of_env(self.env.clone())
    }

    /// Sends a `key`/`value` parameter to the session; returns its reply.
    #[wasm_bindgen(js_name = sendParam)]
    pub fn send_param(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
    ) -> JsResult<String> {
        let run = || -> Result<String> {
            let (key, value) = (args::string(&key, "key")?, args::string(&value, "value")?);
            borrow_mut(&self.env)?.send_param(&key, &value)
        };
        run().map_err(to_js_error)
    }

    /// The episode's actions as a commandline (`"-dce -lvn"`).
    pub fn commandline(&self) -> JsResult<String> {
        borrow(&self.env).and_then(|e| e.commandline()).map_err(to_js_error)
    }

    /// A commandline as action integers.
    #[wasm_bindgen(js_name = commandlineToActions)]
    pub fn commandline_to_actions(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] commandline: JsValue,
    ) -> JsResult<Vec<f64>> {
        let run = || -> Result<Vec<f64>> {
            let commandline = args::string(&commandline, "commandline")?;
            let actions = borrow(&self.env)?.commandline_to_actions(&commandline)?;
            Ok(actions.iter().filter_map(Value::as_int).map(|i| i as f64).collect())
        };
        run().map_err(to_js_error)
    }

    /// `env.toString()`: the id-like summary of the environment.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_string_js(&self) -> String {
        match borrow(&self.env) {
            Ok(e) => format!("{e:?}"),
            Err(_) => "CompilerEnv(busy)".into(),
        }
    }
}
