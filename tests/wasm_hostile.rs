//! JavaScript values that fight back: nesting 100,000 deep, objects that
//! contain themselves, getters and Proxy traps that throw, revoked Proxies,
//! array-likes claiming 2^32 − 1 items, detached buffers, huge strings and
//! BigInts. Each is a typed error (a LimitError naming the limit where a
//! limit is passed), and the next valid call works: every test ends by using
//! the instance again, and the tests share one instance.
#![cfg(target_arch = "wasm32")]

use compgym::js::env::compiler_env::make;
use compgym::js::interop::{json::js_to_json, space_value::js_to_value, value::from_js};
use compgym::js::service::JsService;
use compgym::js::spaces::{space_from_json, JsSpace as Space};
use compgym::limits::{MAX_JSON_DEPTH, MAX_SPACE_DEPTH, MAX_VALUE_DEPTH};
use js_sys::Function;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

mod js_values;
use js_values::{message, name, obj};

/// Evaluates a JS expression.
fn js(expr: &str) -> JsValue {
    Function::new_no_args(&format!("return ({expr});")).call0(&JsValue::NULL).unwrap()
}

/// Asserts that `result` is an error named `kind` whose message holds `part`.
#[track_caller]
fn assert_error<T>(result: Result<T, JsValue>, kind: &str, part: &str) {
    let Err(e) = result else { panic!("expected a {kind} holding {part:?}, got a value") };
    assert_eq!(name(&e), kind, "{}", message(&e));
    assert!(message(&e).contains(part), "{kind} {:?} lacks {part:?}", message(&e));
}

#[track_caller]
fn assert_core_error<T: std::fmt::Debug>(result: compgym::Result<T>, kind: &str, part: &str) {
    let e = result.unwrap_err();
    assert_eq!(e.name(), kind, "{e}");
    assert!(e.message().contains(part), "{kind} {:?} lacks {part:?}", e.message());
}

/// Asserts that `result` is a value or an error with one of compgym's names.
#[track_caller]
fn assert_typed<T>(result: Result<T, JsValue>, what: &str) {
    if let Err(e) = result {
        let names = compgym::js::error_names();
        assert!(names.contains(&name(&e)), "{what}: {} {}", name(&e), message(&e));
    }
}

/// A valid call or two: the instance and its allocator are alive.
#[track_caller]
fn still_works() {
    let mut space = Space::discrete(JsValue::from_f64(3.0), JsValue::UNDEFINED).unwrap();
    let sample = space.sample();
    assert!(space.contains(sample));
    let e =
        make(JsValue::from("bril-v0"), Some(obj(&[("benchmark", "benchmark://suite-v0/fib-iter".into())])))
            .unwrap();
    e.reset(None).unwrap();
    e.step(JsValue::from_f64(0.0), None).unwrap();
}

