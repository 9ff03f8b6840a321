//! The service's RPCs and error paths, through the toy compiler.

use super::*;
use crate::compilers::toy::{obs, ToyBackend};
use crate::value::Value;
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

fn service() -> Service {
    Service::new(Box::new(ToyBackend))
}

fn start(s: &mut Service, uri: &str, observations: Vec<usize>) -> crate::Result<StartSessionReply> {
    s.start_session(&StartSessionRequest {
        benchmark: Benchmark::from_uri(uri),
        action_space: 0,
        observation_space: observations,
    })
}

fn step(s: &mut Service, id: SessionId, actions: &[i64], observations: &[usize]) -> crate::Result<StepReply> {
    s.step(&StepRequest {
        session_id: id,
        action: actions.iter().map(|&a| Value::Int(a)).collect(),
        observation_space: observations.to_vec(),
    })
}

#[wasm_bindgen_test(unsupported = test)]
fn version_and_spaces() {
    let s = service();
    let v = s.get_version();
    assert_eq!((v.service_version.as_str(), v.compiler_version.as_str()), (crate::VERSION, "toy 1.0"));
    let spaces = s.get_spaces();
    assert_eq!(spaces.action_space_list.len(), 2);
    assert_eq!(spaces.observation_space_list[obs::INVERSIONS].name, "Inversions");
}

#[wasm_bindgen_test(unsupported = test)]
fn start_step_fork_end() {
    let mut s = service();
    let r = start(&mut s, "benchmark://toy-v0/b", vec![obs::INVERSIONS, obs::TEXT]).unwrap();
    assert_eq!(r.observation, vec![Value::Int(10), Value::Str("5 4 3 2 1".into())]);
    let id = r.session_id;
    // An empty step changes nothing and reports no effect.
    let reply = step(&mut s, id, &[], &[obs::INVERSIONS]).unwrap();
    assert!(reply.action_had_no_effect && !reply.end_of_session);
    let reply = step(&mut s, id, &[1], &[obs::TEXT]).unwrap(); // reverse
    assert_eq!(reply.observation, vec![Value::Str("1 2 3 4 5".into())]);
    assert!(!reply.action_had_no_effect);
    let fork = s.fork_session(id).unwrap();
    assert_ne!(fork, id);
    step(&mut s, fork, &[1], &[]).unwrap();
    // The fork is independent of its parent.
    assert_eq!(step(&mut s, id, &[], &[obs::TEXT]).unwrap().observation[0], Value::Str("1 2 3 4 5".into()));
    assert_eq!(step(&mut s, fork, &[], &[obs::TEXT]).unwrap().observation[0], Value::Str("5 4 3 2 1".into()));
    // Actions after the end of the session in one request are not applied.
    let reply = step(&mut s, fork, &[3, 1], &[obs::TEXT]).unwrap();
    assert!(reply.end_of_session);
    assert_eq!(reply.observation[0], Value::Str("5 4 3 2 1".into()));
    assert_eq!(s.session_count(), 2);
    assert_eq!(s.end_session(fork).unwrap(), 1);
    assert_eq!(s.end_session(id).unwrap(), 0);
    assert_eq!(s.end_session(id).unwrap_err().name(), "SessionNotFound");
}

#[wasm_bindgen_test(unsupported = test)]
fn unknown_sessions_and_bad_indices() {
    let mut s = service();
    assert_eq!(step(&mut s, 99, &[0], &[]).unwrap_err().name(), "SessionNotFound");
    assert_eq!(s.fork_session(99).unwrap_err().name(), "SessionNotFound");
    let id = start(&mut s, "toy-v0/a", vec![]).unwrap().session_id;
    assert_eq!(step(&mut s, id, &[0], &[99]).unwrap_err().name(), "ValueError");
    // The bad request applied nothing.
    assert_eq!(step(&mut s, id, &[], &[obs::TEXT]).unwrap().observation[0], Value::Str("3 1 2".into()));
    assert_eq!(start(&mut s, "toy-v0/a", vec![7]).unwrap_err().name(), "ValueError");
    let bad_space = StartSessionRequest {
        benchmark: Benchmark::from_uri("toy-v0/a"),
        action_space: 2,
        observation_space: vec![],
    };
    assert_eq!(s.start_session(&bad_space).unwrap_err().name(), "ValueError");
    assert_eq!(s.session_count(), 1);
}

