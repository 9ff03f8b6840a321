//! `GymFace` for JavaScript: a registered compiler environment with
//! Gymnasium's API, the core of `compgym/gym`'s `make`. Seeded resets, the
//! seeded action space and the benchmark draws are the core's
//! ([`crate::env::gym`]); this class converts. Its `CompilerEnv` is shared
//! with `compilerEnv` (views, state, validation) like the `CompilerEnv`
//! class shares one with its views.

use super::env::compiler_env::JsCompilerEnv;
use super::env::options::{env_options_and, reset_options};
use super::env::{borrow, borrow_mut, with_keys, SharedEnv};
use super::interop::numbers::{js_to_u64, uint_to_js};
use super::interop::object::{field, set, set_fresh};
use super::interop::options::string;
use super::interop::space_value::{js_to_value, value_to_js};
use super::interop::value::to_js;
use super::rng::JsRng;
use super::spaces::JsSpace;
use super::to_js_error;
use crate::compilers::make;
use crate::env::gym::{GymFace, GymOptions};
use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use crate::spaces::Space;
use crate::value::Value;
use js_sys::{Array as JsArray, Object};
use std::cell::{RefCell, RefMut};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

#[wasm_bindgen(typescript_custom_section)]
const TS_GYM_FACE: &'static str = r#"
/** Options of `new GymFace(id, options)`: `make`'s, plus the dataset seeded resets draw from and the render mode. */
export interface GymFaceOptions extends EnvOptions {
  /** A dataset name (`"benchmark://suite-v0"`): every reset draws its benchmark from it with `npRandom`. */
  dataset?: string;
  /** `"ansi"` (render() is the IR text) or null. */
  renderMode?: "ansi" | null;
}

/** Gymnasium's `EnvSpec`, as the environment knows it. */
export interface GymFaceSpec {
  id: string;
  maxEpisodeSteps: number | null;
  nondeterministic: boolean;
  rewardThreshold: number | null;
}
"#;

/// Fresh seeds for generators nobody seeded, as Gymnasium takes them from the OS.
fn js_entropy() -> u64 {
    (js_sys::Math::random() * (1u64 << 53) as f64) as u64
}

/// A compiler environment with Gymnasium's API: `reset(seed, options)`
/// returns `[observation, info]`, `step(action)` returns `[observation,
/// reward, terminated, truncated, info]`.
#[wasm_bindgen(js_name = GymFace)]
pub struct JsGymFace {
    env: SharedEnv,
    face: RefCell<GymFace>,
    /// The generator as JS holds it: shared, so JS draws advance the face's.
    np_random: JsRng,
    /// The JS action space and the face generation it was made at.
    action_space: RefCell<Option<(u64, JsValue)>>,
    observation_space: RefCell<Option<(Space, JsValue)>>,
}

fn busy() -> Error {
    Error::service("the environment is busy: a callback cannot use it re-entrantly")
}

impl JsGymFace {
    fn wrap(env: CompilerEnv, face: GymFace) -> JsGymFace {
        JsGymFace {
            env: Rc::new(RefCell::new(env)),
            face: RefCell::new(face),
            np_random: JsRng::from_rng(crate::rng::Rng::seed_from_u64(0)),
            action_space: RefCell::new(None),
            observation_space: RefCell::new(None),
        }
    }

    fn face(&self) -> Result<RefMut<'_, GymFace>> {
        self.face.try_borrow_mut().map_err(|_| busy())
    }

    /// Runs `f` with the face's generator set to the one JS holds, and JS's
    /// set to the face's after.
    fn with_generator<T>(&self, f: impl FnOnce(&mut GymFace) -> Result<T>) -> Result<T> {
        let mut face = self.face()?;
        if face.np_random_seed().is_some() {
            *face.np_random() = self.np_random.get();
        }
        let out = f(&mut face);
        if face.np_random_seed().is_some() {
            self.np_random.set(*face.np_random());
        }
        out
    }
}

/// An action from JS: an integer, or a pass name for a Commandline action space.
fn read_action(env: &CompilerEnv, space: &Space, value: &JsValue) -> Result<Value> {
    if let Some(name) = value.as_string() {
        return match <[Value; 1]>::try_from(env.commandline_to_actions(&name)?) {
            Ok([a]) => Ok(a),
            Err(_) => Err(Error::value(format!("action {name:?} must name exactly one action"))),
        };
    }
    js_to_value(value, space).map_err(|e| e.context("action"))
}

