//! Space checks that run both natively (`cargo test`) and under wasm32
//! (`cargo test --target wasm32-unknown-unknown`, in Node by default), so
//! sampling is shown to give the same bits on both.

use compgym::spaces::{
    flatten, space_from_json, test_vectors, unflatten, value_from_json, value_to_json, Space,
};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test(unsupported = test)]
fn sampling_vectors_match_the_recorded_bits() {
    let bad = test_vectors::mismatches();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[wasm_bindgen_test(unsupported = test)]
fn descriptions_values_and_flattening_round_trip() {
    let description = serde_json::json!({"type": "Dict", "name": "obs", "spaces": [
        ["pos", {"type": "Box", "name": "pos", "low": -1, "high": 1, "shape": [3], "dtype": "float32"}],
        ["count", {"type": "Discrete", "name": "count", "n": 124}],
        ["ids", {"type": "MultiDiscrete", "name": "ids", "nvec": [2, 3], "start": [0, 0], "shape": [2], "dtype": "int64"}],
    ]});
    let mut space: Space = space_from_json(&description).unwrap();
    assert_eq!(space_from_json(&space.to_json()).unwrap(), space);
    assert_eq!(space.to_json()["spaces"][1][1]["start"], 0);
    space.seed(42);
    for _ in 0..20 {
        let v = space.sample();
        assert!(space.contains(&v));
        assert_eq!(value_from_json(&value_to_json(&v)).unwrap(), v);
        assert_eq!(unflatten(&space, &flatten(&space, &v).unwrap()).unwrap(), v);
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn huge_requests_are_errors_not_aborts() {
    let mut b: Space = space_from_json(&serde_json::json!(
        {"type": "Box", "name": "b", "low": 0, "high": 1, "shape": [1048576], "dtype": "float32"}
    ))
    .unwrap();
    assert_eq!(b.sample_batch(1 << 20).unwrap_err().name(), "LimitError");
    let e = space_from_json(&serde_json::json!(
        {"type": "Box", "name": "b", "low": 0, "high": 1, "shape": [4294967295u64, 4294967295u64], "dtype": "float32"}
    ))
    .unwrap_err();
    assert_eq!(e.name(), "LimitError");
}
