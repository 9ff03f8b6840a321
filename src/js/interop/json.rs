//! JavaScript values ⇄ `serde_json` values, for messages in the protocol's
//! JSON form (whose scalar rules are in [`crate::service::proto_json`]).
//!
//! Into JSON (requests are plain objects written by hand, so this is a walk
//! rather than `JSON.stringify`, which throws on BigInt and loses NaN):
//! * integral numbers become JSON integers, so int64 fields read them
//!   exactly; other finite numbers stay floats; NaN and ±Infinity become
//!   the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, as proto3 writes them;
//! * a BigInt becomes a JSON integer when it fits int64 or uint64, else its
//!   decimal string (which an int64 field then rejects as out of range), or
//!   an OverflowError past 128 bits;
//! * a `Uint8Array` (or clamped one) or `ArrayBuffer` becomes base64, proto3's form of bytes
//!   (so `program.contents` may be `new TextEncoder().encode(text)`); other
//!   typed arrays become lists of their elements;
//! * `undefined` properties are dropped and `undefined` elsewhere is null, as
//!   in `JSON.stringify`; functions and symbols are TypeErrors, nesting
//!   deeper than [`MAX_JSON_DEPTH`] a LimitError and an object that contains
//!   itself a ValueError, each naming the path; everything read counts
//!   against one byte budget (see [`Walk`]).
//!
//! Out of JSON, through `JSON.parse` of the serialised reply: plain objects,
//! arrays, strings, numbers, booleans and null. No BigInt comes out: an
//! integer outside ±(2^53 − 1) is written as a decimal string (as the
//! protocol's mapping writes an int64), so the result stays JSON.

use super::reflect::{self, Walk};
use super::typed::{read_typed, typed_array};
use crate::error::{Error, Result};
use crate::js::interop::object::type_of;
use crate::limits::MAX_JSON_DEPTH;
use crate::service::proto_json::base64_encode;
use crate::value::ArrayData;
use js_sys::{BigInt, Uint8Array};
use serde_json::{Map, Number, Value as Json};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(thread_local_v2, js_namespace = ArrayBuffer, js_name = prototype)]
    static ARRAY_BUFFER_PROTOTYPE: JsValue;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = getOwnPropertyDescriptor)]
    fn own_property_descriptor(target: &JsValue, key: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> std::result::Result<JsValue, JsValue>;
    /// A `Uint8Array` over an ArrayBuffer, made by a constructor that throws if it is detached.
    #[wasm_bindgen(js_name = Uint8Array)]
    type BufferBytes;
    #[wasm_bindgen(catch, constructor, js_class = Uint8Array)]
    fn new(buffer: &JsValue) -> std::result::Result<BufferBytes, JsValue>;
}

thread_local! {
    /// `ArrayBuffer.prototype.byteLength`'s getter: a buffer's size from its
    /// internal slot (a TypeError for anything that is not an ArrayBuffer,
    /// a Proxy of one included).
    static BYTE_LENGTH: Option<js_sys::Function> = (|| {
        let descriptor = own_property_descriptor(&ARRAY_BUFFER_PROTOTYPE.with(JsValue::clone), &"byteLength".into()).ok()?;
        reflect_get(&descriptor, &"get".into()).ok()?.dyn_into().ok()
    })();
}

/// The size of an ArrayBuffer, or None if `value` is not one.
fn array_buffer_len(value: &JsValue) -> Option<usize> {
    // `instanceof` first: the getter throws for everything else, and a throw is slow.
    if !value.is_instance_of::<js_sys::ArrayBuffer>() {
        return None;
    }
    BYTE_LENGTH.with(|getter| Some(getter.as_ref()?.call0(value).ok()?.as_f64()? as usize))
}

/// The largest integer a JS number holds exactly.
const SAFE_INT: f64 = 9_007_199_254_740_991.0;

/// A JS value as JSON; `what` names it in errors (`request`, say).
pub fn js_to_json(value: &JsValue, what: &str) -> Result<Json> {
    to_json(value, what, &mut Walk::new(MAX_JSON_DEPTH))
}

fn to_json(value: &JsValue, path: &str, walk: &mut Walk) -> Result<Json> {
    walk.enter(value, path)?;
    let json = to_json_entered(value, path, walk)?;
    walk.leave();
    Ok(json)
}

