//! `Space` for JavaScript: every CompilerGym, UniEnv and Gymnasium space in
//! one class, built by factories (`Space.box({...})`) or from a description
//! (`Space.fromJSON`). Kind-specific members (`names`, `commandline`,
//! `shapeContains`...) throw a TypeError on spaces of other kinds.

mod describe;

use super::error::to_js_error;
use super::rng::JsRng;
use crate::error::{Error, Result};
use crate::js::interop::constraint::read_constraint;
use crate::js::interop::keys::Keys;
use crate::js::interop::space_value::{self as values, js_to_value, value_to_js, value_to_js_keyed};
use crate::js::interop::{
    args,
    json::json_to_js,
    numbers::{int_to_js, js_to_u64, uint_to_js},
    object::type_of,
    reflect,
    typed::array_data_to_js,
};
use crate::spaces::{self as core, ReprOptions, Space, SpaceKind};
use crate::value::Value;
use describe::{describe, js_to_description, with};
use serde_json::Value as Json;
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A space whose generator several JS objects draw from (see [`JsSpace::sharing`]).
pub type SharedSpace = Rc<RefCell<Space>>;

/// A space: the set that actions and observations live in.
#[wasm_bindgen(js_name = Space)]
#[derive(Clone)]
pub struct JsSpace {
    space: Space,
    /// The JS strings of the space's dict keys, made on the first sample.
    keys: OnceCell<Keys>,
    /// Where the generator lives when it is not this object's own.
    home: Option<SharedSpace>,
}

/// What sampling drew: a typed array already (a box's fast path), or a value.
enum Drawn {
    Js(JsValue),
    Value(Value),
}

impl JsSpace {
    pub fn new(space: Space) -> JsSpace {
        JsSpace { space, keys: OnceCell::new(), home: None }
    }
    /// A JS object for `space`, whose `seed`, `sample` and `sampleBatch`
    /// use and advance the generator of `home` (a copy of `space`): every
    /// object made with one home draws from one stream. `env.actionSpace`
    /// hands out one per call, and as with Gymnasium's `env.action_space`,
    /// each sample advances the environment's generator.
    pub fn sharing(space: Space, home: SharedSpace) -> JsSpace {
        JsSpace { space, keys: OnceCell::new(), home: Some(home) }
    }
    /// Runs `f` on the space whose generator this object samples with.
    fn with_generator<R>(&mut self, f: impl FnOnce(&mut Space) -> R) -> R {
        if let Some(mut home) = self.home.as_ref().and_then(|h| h.try_borrow_mut().ok()) {
            return f(&mut home);
        }
        f(&mut self.space)
    }
    pub fn space(&self) -> &Space {
        &self.space
    }
    /// A value of the space as JS, with the space's keys made once.
    fn value_to_js(&self, value: &Value) -> JsValue {
        value_to_js_keyed(value, &self.space, self.keys.get_or_init(|| Keys::of(&self.space)))
    }
}

type JsResult<T> = std::result::Result<T, JsValue>;

fn build(description: Result<Json>) -> JsResult<JsSpace> {
    description.and_then(|d| core::space_from_json(&d)).map(JsSpace::new).map_err(to_js_error)
}

fn wrong_kind(space: &Space, member: &str, kinds: &str) -> JsValue {
    to_js_error(Error::type_error(format!(
        "{member} is defined for {kinds} spaces, not for {} {:?}",
        space.type_name(),
        space.name()
    )))
}

fn shape_json(shape: &JsValue) -> Result<Json> {
    match js_to_description(shape, "shape")? {
        Json::Number(n) => Ok(Json::Array(vec![Json::Number(n)])),
        other => Ok(other),
    }
}

fn seed_value(seed: &JsValue) -> Result<u64> {
    if seed.is_undefined() || seed.is_null() {
        // No seed: draw one, as Gymnasium does from the OS (the core itself has no entropy).
        Ok((js_sys::Math::random() * (1u64 << 53) as f64) as u64)
    } else {
        js_to_u64(seed, "seed")
    }
}

#[wasm_bindgen(js_class = Space)]
impl JsSpace {
    // ---- construction -------------------------------------------------

