//! The service protocol from JavaScript's side: every RPC with plain
//! objects against the Bril compiler, every error path, and the JS ⇄ JSON
//! conversion rules.
#![cfg(target_arch = "wasm32")]

use compgym::js::interop::json::{js_to_json, json_to_js};
use compgym::js::service::JsService;
use js_sys::{Array as JsArray, BigInt, Object, Reflect};
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// A plain JS object from JSON text (requests read best as JSON).
fn js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn set(v: &JsValue, key: &str, value: JsValue) {
    Reflect::set(v, &JsValue::from_str(key), &value).unwrap();
}

fn at(v: &JsValue, i: u32) -> JsValue {
    v.unchecked_ref::<JsArray>().get(i)
}

/// A reply as JSON, to compare with `json!` literals.
fn as_json(v: &JsValue) -> serde_json::Value {
    js_to_json(v, "reply").unwrap()
}

fn error_name(e: &JsValue) -> String {
    get(e, "name").as_string().unwrap()
}

fn error_message(e: &JsValue) -> String {
    get(e, "message").as_string().unwrap()
}

fn call(s: &mut JsService, method: &str, request: &str) -> Result<JsValue, JsValue> {
    s.call(method.into(), js(request))
}

fn bril() -> JsService {
    JsService::new("bril".into()).unwrap()
}

/// The index of the observation space `name`, from GetSpaces.
fn observation(s: &mut JsService, name: &str) -> usize {
    let spaces = as_json(&s.get_spaces(JsValue::UNDEFINED).unwrap());
    let list = spaces["observationSpaceList"].as_array().unwrap();
    list.iter().position(|o| o["name"] == json!(name)).unwrap_or_else(|| panic!("no observation {name}"))
}

/// The index of the pass `flag` in the action space.
fn pass(s: &mut JsService, flag: &str) -> usize {
    let spaces = as_json(&s.get_spaces(JsValue::UNDEFINED).unwrap());
    let flags = spaces["actionSpaceList"][0]["space"]["anyValue"]["name"].as_array().unwrap().clone();
    flags.iter().position(|f| f == &json!(flag)).unwrap_or_else(|| panic!("no pass {flag} in {flags:?}"))
}

