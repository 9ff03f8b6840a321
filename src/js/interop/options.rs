//! Option objects read from JS (`make(id, options)`, `reset(options)`,
//! factories): typed readers of one key each. Unknown keys are TypeErrors,
//! so a misspelt option is not silently ignored.

use super::object::{field, type_of};
use super::reflect;
use crate::error::{Error, Result};
use wasm_bindgen::JsValue;

/// Checks that `options` is undefined, null or an object with only `known` keys.
pub fn check_keys(options: &JsValue, known: &[&str], what: &str) -> Result<bool> {
    if options.is_undefined() || options.is_null() {
        return Ok(false);
    }
    if !options.is_object() || reflect::is_array(options) {
        return Err(Error::type_error(format!("{what} must be an object, got {}", type_of(options))));
    }
    for key in reflect::keys(options, what)? {
        if !known.contains(&key.as_str()) {
            return Err(Error::type_error(format!(
                "{what}: unknown option {key:?} (known: {})",
                known.join(", ")
            )));
        }
    }
    Ok(true)
}

/// An optional string: undefined is `None`.
pub fn string(object: &JsValue, key: &str, what: &str) -> Result<Option<String>> {
    let value = field(object, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    let path = format!("{what}.{key}");
    reflect::string(&value, &path)?
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{path} must be a string, got {}", type_of(&value))))
}

/// A space setting: undefined leaves it, null is "none", a string names one.
pub fn space_name(object: &JsValue, key: &str, what: &str) -> Result<Option<Option<String>>> {
    let value = field(object, key)?;
    if value.is_null() {
        return Ok(Some(None));
    }
    Ok(string(object, key, what)?.map(Some))
}

pub fn boolean(object: &JsValue, key: &str, what: &str) -> Result<Option<bool>> {
    let value = field(object, key)?;
    if value.is_undefined() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{what}.{key} must be a boolean, got {}", type_of(&value))))
}

/// An optional number; null counts as absent.
pub fn number(object: &JsValue, key: &str, what: &str) -> Result<Option<f64>> {
    let value = field(object, key)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| Error::type_error(format!("{what}.{key} must be a number, got {}", type_of(&value))))
}

/// An array of strings.
pub fn strings(value: &JsValue, what: &str) -> Result<Vec<String>> {
    if !reflect::is_array(value) {
        return Err(Error::type_error(format!("{what} must be an array of strings, got {}", type_of(value))));
    }
    let mut budget = reflect::Budget::default();
    reflect::array_items(value, what)?
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let path = format!("{what}[{i}]");
            let text = reflect::string(s, &path)?
                .ok_or_else(|| Error::type_error(format!("{path} must be a string, got {}", type_of(s))))?;
            budget.spend(text.len() as u64, what)?;
            Ok(text)
        })
        .collect()
}
