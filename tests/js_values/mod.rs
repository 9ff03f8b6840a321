//! Building and reading JS values in the wasm tests of the JS face.
#![allow(dead_code)] // each test file uses its own subset

use js_sys::{Object, Reflect};
use wasm_bindgen::JsValue;

/// A plain object from key-value pairs.
pub fn obj(entries: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in entries {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

/// `v[key]`.
pub fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

pub fn num(x: f64) -> JsValue {
    JsValue::from_f64(x)
}

/// The `name` of a thrown error.
pub fn name(e: &JsValue) -> String {
    get(e, "name").as_string().unwrap()
}

/// The `message` of a thrown error.
pub fn message(e: &JsValue) -> String {
    get(e, "message").as_string().unwrap()
}
