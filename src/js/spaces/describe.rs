//! JS options to space descriptions: the factories (`Space.box({...})`) build
//! the core's JSON description from camelCase options and let
//! `space_from_json` do all checking, so every factory and `Space.fromJSON`
//! share one set of rules and error messages.

use crate::error::{Error, Result};
use crate::js::interop::numbers::describe_bigint;
use crate::js::interop::object::{call_function, type_of};
use crate::js::interop::reflect::{self, Walk};
use crate::js::interop::typed::{read_typed, typed_array};
use crate::limits::{self, MAX_JSON_DEPTH};
use js_sys::Function;
use serde_json::{Map, Value as Json};
use wasm_bindgen::{JsCast, JsValue};

/// camelCase option names and the description's snake_case names.
const RENAMES: &[(&str, &str)] = &[
    ("sizeRange", "size_range"),
    ("opaqueDataFormat", "opaque_data_format"),
    ("scalarRange", "scalar_range"),
    ("observationSpaces", "observation_spaces"),
    ("defaultValue", "default_value"),
    ("defaultNegatesReturns", "default_negates_returns"),
    ("successThreshold", "success_threshold"),
    ("platformDependent", "platform_dependent"),
    ("shapeLow", "shape_low"),
    ("shapeHigh", "shape_high"),
    ("fillValue", "fill_value"),
    ("nodeSpace", "node_space"),
    ("edgeSpace", "edge_space"),
    ("minNodes", "min_nodes"),
    ("maxNodes", "max_nodes"),
    ("minEdges", "min_edges"),
    ("maxEdges", "max_edges"),
    ("batchShape", "batch_shape"),
    ("minLength", "min_length"),
    ("maxLength", "max_length"),
];

fn snake_case(key: &str) -> String {
    RENAMES
        .iter()
        .find(|(camel, _)| *camel == key)
        .map_or_else(|| key.to_string(), |(_, snake)| snake.to_string())
}

fn number_to_json(x: f64) -> Json {
    if x.is_finite() {
        // Integral numbers stay integers so counts and dims read as integers.
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            Json::from(x as i64)
        } else {
            Json::from(x)
        }
    } else if x.is_nan() {
        Json::from("nan")
    } else if x > 0.0 {
        Json::from("inf")
    } else {
        Json::from("-inf")
    }
}

/// A JS value as description JSON: numbers (infinities as `"inf"`), BigInts,
/// strings, arrays and typed arrays, plain objects with camelCase keys, and
/// anything with a `toJSON()` (a `Space` gives its description). Nesting
/// past [`MAX_JSON_DEPTH`] is a LimitError (the core then holds spaces to
/// their own depth limit), an object that contains itself a ValueError.
pub fn js_to_description(value: &JsValue, what: &str) -> Result<Json> {
    to_description(value, what, &mut Walk::new(MAX_JSON_DEPTH))
}

fn to_description(value: &JsValue, what: &str, walk: &mut Walk) -> Result<Json> {
    walk.enter(value, what)?;
    let json = to_description_entered(value, what, walk)?;
    walk.leave();
    Ok(json)
}

fn to_description_entered(value: &JsValue, what: &str, walk: &mut Walk) -> Result<Json> {
    if value.is_null() || value.is_undefined() {
        return Ok(Json::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Json::from(b));
    }
    if let Some(x) = value.as_f64() {
        return Ok(number_to_json(x));
    }
    if value.is_bigint() {
        let big = js_sys::BigInt::unchecked_from_js_ref(value);
        return i64::try_from(big.clone())
            .map(Json::from)
            .or_else(|_| u64::try_from(big.clone()).map(Json::from))
            .map_err(|_| Error::overflow(format!("{what}: {} is out of range", describe_bigint(value))));
    }
    if let Some(s) = reflect::string(value, what)? {
        walk.budget.spend(s.len() as u64, what)?;
        return Ok(Json::from(s));
    }
    if reflect::is_array(value) {
        return reflect::items(value, what)?
            .iter()
            .enumerate()
            .map(|(i, item)| to_description(item, &format!("{what}[{i}]"), walk))
            .collect::<Result<Vec<_>>>()
            .map(Json::Array);
    }
    if let Some(info) = typed_array(value) {
        walk.budget.spend(limits::bytes_of(info.len, 16), what)?;
        let data = read_typed(value, info, what)?;
        return Ok(Json::Array((0..data.len()).map(|i| number_to_json(data.get_f64(i))).collect()));
    }
    let to_json = reflect::get(value, "toJSON", what)?;
    if let Some(f) = to_json.dyn_ref::<Function>() {
        let described = call_function(f, value, &[], &format!("{what}.toJSON()"))?;
        return to_description(&described, what, walk);
    }
    if value.is_object() && !value.is_function() {
        let mut map = Map::new();
        for (key, item) in reflect::entries(value, what)? {
            walk.budget.spend(key.len() as u64, what)?;
            let item = to_description(&item, &format!("{what}.{key}"), walk)?;
            map.insert(snake_case(&key), item);
        }
        return Ok(Json::Object(map));
    }
    Err(Error::type_error(format!("{what}: cannot describe a {}", type_of(value))))
}

/// The description of a `kind` space from factory options: the options'
/// fields plus `type`, and `name` defaulting to the kind.
pub fn describe(kind: &str, options: &JsValue) -> Result<Json> {
    let mut map = match js_to_description(options, "options")? {
        Json::Object(map) => map,
        Json::Null => Map::new(),
        _ => {
            return Err(Error::type_error(format!(
                "{kind} options must be an object, got {}",
                type_of(options)
            )))
        }
    };
    map.insert("type".into(), Json::from(kind));
    map.entry("name").or_insert_with(|| Json::from(kind));
    Ok(Json::Object(map))
}

/// Puts `key: value` into a description built by [`describe`].
pub fn with(mut description: Json, key: &str, value: Json) -> Json {
    if let Json::Object(map) = &mut description {
        map.insert(key.into(), value);
    }
    description
}
