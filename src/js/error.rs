//! Core errors become JS `Error`s whose `name` is the error kind.

use crate::Error;
use wasm_bindgen::JsValue;

/// A JS `Error` with `name` set to the kind (`ValueError`, `LookupError`...)
/// and `message` to the core's message.
pub fn to_js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(error.message());
    js.set_name(error.name());
    js.into()
}
