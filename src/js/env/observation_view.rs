//! `env.observation` for JavaScript, and the `ObservationSpaceSpec` class.

use super::{borrow, borrow_mut, SharedEnv};
use crate::error::{Error, Result};
use crate::js::interop::args;
use crate::js::interop::object::call_function;
use crate::js::interop::object::type_of;
use crate::js::interop::space_value::{js_to_value, value_to_js};
use crate::js::interop::{
    object::field,
    options::{boolean, check_keys},
};
use crate::js::spaces::JsSpace;
use crate::js::to_js_error;
use crate::spaces::Space;
use crate::value::Value;
use crate::views::{DerivedSpaceOptions, ObservationSpaceSpec, ObservationView, Translate};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type JsResult<T> = std::result::Result<T, JsValue>;

/// The view a JS reward receives: set only while one of its methods runs.
pub type LentView = Rc<RefCell<Option<ObservationView>>>;

enum Source {
    Env(SharedEnv),
    Lent(LentView),
}

/// The observation spaces of an environment, computed lazily:
/// `get(id)` computes that one observation now.
#[wasm_bindgen(js_name = ObservationView)]
pub struct JsObservationView {
    source: Source,
}

impl JsObservationView {
    pub fn of_env(env: SharedEnv) -> JsObservationView {
        JsObservationView { source: Source::Env(env) }
    }
    pub fn lent(slot: LentView) -> JsObservationView {
        JsObservationView { source: Source::Lent(slot) }
    }

    fn with<R>(&self, f: impl FnOnce(&ObservationView) -> Result<R>) -> Result<R> {
        match &self.source {
            Source::Env(env) => f(borrow(env)?.observation()),
            Source::Lent(slot) => {
                let view = slot
                    .try_borrow()
                    .map_err(|_| Error::service("the observation view is busy"))?
                    .clone()
                    .ok_or_else(|| {
                        Error::service(
                            "this observation view is usable only during the reward call it was given to",
                        )
                    })?;
                f(&view)
            }
        }
    }
}

/// A JS function as a translate function whose results must lie in `space`.
fn js_translate(id: &str, f: Function, base: Space, space: Space) -> Translate {
    let what = format!("observation space {id:?}");
    Rc::new(move |value: Value| {
        let input = value_to_js(&value, &base);
        let out = call_function(&f, &JsValue::UNDEFINED, &[input], &format!("{what}: translate"))?;
        let value = js_to_value(&out, &space).map_err(|e| e.context(&what))?;
        if !space.contains(&value) {
            return Err(Error::value(format!(
                "{what}: translate returned a value outside the space {space}"
            )));
        }
        Ok(value)
    })
}

#[wasm_bindgen(js_class = ObservationView)]
impl JsObservationView {
    /// Every observation space: base spaces in the compiler's order, then derived ones.
    #[wasm_bindgen(getter)]
    pub fn spaces(&self) -> JsResult<Vec<JsObservationSpaceSpec>> {
        self.with(|v| Ok(v.spaces().iter().cloned().map(|spec| JsObservationSpaceSpec { spec }).collect()))
            .map_err(to_js_error)
    }

    /// The spec of space `id` (LookupError if unknown).
    pub fn spec(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> JsResult<JsObservationSpaceSpec> {
        let id = args::string(&id, "id").map_err(to_js_error)?;
        self.with(|v| v.spec(&id).cloned()).map(|spec| JsObservationSpaceSpec { spec }).map_err(to_js_error)
    }

    /// Computes observation `id` now: LookupError if unknown, SessionNotFound before reset.
    #[wasm_bindgen(unchecked_return_type = "SpaceValue")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> JsResult<JsValue> {
        let id = &args::string(&id, "id").map_err(to_js_error)?;
        self.with(|v| {
            let spec = v.spec(id)?;
            let value = v.get(id)?;
            Ok(value_to_js(&value, &spec.space))
        })
        .map_err(to_js_error)
    }

    /// Adds space `id` computed from space `baseId` by `translate(value)`
    /// (see `ObservationSpaceSpec.makeDerivedSpace` for the options).
    #[wasm_bindgen(js_name = addDerivedSpace)]
    pub fn add_derived_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(js_name = baseId, unchecked_param_type = "string")] base_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TranslateFn")] translate: JsValue,
        #[wasm_bindgen(unchecked_param_type = "DerivedSpaceOptions | void")] options: Option<JsValue>,
    ) -> JsResult<()> {
        let run = || -> Result<()> {
            let id = &args::string(&id, "id")?;
            let base_id = &args::string(&base_id, "baseId")?;
            let env = self.env()?;
            let base = borrow(env)?.observation().spec(base_id)?.clone();
            let derived = derive(&base, id, translate, options)?;
            borrow_mut(env)?.observation_mut().add_space(derived);
            Ok(())
        };
        run().map_err(to_js_error)
    }

    /// Adds a spec (from `makeDerivedSpace`), replacing a space with the same id.
    #[wasm_bindgen(js_name = addSpace)]
    pub fn add_space(&self, spec: &JsObservationSpaceSpec) -> JsResult<()> {
        let run = || -> Result<()> {
            borrow_mut(self.env()?)?.observation_mut().add_space(spec.spec.clone());
            Ok(())
        };
        run().map_err(to_js_error)
    }
}

