//! The JS face's fast paths agree with the general conversions: `contains`
//! of a box given its own typed array (checked from a reused buffer), box
//! samples drawn into a reused buffer, dict samples written with keys made
//! once per space, and typed arrays copied through kept views of the memory.
#![cfg(target_arch = "wasm32")]

use compgym::js::interop::space_value::{js_to_value, value_to_js};
use compgym::js::spaces::JsSpace as Space;
use compgym::spaces::space_from_json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn js(source: &str) -> JsValue {
    js_sys::Function::new_no_args(&format!("return ({source});")).call0(&JsValue::NULL).unwrap()
}

fn json(value: &JsValue) -> String {
    // Typed arrays stringify as objects of their elements; BigInts as strings.
    let replacer = js("(k, v) => typeof v === 'bigint' ? v.toString() + 'n' : v");
    js_sys::JSON::stringify_with_replacer(value, &replacer).unwrap().as_string().unwrap()
}

/// `contains` as the general path answers it: read a value, then ask the core.
fn general_contains(space: &Space, value: &JsValue) -> bool {
    js_to_value(value, space.space()).is_ok_and(|v| space.space().contains(&v))
}

const DTYPES: [(&str, &str); 10] = [
    ("float32", "Float32Array"),
    ("float64", "Float64Array"),
    ("int8", "Int8Array"),
    ("int16", "Int16Array"),
    ("int32", "Int32Array"),
    ("int64", "BigInt64Array"),
    ("uint8", "Uint8Array"),
    ("uint16", "Uint16Array"),
    ("uint32", "Uint32Array"),
    ("uint64", "BigUint64Array"),
];

#[wasm_bindgen_test]
fn box_contains_on_every_dtypes_typed_array_agrees_with_the_general_path() {
    for (dtype, class) in DTYPES {
        let big = class.starts_with("Big");
        let n = |x: i32| if big { format!("{x}n") } else { x.to_string() };
        let space =
            Space::box_space(js(&format!("{{low: 1, high: 5, shape: [2, 2], dtype: '{dtype}'}}"))).unwrap();
        let inside = format!("new {class}([{}, {}, {}, {}])", n(1), n(2), n(5), n(3));
        let cases = [
            (inside.clone(), true),
            (format!("new {class}([{}, {}, {}, {}])", n(1), n(2), n(6), n(3)), false),
            (format!("new {class}([{}, {}, {}, {}])", n(0), n(2), n(5), n(3)), false),
            (format!("new {class}([{}, {}, {}])", n(1), n(2), n(3)), false),
            (format!("new {class}([{}, {}, {}, {}, {}])", n(1), n(2), n(3), n(4), n(5)), false),
            (format!("new {class}(0)"), false),
        ];
        for (source, expected) in cases {
            let value = js(&source);
            assert_eq!(space.contains(value.clone()), expected, "{dtype}: {source}");
            assert_eq!(general_contains(&space, &value), expected, "{dtype} general path: {source}");
        }
        // The buffer is reused across dtypes and lengths: ask again after the others.
        assert!(space.contains(js(&inside)), "{dtype} again");
    }
}

#[wasm_bindgen_test]
fn box_contains_edge_values() {
    let unit = Space::box_space(js("{low: 0, high: 1, shape: [3]}")).unwrap();
    let unbounded =
        Space::box_space(js("{low: -Infinity, high: Infinity, shape: [2], dtype: 'float64'}")).unwrap();
    let cases = [
        (&unit, "new Float32Array([0, NaN, 1])", false),
        (&unit, "new Float32Array([0, -0, 1])", true),
        (&unit, "new Float32Array([0, Infinity, 1])", false),
        (&unit, "new Float64Array([0, 0.5, 1])", false),
        (&unit, "new Uint8ClampedArray([0, 1, 1])", true),
        (&unbounded, "new Float64Array([-Infinity, Infinity])", true),
        (&unbounded, "new Float64Array([NaN, 0])", false),
        (&unbounded, "new Float32Array([1, 2])", true),
        (&unbounded, "new Float32Array(new ArrayBuffer(16), 8, 2)", true),
    ];
    for (space, source, expected) in cases {
        let value = js(source);
        assert_eq!(space.contains(value.clone()), expected, "{source}");
        assert_eq!(general_contains(space, &value), expected, "general path: {source}");
    }
    // A uint8 box reads a Uint8ClampedArray through the fast path too.
    let bytes = Space::box_space(js("{low: 0, high: 9, shape: [2], dtype: 'uint8'}")).unwrap();
    assert!(bytes.contains(js("new Uint8ClampedArray([9, 0])")));
    assert!(!bytes.contains(js("new Uint8ClampedArray([10, 0])")));
}

#[wasm_bindgen_test]
fn a_typed_array_whose_length_lies_is_not_contained_and_nothing_throws() {
    let unit = Space::box_space(js("{low: 0, high: 1, shape: [3]}")).unwrap();
    let liar = js("new (class extends Float32Array { get length() { return 3; } })(8)");
    assert!(!unit.contains(liar));
    assert!(unit.contains(js("new Float32Array([0, 0.5, 1])")), "still works");
}