fn to_json_entered(value: &JsValue, path: &str, walk: &mut Walk) -> Result<Json> {
    if value.is_null() || value.is_undefined() {
        Ok(Json::Null)
    } else if let Some(b) = value.as_bool() {
        Ok(Json::Bool(b))
    } else if let Some(x) = value.as_f64() {
        Ok(number_to_json(x))
    } else if value.is_bigint() {
        bigint_to_json(value.unchecked_ref(), path)
    } else if let Some(s) = reflect::string(value, path)? {
        walk.budget.spend(s.len() as u64, path)?;
        Ok(Json::String(s))
    } else if reflect::is_array(value) {
        let items = reflect::items(value, path)?;
        let mut list = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            list.push(to_json(item, &format!("{path}[{i}]"), walk)?);
        }
        Ok(Json::Array(list))
    } else if let Some(info) = typed_array(value) {
        // Base64 takes 4/3 of the bytes; a list of numbers about 16 bytes an element.
        walk.budget.spend(crate::limits::bytes_of(info.len, 16), path)?;
        Ok(match read_typed(value, info, path)? {
            ArrayData::U8(bytes) => Json::String(base64_encode(&bytes)),
            data => Json::Array((0..data.len()).map(|i| typed_element_to_json(&data, i)).collect()),
        })
    } else if let Some(len) = array_buffer_len(value) {
        walk.budget.spend(crate::limits::bytes_of(len, 2), path)?;
        // A detached buffer makes the view's constructor throw.
        let view: Uint8Array =
            BufferBytes::new(value).map_err(|e| reflect::threw(path, &e))?.unchecked_into();
        Ok(Json::String(base64_encode(&view.to_vec())))
    } else if value.is_function() || value.is_symbol() {
        Err(Error::type_error(format!("{path}: a {} cannot be sent", type_of(value))))
    } else if value.is_object() {
        let mut map = Map::new();
        for (key, item) in reflect::entries(value, path)? {
            if item.is_undefined() {
                continue;
            }
            walk.budget.spend(key.len() as u64, path)?;
            let json = to_json(&item, &format!("{path}.{key}"), walk)?;
            map.insert(key, json);
        }
        Ok(Json::Object(map))
    } else {
        Err(Error::type_error(format!("{path}: a {} cannot be sent", type_of(value))))
    }
}

/// Element `i` of a typed array's data as JSON: 64-bit integers exactly, others as numbers.
fn typed_element_to_json(data: &ArrayData, i: usize) -> Json {
    match data {
        ArrayData::I64(v) => Json::from(v[i]),
        ArrayData::U64(v) => Json::from(v[i]),
        _ => number_to_json(data.get_f64(i)),
    }
}

fn number_to_json(x: f64) -> Json {
    if x.is_nan() {
        Json::from("NaN")
    } else if x.is_infinite() {
        Json::from(if x > 0.0 { "Infinity" } else { "-Infinity" })
    } else if x.fract() == 0.0 && x.abs() <= SAFE_INT {
        Json::from(x as i64)
    } else {
        Number::from_f64(x).map_or(Json::Null, Json::Number)
    }
}

/// An integer, or the decimal string of one past 64 bits (up to 128: the
/// digits of a larger BigInt would take long to make, and no field takes it).
fn bigint_to_json(big: &BigInt, path: &str) -> Result<Json> {
    if let Ok(i) = i64::try_from(big.clone()) {
        Ok(Json::from(i))
    } else if let Ok(u) = u64::try_from(big.clone()) {
        Ok(Json::from(u))
    } else if let Ok(i) = i128::try_from(big.clone()) {
        Ok(Json::from(i.to_string()))
    } else {
        Err(Error::overflow(format!("{path}: a BigInt outside the int128 range")))
    }
}

/// JSON as the plain JS value `JSON.parse` makes of it: one crossing for
/// the whole reply rather than one per property, and `__proto__` keys stay
/// ordinary properties. An integer past ±(2^53 − 1) comes out as its
/// decimal string: a number would round it and a BigInt would make
/// `JSON.stringify` throw; the description readers take the string back.
/// (serde_json writes only valid JSON, so the parse cannot fail.)
pub fn json_to_js(json: &Json) -> JsValue {
    let text = if has_unsafe_integer(json) { exact_integers(json).to_string() } else { json.to_string() };
    js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL)
}

/// Whether a JS number would round the integer `n`.
fn is_unsafe_integer(n: &Number) -> bool {
    match n.as_i64() {
        Some(i) => i.unsigned_abs() > SAFE_INT as u64,
        None => n.is_u64(),
    }
}

fn has_unsafe_integer(json: &Json) -> bool {
    match json {
        Json::Number(n) => is_unsafe_integer(n),
        Json::Array(items) => items.iter().any(has_unsafe_integer),
        Json::Object(map) => map.values().any(has_unsafe_integer),
        _ => false,
    }
}

/// `json` with each integer a JS number would round written as a string.
fn exact_integers(json: &Json) -> Json {
    match json {
        Json::Number(n) if is_unsafe_integer(n) => Json::String(n.to_string()),
        Json::Array(items) => Json::Array(items.iter().map(exact_integers).collect()),
        Json::Object(map) => Json::Object(map.iter().map(|(k, v)| (k.clone(), exact_integers(v))).collect()),
        other => other.clone(),
    }
}