fn start(s: &mut JsService, uri: &str, observations: &[usize]) -> (u64, serde_json::Value) {
    let request = format!(r#"{{"benchmark": {{"uri": "{uri}"}}, "observationSpace": {observations:?}}}"#);
    let reply = as_json(&call(s, "StartSession", &request).unwrap());
    (reply["sessionId"].as_u64().unwrap(), reply["observation"].clone())
}

fn step(s: &mut JsService, id: u64, actions: &[usize], observations: &[usize]) -> serde_json::Value {
    let actions: Vec<_> = actions.iter().map(|a| json!({ "int64Value": a })).collect();
    let request = json!({ "sessionId": id, "action": actions, "observationSpace": observations });
    as_json(&call(s, "Step", &request.to_string()).unwrap())
}

/// Asserts `result` is a JS error named `name` whose message holds `part`,
/// and that the service still answers and kept its sessions.
fn assert_error(s: &mut JsService, result: Result<JsValue, JsValue>, name: &str, part: &str) {
    let sessions = s.session_count().unwrap();
    let e = result.err().unwrap_or_else(|| panic!("expected a {name}"));
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(error_name(&e), name, "{}", error_message(&e));
    assert!(error_message(&e).contains(part), "{:?} lacks {part:?}", error_message(&e));
    let version = as_json(&s.get_version(JsValue::UNDEFINED).unwrap());
    assert!(version["compilerVersion"].as_str().unwrap().starts_with("bril"));
    assert_eq!(s.session_count().unwrap(), sessions);
}

#[wasm_bindgen_test]
fn compilers_by_name() {
    assert_eq!(JsService::compilers(), vec!["bril", "toy"]);
    assert_eq!(JsService::new(JsValue::UNDEFINED).unwrap().compiler(), "bril");
    assert_eq!(JsService::new("toy".into()).unwrap().compiler(), "toy");
    let e = JsService::new("gcc".into()).err().unwrap();
    assert_eq!(error_name(&e), "LookupError");
    assert!(error_message(&e).contains("bril, toy"), "{}", error_message(&e));
    assert_eq!(error_name(&JsService::new(3.into()).err().unwrap()), "TypeError");
    assert_eq!(JsService::methods().len(), 8);
}

#[wasm_bindgen_test]
fn version_and_spaces_are_protocol_objects() {
    let mut s = bril();
    let version = s.call("GetVersion".into(), Object::new().into()).unwrap();
    assert_eq!(get(&version, "serviceVersion").as_string().unwrap(), compgym::VERSION);
    assert!(get(&version, "compilerVersion").as_string().unwrap().starts_with("bril-compgym"));
    let spaces = s.get_spaces(JsValue::UNDEFINED).unwrap();
    let action_space = at(&get(&spaces, "actionSpaceList"), 0);
    assert_eq!(get(&action_space, "name").as_string().unwrap(), "passes");
    let observations = get(&spaces, "observationSpaceList");
    assert!(JsArray::is_array(&observations));
    assert_eq!(get(&at(&observations, 0), "name").as_string().unwrap(), "Ir");
    assert_eq!(observation(&mut s, "IrInstructionCount"), 9);
    assert_eq!(s.session_count().unwrap(), 0);
}

#[wasm_bindgen_test]
fn sessions_start_step_fork_and_end() {
    let mut s = bril();
    let (count, output) = (observation(&mut s, "IrInstructionCount"), observation(&mut s, "Output"));
    let (dce, lvn) = (pass(&mut s, "-dce"), pass(&mut s, "-lvn"));
    let (id, first) = start(&mut s, "benchmark://suite-v0/dead-code", &[count, output]);
    let before = first[0]["int64Value"].as_i64().unwrap();
    let printed = first[1]["stringValue"].as_str().unwrap().to_string();
    assert!(before > 0 && !printed.is_empty(), "{first}");
    assert_eq!(s.session_count().unwrap(), 1);

    let stepped = step(&mut s, id, &[dce], &[count, output]);
    assert_eq!(stepped["endOfSession"], json!(false));
    assert_eq!(stepped["actionHadNoEffect"], json!(false));
    let after = stepped["observation"][0]["int64Value"].as_i64().unwrap();
    assert!(after < before, "{before} -> {after}");
    assert_eq!(stepped["observation"][1]["stringValue"], json!(printed));
    assert_eq!(step(&mut s, id, &[dce], &[])["actionHadNoEffect"], json!(true));

    let fork = as_json(&s.fork_session(js(&format!(r#"{{"sessionId": {id}}}"#))).unwrap());
    let fork = fork["sessionId"].as_u64().unwrap();
    assert_ne!(fork, id);
    assert_eq!(s.session_count().unwrap(), 2);
    let forked = step(&mut s, fork, &[lvn, dce], &[count]);
    assert_eq!(step(&mut s, id, &[], &[count])["observation"][0]["int64Value"], json!(after));
    assert!(forked["observation"][0]["int64Value"].as_i64().unwrap() <= after);

    let ended = as_json(&s.end_session(js(&format!(r#"{{"sessionId": {fork}}}"#))).unwrap());
    assert_eq!(ended, json!({ "remainingSessions": 1 }));
    let stale = format!(r#"{{"sessionId": {fork}, "action": [{{"int64Value": {dce}}}]}}"#);
    let r = call(&mut s, "Step", &stale);
    assert_error(&mut s, r, "SessionNotFound", &format!("session {fork}"));
    assert_eq!(step(&mut s, id, &[], &[count])["observation"][0]["int64Value"], json!(after));
}

#[wasm_bindgen_test]
fn big_ints_go_in_as_bigint_and_too_big_ones_are_value_errors() {
    let mut s = bril();
    let count = observation(&mut s, "IrInstructionCount");
    let (id, _) = start(&mut s, "benchmark://suite-v0/fib-iter", &[]);
    let request = js(&format!(r#"{{"action": [{{}}], "observationSpace": [{count}]}}"#));
    set(&request, "sessionId", BigInt::from(id).into());
    set(&at(&get(&request, "action"), 0), "int64Value", BigInt::from(0u64).into());
    let reply = as_json(&s.step(request.clone()).unwrap());
    assert!(reply["observation"][0]["int64Value"].as_i64().unwrap() > 0);
    let huge = BigInt::from(u64::MAX) * BigInt::from(4u64);
    set(&request, "sessionId", huge.into());
    let r = s.step(request.clone());
    assert_error(&mut s, r, "ValueError", "sessionId");
    set(&request, "sessionId", BigInt::from(u64::MAX).into());
    let r = s.step(request);
    assert_error(&mut s, r, "SessionNotFound", &u64::MAX.to_string());
}

const TWO: &str = "@main {\n  v: int = const 2;\n  print v;\n}\n";
const THREE: &str = "@main {\n  v: int = const 3;\n  print v;\n}\n";

fn add_text(s: &mut JsService, uri: &str, text: &str) {
    let contents = js_sys::Uint8Array::from(text.as_bytes());
    let program = Object::new();
    set(&program, "contents", contents.into());
    let benchmark = js(&format!(r#"{{"uri": "{uri}"}}"#));
    set(&benchmark, "program", program.into());
    let request = Object::new();
    set(&request, "benchmark", [benchmark].iter().collect::<JsArray>().into());
    assert_eq!(as_json(&s.add_benchmark(request.into()).unwrap()), json!({}));
}

#[wasm_bindgen_test]
fn added_benchmarks_start_sessions_and_a_uri_conflict_replaces() {
    let mut s = bril();
    let output = observation(&mut s, "Output");
    add_text(&mut s, "benchmark://user-v0/small", TWO);
    let (_, first) = start(&mut s, "benchmark://user-v0/small", &[output]);
    assert_eq!(first, json!([{ "stringValue": "2\n" }]));
    add_text(&mut s, "benchmark://user-v0/small", THREE);
    let (_, second) = start(&mut s, "benchmark://user-v0/small", &[output]);
    assert_eq!(second, json!([{ "stringValue": "3\n" }]));
    // A benchmark may also be a bare URI, and contents may be base64 text.
    let bare = format!(r#"{{"benchmark": "benchmark://user-v0/small", "observationSpace": [{output}]}}"#);
    assert_eq!(
        as_json(&call(&mut s, "StartSession", &bare).unwrap())["observation"][0]["stringValue"],
        "3\n"
    );
    let inline = json!({
        "benchmark": {"uri": "benchmark://user-v0/inline", "program": {"contents": "QG1haW4ge30="}},
    });
    call(&mut s, "StartSession", &inline.to_string()).unwrap();
    assert_eq!(s.session_count().unwrap(), 4);
    // A program that cannot load is refused when added, and when given inline.
    let broken = r#"{"benchmark": [{"uri": "benchmark://user-v0/bad", "program": {"contents": "QG1h"}}]}"#;
    let r = call(&mut s, "AddBenchmark", broken);
    assert_error(&mut s, r, "BenchmarkInitError", "user-v0/bad");
    let start_broken =
        r#"{"benchmark": {"uri": "benchmark://user-v0/bad2", "program": {"contents": "QG1h"}}}"#;
    let r = call(&mut s, "StartSession", start_broken);
    assert_error(&mut s, r, "BenchmarkInitError", "user-v0/bad2");
}

#[wasm_bindgen_test]
fn session_parameters_reply_once_each_and_unknown_keys_are_value_errors() {
    let mut s = bril();
    let output = observation(&mut s, "Output");
    let (id, _) = start(&mut s, "benchmark://suite-v0/fib-iter", &[]);
    let request = format!(
        r#"{{"sessionId": {id}, "parameter": [{{"key": "bril.num_passes", "value": ""}},
            {{"key": "bril.args", "value": "10"}}]}}"#
    );
    let reply = as_json(&s.send_session_parameter(js(&request)).unwrap());
    assert_eq!(reply, json!({ "reply": [pass_count(&mut s).to_string(), "10"] }));
    let printed = step(&mut s, id, &[], &[output])["observation"][0]["stringValue"].clone();
    assert_eq!(printed, json!("0 0\n10 55\n"));
    let unknown = format!(r#"{{"sessionId": {id}, "parameter": [{{"key": "bril.nope", "value": "1"}}]}}"#);
    let r = call(&mut s, "SendSessionParameter", &unknown);
    assert_error(&mut s, r, "ValueError", "bril.nope");
    let missing = r#"{"sessionId": 99, "parameter": [{"key": "bril.num_passes"}]}"#;
    let r = call(&mut s, "SendSessionParameter", missing);
    assert_error(&mut s, r, "SessionNotFound", "99");
    assert_eq!(step(&mut s, id, &[], &[output])["observation"][0]["stringValue"], printed);
}

fn pass_count(s: &mut JsService) -> usize {
    let spaces = as_json(&s.get_spaces(JsValue::UNDEFINED).unwrap());
    spaces["actionSpaceList"][0]["space"]["anyValue"]["name"].as_array().unwrap().len()
}

#[wasm_bindgen_test]
fn every_error_is_typed_and_the_service_keeps_working() {
    let mut s = bril();
    let (id, _) = start(&mut s, "benchmark://suite-v0/fib-iter", &[]);
    let r = call(&mut s, "Compile", "{}");
    assert_error(&mut s, r, "LookupError", "GetVersion, GetSpaces");
    let r = s.call(7.into(), Object::new().into());
    assert_error(&mut s, r, "TypeError", "method");
    let r = call(&mut s, "Step", r#"{"sessionId": "abc"}"#);
    assert_error(&mut s, r, "ValueError", "sessionId");
    let r = call(&mut s, "Step", &format!(r#"{{"sessionId": {id}, "observationSpace": "Ir"}}"#));
    assert_error(&mut s, r, "ValueError", "observationSpace");
    let r = call(&mut s, "StartSession", r#"{"actionSpace": 1.5}"#);
    assert_error(&mut s, r, "ValueError", "actionSpace");
    let r = call(&mut s, "GetVersion", "null");
    assert_error(&mut s, r, "ValueError", "GetVersion request");
    let r = call(&mut s, "Step", r#"{"sessionId": 12345}"#);
    assert_error(&mut s, r, "SessionNotFound", "12345");
    let r = call(&mut s, "ForkSession", r#"{"sessionId": 12345}"#);
    assert_error(&mut s, r, "SessionNotFound", "12345");
    let r = call(&mut s, "EndSession", r#"{"sessionId": 12345}"#);
    assert_error(&mut s, r, "SessionNotFound", "12345");
    let r = call(&mut s, "Step", &format!(r#"{{"sessionId": {id}, "observationSpace": [999]}}"#));
    assert_error(&mut s, r, "ValueError", "999");
    let r = call(&mut s, "Step", &format!(r#"{{"sessionId": {id}, "action": [{{"int64Value": 999}}]}}"#));
    assert_error(&mut s, r, "ServiceError", "999");
    let r = call(&mut s, "StartSession", r#"{"benchmark": {"uri": "benchmark://suite-v0/nope"}}"#);
    assert_error(&mut s, r, "BenchmarkInitError", "nope");
    let r = call(&mut s, "StartSession", r#"{"benchmark": {"uri": "x"}, "observationSpace": [0]}"#);
    assert!(r.is_err());

    // Values JSON cannot carry are refused before the service sees them.
    let with_function = js(&format!(r#"{{"sessionId": {id}}}"#));
    set(&with_function, "action", js_sys::Function::new_no_args("return 1").into());
    let r = s.step(with_function);
    assert_error(&mut s, r, "TypeError", "Step request.action");
    let cycle = js(&format!(r#"{{"sessionId": {id}}}"#));
    set(&cycle, "self", cycle.clone());
    let r = s.step(cycle);
    assert_error(&mut s, r, "ValueError", "contains itself");

    // A getter that throws is an error, not an exception that leaves the service borrowed.
    let make = "return { get sessionId() { throw new Error('boom'); } }";
    let throwing = js_sys::Function::new_no_args(make).call0(&JsValue::NULL).unwrap();
    let r = s.step(throwing);
    assert_error(&mut s, r, "TypeError", "boom");

    assert!(step(&mut s, id, &[0], &[]).get("endOfSession").is_some());
}

#[wasm_bindgen_test]
fn js_values_become_protocol_json() {
    let value = js(r#"{"a": 1, "b": 2.5, "c": [true, null, "s"]}"#);
    set(&value, "gone", JsValue::UNDEFINED);
    set(&value, "big", BigInt::from(i64::MAX).into());
    set(&value, "bigger", BigInt::from(u64::MAX).into());
    set(&value, "huge", (BigInt::from(u64::MAX) * BigInt::from(2u64)).into());
    set(&value, "nan", JsValue::from_f64(f64::NAN));
    set(&value, "inf", JsValue::from_f64(f64::NEG_INFINITY));
    set(&value, "bytes", js_sys::Uint8Array::from(&b"foo"[..]).into());
    set(&value, "floats", js_sys::Float32Array::from(&[0.5f32, 1.0][..]).into());
    set(&value, "longs", js_sys::BigInt64Array::from(&[-1i64][..]).into());
    assert_eq!(
        js_to_json(&value, "x").unwrap(),
        json!({
            "a": 1, "b": 2.5, "c": [true, null, "s"], "big": i64::MAX, "bigger": u64::MAX,
            "huge": "36893488147419103230", "nan": "NaN", "inf": "-Infinity", "bytes": "Zm9v",
            "floats": [0.5, 1], "longs": [-1],
        })
    );
    let symbol = js_sys::Symbol::for_("s");
    assert_eq!(js_to_json(&symbol.into(), "x").unwrap_err().name(), "TypeError");
}

#[wasm_bindgen_test]
fn replies_become_plain_js_objects() {
    let reply = json!({"__proto__": {"x": 1}, "n": 1.5, "big": "9223372036854775807", "l": [null, false]});
    let js_reply = json_to_js(&reply);
    let plain: JsValue = Object::get_prototype_of(&Object::new()).into();
    assert_eq!(JsValue::from(Object::get_prototype_of(&js_reply)), plain);
    let object: &Object = js_reply.unchecked_ref();
    assert!(Object::keys(object).includes(&"__proto__".into(), 0));
    assert_eq!(get(&js_reply, "big").as_string().unwrap(), "9223372036854775807");
    assert_eq!(as_json(&js_reply), reply);
}
