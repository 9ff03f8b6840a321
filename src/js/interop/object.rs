//! Plain JS objects: reading and setting properties, naming a value's type
//! in error messages, and calling JS functions so that a throw becomes a
//! core error.

use super::reflect::{kind_of, message_of, name_of};
use super::typed::typed_array_dtype;
use crate::error::{Error, ErrorKind, Result};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `object[key]`, `undefined` when absent or when `object` is no object
/// (options left out); a getter or Proxy trap that throws is a TypeError
/// naming `key`.
pub fn field(object: &JsValue, key: &str) -> Result<JsValue> {
    if !(object.is_object() || object.is_function()) {
        return Ok(JsValue::UNDEFINED);
    }
    super::reflect::get(object, key, key)
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
/// Reading it runs none of the value's code.
pub fn type_of(value: &JsValue) -> String {
    match typed_array_dtype(value) {
        Some(dtype) => format!("{} typed array", dtype.name()),
        None => kind_of(value),
    }
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
    let message = message_of(thrown);
    let kind = name_of(thrown)
        .and_then(|n| ErrorKind::ALL.iter().copied().find(|k| k.name() == n))
        .unwrap_or(ErrorKind::Value);
    Error::new(kind, format!("{what} threw: {message}"))
}