impl JsObservationView {
    /// The environment, for changes: a lent view cannot add spaces.
    fn env(&self) -> Result<&SharedEnv> {
        match &self.source {
            Source::Env(env) => Ok(env),
            Source::Lent(_) => Err(Error::type_error("spaces cannot be added from inside a reward")),
        }
    }
}

/// The space `id` computed from `base` by the JS function `translate`.
/// Options: `space` (a `Space` or its description; default the base's),
/// `deterministic`, `platformDependent`, `defaultValue`. A throw or a result
/// outside the space is an error naming the space.
fn derive(
    base: &ObservationSpaceSpec,
    id: &str,
    translate: JsValue,
    options: Option<JsValue>,
) -> Result<ObservationSpaceSpec> {
    const WHAT: &str = "derived space options";
    if id.is_empty() {
        return Err(Error::value("a derived observation space needs a name"));
    }
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let translate: Function = translate.dyn_into().map_err(|v: JsValue| {
        Error::type_error(format!("translate must be a function, got {}", type_of(&v)))
    })?;
    let known = ["space", "deterministic", "platformDependent", "defaultValue"];
    let given = check_keys(&options, &known, WHAT)?;
    let option = |key: &str| if given { field(&options, key) } else { Ok(JsValue::UNDEFINED) };
    let space_value = option("space")?;
    let space = if space_value.is_undefined() {
        None
    } else {
        let space = JsSpace::from_json(space_value)
            .map_err(|_| Error::type_error(format!("{WHAT}.space must be a Space or a space description")))?;
        Some(space.space().clone())
    };
    let target = space.clone().unwrap_or_else(|| base.space.clone());
    let default_value = option("defaultValue")?;
    let default_value = if default_value.is_undefined() {
        None
    } else {
        Some(js_to_value(&default_value, &target).map_err(|e| e.context(format!("{WHAT}.defaultValue")))?)
    };
    let derived = DerivedSpaceOptions {
        space,
        deterministic: if given { boolean(&options, "deterministic", WHAT)? } else { None },
        platform_dependent: if given { boolean(&options, "platformDependent", WHAT)? } else { None },
        default_value,
        to_string: None,
    };
    let translate = js_translate(id, translate, base.space.clone(), target);
    Ok(base.make_derived_space(id, translate, derived))
}

/// One observation space: `id`, `index` (of its base space in the
/// compiler's list), `space`, `deterministic`, `platformDependent`, `defaultValue`.
#[wasm_bindgen(js_name = ObservationSpaceSpec)]
pub struct JsObservationSpaceSpec {
    spec: ObservationSpaceSpec,
}

#[wasm_bindgen(js_class = ObservationSpaceSpec)]
impl JsObservationSpaceSpec {
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        self.spec.id.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn index(&self) -> u32 {
        self.spec.index as u32
    }
    #[wasm_bindgen(getter)]
    pub fn space(&self) -> JsSpace {
        JsSpace::new(self.spec.space.clone())
    }
    #[wasm_bindgen(getter)]
    pub fn deterministic(&self) -> bool {
        self.spec.deterministic
    }
    #[wasm_bindgen(getter, js_name = platformDependent)]
    pub fn platform_dependent(&self) -> bool {
        self.spec.platform_dependent
    }
    /// The observation a failed step returns.
    #[wasm_bindgen(getter, js_name = defaultValue, unchecked_return_type = "SpaceValue")]
    pub fn default_value(&self) -> JsValue {
        value_to_js(&self.spec.default_value, &self.spec.space)
    }
    /// Computed from another space by a translate function.
    #[wasm_bindgen(getter)]
    pub fn derived(&self) -> bool {
        self.spec.translate.is_some()
    }
    #[wasm_bindgen(js_name = toString)]
    pub fn to_string_js(&self) -> String {
        format!("ObservationSpaceSpec({})", self.spec.id)
    }

    /// A new spec `id` computed from this one by `translate(value)`, not yet
    /// added to any view (`env.observation.addSpace(spec)` adds it). Options:
    /// `space` (a `Space` or its description; default this one's),
    /// `deterministic`, `platformDependent`, `defaultValue`.
    #[wasm_bindgen(js_name = makeDerivedSpace)]
    pub fn make_derived_space(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TranslateFn")] translate: JsValue,
        #[wasm_bindgen(unchecked_param_type = "DerivedSpaceOptions | void")] options: Option<JsValue>,
    ) -> JsResult<JsObservationSpaceSpec> {
        args::string(&id, "id")
            .and_then(|id| derive(&self.spec, &id, translate, options))
            .map(|spec| JsObservationSpaceSpec { spec })
            .map_err(to_js_error)
    }
}