#[wasm_bindgen_test(unsupported = test)]
fn benchmarks_resolve_add_and_fail() {
    let mut s = service();
    assert_eq!(start(&mut s, "benchmark://toy-v0/nope", vec![]).unwrap_err().name(), "BenchmarkInitError");
    assert_eq!(start(&mut s, "bench mark", vec![]).unwrap_err().name(), "BenchmarkInitError");
    assert_eq!(
        start(&mut s, "generator://toy-random-v0/x", vec![]).unwrap_err().name(),
        "BenchmarkInitError"
    );
    let g1 = start(&mut s, "generator://toy-random-v0/7", vec![obs::TEXT]).unwrap().observation;
    let g2 = start(&mut s, "generator://toy-random-v0/7", vec![obs::TEXT]).unwrap().observation;
    assert_eq!(g1, g2);
    s.add_benchmark(AddBenchmarkRequest { benchmark: vec![Benchmark::from_contents("user-v0/x", "2 1")] })
        .unwrap();
    assert_eq!(start(&mut s, "user-v0/x", vec![obs::INVERSIONS]).unwrap().observation, vec![Value::Int(1)]);
    // A conflicting URI replaces the earlier benchmark; user benchmarks shadow the backend's.
    s.add_benchmark(AddBenchmarkRequest {
        benchmark: vec![
            Benchmark::from_contents("benchmark://user-v0/x", "1 2"),
            Benchmark::from_contents("toy-v0/a", "9 8"),
        ],
    })
    .unwrap();
    assert_eq!(start(&mut s, "user-v0/x", vec![obs::INVERSIONS]).unwrap().observation, vec![Value::Int(0)]);
    assert_eq!(
        start(&mut s, "toy-v0/a", vec![obs::TEXT]).unwrap().observation,
        vec![Value::Str("9 8".into())]
    );
    assert_eq!(s.added_benchmarks(), vec!["benchmark://toy-v0/a", "benchmark://user-v0/x"]);
    // A program the compiler cannot load.
    s.add_benchmark(AddBenchmarkRequest { benchmark: vec![Benchmark::from_contents("user-v0/bad", "1 x")] })
        .unwrap();
    assert_eq!(start(&mut s, "user-v0/bad", vec![]).unwrap_err().name(), "BenchmarkInitError");
    // A benchmark that carries its program needs no registration.
    let inline = StartSessionRequest {
        benchmark: Benchmark::from_contents("inline-v0/p", "4 3"),
        action_space: 1,
        observation_space: vec![obs::INVERSIONS],
    };
    assert_eq!(s.start_session(&inline).unwrap().observation, vec![Value::Int(1)]);
    let bad = AddBenchmarkRequest {
        benchmark: vec![Benchmark::from_contents("ok-v0/a", "1"), Benchmark::from_contents("", "1")],
    };
    assert_eq!(s.add_benchmark(bad).unwrap_err().name(), "BenchmarkInitError");
    assert_eq!(s.added_benchmarks().len(), 3, "a failed AddBenchmark adds nothing");
}

#[wasm_bindgen_test(unsupported = test)]
fn session_failures_are_service_errors_and_leave_the_service_working() {
    let mut s = service();
    let id = start(&mut s, "toy-v0/b", vec![]).unwrap().session_id;
    let other = start(&mut s, "toy-v0/a", vec![]).unwrap().session_id;
    let param = |key: &str, value: &str| SendSessionParameterRequest {
        session_id: id,
        parameter: vec![SessionParameter { key: key.into(), value: value.into() }],
    };
    assert_eq!(s.send_session_parameter(&param("toy.fail", "action")).unwrap().reply, vec!["ok"]);
    assert_eq!(step(&mut s, id, &[0], &[]).unwrap_err().name(), "ServiceError");
    s.send_session_parameter(&param("toy.fail", "observation")).unwrap();
    let e = step(&mut s, id, &[], &[obs::INVERSIONS]).unwrap_err();
    assert_eq!(e.name(), "ServiceError");
    assert!(e.message().contains("Inversions"), "{e}");
    // Both sessions still work.
    assert_eq!(step(&mut s, id, &[], &[obs::INVERSIONS]).unwrap().observation, vec![Value::Int(10)]);
    assert_eq!(step(&mut s, other, &[0], &[obs::INVERSIONS]).unwrap().observation, vec![Value::Int(0)]);
    // An out-of-range action is the session's failure too.
    assert_eq!(step(&mut s, id, &[9], &[]).unwrap_err().name(), "ServiceError");
}