/// The JSON text of a SpaceSequence description nested `depth` levels above a Discrete.
fn nested_sequence_text(depth: usize) -> String {
    let open = r#"{"type": "SpaceSequence", "name": "s", "size_range": [1, 1], "space": "#;
    format!("{}{}{}", open.repeat(depth), r#"{"type": "Discrete", "name": "d", "n": 2}"#, "}".repeat(depth))
}

/// A SpaceSequence description nested `depth` levels above a Discrete, as an object.
fn nested_sequence(depth: usize) -> JsValue {
    js_sys::JSON::parse(&nested_sequence_text(depth)).unwrap()
}

#[wasm_bindgen_test]
fn a_description_nested_100000_deep_is_a_limit_error_and_the_next_call_works() {
    // The issue's row: the JS reader stops at the JSON depth limit, before the core sees anything.
    assert_error(space_from_json(nested_sequence(100_000)), "LimitError", &MAX_JSON_DEPTH.to_string());
    still_works();
    // Within the JSON limit, the core's own space limit speaks.
    assert_error(
        space_from_json(nested_sequence(MAX_SPACE_DEPTH + 5)),
        "LimitError",
        &MAX_SPACE_DEPTH.to_string(),
    );
    assert!(space_from_json(nested_sequence(MAX_SPACE_DEPTH - 1)).is_ok());
    // As JSON text, serde_json's recursion limit refuses it.
    assert!(space_from_json(nested_sequence_text(100_000).into()).is_err());
    still_works();
}

#[wasm_bindgen_test]
fn objects_that_contain_themselves_are_value_errors() {
    let cyclic = js("(() => { const d = {type: 'Tuple', name: 't'}; d.spaces = [d]; return d; })()");
    assert_error(space_from_json(cyclic.clone()), "ValueError", "contains itself");
    assert_core_error(from_js(&cyclic), "ValueError", "contains itself");
    assert_core_error(js_to_json(&cyclic, "request"), "ValueError", "request.spaces[0] contains itself");
    // Shared, not cyclic: the same object twice is fine.
    let shared = js("(() => { const x = {a: 1}; return {p: x, q: [x, x]}; })()");
    assert!(from_js(&shared).is_ok() && js_to_json(&shared, "v").is_ok());
    // Parts shared many times over count each time they are read: the byte budget stops them.
    let shared = js("(() => { const mib = 'y'.repeat(1 << 20); return Array(300).fill(mib); })()");
    assert_core_error(js_to_json(&shared, "v"), "LimitError", "bytes");
    assert_core_error(from_js(&shared), "LimitError", "bytes");
    still_works();
}

#[wasm_bindgen_test]
fn values_nested_past_the_value_limit_are_limit_errors() {
    let deep = |depth: usize| {
        js(&format!("(() => {{ let v = 1; for (let i = 0; i < {depth}; i++) v = [v]; return v; }})()"))
    };
    assert!(from_js(&deep(MAX_VALUE_DEPTH - 1)).is_ok());
    assert_core_error(from_js(&deep(MAX_VALUE_DEPTH)), "LimitError", &MAX_VALUE_DEPTH.to_string());
    assert_core_error(from_js(&deep(100_000)), "LimitError", &MAX_VALUE_DEPTH.to_string());
    assert_core_error(js_to_json(&deep(100_000), "v"), "LimitError", &MAX_JSON_DEPTH.to_string());
    still_works();
}

#[wasm_bindgen_test]
fn throwing_getters_and_proxy_traps_are_type_errors() {
    let traps = [
        "new Proxy({}, { ownKeys() { throw new Error('boom'); } })",
        "new Proxy({}, { get() { throw new Error('boom'); } })",
        "new Proxy([], { get() { throw new Error('boom'); } })",
        "new Proxy({}, { getOwnPropertyDescriptor() { throw new Error('boom'); }, ownKeys() { return ['a']; } })",
        "({ get type() { throw new Error('boom'); } })",
        "[1, 2, { get x() { throw new Error('boom'); } }]",
        "(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()",
        "(() => { const r = Proxy.revocable([], {}); r.revoke(); return r.proxy; })()",
        // A trap that recurses without end overflows the JS stack inside the trap.
        "(() => { const p = new Proxy({}, { ownKeys(t) { return Reflect.ownKeys(p); } }); return p; })()",
    ];
    let service = JsService::new(JsValue::UNDEFINED).unwrap();
    let unit = Space::box_space(js("{low: 0, high: 1, shape: [2]}")).unwrap();
    for trap in traps {
        let value = js(trap);
        // Each reader either reads what it can or says why not, with a typed error.
        assert_typed(space_from_json(value.clone()), trap);
        assert_typed(from_js(&value).map_err(compgym::js::to_js_error), trap);
        assert_typed(js_to_json(&value, "request").map_err(compgym::js::to_js_error), trap);
        assert_typed(service.call("StartSession".into(), value.clone()), trap);
        assert!(!unit.contains(value.clone()), "{trap}");
        assert_typed(unit.flatten(value.clone()), trap);
        assert_typed(make(JsValue::from("bril-v0"), Some(value.clone())), trap);
        assert_typed(Space::discrete(JsValue::from_f64(2.0), value), trap);
    }
    // What must fail, fails with the thrown message.
    assert_error(
        make(JsValue::from("bril-v0"), Some(js(traps[1]))),
        "TypeError",
        "benchmark: reading it threw: boom",
    );
    assert_core_error(from_js(&js(traps[6])), "TypeError", "revoked");
    assert_error(
        space_from_json(js("new Proxy({}, { ownKeys() { throw new Error('boom'); } })")),
        "TypeError",
        "reading it threw: boom",
    );
    still_works();
}

#[wasm_bindgen_test]
fn array_likes_that_claim_huge_lengths_are_refused_before_reading() {
    let huge = js("new Proxy([], { get(t, k) { return k === 'length' ? 2 ** 32 - 1 : 0; } })");
    assert_core_error(from_js(&huge), "LimitError", "4294967295 items");
    assert_core_error(js_to_json(&huge, "v"), "LimitError", "4294967295 items");
    let seq =
        space_from_json(js("{type: 'SpaceSequence', name: 's', space: {type: 'Discrete', name: 'd', n: 2}}"))
            .unwrap();
    assert!(!seq.contains(huge.clone()));
    assert_core_error(js_to_value(&huge, seq.space()), "LimitError", "items");
    // A length that is no length.
    let odd = js("new Proxy([], { get(t, k) { return k === 'length' ? -1 : 0; } })");
    assert_core_error(from_js(&odd), "TypeError", "no valid length");
    still_works();
}

#[wasm_bindgen_test]
fn detached_buffers_are_errors_or_non_members() {
    let detached = |ctor: &str| {
        js(&format!("(() => {{ const a = new {ctor}(4); structuredClone(a.buffer, {{ transfer: [a.buffer] }}); return a; }})()"))
    };
    let unit = Space::box_space(js("{low: 0, high: 1, shape: [4]}")).unwrap();
    assert!(!unit.contains(detached("Float32Array")));
    assert!(!unit.contains(detached("Float64Array")));
    assert!(unit.flatten(detached("Float32Array")).is_err());
    // Read without a space, the copy itself fails.
    assert_core_error(from_js(&detached("Int32Array")), "TypeError", "detached");
    let buffer =
        js("(() => { const b = new ArrayBuffer(8); structuredClone(b, { transfer: [b] }); return b; })()");
    assert_core_error(js_to_json(&obj(&[("bytes", buffer)]), "request"), "TypeError", "request");
    still_works();
}

#[wasm_bindgen_test]
fn typed_arrays_are_recognised_by_their_slots_not_their_claims() {
    // A subclass that lies about its length is read by its real length.
    let liar = js("(() => { class Liar extends Float32Array { get length() { return 1e9; } } return new Liar([0.5, 0.25]); })()");
    let unit = Space::box_space(js("{low: 0, high: 1, shape: [2]}")).unwrap();
    assert!(unit.contains(liar.clone()));
    assert_eq!(
        from_js(&liar).unwrap(),
        compgym::value::Value::Array(compgym::value::Array::vector(compgym::value::ArrayData::F32(vec![
            0.5, 0.25
        ])))
    );
    // A Proxy of a typed array is not one.
    let proxied = js("new Proxy(new Float32Array([0.5, 0.25]), {})");
    assert!(!matches!(from_js(&proxied), Ok(compgym::value::Value::Array(_))));
    still_works();
}

#[wasm_bindgen_test]
fn huge_strings_and_bigints_are_limit_and_overflow_errors() {
    let units = compgym::js::interop::reflect::MAX_STRING_UNITS as usize + 1;
    let huge = js(&format!("'x'.repeat({units})"));
    assert_error(space_from_json(huge.clone()), "LimitError", "UTF-16 units");
    assert_error(
        Space::text(obj(&[("maxLength", JsValue::from_f64(3.0)), ("charset", huge.clone())])),
        "LimitError",
        "charset",
    );
    assert_core_error(from_js(&huge), "LimitError", "UTF-16 units");
    let big = js("2n ** 100000n");
    assert_error(Space::discrete(big.clone(), JsValue::UNDEFINED), "OverflowError", "out of range");
    assert_core_error(js_to_json(&big, "v"), "OverflowError", "int128");
    assert_core_error(from_js(&big), "OverflowError", "int64");
    // An error that quotes a huge input is cut to a readable size.
    let e = compgym::js::canonical_dtype(JsValue::from(&"y".repeat(1 << 20))).unwrap_err();
    assert_eq!(name(&e), "TypeError");
    assert!(message(&e).len() < 70 * 1024 && message(&e).contains("more bytes"), "{}", message(&e).len());
    still_works();
}

#[wasm_bindgen_test]
fn a_sparse_array_is_refused_by_its_length_before_its_items_are_read() {
    // 4e6 holes: reading them one by one took seconds before the TypeError.
    let sparse = js("new Array(4e6)");
    let options = js("({high: 1})");
    js_sys::Reflect::set(&options, &"low".into(), &sparse).unwrap();
    assert_error(Space::box_space(options), "TypeError", "sparse array: 4000000 long with at most 0 items");
    assert_core_error(
        from_js(&js("(() => { const a = [1, 2]; a[5000] = 3; return a; })()")),
        "TypeError",
        "at most 3",
    );
    // Dense long arrays, with undefined items too, read as before.
    assert!(from_js(&js("new Array(5000).fill(undefined)")).is_ok());
    assert!(js_to_json(&js("new Array(5000).fill(1)"), "v").is_ok());
    // Short sparse arrays are read item by item: their holes are undefined.
    assert!(from_js(&js("[1, , 3]")).is_ok());
    still_works();
}

#[wasm_bindgen_test]
fn integers_past_2_to_53_round_trip_exactly_through_descriptions() {
    let n = js("2n ** 63n - 1n");
    let discrete = Space::discrete(n.clone(), JsValue::UNDEFINED).unwrap();
    let described = discrete.to_json();
    // In JSON text the integer is a string; as the `n` getter, a BigInt.
    let text = js_sys::JSON::stringify(&described).unwrap().as_string().unwrap();
    assert!(text.contains(r#""n":"9223372036854775807""#), "{text}");
    assert_eq!(discrete.n().unwrap(), n);
    assert!(space_from_json(described).unwrap().equals(&discrete));
    assert!(space_from_json(text.into()).unwrap().equals(&discrete));
    // A Box with int64 bounds past 2^53, given as numbers where they fit and BigInts where not.
    for low in ["0", "0n"] {
        let options = js(&format!("({{low: {low}, high: 2n ** 53n + 1n, shape: [2], dtype: 'int64'}})"));
        let boxed = Space::box_space(options).unwrap();
        let text = js_sys::JSON::stringify(&boxed.to_json()).unwrap().as_string().unwrap();
        assert!(text.contains(r#""high":"9007199254740993""#), "{text}");
        assert!(space_from_json(boxed.to_json()).unwrap().equals(&boxed));
        assert!(space_from_json(text.into()).unwrap().equals(&boxed));
    }
    let options = js("({low: 0, high: 2n ** 63n - 1n, shape: [1], dtype: 'int64'})");
    let widest = Space::box_space(options).unwrap();
    assert!(space_from_json(widest.to_json()).unwrap().equals(&widest));
    still_works();
}

#[wasm_bindgen_test]
fn memory_grown_to_the_ceiling_and_freed_is_usable_again() {
    use compgym::limits::{memory_in_use, MEMORY_CEILING};
    // Blocks reserved and never written grow the memory without using the host's.
    let block = 128 << 20;
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    while memory_in_use() < MEMORY_CEILING {
        let mut v = Vec::new();
        if v.try_reserve_exact(block).is_err() {
            break;
        }
        blocks.push(v);
    }
    assert!(memory_in_use() >= MEMORY_CEILING - block as u64, "grew to {} MiB only", memory_in_use() >> 20);
    drop(blocks);
    // Everything was freed: small and large requests are served from the freed memory.
    let mut small = space_from_json(js("({type: 'Box', name: 'b', low: 0, high: 1, shape: [4]})")).unwrap();
    let sample = small.sample();
    assert!(small.contains(sample));
    // 128 MiB of bounds and a 32 MiB sample.
    let big = js("({type: 'Box', name: 'b', low: 0, high: 1, shape: [8388608], dtype: 'float32'})");
    let mut large = space_from_json(big).unwrap();
    let sample = large.sample();
    assert!(large.contains(sample));
    still_works();
}
