//! The JS face of the crate, run under wasm in Node and in Chromium.
#![cfg(target_arch = "wasm32")]

use compgym::js;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn error_name(error: &JsValue) -> String {
    js_sys::Reflect::get(error, &"name".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(js::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn errors_are_js_errors_with_a_kind_name() {
    let error = js::canonical_dtype("complex64").unwrap_err();
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(error_name(&error), "TypeError");
    let message = js_sys::Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("complex64"), "{message}");
    // The instance keeps working after an error.
    assert_eq!(js::canonical_dtype("f32").unwrap(), "float32");
}

#[wasm_bindgen_test]
fn every_error_kind_has_a_distinct_name() {
    let names = js::error_names();
    assert!(names.contains(&"ValueError".to_string()));
    assert!(names.contains(&"SessionNotFound".to_string()));
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
}