#[wasm_bindgen_test(unsupported = test)]
fn session_parameters_reply_once_each_and_reject_unknown_keys() {
    let mut s = service();
    let id = start(&mut s, "toy-v0/b", vec![]).unwrap().session_id;
    let req = SendSessionParameterRequest {
        session_id: id,
        parameter: vec![
            SessionParameter { key: "toy.len".into(), value: String::new() },
            SessionParameter { key: "toy.len".into(), value: String::new() },
        ],
    };
    assert_eq!(s.send_session_parameter(&req).unwrap().reply, vec!["5", "5"]);
    let unknown = SendSessionParameterRequest {
        session_id: id,
        parameter: vec![SessionParameter { key: "nope".into(), value: "1".into() }],
    };
    assert_eq!(s.send_session_parameter(&unknown).unwrap_err().name(), "ValueError");
    let gone = SendSessionParameterRequest { session_id: 42, parameter: vec![] };
    assert_eq!(s.send_session_parameter(&gone).unwrap_err().name(), "SessionNotFound");
}

#[wasm_bindgen_test(unsupported = test)]
fn validation_hook() {
    let mut s = service();
    let id = start(&mut s, "toy-v0/b", vec![]).unwrap().session_id;
    step(&mut s, id, &[0, 1, 2], &[]).unwrap();
    assert_eq!(s.validate_session(id).unwrap(), Some(vec![]));
    s.send_session_parameter(&SendSessionParameterRequest {
        session_id: id,
        parameter: vec![SessionParameter { key: "toy.corrupt".into(), value: String::new() }],
    })
    .unwrap();
    assert_eq!(s.validate_session(id).unwrap().unwrap().len(), 1);
    assert_eq!(s.validate_session(1234).unwrap_err().name(), "SessionNotFound");
}

#[wasm_bindgen_test(unsupported = test)]
fn json_dispatch_speaks_the_protocol() {
    let mut s = service();
    let v = s.call_json("GetVersion", &json!({})).unwrap();
    assert_eq!(v["compilerVersion"], json!("toy 1.0"));
    let spaces = s.call_json("GetSpaces", &json!({})).unwrap();
    assert_eq!(spaces["actionSpaceList"][1]["space"]["namedDiscrete"]["name"][0], json!("bubble"));
    let started = s
        .call_json(
            "StartSession",
            &json!({"benchmark": {"uri": "toy-v0/b"}, "actionSpace": 1, "observationSpace": [0]}),
        )
        .unwrap();
    assert_eq!(started["observation"], json!([{"int64Value": 10}]));
    let id = started["sessionId"].clone();
    let stepped = s
        .call_json("Step", &json!({"sessionId": id, "action": [{"int64Value": 1}], "observationSpace": [3]}))
        .unwrap();
    assert_eq!(stepped["endOfSession"], json!(false));
    assert_eq!(stepped["actionHadNoEffect"], json!(false));
    assert_eq!(stepped["observation"][0], json!({"int64Tensor": {"shape": [5], "value": [1, 2, 3, 4, 5]}}));
    let forked = s.call_json("ForkSession", &json!({"sessionId": id})).unwrap();
    let ended = s.call_json("EndSession", &json!({"sessionId": forked["sessionId"]})).unwrap();
    assert_eq!(ended, json!({"remainingSessions": 1}));
    s.call_json("AddBenchmark", &json!({"benchmark": [{"uri": "u-v0/a", "program": {"contents": "MSAy"}}]}))
        .unwrap();
    let params = s
        .call_json(
            "SendSessionParameter",
            &json!({"sessionId": id, "parameter": [{"key": "toy.len", "value": ""}]}),
        )
        .unwrap();
    assert_eq!(params, json!({"reply": ["5"]}));
    assert_eq!(s.call_json("Nope", &json!({})).unwrap_err().name(), "LookupError");
    assert_eq!(s.call_json("Step", &json!({"sessionId": 77})).unwrap_err().name(), "SessionNotFound");
    assert!(s.call_json("Step", &json!([])).is_err());
}

