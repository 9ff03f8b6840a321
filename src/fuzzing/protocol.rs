//! Protocol requests through `Service::call_json`, as JavaScript sends them.

use super::{expect_kind, text};
use crate::compilers::backend;
use crate::error::ErrorKind;
use crate::service::{Service, METHODS};
use serde_json::{json, Value as Json};

/// The most requests one input sends.
const MAX_REQUESTS: usize = 16;

/// The input is lines of `Method {json}` (any method name, any JSON, or
/// text that is no JSON at all). A first line `bril` serves the Bril
/// compiler, anything else the toy one; a session on a known benchmark is
/// started first so that session ids mean something. Every error must be
/// typed, and after all of them the service must still answer valid calls.
pub fn protocol(data: &[u8]) {
    let input = text(data);
    let mut lines = input.lines().peekable();
    let compiler = if lines.peek() == Some(&"bril") {
        lines.next();
        "bril"
    } else {
        "toy"
    };
    let mut service = Service::new(backend(compiler).expect("a known compiler"));
    let benchmark = if compiler == "bril" { "benchmark://suite-v0/fib-iter" } else { "benchmark://toy-v0/b" };
    let start = json!({"benchmark": {"uri": benchmark}, "observationSpace": [0]});
    service.call_json("StartSession", &start).expect("a known benchmark starts");
    for line in lines.take(MAX_REQUESTS) {
        let (method, request) = line.split_once(' ').unwrap_or((line, "{}"));
        let request = serde_json::from_str(request).unwrap_or_else(|_| Json::String(request.into()));
        if let Err(e) = service.call_json(method, &request) {
            let allowed: &[ErrorKind] = if METHODS.contains(&method) {
                &[
                    ErrorKind::Value,
                    ErrorKind::SessionNotFound,
                    ErrorKind::BenchmarkInit,
                    ErrorKind::Service,
                    ErrorKind::Limit,
                    ErrorKind::Lookup,
                ]
            } else {
                &[ErrorKind::Lookup]
            };
            expect_kind(&e, allowed, method);
        }
    }
    // The service keeps working: a new session steps and ends.
    let reply = service.call_json("StartSession", &start).expect("StartSession after the input");
    let id = reply["sessionId"].clone();
    let step = json!({"sessionId": id, "action": [{"int64Value": 0}], "observationSpace": [0]});
    let stepped = service.call_json("Step", &step).expect("Step after the input");
    assert!(stepped["observation"].as_array().is_some_and(|o| o.len() == 1), "{stepped}");
    service.call_json("EndSession", &json!({"sessionId": id})).expect("EndSession after the input");
    service.call_json("GetVersion", &json!({})).expect("GetVersion after the input");
}
