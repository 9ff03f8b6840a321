//! Views over the toy compiler.

use super::*;
use crate::compilers::toy::{obs, ToyBackend};
use crate::rewards::{CostReward, Reward, RewardView};
use crate::service::{Benchmark, Service, StartSessionRequest};
use crate::spaces::{RewardSpace, Scalar};
use crate::value::{DType, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

/// A view on a fresh toy session on `uri`.
pub(crate) fn toy_view(uri: &str) -> ObservationView {
    let service = Rc::new(RefCell::new(Service::new(Box::new(ToyBackend))));
    let request = StartSessionRequest {
        benchmark: Benchmark::from_uri(uri),
        action_space: 1,
        observation_space: vec![],
    };
    let id = service.borrow_mut().start_session(&request).unwrap().session_id;
    let spaces = service.borrow().observation_spaces().to_vec();
    let link = SessionLink::new(service);
    link.set_session_id(Some(id));
    ObservationView::new(link, &spaces)
}

/// Applies toy moves (bubble 0, reverse 1, rotate 2, end 3).
pub(crate) fn apply(view: &ObservationView, actions: &[i64]) {
    let actions: Vec<Value> = actions.iter().map(|&a| Value::Int(a)).collect();
    view.link().step_into(&actions, &[], &mut Vec::new()).unwrap();
}

fn inversions_times(k: i64) -> Translate {
    Rc::new(move |v: Value| Ok(Value::Int(v.as_int().unwrap_or(0) * k)))
}

#[wasm_bindgen_test(unsupported = test)]
fn observations_are_computed_on_demand() {
    let view = toy_view("toy-v0/b");
    assert_eq!(view.spaces().len(), 5);
    assert_eq!(view.get("Inversions").unwrap(), Value::Int(10));
    apply(&view, &[1]);
    assert_eq!(view.get("Inversions").unwrap(), Value::Int(0));
    assert_eq!(view.get("InversionsO0").unwrap(), Value::Int(10));
    assert_eq!(view.spec("Text").unwrap().format(&view.get("Text").unwrap()).unwrap(), "1 2 3 4 5");
    assert_eq!(view.spec("Inversions").unwrap().format(&Value::Int(3)).unwrap(), "3");
    assert!(view.spec("List").unwrap().deterministic);
}

#[wasm_bindgen_test(unsupported = test)]
fn observation_errors() {
    let view = toy_view("toy-v0/b");
    assert_eq!(view.get("Nope").unwrap_err().name(), "LookupError");
    let id = view.link().session_id();
    view.link().set_session_id(None);
    assert_eq!(view.get("Inversions").unwrap_err().name(), "SessionNotFound");
    view.link().set_session_id(id);
    let session = id.unwrap();
    let parameter =
        vec![crate::service::SessionParameter { key: "toy.fail".into(), value: "observation".into() }];
    let request = crate::service::SendSessionParameterRequest { session_id: session, parameter };
    view.link().with_service(|s| s.send_session_parameter(&request)).unwrap();
    assert_eq!(view.get("Inversions").unwrap_err().name(), "ServiceError");
    assert_eq!(view.get("Inversions").unwrap(), Value::Int(10));
    // A re-entrant use of the service is an error, not a panic.
    let inner = view.link().with_service(|_| Ok(view.get("Inversions")));
    assert_eq!(inner.unwrap().unwrap_err().name(), "ServiceError");
}

#[wasm_bindgen_test(unsupported = test)]
fn derived_spaces_translate_inherit_and_chain() {
    let mut view = toy_view("toy-v0/b");
    view.add_derived_space("Double", "Inversions", inversions_times(2), DerivedSpaceOptions::default())
        .unwrap();
    let spec = view.spec("Double").unwrap();
    assert_eq!(
        (spec.index, spec.deterministic, spec.default_value.clone()),
        (obs::INVERSIONS, true, Value::Int(0))
    );
    assert_eq!(view.get("Double").unwrap(), Value::Int(20));
    // Derived from a derived space: translations compose.
    let options = DerivedSpaceOptions {
        space: Some(Scalar::new("Sextuple", Some(0.0), None, DType::I64).unwrap().into()),
        deterministic: Some(false),
        default_value: Some(Value::Int(-1)),
        platform_dependent: Some(true),
        to_string: Some(Rc::new(|v: &Value| Ok(format!("<{}>", v.as_int().unwrap_or(0))))),
    };
    view.add_derived_space("Sextuple", "Double", inversions_times(3), options).unwrap();
    let spec = view.spec("Sextuple").unwrap();
    assert_eq!(view.get("Sextuple").unwrap(), Value::Int(60));
    assert_eq!(
        (spec.deterministic, spec.platform_dependent, spec.default_value.clone()),
        (false, true, Value::Int(-1))
    );
    assert_eq!(spec.format(&Value::Int(6)).unwrap(), "<6>");
    assert_eq!(spec.space.name(), "Sextuple");
    // A failing translation is the translation's error.
    let failing: Translate = Rc::new(|_| Err(crate::Error::type_error("no")));
    view.add_derived_space("Broken", "Text", failing, DerivedSpaceOptions::default()).unwrap();
    assert_eq!(view.spec("Broken").unwrap().default_value, Value::None);
    assert_eq!(view.get("Broken").unwrap_err().name(), "TypeError");
    assert_eq!(
        view.add_derived_space("X", "Nope", inversions_times(1), DerivedSpaceOptions::default())
            .unwrap_err()
            .name(),
        "LookupError"
    );
    assert_eq!(
        view.add_derived_space("", "Text", inversions_times(1), DerivedSpaceOptions::default())
            .unwrap_err()
            .name(),
        "ValueError"
    );
    // Clones share specs until one adds a space.
    let mut other = view.clone();
    other
        .add_derived_space("Only", "Inversions", inversions_times(1), DerivedSpaceOptions::default())
        .unwrap();
    assert!(view.spec("Only").is_err() && other.spec("Only").is_ok());
}

fn delta(name: &str) -> Box<dyn Reward> {
    Box::new(CostReward::delta(RewardSpace::new(name).unwrap(), "Inversions").with_init_cost("InversionsO0"))
}

#[wasm_bindgen_test(unsupported = test)]
fn reward_view_gets_adds_and_resets() {
    let view = toy_view("toy-v0/b");
    let mut rewards = RewardView::new(vec![delta("r"), delta("s")]);
    assert_eq!(rewards.spaces().len(), 2);
    rewards.reset("benchmark://toy-v0/b", &view).unwrap();
    apply(&view, &[0]); // one bubble pass: 10 -> 6
    assert_eq!(rewards.get("r", &view).unwrap(), 4.0);
    assert_eq!(rewards.get("r", &view).unwrap(), 0.0, "incremental: nothing happened since");
    assert_eq!(rewards.get("s", &view).unwrap(), 4.0);
    assert_eq!(rewards.get("nope", &view).unwrap_err().name(), "LookupError");
    // Adding a reward with a known name replaces it.
    rewards.add_space(Box::new(CostReward::normalized(RewardSpace::new("r").unwrap(), "Inversions")));
    assert_eq!(rewards.spaces().len(), 2);
    rewards.reset("benchmark://toy-v0/b", &view).unwrap();
    apply(&view, &[0]); // 6 -> 3
    assert_eq!(rewards.get("r", &view).unwrap(), 0.5);
    // Clones carry state.
    let mut fork = rewards.clone();
    apply(&view, &[1]); // reverse: 3 -> 7
    assert_eq!(fork.get("r", &view).unwrap(), rewards.get("r", &view).unwrap());
}