#[wasm_bindgen_test]
fn box_samples_are_the_cores_samples_in_the_dtypes_typed_array() {
    let boxes = [
        ("float32", "Float32Array", "{low: -1, high: 1, shape: [5], dtype: 'float32'}"),
        ("float64", "Float64Array", "{low: 0, high: Infinity, shape: [2, 3], dtype: 'float64'}"),
        ("int64", "BigInt64Array", "{low: -9, high: 9, shape: [4], dtype: 'int64'}"),
        ("uint8", "Uint8Array", "{low: 0, high: 255, shape: [6], dtype: 'uint8'}"),
        ("float32", "Float32Array", "{low: 0, high: 1, shape: [0], dtype: 'float32'}"),
    ];
    let mut spaces: Vec<(Space, compgym::spaces::Space)> = boxes
        .iter()
        .map(|(_, _, options)| {
            let mut ours = Space::box_space(js(options)).unwrap();
            let mut core = space_from_json(&serde_json::from_str(&json(&ours.to_json())).unwrap()).unwrap();
            ours.seed(JsValue::from_f64(11.0)).unwrap();
            core.seed(11);
            (ours, core)
        })
        .collect();
    // Interleaved, so the sample buffer changes dtype and length between samples.
    for round in 0..3 {
        for ((dtype, class, _), (ours, core)) in boxes.iter().zip(spaces.iter_mut()) {
            let sample = ours.sample();
            let constructor = js_sys::Reflect::get(&sample, &"constructor".into()).unwrap();
            let class_name = js_sys::Reflect::get(&constructor, &"name".into()).unwrap();
            assert_eq!(class_name.as_string().as_deref(), Some(*class), "{dtype}");
            let expected = value_to_js(&core.sample(), core);
            assert_eq!(json(&sample), json(&expected), "{dtype}, round {round}");
            assert!(ours.contains(sample));
        }
    }
}

#[wasm_bindgen_test]
fn samples_survive_the_memory_growing() {
    let mut b = Space::box_space(js("{low: 0, high: 1, shape: [64]}")).unwrap();
    b.seed(JsValue::from_f64(1.0)).unwrap();
    let before = b.sample();
    assert!(b.contains(before.clone()));
    let pages = core::arch::wasm32::memory_size(0);
    // As much again as the memory holds: no free space (the allocator grows it ahead) can serve it.
    let big = vec![1u8; (pages * 65536).max(64 << 20)];
    assert!(core::arch::wasm32::memory_size(0) > pages, "the memory grew");
    let after = b.sample();
    assert_eq!(js_sys::Float32Array::from(after.clone()).length(), 64);
    assert!(b.contains(after.clone()) && b.contains(before));
    assert!(!b.contains(js("new Float32Array(64).fill(2)")));
    drop(big);
}

#[wasm_bindgen_test]
fn dict_samples_with_kept_keys_equal_the_general_conversion() {
    let description = r#"{"type": "Dict", "name": "obs", "sort_keys": false, "spaces": [
        ["zeta", {"type": "Discrete", "name": "zeta", "n": 5}],
        ["alpha", {"type": "Tuple", "name": "t", "spaces": [
            {"type": "Dict", "name": "inner", "spaces": [["x", {"type": "Box", "name": "x", "low": 0, "high": 1, "shape": [2], "dtype": "float32"}]]},
            {"type": "Text", "name": "s", "min_length": 1, "max_length": 3}
        ]}],
        ["u", {"type": "Union", "name": "u", "spaces": [
            {"type": "Discrete", "name": "a", "n": 2},
            {"type": "Dict", "name": "b", "spaces": [["k", {"type": "Discrete", "name": "k", "n": 3}]]}
        ]}],
        ["seq", {"type": "SpaceSequence", "name": "seq", "size_range": [1, 3],
            "space": {"type": "Dict", "name": "e", "spaces": [["v", {"type": "Discrete", "name": "v", "n": 4}]]}}]
    ]}"#;
    let mut ours = Space::from_json(JsValue::from_str(description)).unwrap();
    let mut core = space_from_json(&serde_json::from_str(description).unwrap()).unwrap();
    ours.seed(JsValue::from_f64(5.0)).unwrap();
    core.seed(5);
    for _ in 0..20 {
        let sample = ours.sample();
        assert_eq!(json(&sample), json(&value_to_js(&core.sample(), &core)));
        let keys: Vec<String> = js_sys::Object::keys(sample.unchecked_ref::<js_sys::Object>())
            .iter()
            .map(|k| k.as_string().unwrap())
            .collect();
        assert_eq!(keys, ["zeta", "alpha", "u", "seq"], "the space's key order");
        assert!(ours.contains(sample));
    }
}

#[wasm_bindgen_test]
fn a_copy_that_runs_js_which_samples_again_still_gives_samples() {
    // A `Symbol.species` getter (own, over the inherited one) runs inside `slice`; here it samples another box.
    let outer: JsValue = Space::box_space(js("{low: 0, high: 1, shape: [4]}")).unwrap().into();
    let inner: JsValue = Space::box_space(js("{low: 2, high: 3, shape: [2]}")).unwrap().into();
    let run: js_sys::Function = js("(outer, inner) => {
        let nested = null;
        Object.defineProperty(Float32Array, Symbol.species, { configurable: true, get() {
            if (nested === null) { nested = 0; nested = inner.sample(); }
            return Float32Array;
        } });
        try { return [outer.sample(), nested]; } finally { delete Float32Array[Symbol.species]; }
    }")
    .unchecked_into();
    let pair: js_sys::Array = run
        .call2(&JsValue::NULL, &outer, &inner)
        .unwrap_or_else(|e| panic!("{:?}", js_sys::Reflect::get(&e, &"stack".into())))
        .unchecked_into();
    let (a, b) = (js_sys::Float32Array::from(pair.get(0)), js_sys::Float32Array::from(pair.get(1)));
    assert!(a.to_vec().len() == 4 && a.to_vec().iter().all(|x| (0.0..=1.0).contains(x)));
    assert!(b.to_vec().len() == 2 && b.to_vec().iter().all(|x| (2.0..=3.0).contains(x)), "{:?}", b.to_vec());
}