/// A step's info dict as a plain object; the keys every step has are made once.
fn info_to_js(info: &Value) -> JsValue {
    let Value::Dict(entries) = info else { return to_js(info) };
    with_keys(|k| {
        let object = Object::new();
        for (key, value) in entries {
            let value = match value {
                Value::Bool(b) => JsValue::from_bool(*b),
                v => to_js(v),
            };
            match key.as_str() {
                "actionHadNoEffect" => set_fresh(&object, &k.action_had_no_effect, &value),
                "newActionSpace" => set_fresh(&object, &k.new_action_space, &value),
                "error" => set_fresh(&object, &k.error, &value),
                "actionMask" => set_fresh(&object, &k.action_mask, &value),
                "fixedPoint" => set_fresh(&object, &k.fixed_point, &value),
                other => set_fresh(&object, &JsValue::from_str(other), &value),
            }
        }
        object.into()
    })
}

fn optional_seed(seed: &JsValue) -> Result<Option<u64>> {
    if seed.is_undefined() || seed.is_null() {
        return Ok(None);
    }
    js_to_u64(seed, "seed").map(Some)
}

#[wasm_bindgen(js_class = GymFace)]
impl JsGymFace {
    /// The environment registered as `id` (LookupError if unknown). Options:
    /// `make`'s (`benchmark`, `observationSpace`, `rewardSpace`,
    /// `actionSpace`, `maxEpisodeSteps`), `dataset` (seeded resets draw their
    /// benchmark from it) and `renderMode` (`"ansi"` or null).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GymFaceOptions | void")] options: JsValue,
    ) -> JsResult<JsGymFace> {
        let build = || -> Result<JsGymFace> {
            let id = &super::interop::args::string(&id, "id")?;
            let env_options = env_options_and(&options, &["dataset", "renderMode"])?;
            let dataset = string(&options, "dataset", "options")?;
            let render_mode = match field(&options, "renderMode")? {
                v if v.is_null() || v.is_undefined() => None,
                _ => string(&options, "renderMode", "options")?,
            };
            let mut env = make(id, env_options)?;
            let face =
                GymFace::new(&mut env, id, GymOptions { dataset, render_mode, entropy: Some(js_entropy) })?;
            Ok(JsGymFace::wrap(env, face))
        };
        build().map_err(to_js_error)
    }

    /// `[observation, info]`. `seed`: a non-negative integer or BigInt, or
    /// null; `options`: `benchmark`, `actionSpace`, `observationSpace`, `rewardSpace`.
    #[wasm_bindgen(unchecked_return_type = "[SpaceValue, Record<string, unknown>]")]
    pub fn reset(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint | null | void")] seed: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ResetOptions | null | void")] options: JsValue,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let seed = optional_seed(&seed)?;
            let options = reset_options(&options)?;
            let mut env = borrow_mut(&self.env)?;
            let (observation, info) = self.with_generator(|face| face.reset(&mut env, seed, options))?;
            let face = self.face()?;
            Ok(JsArray::of2(&value_to_js(&observation, face.observation_space()), &to_js(&info)).into())
        };
        run().map_err(to_js_error)
    }

    /// `[observation, reward, terminated, truncated, info]`; the action is an
    /// integer or a pass name (`"-dce"`).
    #[wasm_bindgen(unchecked_return_type = "[SpaceValue, number, boolean, boolean, Record<string, unknown>]")]
    pub fn step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SpaceValue")] action: JsValue,
    ) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let mut env = borrow_mut(&self.env)?;
            let mut face = self.face()?;
            let action = read_action(&env, face.action_space(), &action)?;
            let step = face.step(&mut env, action)?;
            Ok(JsArray::of5(
                &value_to_js(&step.observation, face.observation_space()),
                &JsValue::from_f64(step.reward),
                &JsValue::from_bool(step.terminated),
                &JsValue::from_bool(step.truncated),
                &info_to_js(&step.info),
            )
            .into())
        };
        run().map_err(to_js_error)
    }

    /// The action space, seeded by every seeding reset. The same object
    /// until a reset reseeds it or the compiler changes it.
    #[wasm_bindgen(getter, js_name = actionSpace, unchecked_return_type = "Space")]
    pub fn action_space(&self) -> JsResult<JsValue> {
        let face = self.face().map_err(to_js_error)?;
        let mut cache = self.action_space.borrow_mut();
        let generation = face.action_space_generation();
        match &*cache {
            Some((g, space)) if *g == generation => Ok(space.clone()),
            _ => {
                let space: JsValue = JsSpace::new(face.action_space().clone()).into();
                *cache = Some((generation, space.clone()));
                Ok(space)
            }
        }
    }

    #[wasm_bindgen(getter, js_name = observationSpace, unchecked_return_type = "Space")]
    pub fn observation_space(&self) -> JsResult<JsValue> {
        let face = self.face().map_err(to_js_error)?;
        let mut cache = self.observation_space.borrow_mut();
        match &*cache {
            Some((space, js)) if space == face.observation_space() => Ok(js.clone()),
            _ => {
                let js: JsValue = JsSpace::new(face.observation_space().clone()).into();
                *cache = Some((face.observation_space().clone(), js.clone()));
                Ok(js)
            }
        }
    }

    /// `[min, max]` of the rewards.
    #[wasm_bindgen(getter, js_name = rewardRange)]
    pub fn reward_range(&self) -> JsResult<Vec<f64>> {
        borrow(&self.env).map(|e| vec![e.reward_range().0, e.reward_range().1]).map_err(to_js_error)
    }

    /// `{id, maxEpisodeSteps, nondeterministic, rewardThreshold}`.
    #[wasm_bindgen(getter, unchecked_return_type = "GymFaceSpec")]
    pub fn spec(&self) -> JsResult<JsValue> {
        let face = self.face().map_err(to_js_error)?;
        let spec = face.spec();
        let object = Object::new();
        set(&object, "id", &JsValue::from_str(&spec.id));
        set(&object, "maxEpisodeSteps", &spec.max_episode_steps.map_or(JsValue::NULL, uint_to_js));
        set(&object, "nondeterministic", &JsValue::from_bool(spec.nondeterministic));
        set(&object, "rewardThreshold", &spec.reward_threshold.map_or(JsValue::NULL, JsValue::from_f64));
        Ok(object.into())
    }

    /// `{renderModes, renderFps}`.
    #[wasm_bindgen(getter, unchecked_return_type = "{ renderModes: string[]; renderFps: number | null }")]
    pub fn metadata(&self) -> JsResult<JsValue> {
        let face = self.face().map_err(to_js_error)?;
        let metadata = face.metadata();
        let object = Object::new();
        let modes: JsArray = metadata.render_modes.iter().map(|m| JsValue::from_str(m)).collect();
        set(&object, "renderModes", &modes);
        set(&object, "renderFps", &metadata.render_fps.map_or(JsValue::NULL, JsValue::from_f64));
        Ok(object.into())
    }

    /// The render mode, or null (Gymnasium's `render_mode = None`).
    #[wasm_bindgen(getter, js_name = renderMode, unchecked_return_type = "string | null")]
    pub fn render_mode(&self) -> JsResult<JsValue> {
        let face = self.face().map_err(to_js_error)?;
        Ok(face.render_mode().map_or(JsValue::NULL, JsValue::from))
    }

    /// The dataset resets draw from, or null.
    #[wasm_bindgen(getter)]
    pub fn dataset(&self) -> JsResult<Option<String>> {
        self.face().map(|f| f.dataset().map(String::from)).map_err(to_js_error)
    }

    /// The IR text in the `"ansi"` render mode; null without a render mode.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn render(&self) -> JsResult<JsValue> {
        let run = || -> Result<JsValue> {
            let env = borrow(&self.env)?;
            Ok(self.face()?.render(&env)?.map_or(JsValue::NULL, |v| to_js(&v)))
        };
        run().map_err(to_js_error)
    }

    /// Ends the episode; safe to call twice. A later reset starts a new one.
    pub fn close(&self) -> JsResult<()> {
        borrow_mut(&self.env).map(|mut e| e.close()).map_err(to_js_error)
    }

    /// The environment's generator (Gymnasium's `np_random`), seeded by
    /// seeding resets; draws from it advance the environment's.
    #[wasm_bindgen(getter, js_name = npRandom)]
    pub fn np_random(&self) -> JsResult<JsRng> {
        let mut face = self.face().map_err(to_js_error)?;
        let fresh = face.np_random_seed().is_none();
        let rng = *face.np_random();
        if fresh {
            self.np_random.set(rng);
        }
        Ok(self.np_random.share())
    }

    /// The seed of `npRandom`, or null before it has one.
    #[wasm_bindgen(getter, js_name = npRandomSeed, unchecked_return_type = "number | bigint | null")]
    pub fn np_random_seed(&self) -> JsResult<JsValue> {
        self.face().map(|f| f.np_random_seed().map_or(JsValue::NULL, uint_to_js)).map_err(to_js_error)
    }

    /// The same environment as a `CompilerEnv` (views, state, validate...).
    #[wasm_bindgen(getter, js_name = compilerEnv)]
    pub fn compiler_env(&self) -> JsCompilerEnv {
        JsCompilerEnv::from_shared(self.env.clone())
    }

    /// A copy in the same state on its own session, with copies of the
    /// generators: the environment's, and that of `actionSpace` (the JS
    /// object samples were drawn from, normally `this.actionSpace`).
    pub fn fork(&self, #[wasm_bindgen(js_name = actionSpace)] action_space: &JsSpace) -> JsResult<JsGymFace> {
        let run = || -> Result<JsGymFace> {
            let env = borrow_mut(&self.env)?.fork()?;
            let mut face = self.face()?.clone();
            if face.np_random_seed().is_some() {
                *face.np_random() = self.np_random.get();
            }
            if action_space.space() == face.action_space() {
                face.action_space_mut().set_rng(action_space.space().rng());
            }
            let fork = JsGymFace::wrap(env, face);
            fork.np_random.set(self.np_random.get());
            Ok(fork)
        };
        run().map_err(to_js_error)
    }
}