#[wasm_bindgen_test(unsupported = test)]
fn malformed_json_requests_are_value_errors_naming_the_field() {
    let mut s = service();
    let cases = [
        ("Step", json!([]), "Step request: StepRequest"),
        ("Step", json!({"sessionId": true}), "sessionId"),
        ("Step", json!({"sessionId": "x"}), "sessionId"),
        ("Step", json!({"sessionId": 0, "observationSpace": 3}), "observationSpace"),
        ("StartSession", json!({"actionSpace": -1}), "actionSpace"),
        ("StartSession", json!({"benchmark": 7}), "Benchmark"),
        ("SendSessionParameter", json!({"parameter": [{"key": 1}]}), "key"),
        ("AddBenchmark", json!({"benchmark": [{"uri": "a-v0/b", "program": {"contents": "%"}}]}), "contents"),
        ("GetVersion", json!(null), "GetVersionRequest"),
    ];
    for (method, request, field) in cases {
        let e = s.call_json(method, &request).unwrap_err();
        assert_eq!(e.name(), "ValueError", "{method} {request}: {e}");
        assert!(e.message().starts_with(&format!("{method} request: ")), "{e}");
        assert!(e.message().contains(field), "{method} {request}: {e}");
    }
    let e = s.call_json("Nope", &json!({})).unwrap_err();
    assert!(e.message().contains("GetVersion, GetSpaces"), "{e}");
    assert_eq!(s.call_json("GetVersion", &json!({})).unwrap()["compilerVersion"], json!("toy 1.0"));
}

#[wasm_bindgen_test(unsupported = test)]
fn start_session_can_change_the_action_space() {
    let mut s = service();
    s.add_benchmark(AddBenchmarkRequest { benchmark: vec![Benchmark::from_contents("user-v0/one", "7")] })
        .unwrap();
    // A list that cannot be reordered starts with `end` alone.
    let r = start(&mut s, "benchmark://user-v0/one", vec![]).unwrap();
    let space = r.new_action_space.expect("a new action space");
    assert_eq!(space.name, "toy-flags-end");
    assert_eq!(space.space.to_string(), "Commandline(toy-flags-end, 1, flags=-end)");
    // Its index 0 is `end`, not `bubble`.
    assert!(step(&mut s, r.session_id, &[0], &[]).unwrap().end_of_session);
    assert!(step(&mut s, r.session_id, &[1], &[]).is_err());
    // The JSON reply carries it; a list of two keeps the default.
    let reply =
        s.call_json("StartSession", &json!({"benchmark": {"uri": "benchmark://user-v0/one"}})).unwrap();
    assert_eq!(reply["newActionSpace"]["name"], json!("toy-flags-end"));
    assert!(start(&mut s, "benchmark://toy-v0/a", vec![]).unwrap().new_action_space.is_none());
}

