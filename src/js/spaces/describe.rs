//! JS options to space descriptions: the factories (`Space.box({...})`) build
//! the core's JSON description from camelCase options and let
//! `space_from_json` do all checking, so every factory and `Space.fromJSON`
//! share one set of rules and error messages.

use crate::error::{Error, Result};
use crate::js::interop::{object::type_of, typed::typed_array_to_data};
use js_sys::{Array as JsArray, Function, Object, Reflect};
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
/// anything with a `toJSON()` (a `Space` gives its description).
pub fn js_to_description(value: &JsValue, what: &str) -> Result<Json> {
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
        let text =
            js_sys::BigInt::unchecked_from_js_ref(value).to_string(10).ok().and_then(|s| s.as_string());
        return text
            .and_then(|t| serde_json::from_str::<Json>(&t).ok())
            .ok_or_else(|| Error::overflow(format!("{what}: BigInt out of range")));
    }
    if let Some(s) = value.as_string() {
        return Ok(Json::from(s));
    }
    if let Some(data) = typed_array_to_data(value) {
        return Ok(Json::Array((0..data.len()).map(|i| number_to_json(data.get_f64(i))).collect()));
    }
    if JsArray::is_array(value) {
        let items: &JsArray = value.unchecked_ref();
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| js_to_description(&item, &format!("{what}[{i}]")))
            .collect::<Result<Vec<_>>>()
            .map(Json::Array);
    }
    if let Ok(to_json) = Reflect::get(value, &JsValue::from_str("toJSON")) {
        if let Some(f) = to_json.dyn_ref::<Function>() {
            let described =
                f.call0(value).map_err(|_| Error::type_error(format!("{what}.toJSON() threw")))?;
            return js_to_description(&described, what);
        }
    }
    if value.is_object() && !value.is_function() {
        let mut map = Map::new();
        for pair in Object::entries(value.unchecked_ref::<Object>()).iter() {
            let pair: JsArray = pair.unchecked_into();
            let key = pair.get(0).as_string().unwrap_or_default();
            let item = js_to_description(&pair.get(1), &format!("{what}.{key}"))?;
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
