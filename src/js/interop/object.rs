//! Plain JS objects: reading and setting properties, naming a value's type
//! in error messages, and calling JS functions so that a throw becomes a
//! core error.

use super::typed::typed_array_dtype;
use crate::error::{Error, ErrorKind, Result};
use crate::value::DType;
use js_sys::{Array as JsArray, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `object[key]`, `undefined` when absent or when reading it throws.
pub fn field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Sets `object[key] = value`; setting a property on a fresh plain object cannot fail.
pub fn set(object: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

#[wasm_bindgen]
extern "C" {
    /// An object made by this module, whose properties are plain data.
    type FreshObject;
    #[wasm_bindgen(method, indexing_setter)]
    fn put(this: &FreshObject, key: &JsValue, value: &JsValue);
}

/// `object[key] = value` for an object made here (`Object::new()`), where it
/// cannot throw: a plain assignment, without `Reflect.set`'s exception guard.
pub fn set_fresh(object: &Object, key: &JsValue, value: &JsValue) {
    object.unchecked_ref::<FreshObject>().put(key, value);
}

/// `typeof`-like name of a JS value for error messages (`null` and arrays included).
pub fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if JsArray::is_array(value) {
        "array".into()
    } else if let Some(name) = typed_array_dtype(value).map(DType::name) {
        format!("{name} typed array")
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

pub fn js_string(value: &JsValue) -> String {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// Calls method `name` of `object` with `args`. A throw becomes an error
/// that starts with `what`; a thrown compgym error keeps its kind.
pub(crate) fn call_method(object: &JsValue, name: &str, args: &[JsValue], what: &str) -> Result<JsValue> {
    let f = Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    let f: &js_sys::Function =
        f.dyn_ref().ok_or_else(|| Error::type_error(format!("{what}: {name} is not a function")))?;
    call_function(f, object, args, what)
}

/// Calls `f` with `this` and `args`; see [`call_method`] for errors.
pub(crate) fn call_function(
    f: &js_sys::Function,
    this: &JsValue,
    args: &[JsValue],
    what: &str,
) -> Result<JsValue> {
    let result = match args {
        [] => f.call0(this),
        [a] => f.call1(this, a),
        [a, b] => f.call2(this, a, b),
        [a, b, c] => f.call3(this, a, b, c),
        _ => f.apply(this, &args.iter().collect()),
    };
    result.map_err(|thrown| thrown_error(&thrown, what))
}

/// A thrown JS value as a core error: compgym's own error names keep their
/// kind (so a re-entry ServiceError stays one); anything else is a ValueError.
pub(crate) fn thrown_error(thrown: &JsValue, what: &str) -> Error {
    let text = |key: &str| Reflect::get(thrown, &JsValue::from_str(key)).ok().and_then(|m| m.as_string());
    let message = text("message").unwrap_or_else(|| type_of(thrown));
    let kind = text("name")
        .and_then(|n| ErrorKind::ALL.iter().copied().find(|k| k.name() == n))
        .unwrap_or(ErrorKind::Value);
    Error::new(kind, format!("{what} threw: {message}"))
}
