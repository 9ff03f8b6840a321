//! Arguments of exported functions, read here rather than by wasm-bindgen's
//! glue. Given a value of the wrong type, the glue runs its code (a
//! `valueOf`, a `length` getter), throws whatever that throws, and for a
//! string parameter allocates what a fake `length` claims; read here, a
//! wrong argument is a typed error naming it. Exports declare these
//! parameters as `JsValue` with the TypeScript type they expect.

use super::object::type_of;
use super::reflect;
use crate::error::{Error, Result};
use wasm_bindgen::JsValue;

/// A string argument (a TypeError for anything else), within the string limit.
pub fn string(value: &JsValue, what: &str) -> Result<String> {
    reflect::string(value, what)?
        .ok_or_else(|| Error::type_error(format!("{what} must be a string, got {}", type_of(value))))
}

/// A string argument that may be left out (`undefined` or `null`).
pub fn optional_string(value: &JsValue, what: &str) -> Result<Option<String>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    string(value, what).map(Some)
}

/// A boolean argument; left out (`undefined` or `null`) it is false.
pub fn flag(value: &JsValue, what: &str) -> Result<bool> {
    if value.is_undefined() || value.is_null() {
        return Ok(false);
    }
    value
        .as_bool()
        .ok_or_else(|| Error::type_error(format!("{what} must be a boolean, got {}", type_of(value))))
}

/// A number argument (a TypeError for anything else, BigInts included).
pub fn number(value: &JsValue, what: &str) -> Result<f64> {
    value
        .as_f64()
        .ok_or_else(|| Error::type_error(format!("{what} must be a number, got {}", type_of(value))))
}

/// A number argument that may be left out (`undefined` or `null`).
pub fn optional_number(value: &JsValue, what: &str) -> Result<Option<f64>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    number(value, what).map(Some)
}

/// A count: a number that is a non-negative integer below 2^32.
pub fn count(value: &JsValue, what: &str) -> Result<u32> {
    let x = number(value, what)?;
    if x.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&x) {
        return Err(Error::value(format!("{what} must be an integer from 0 to {}, got {x}", u32::MAX)));
    }
    Ok(x as u32)
}

/// A count that may be left out (`undefined` or `null`).
pub fn optional_count(value: &JsValue, what: &str) -> Result<Option<u32>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    count(value, what).map(Some)
}

/// A list of counts: an array or a typed array of them.
pub fn counts(value: &JsValue, what: &str) -> Result<Vec<u32>> {
    if let Some(info) = super::typed::typed_array(value) {
        let data = super::typed::read_typed(value, info, what)?;
        return (0..data.len())
            .map(|i| count(&JsValue::from_f64(data.get_f64(i)), &format!("{what}[{i}]")))
            .collect();
    }
    reflect::array_items(value, what)?
        .iter()
        .enumerate()
        .map(|(i, v)| count(v, &format!("{what}[{i}]")))
        .collect()
}
