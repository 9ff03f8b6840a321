//! The JS `Rng`: the same bits as the native generator, saved and replayed.
#![cfg(target_arch = "wasm32")]

use compgym::js::rng::JsRng;
use compgym::rng::Rng;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn name(error: JsValue) -> String {
    js_sys::Reflect::get(&error, &"name".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn same_bits_as_the_core_generator() {
    let js = JsRng::new(JsValue::from_f64(42.0)).unwrap();
    let mut core = Rng::seed_from_u64(42);
    for _ in 0..8 {
        assert_eq!(u64::try_from(js.next_u64()).unwrap(), core.next_u64());
    }
    // Known first word for seed 42, as checked natively in src/rng.rs.
    let first = JsRng::new(js_sys::BigInt::from(42u64).into()).unwrap().next_u64();
    assert_eq!(u64::try_from(first).unwrap(), 0x1578_0B2E_0C2E_C716);
}

#[wasm_bindgen_test]
fn state_saves_and_replays() {
    let a = JsRng::new(JsValue::from_f64(7.0)).unwrap();
    a.random();
    let saved = a.state();
    assert_eq!(saved.len(), 64);
    let b = JsRng::from_state(JsValue::from(&saved)).unwrap();
    let c = a.copy();
    for _ in 0..5 {
        let x = a.normal();
        assert_eq!(x, b.normal());
        assert_eq!(x, c.normal());
    }
}

#[wasm_bindgen_test]
fn integers_are_in_range_and_bad_arguments_are_typed_errors() {
    let r = JsRng::new(JsValue::UNDEFINED).unwrap();
    for _ in 0..100 {
        let x = r.integers(JsValue::from_f64(-2.0), JsValue::from_f64(3.0)).unwrap().as_f64().unwrap();
        assert!((-2.0..3.0).contains(&x));
    }
    assert_eq!(name(r.integers(JsValue::from_f64(3.0), JsValue::from_f64(3.0)).unwrap_err()), "ValueError");
    assert_eq!(name(r.uniform(JsValue::from(1.0), JsValue::from(f64::NAN)).unwrap_err()), "ValueError");
    assert_eq!(name(JsRng::new(JsValue::from_f64(-1.0)).err().unwrap()), "ValueError");
    assert_eq!(name(JsRng::new(JsValue::from_str("1")).err().unwrap()), "TypeError");
    assert_eq!(name(JsRng::from_state(JsValue::from("zz")).err().unwrap()), "ValueError");
    assert_eq!(name(JsRng::from_state(JsValue::from(&"0".repeat(64))).err().unwrap()), "ValueError");
    // Still usable after the errors.
    assert!((0.0..1.0).contains(&r.random()));
}
