//! JavaScript values ⇄ `serde_json` values, for messages in the protocol's
//! JSON form (whose scalar rules are in [`crate::service::proto_json`]).
//!
//! Into JSON (requests are plain objects written by hand, so this is a walk
//! rather than `JSON.stringify`, which throws on BigInt and loses NaN):
//! * integral numbers become JSON integers, so int64 fields read them
//!   exactly; other finite numbers stay floats; NaN and ±Infinity become
//!   the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, as proto3 writes them;
//! * a BigInt becomes a JSON integer when it fits int64 or uint64, else its
//!   decimal string (which an int64 field then rejects as out of range);
//! * a `Uint8Array` or `ArrayBuffer` becomes base64, proto3's form of bytes
//!   (so `program.contents` may be `new TextEncoder().encode(text)`); other
//!   typed arrays become lists of their elements;
//! * `undefined` properties are dropped and `undefined` elsewhere is null, as
//!   in `JSON.stringify`; functions and symbols are TypeErrors, and nesting
//!   deeper than [`MAX_DEPTH`] (a cycle, say) a ValueError, naming the path.
//!
//! Out of JSON, through `JSON.parse` of the serialised reply: plain objects,
//! arrays, strings, numbers, booleans and null. No BigInt comes out: the
//! mapping writes an int64 outside ±(2^53 − 1) as a decimal string.

use crate::error::{Error, Result};
use crate::js::interop::object::type_of;
use crate::service::proto_json::base64_encode;
use js_sys::{Array as JsArray, ArrayBuffer, BigInt, Uint8Array};
use serde_json::{Map, Number, Value as Json};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// Getters and proxies can throw while a request is read. Caught here, a
// throw becomes an error; uncaught, it would unwind past the method and
// leave the service borrowed, refusing every later call.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(object: &JsValue) -> std::result::Result<JsArray, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = from)]
    fn array_from(items: &JsValue) -> std::result::Result<JsArray, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> std::result::Result<bool, JsValue>;
}

/// A TypeError for a value whose reading threw.
fn threw(path: &str, thrown: JsValue) -> Error {
    let message = js_sys::Reflect::get(&thrown, &"message".into()).ok().and_then(|m| m.as_string());
    Error::type_error(format!("{path}: reading it threw: {}", message.unwrap_or_else(|| type_of(&thrown))))
}

/// Deeper than any protocol message; a cycle stops here instead of
/// exhausting the wasm stack.
pub const MAX_DEPTH: usize = 64;

/// The largest integer a JS number holds exactly.
const SAFE_INT: f64 = 9_007_199_254_740_991.0;

/// A JS value as JSON; `what` names it in errors (`request`, say).
pub fn js_to_json(value: &JsValue, what: &str) -> Result<Json> {
    to_json(value, what, 0)
}

fn to_json(value: &JsValue, path: &str, depth: usize) -> Result<Json> {
    if depth > MAX_DEPTH {
        return Err(Error::value(format!("{path}: nested deeper than {MAX_DEPTH} levels (a cycle?)")));
    }
    if value.is_null() || value.is_undefined() {
        Ok(Json::Null)
    } else if let Some(b) = value.as_bool() {
        Ok(Json::Bool(b))
    } else if let Some(x) = value.as_f64() {
        Ok(number_to_json(x))
    } else if value.is_bigint() {
        Ok(bigint_to_json(value.unchecked_ref()))
    } else if let Some(s) = value.as_string() {
        Ok(Json::String(s))
    } else if value.is_instance_of::<Uint8Array>() || value.is_instance_of::<ArrayBuffer>() {
        Ok(Json::String(base64_encode(&Uint8Array::new(value).to_vec())))
    } else if is_array(value).map_err(|e| threw(path, e))? || ArrayBuffer::is_view(value) {
        // Array.from also lists typed arrays' elements (BigInts for 64-bit ones).
        let items = array_from(value).map_err(|e| threw(path, e))?;
        let mut list = Vec::with_capacity(items.length() as usize);
        for (i, item) in items.iter().enumerate() {
            list.push(to_json(&item, &format!("{path}[{i}]"), depth + 1)?);
        }
        Ok(Json::Array(list))
    } else if value.is_function() || value.is_symbol() {
        Err(Error::type_error(format!("{path}: a {} cannot be sent", type_of(value))))
    } else if value.is_object() {
        let mut map = Map::new();
        for entry in object_entries(value).map_err(|e| threw(path, e))?.iter() {
            let entry: JsArray = entry.unchecked_into();
            let item = entry.get(1);
            if item.is_undefined() {
                continue;
            }
            let key = entry.get(0).as_string().unwrap_or_default();
            let json = to_json(&item, &format!("{path}.{key}"), depth + 1)?;
            map.insert(key, json);
        }
        Ok(Json::Object(map))
    } else {
        Err(Error::type_error(format!("{path}: a {} cannot be sent", type_of(value))))
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

fn bigint_to_json(big: &BigInt) -> Json {
    if let Ok(i) = i64::try_from(big.clone()) {
        Json::from(i)
    } else if let Ok(u) = u64::try_from(big.clone()) {
        Json::from(u)
    } else {
        Json::from(big.to_string(10).map(String::from).unwrap_or_default())
    }
}

/// JSON as the plain JS value `JSON.parse` makes of it: one crossing for
/// the whole reply rather than one per property, and `__proto__` keys stay
/// ordinary properties.
/// (serde_json writes only valid JSON, so the parse cannot fail.)
pub fn json_to_js(json: &Json) -> JsValue {
    js_sys::JSON::parse(&json.to_string()).unwrap_or(JsValue::NULL)
}
