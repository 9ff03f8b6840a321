//! Core values cross into JS as JS-native values and come back unchanged.
#![cfg(target_arch = "wasm32")]

use compgym::js::interop::{
    numbers::js_to_i64,
    typed::typed_array_dtype,
    value::{from_js, to_js},
};
use compgym::value::{Array, ArrayData, DType, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn safe_integers_are_numbers_and_others_bigints() {
    assert_eq!(to_js(&Value::Int(42)).as_f64(), Some(42.0));
    assert_eq!(to_js(&Value::Int((1 << 53) - 1)).as_f64(), Some(9007199254740991.0));
    let big = to_js(&Value::Int(1 << 53));
    assert!(big.is_bigint());
    assert_eq!(from_js(&big).unwrap(), Value::Int(1 << 53));
    assert_eq!(from_js(&to_js(&Value::Int(i64::MIN))).unwrap(), Value::Int(i64::MIN));
}

#[wasm_bindgen_test]
fn arrays_become_typed_arrays_of_their_dtype() {
    let cases = [
        (ArrayData::F32(vec![1.5, -2.0]), DType::F32),
        (ArrayData::F64(vec![0.25]), DType::F64),
        (ArrayData::I32(vec![-7, 9]), DType::I32),
        (ArrayData::I64(vec![i64::MAX, 3]), DType::I64),
        (ArrayData::U8(vec![0, 255]), DType::U8),
        (ArrayData::U64(vec![u64::MAX]), DType::U64),
    ];
    for (data, dtype) in cases {
        let js = to_js(&Value::Array(Array::vector(data.clone())));
        assert_eq!(typed_array_dtype(&js), Some(dtype));
        assert_eq!(from_js(&js).unwrap(), Value::Array(Array::vector(data)));
    }
    let bools = to_js(&Value::Array(Array::vector(ArrayData::Bool(vec![true, false]))));
    assert_eq!(js_sys::Uint8Array::new(&bools).to_vec(), vec![1, 0]);
}

#[wasm_bindgen_test]
fn dicts_are_plain_objects_in_order_and_lists_arrays() {
    let value = Value::Dict(vec![
        ("zeta".into(), Value::Float(0.5)),
        ("alpha".into(), Value::List(vec![Value::Str("x".into()), Value::Bool(true), Value::None])),
    ]);
    let js = to_js(&value);
    let keys: Vec<String> = js_sys::Object::keys(js.unchecked_ref::<js_sys::Object>())
        .iter()
        .map(|k| k.as_string().unwrap())
        .collect();
    assert_eq!(keys, ["zeta", "alpha"]);
    assert_eq!(from_js(&js).unwrap(), value);
}

#[wasm_bindgen_test]
fn integers_from_js_are_checked() {
    assert_eq!(js_to_i64(&JsValue::from_f64(-3.0), "n").unwrap(), -3);
    assert_eq!(js_to_i64(&JsValue::from_f64(1.5), "n").unwrap_err().name(), "ValueError");
    assert_eq!(js_to_i64(&JsValue::from_f64(f64::NAN), "n").unwrap_err().name(), "ValueError");
    assert_eq!(js_to_i64(&JsValue::from_f64(9.3e18), "n").unwrap_err().name(), "ValueError");
    assert_eq!(js_to_i64(&JsValue::from_str("3"), "n").unwrap_err().name(), "TypeError");
    let too_big = js_sys::BigInt::from(u64::MAX);
    let error = js_to_i64(&too_big.into(), "seed").unwrap_err();
    assert_eq!(error.name(), "OverflowError");
    assert!(error.message().starts_with("seed"));
}