    /// A space from its description (`toJSON()`'s output, an object or JSON text).
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "SpaceDescription | string")] description: JsValue,
    ) -> JsResult<JsSpace> {
        let description = match reflect::string(&description, "description") {
            Ok(Some(text)) => {
                serde_json::from_str(&text).map_err(|e| Error::value(format!("description: {e}")))
            }
            Ok(None) => js_to_description(&description, "description"),
            Err(e) => Err(e),
        };
        build(description)
    }

    /// A space from a Gymnasium-style description (`{type: "Box", low, high, shape, dtype}` ...).
    #[wasm_bindgen(js_name = fromGym)]
    pub fn from_gym(
        #[wasm_bindgen(unchecked_param_type = "GymSpaceDescription")] description: JsValue,
    ) -> JsResult<JsSpace> {
        js_to_description(&description, "description")
            .and_then(|d| core::from_gym_space(&d))
            .map(JsSpace::new)
            .map_err(to_js_error)
    }

    /// `Box({low, high, shape?, dtype = "float32", name?})`: bounds inclusive, one number or one per element.
    #[wasm_bindgen(js_name = box)]
    pub fn box_space(
        #[wasm_bindgen(unchecked_param_type = "BoxOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Box", &options))
    }
    /// `Discrete(n, {start = 0, name?})`: the integers `[start, start + n)`.
    pub fn discrete(
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] n: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "DiscreteOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Discrete", &options).and_then(|d| Ok(with(d, "n", js_to_description(&n, "n")?))))
    }
    /// `NamedDiscrete(names, {name?})`.
    #[wasm_bindgen(js_name = namedDiscrete)]
    pub fn named_discrete(
        #[wasm_bindgen(unchecked_param_type = "string[]")] names: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("NamedDiscrete", &options)
                .and_then(|d| Ok(with(d, "names", js_to_description(&names, "names")?))),
        )
    }
    /// `Commandline([{name, flag, description}], {name?})`: the names are the flags.
    #[wasm_bindgen(js_name = commandlineSpace)]
    pub fn commandline_space(
        #[wasm_bindgen(unchecked_param_type = "CommandlineFlag[]")] flags: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("Commandline", &options)
                .and_then(|d| Ok(with(d, "flags", js_to_description(&flags, "flags")?))),
        )
    }
    /// `Scalar({min?, max?, dtype = "float64", name?})`.
    pub fn scalar(
        #[wasm_bindgen(unchecked_optional_param_type = "ScalarOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Scalar", &options))
    }
    /// `Sequence({sizeRange: [lo, hi|null], dtype = "bytes", opaqueDataFormat?, scalarRange?: Space, name?})`.
    pub fn sequence(
        #[wasm_bindgen(unchecked_optional_param_type = "SequenceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Sequence", &options))
    }
    /// `SpaceSequence(space, {sizeRange?, name?})`.
    #[wasm_bindgen(js_name = spaceSequence)]
    pub fn space_sequence(
        space: &JsSpace,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceSequenceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("SpaceSequence", &options).map(|d| with(d, "space", space.space.to_json())))
    }
    /// `Permutation(scalarRange: Space, {name?})`: every ordering of the range's integers.
    pub fn permutation(
        #[wasm_bindgen(js_name = scalarRange)] scalar_range: &JsSpace,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("Permutation", &options).map(|d| with(d, "scalar_range", scalar_range.space.to_json())),
        )
    }
    /// `Dict({key: Space}, {sortKeys = true, name?})`.
    pub fn dict(
        #[wasm_bindgen(unchecked_param_type = "{ [key: string]: SpaceInput }")] spaces: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "DictOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        let sort_keys =
            js_sys::Reflect::get(&options, &"sortKeys".into()).ok().and_then(|v| v.as_bool()).unwrap_or(true);
        let description = (|| {
            if !spaces.is_object() || reflect::is_array(&spaces) {
                return Err(Error::type_error(format!(
                    "spaces must be an object of spaces, got {}",
                    type_of(&spaces)
                )));
            }
            // Pairs keep the object's key order; the core sorts them when asked.
            let pairs = reflect::keys(&spaces, "spaces")?
                .into_iter()
                .map(|k| {
                    let path = format!("spaces.{k}");
                    let child = reflect::get(&spaces, &k, &path)?;
                    Ok(Json::Array(vec![Json::from(k), js_to_description(&child, &path)?]))
                })
                .collect::<Result<Vec<_>>>()?;
            let mut d = describe("Dict", &options)?;
            if let Json::Object(map) = &mut d {
                map.remove("sortKeys");
                map.insert("sort_keys".into(), Json::from(sort_keys));
            }
            Ok(with(d, "spaces", Json::Array(pairs)))
        })();
        build(description)
    }
    /// `Tuple([Space], {name?})`.
    pub fn tuple(
        #[wasm_bindgen(unchecked_param_type = "SpaceInput[]")] spaces: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("Tuple", &options)
                .and_then(|d| Ok(with(d, "spaces", js_to_description(&spaces, "spaces")?))),
        )
    }
    /// `Union([Space], {name?})`: values are `[index, value]`.
    pub fn union(
        #[wasm_bindgen(unchecked_param_type = "SpaceInput[]")] spaces: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("Union", &options)
                .and_then(|d| Ok(with(d, "spaces", js_to_description(&spaces, "spaces")?))),
        )
    }
    /// `Reward({name, observationSpaces?, defaultValue?, min?, max?, defaultNegatesReturns?, successThreshold?, deterministic?, platformDependent?})`.
    pub fn reward(
        #[wasm_bindgen(unchecked_optional_param_type = "RewardOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Reward", &options))
    }
    /// `MultiDiscrete(nvec, {start?, dtype = "int64", name?})`.
    #[wasm_bindgen(js_name = multiDiscrete)]
    pub fn multi_discrete(
        #[wasm_bindgen(unchecked_param_type = "BoundsInput")] nvec: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MultiDiscreteOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(
            describe("MultiDiscrete", &options)
                .and_then(|d| Ok(with(d, "nvec", js_to_description(&nvec, "nvec")?))),
        )
    }
    /// `MultiBinary(n | shape, {name?})`: int8 zeros and ones.
    #[wasm_bindgen(js_name = multiBinary)]
    pub fn multi_binary(
        #[wasm_bindgen(unchecked_param_type = "ShapeInput")] shape: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("MultiBinary", &options).and_then(|d| Ok(with(d, "shape", shape_json(&shape)?))))
    }
    /// `Binary(shape, {name?})`: boolean arrays (UniEnv's BinarySpace).
    pub fn binary(
        #[wasm_bindgen(unchecked_param_type = "ShapeInput")] shape: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Binary", &options).and_then(|d| Ok(with(d, "shape", shape_json(&shape)?))))
    }
    /// `DynamicBox({low, high, shapeLow, shapeHigh, dtype?, fillValue?, name?})`: values are `{data, shape}`.
    #[wasm_bindgen(js_name = dynamicBox)]
    pub fn dynamic_box(
        #[wasm_bindgen(unchecked_param_type = "DynamicBoxOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("DynamicBox", &options))
    }
    /// `Graph({nodeSpace: Space, edgeSpace?: Space, minNodes?, maxNodes?, minEdges?, maxEdges?, batchShape?, name?})`.
    pub fn graph(
        #[wasm_bindgen(unchecked_param_type = "GraphOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Graph", &options))
    }
    /// `Text({maxLength, minLength = 0, charset?, name?})`.
    pub fn text(#[wasm_bindgen(unchecked_param_type = "TextOptions")] options: JsValue) -> JsResult<JsSpace> {
        build(describe("Text", &options))
    }
    /// `Batched(space, batchShape, {name?})`.
    pub fn batched(
        space: &JsSpace,
        #[wasm_bindgen(js_name = batchShape, unchecked_param_type = "ShapeInput")] batch_shape: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SpaceOptions")] options: JsValue,
    ) -> JsResult<JsSpace> {
        build(describe("Batched", &options).and_then(|d| {
            Ok(with(with(d, "space", space.space.to_json()), "batch_shape", shape_json(&batch_shape)?))
        }))
    }

    // ---- every space ---------------------------------------------------

    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.space.name().to_string()
    }
    /// The kind: `"Box"`, `"Discrete"`, ...
    #[wasm_bindgen(getter, js_name = type, unchecked_return_type = "SpaceType")]
    pub fn type_name(&self) -> String {
        self.space.type_name().to_string()
    }

    /// Whether `value` (in its natural JS form) is in the space. Never throws.
    pub fn contains(&self, #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue) -> bool {
        values::js_contains(&value, &self.space)
    }

    /// Seeds the space's own generator (a composite seeds its children from it);
    /// returns the seeds used, the space's first. No seed: a random one.
    #[wasm_bindgen(unchecked_return_type = "Array<number | bigint>")]
    pub fn seed(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "Seed | null")] seed: JsValue,
    ) -> JsResult<js_sys::Array> {
        let seed = seed_value(&seed).map_err(to_js_error)?;
        let seeds = self.with_generator(|space| space.seed(seed));
        Ok(seeds.into_iter().map(|s| int_to_js(s as i64)).collect())
    }

    /// A sample from the space's own generator; with a mask or
    /// `{mask, probability}`, one that respects it (Gymnasium 1.x's
    /// `sample(mask, probability)`: Discrete-like, MultiDiscrete,
    /// MultiBinary and Batched spaces of them).
    #[wasm_bindgen(js_name = sample, unchecked_return_type = "SpaceValue")]
    pub fn sample_constrained(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "SampleMask | SampleOptions | null")]
        constraint: JsValue,
    ) -> JsResult<JsValue> {
        let Some(constraint) = read_constraint(&constraint).map_err(to_js_error)? else {
            return Ok(self.sample());
        };
        let value =
            self.with_generator(|space| space.sample_constrained(&constraint)).map_err(to_js_error)?;
        Ok(self.value_to_js(&value))
    }

    /// Functional sampling: `[advancedRng, value]`; `rng` itself is left as
    /// it was. A mask or `{mask, probability}` constrains it as in `sample`.
    #[wasm_bindgen(js_name = sampleWith, unchecked_return_type = "[Rng, SpaceValue]")]
    pub fn sample_with_constrained(
        &self,
        rng: &JsRng,
        #[wasm_bindgen(unchecked_optional_param_type = "SampleMask | SampleOptions | null")]
        constraint: JsValue,
    ) -> JsResult<js_sys::Array> {
        let Some(constraint) = read_constraint(&constraint).map_err(to_js_error)? else {
            return Ok(self.sample_with(rng));
        };
        let (next, value) =
            self.space.sample_constrained_with(rng.get(), &constraint).map_err(to_js_error)?;
        Ok(js_sys::Array::of2(&JsRng::from_rng(next).into(), &self.value_to_js(&value)))
    }

    /// `n` samples in one typed array of `n * size` values (Box, Discrete-like, Binary, MultiBinary).
    #[wasm_bindgen(js_name = sampleBatch, unchecked_return_type = "TypedArray")]
    pub fn sample_batch(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> JsResult<JsValue> {
        let n = args::count(&n, "n").map_err(to_js_error)?;
        self.with_generator(|space| space.sample_batch(n as usize))
            .map(|a| array_data_to_js(a.data()))
            .map_err(to_js_error)
    }

    /// A zero-filled value of the right structure (not necessarily in the space).
    #[wasm_bindgen(js_name = createEmpty, unchecked_return_type = "SpaceValue")]
    pub fn create_empty(&self) -> JsValue {
        value_to_js(&self.space.create_empty(), &self.space)
    }

    /// Whether the space is bounded `"both"` (default), `"below"` or `"above"`.
    #[wasm_bindgen(js_name = isBounded)]
    pub fn is_bounded(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "\"both\" | \"below\" | \"above\" | null")]
        manner: JsValue,
    ) -> JsResult<bool> {
        let manner = args::optional_string(&manner, "manner").map_err(to_js_error)?;
        self.space.is_bounded(manner.as_deref().unwrap_or("both")).map_err(to_js_error)
    }

    /// Name- and structure-sensitive equality (generator state is ignored).
    pub fn equals(&self, other: &JsSpace) -> bool {
        self.space == other.space
    }

    /// The description: a plain object that `Space.fromJSON` turns back into this space.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "SpaceDescription")]
    pub fn to_json(&self) -> JsValue {
        json_to_js(&self.space.to_json())
    }

    /// A Gymnasium-style description (`{type: "Box", low, high, shape, dtype}` ...).
    #[wasm_bindgen(js_name = toGym, unchecked_return_type = "GymSpaceDescription")]
    pub fn to_gym(&self) -> JsResult<JsValue> {
        core::to_gym_space(&self.space).map(|j| json_to_js(&j)).map_err(to_js_error)
    }

    #[wasm_bindgen(js_name = toString)]
    pub fn to_string_js(&self) -> String {
        self.space.to_string()
    }

    /// UniEnv's representation: `{abbreviate = false, includeDtype = true}`.
    #[wasm_bindgen(js_name = getRepr)]
    pub fn get_repr(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ReprOptions")] options: JsValue,
    ) -> String {
        let flag = |key: &str, default: bool| {
            js_sys::Reflect::get(&options, &key.into()).ok().and_then(|v| v.as_bool()).unwrap_or(default)
        };
        let options = if options.is_object() {
            ReprOptions { abbreviate: flag("abbreviate", false), include_dtype: flag("includeDtype", true) }
        } else {
            ReprOptions::default()
        };
        self.space.get_repr(&options)
    }

    /// Gymnasium's `flatdim`.
    #[wasm_bindgen(getter)]
    pub fn flatdim(&self) -> JsResult<u32> {
        core::flatdim(&self.space).map(|n| n as u32).map_err(to_js_error)
    }
    /// Gymnasium's `flatten`: a value as one 1-d typed array.
    #[wasm_bindgen(unchecked_return_type = "TypedArray")]
    pub fn flatten(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SpaceValue")] value: JsValue,
    ) -> JsResult<JsValue> {
        js_to_value(&value, &self.space)
            .and_then(|v| self.ensure_contains(v))
            .and_then(|v| core::flatten(&self.space, &v))
            .map(|a| array_data_to_js(a.data()))
            .map_err(to_js_error)
    }
    /// Gymnasium's `unflatten`: the inverse of `flatten`.
    #[wasm_bindgen(unchecked_return_type = "SpaceValue")]
    pub fn unflatten(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TypedArray | number[]")] flat: JsValue,
    ) -> JsResult<JsValue> {
        let space = core::flatten_space(&self.space).map_err(to_js_error)?;
        js_to_value(&flat, &space)
            .and_then(|v| match v {
                Value::Array(a) => core::unflatten(&self.space, &a),
                _ => Err(Error::type_error("unflatten needs a flat array")),
            })
            .map(|v| value_to_js(&v, &self.space))
            .map_err(to_js_error)
    }
    /// Gymnasium's `flatten_space`: the Box that `flatten` maps into.
    #[wasm_bindgen(js_name = flattenSpace)]
    pub fn flatten_space(&self) -> JsResult<JsSpace> {
        core::flatten_space(&self.space).map(JsSpace::new).map_err(to_js_error)
    }

    /// Clips a Box or DynamicBox value into the bounds.
    #[wasm_bindgen(unchecked_return_type = "TypedArray | DynamicBoxValue")]
    pub fn clip(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NumbersInput | DynamicBoxValue")] value: JsValue,
    ) -> JsResult<JsValue> {
        let array = match js_to_value(&value, &self.space).map_err(to_js_error)? {
            Value::Array(a) => a,
            _ => return Err(wrong_kind(&self.space, "clip", "Box and DynamicBox")),
        };
        let clipped = match self.space.kind() {
            SpaceKind::Box(b) => b.clip(&array),
            SpaceKind::DynamicBox(d) => d.clip(&array),
            _ => return Err(wrong_kind(&self.space, "clip", "Box and DynamicBox")),
        };
        clipped.map(|a| value_to_js(&Value::Array(a), &self.space)).map_err(to_js_error)
    }

    // ---- kind-specific --------------------------------------------------

    /// The number of values of a Discrete, NamedDiscrete or Commandline space
    /// (a BigInt past 2^53 − 1, where a number would round it).
    #[wasm_bindgen(getter, unchecked_return_type = "number | bigint")]
    pub fn n(&self) -> JsResult<JsValue> {
        match self.space.kind() {
            SpaceKind::Discrete(d) => Ok(uint_to_js(d.n())),
            SpaceKind::NamedDiscrete(d) => Ok(uint_to_js(d.n())),
            SpaceKind::Commandline(c) => Ok(uint_to_js(c.n())),
            _ => Err(wrong_kind(&self.space, "n", "Discrete, NamedDiscrete and Commandline")),
        }
    }

    /// The dtype this space's values take in a batch: stacked arrays' or
    /// gathered scalars' (the core's rule, `catalog()`'s `batching`), or
    /// null when they batch part by part or as a list.
    #[wasm_bindgen(getter, js_name = batchDtype, unchecked_return_type = "DType | null")]
    pub fn batch_dtype(&self) -> JsValue {
        crate::spaces::batched::batch_dtype(&self.space).map_or(JsValue::NULL, |d| d.name().into())
    }

    /// The shape of an array-valued space (Box, MultiDiscrete, MultiBinary, Binary).
    /// A plain array of numbers, as Gymnasium's shape is a tuple.
    #[wasm_bindgen(getter, unchecked_return_type = "number[]")]
    pub fn shape(&self) -> JsResult<js_sys::Array> {
        let shape = match self.space.kind() {
            SpaceKind::Box(b) => b.shape(),
            SpaceKind::MultiDiscrete(m) => m.shape(),
            SpaceKind::MultiBinary(m) => m.shape(),
            SpaceKind::Binary(b) => b.shape(),
            _ => return Err(wrong_kind(&self.space, "shape", "Box, MultiDiscrete, MultiBinary and Binary")),
        };
        Ok(shape.iter().map(|&d| JsValue::from_f64(d as f64)).collect())
    }

    /// The element names of a NamedDiscrete space, or the flags of a Commandline space.
    #[wasm_bindgen(getter)]
    pub fn names(&self) -> JsResult<Vec<String>> {
        match self.space.kind() {
            SpaceKind::NamedDiscrete(d) => Ok(d.names().to_vec()),
            SpaceKind::Commandline(c) => Ok(c.names().into_iter().map(String::from).collect()),
            _ => Err(wrong_kind(&self.space, "names", "NamedDiscrete and Commandline")),
        }
    }
    /// The flags of a Commandline space.
    #[wasm_bindgen(getter)]
    pub fn flags(&self) -> JsResult<Vec<String>> {
        match self.space.kind() {
            SpaceKind::Commandline(c) => Ok(c.flags().into_iter().map(String::from).collect()),
            _ => Err(wrong_kind(&self.space, "flags", "Commandline")),
        }
    }
    /// The flag descriptions of a Commandline space.
    #[wasm_bindgen(getter)]
    pub fn descriptions(&self) -> JsResult<Vec<String>> {
        match self.space.kind() {
            SpaceKind::Commandline(c) => Ok(c.descriptions().into_iter().map(String::from).collect()),
            _ => Err(wrong_kind(&self.space, "descriptions", "Commandline")),
        }
    }
    /// The value of a name (NamedDiscrete: ValueError if unknown) or flag (Commandline: LookupError).
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> JsResult<f64> {
        let name = &args::string(&name, "name").map_err(to_js_error)?;
        match self.space.kind() {
            SpaceKind::NamedDiscrete(d) => d.index(name).map(|i| i as f64).map_err(to_js_error),
            SpaceKind::Commandline(c) => c.index(name).map(|i| i as f64).map_err(to_js_error),
            _ => Err(wrong_kind(&self.space, "get", "NamedDiscrete and Commandline")),
        }
    }
    /// The commandline of a value or list of values: `"-a -b"`.
    #[wasm_bindgen(js_name = commandline)]
    pub fn to_commandline(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint | Array<number | bigint>")] values: JsValue,
    ) -> JsResult<String> {
        let SpaceKind::Commandline(c) = self.space.kind() else {
            return Err(wrong_kind(&self.space, "commandline", "Commandline"));
        };
        let values: Vec<i64> = if reflect::is_array(&values) {
            reflect::array_items(&values, "values")
                .map_err(to_js_error)?
                .iter()
                .map(|v| crate::js::interop::numbers::js_to_i64(v, "values"))
                .collect::<Result<_>>()
                .map_err(to_js_error)?
        } else {
            vec![crate::js::interop::numbers::js_to_i64(&values, "values").map_err(to_js_error)?]
        };
        c.commandline(&values).map_err(to_js_error)
    }
    /// The values of a commandline, a plain array of numbers (`[0]` for
    /// `"-dce"`); an unknown flag is a LookupError.
    #[wasm_bindgen(js_name = fromCommandline, unchecked_return_type = "number[]")]
    pub fn from_commandline(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] commandline: JsValue,
    ) -> JsResult<js_sys::Array> {
        let SpaceKind::Commandline(c) = self.space.kind() else {
            return Err(wrong_kind(&self.space, "fromCommandline", "Commandline"));
        };
        let commandline = args::string(&commandline, "commandline").map_err(to_js_error)?;
        c.from_commandline(&commandline)
            .map(|v| v.into_iter().map(|i| JsValue::from_f64(i as f64)).collect())
            .map_err(to_js_error)
    }

    /// Whether a DynamicBox admits `shape`.
    #[wasm_bindgen(js_name = shapeContains)]
    pub fn shape_contains(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ArrayLike<number>")] shape: JsValue,
    ) -> JsResult<bool> {
        let SpaceKind::DynamicBox(d) = self.space.kind() else {
            return Err(wrong_kind(&self.space, "shapeContains", "DynamicBox"));
        };
        let shape = args::counts(&shape, "shape").map_err(to_js_error)?;
        Ok(d.shape_contains(&shape.iter().map(|&d| d as usize).collect::<Vec<_>>()))
    }
    /// Pads a DynamicBox value (`{data, shape}`) to the largest shape with the fill value.
    #[wasm_bindgen(unchecked_return_type = "DynamicBoxValue")]
    pub fn pad(
        &self,
        #[wasm_bindgen(unchecked_param_type = "DynamicBoxValue")] value: JsValue,
    ) -> JsResult<JsValue> {
        let SpaceKind::DynamicBox(d) = self.space.kind() else {
            return Err(wrong_kind(&self.space, "pad", "DynamicBox"));
        };
        match js_to_value(&value, &self.space).map_err(to_js_error)? {
            Value::Array(a) => {
                d.pad(&a).map(|p| value_to_js(&Value::Array(p), &self.space)).map_err(to_js_error)
            }
            _ => Err(wrong_kind(&self.space, "pad", "DynamicBox")),
        }
    }
    /// Cuts a padded DynamicBox value (`{data, shape}`) back to the explicit `shape`.
    #[wasm_bindgen(unchecked_return_type = "DynamicBoxValue")]
    pub fn unpad(
        &self,
        #[wasm_bindgen(unchecked_param_type = "DynamicBoxValue")] padded: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ArrayLike<number>")] shape: JsValue,
    ) -> JsResult<JsValue> {
        let SpaceKind::DynamicBox(d) = self.space.kind() else {
            return Err(wrong_kind(&self.space, "unpad", "DynamicBox"));
        };
        let shape = args::counts(&shape, "shape").map_err(to_js_error)?;
        let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        match js_to_value(&padded, &self.space).map_err(to_js_error)? {
            Value::Array(a) => {
                d.unpad(&a, &shape).map(|p| value_to_js(&Value::Array(p), &self.space)).map_err(to_js_error)
            }
            _ => Err(wrong_kind(&self.space, "unpad", "DynamicBox")),
        }
    }
}