#[wasm_bindgen_test(unsupported = test)]
fn inversions_are_counted_in_n_log_n() {
    let mut s = service();
    let mut rng = crate::Rng::seed_from_u64(3);
    let list: Vec<i64> = (0..300).map(|_| rng.int_inclusive(-20, 20)).collect();
    let slow = (0..list.len())
        .flat_map(|i| (i + 1..list.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| list[i] > list[j])
        .count() as i64;
    let text = |l: &[i64]| l.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    let big: Vec<i64> = (0..200_000).rev().collect();
    s.add_benchmark(AddBenchmarkRequest {
        benchmark: vec![
            Benchmark::from_contents("user-v0/mixed", text(&list)),
            Benchmark::from_contents("user-v0/big", text(&big)),
        ],
    })
    .unwrap();
    let r = start(&mut s, "benchmark://user-v0/mixed", vec![obs::INVERSIONS]).unwrap();
    assert_eq!(r.observation, vec![Value::Int(slow)]);
    // 2 * 10^10 pairs: quadratic counting would not return.
    let r = start(&mut s, "benchmark://user-v0/big", vec![obs::INVERSIONS]).unwrap();
    assert_eq!(r.observation, vec![Value::Int(200_000 * 199_999 / 2)]);
}

#[wasm_bindgen_test(unsupported = test)]
fn requests_past_a_limit_are_limit_errors_and_the_service_goes_on() {
    let mut s = service();
    let id = start(&mut s, "benchmark://toy-v0/a", vec![]).unwrap().session_id;
    let mut event = json!({"int64Value": 1});
    for _ in 0..100 {
        event = json!({"eventList": {"event": [event]}});
    }
    let e = s.call_json("Step", &json!({"sessionId": id, "action": [event]})).unwrap_err();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert!(e.message().starts_with("Step request") && e.message().contains("40"), "{e}");
    let reply = s.call_json("Step", &json!({"sessionId": id, "action": [{"int64Value": 1}]})).unwrap();
    assert_eq!(reply["endOfSession"], json!(false));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_start_naming_one_space_many_times_gets_a_copy_each() {
    let mut s = service();
    let mut indices = vec![obs::INVERSIONS; 100_000];
    indices[7] = obs::INVERSIONS_O0;
    let reply = start(&mut s, "benchmark://toy-v0/b", indices).unwrap();
    assert_eq!(reply.observation.len(), 100_000);
    assert!(reply.observation.iter().enumerate().all(|(k, v)| k == 7 || v == &reply.observation[0]));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_step_naming_one_space_many_times_computes_it_once() {
    let mut s = service();
    let id = start(&mut s, "benchmark://toy-v0/b", vec![obs::LIST; 50]).unwrap().session_id;
    let computed = |s: &mut Service| {
        let key = SessionParameter { key: "toy.computed".into(), value: String::new() };
        let request = SendSessionParameterRequest { session_id: id, parameter: vec![key] };
        s.send_session_parameter(&request).unwrap().reply[0].clone()
    };
    assert_eq!(computed(&mut s), "1");
    let reply = step(&mut s, id, &[0], &[obs::LIST, obs::TEXT, obs::LIST, obs::LIST]).unwrap();
    assert_eq!(reply.observation.len(), 4);
    assert_eq!(
        (&reply.observation[0], &reply.observation[0]),
        (&reply.observation[2], &reply.observation[3])
    );
    assert_eq!(computed(&mut s), "3");
    let reply = step(&mut s, id, &[], &[obs::INVERSIONS; 1000]).unwrap();
    assert!(reply.observation.len() == 1000 && reply.observation.iter().all(|v| v == &reply.observation[0]));
    assert_eq!(computed(&mut s), "4");
}

#[wasm_bindgen_test(unsupported = test)]
fn copies_past_the_byte_budget_are_a_limit_error_before_any_is_made() {
    let mut s = service();
    let text = (0..100_000).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    s.add_benchmark(AddBenchmarkRequest { benchmark: vec![Benchmark::from_contents("user-v0/long", text)] })
        .unwrap();
    // 10^5 int64 elements are 800 KB; 1,000 copies would be 800 MB.
    let e = start(&mut s, "benchmark://user-v0/long", vec![obs::LIST; 1000]).unwrap_err();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert!(e.message().starts_with("1000 observations would take"), "{e}");
    let id = start(&mut s, "benchmark://user-v0/long", vec![obs::LIST; 10]).unwrap().session_id;
    let e = step(&mut s, id, &[], &[obs::LIST; 1000]).unwrap_err();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert_eq!(step(&mut s, id, &[], &[obs::LIST, obs::INVERSIONS]).unwrap().observation.len(), 2);
}