impl JsSpace {
    /// A sample from the space's own generator (`sample()` without a mask);
    /// a Box draws straight into a typed array.
    pub fn sample(&mut self) -> JsValue {
        let drawn = self.with_generator(|space| {
            if let SpaceKind::Box(_) = space.kind() {
                if let Some(sample) = values::sample_box_js(space) {
                    return Drawn::Js(sample);
                }
            }
            Drawn::Value(space.sample())
        });
        match drawn {
            Drawn::Js(sample) => sample,
            Drawn::Value(value) => self.value_to_js(&value),
        }
    }

    /// `sampleWith(rng)` without a mask: `[advancedRng, value]`.
    pub fn sample_with(&self, rng: &JsRng) -> js_sys::Array {
        let (next, value) = self.space.sample_with(rng.get());
        js_sys::Array::of2(&JsRng::from_rng(next).into(), &self.value_to_js(&value))
    }

    fn ensure_contains(&self, value: Value) -> Result<Value> {
        if self.space.contains(&value) {
            Ok(value)
        } else {
            Err(Error::value(format!("the value is not in {}", self.space)))
        }
    }
}

/// `Space.fromJSON` as a function.
#[wasm_bindgen(js_name = spaceFromJSON)]
pub fn space_from_json(
    #[wasm_bindgen(unchecked_param_type = "SpaceDescription | string")] description: JsValue,
) -> JsResult<JsSpace> {
    JsSpace::from_json(description)
}
