//! The generic reward kinds over the toy compiler's inversion count.

use super::*;
use crate::compilers::toy::ToyBackend;
use crate::service::{AddBenchmarkRequest, Benchmark, Service, StartSessionRequest};
use crate::views::tests::{apply, toy_view};
use crate::views::SessionLink;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

/// A view on a toy session on a list of our own.
fn toy_view_of(list: &str) -> ObservationView {
    let mut service = Service::new(Box::new(ToyBackend));
    let benchmark = Benchmark::from_contents("benchmark://user-v0/list", list);
    service.add_benchmark(AddBenchmarkRequest { benchmark: vec![benchmark.clone()] }).unwrap();
    let request = StartSessionRequest {
        benchmark: Benchmark::from_uri(&benchmark.uri),
        action_space: 1,
        observation_space: vec![],
    };
    let id = service.start_session(&request).unwrap().session_id;
    let spaces = service.observation_spaces().to_vec();
    let link = SessionLink::new(Rc::new(RefCell::new(service)));
    link.set_session_id(Some(id));
    ObservationView::new(link, &spaces)
}

fn space(name: &str) -> RewardSpace {
    RewardSpace::new(name).unwrap()
}

fn update(r: &mut dyn Reward, view: &ObservationView) -> f64 {
    let cost = view.get("Inversions").unwrap();
    r.update(&[], &[cost], view).unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn delta_is_previous_minus_cost() {
    for mut r in [
        CostReward::delta(space("d"), "Inversions"),
        CostReward::delta(space("d"), "Inversions").with_init_cost("InversionsO0"),
    ] {
        let view = toy_view("toy-v0/b"); // 5 4 3 2 1: 10 inversions
        assert_eq!(r.space().observation_spaces(), ["Inversions"]);
        r.reset("b", &view).unwrap();
        apply(&view, &[0]); // 4 3 2 1 5: 6
        assert_eq!(update(&mut r, &view), 4.0);
        apply(&view, &[1]); // 5 1 2 3 4: 4
        assert_eq!(update(&mut r, &view), 2.0);
        apply(&view, &[1]); // back to 6
        assert_eq!(update(&mut r, &view), -2.0);
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn normalized_divides_by_the_initial_cost() {
    let view = toy_view("toy-v0/b");
    let mut r = CostReward::normalized(space("n"), "Inversions").with_init_cost("InversionsO0");
    r.reset("b", &view).unwrap();
    apply(&view, &[0]);
    assert_eq!(update(&mut r, &view), 0.4);
    // A sorted program has cost 0: the divisor falls back to 1.
    let sorted = toy_view("toy-v0/sorted");
    let mut r = CostReward::normalized(space("n"), "Inversions");
    r.reset("s", &sorted).unwrap();
    apply(&sorted, &[1]); // 3 2 1: 3 inversions
    assert_eq!(update(&mut r, &sorted), -3.0);
}

#[wasm_bindgen_test(unsupported = test)]
fn baseline_relative_earns_one_for_matching_the_baseline() {
    let view = toy_view("toy-v0/b"); // O0 10, one bubble pass (the baseline) 6
    let mut r = CostReward::baseline_relative(space("b"), "Inversions", "InversionsO0", "InversionsO1");
    r.reset("b", &view).unwrap();
    apply(&view, &[0]);
    assert_eq!(update(&mut r, &view), 1.0);
    apply(&view, &[0]); // 6 -> 3
    assert_eq!(update(&mut r, &view), 0.75);
    // When the baseline does no better than O0 the divisor is 1.
    let sorted = toy_view("toy-v0/sorted");
    let mut r = CostReward::baseline_relative(space("b"), "Inversions", "InversionsO0", "InversionsO1");
    r.reset("s", &sorted).unwrap();
    apply(&sorted, &[1]);
    assert_eq!(update(&mut r, &sorted), -3.0);
}

#[wasm_bindgen_test(unsupported = test)]
fn the_baseline_divisor_is_floored_at_a_share_of_the_initial_cost() {
    assert_eq!(cost::baseline_divisor(100.0, 60.0), 40.0, "a real improvement divides as it is");
    assert_eq!(cost::baseline_divisor(100.0, 99.0), 5.0, "one instruction of 100 counts as 5");
    assert_eq!(cost::baseline_divisor(100.0, 100.0), 5.0, "no improvement at all too");
    assert_eq!(cost::baseline_divisor(10.0, 10.0), 1.0, "and never below 1");
    assert_eq!(cost::baseline_divisor(10.0, 12.0), 1.0, "a baseline that makes things worse");
}

#[wasm_bindgen_test(unsupported = test)]
fn a_baseline_that_barely_improves_is_measured_by_the_floor() {
    // 50 down to 1: 1225 inversions; one bubble pass (the baseline) removes
    // 49 of them, 4%, so the divisor is 5% of 1225.
    let list: Vec<String> = (1..=50).rev().map(|i| i.to_string()).collect();
    let view = toy_view_of(&list.join(" "));
    let mut r = CostReward::baseline_relative(space("b"), "Inversions", "InversionsO0", "InversionsO1");
    r.reset("b", &view).unwrap();
    apply(&view, &[0]); // 49 .. 1 50: 1176
    assert_eq!(update(&mut r, &view), 49.0 / 61.25);
    apply(&view, &[1]); // 50 1 .. 49: 49
    assert_eq!(update(&mut r, &view), (1176.0 - 49.0) / 61.25);
}

#[wasm_bindgen_test(unsupported = test)]
fn state_is_cloned_and_reset() {
    let view = toy_view("toy-v0/b");
    let mut r: Box<dyn Reward> = Box::new(CostReward::delta(space("d"), "Inversions"));
    r.reset("b", &view).unwrap();
    apply(&view, &[0]);
    let mut copy = r.clone();
    assert_eq!(update(r.as_mut(), &view), 4.0);
    assert_eq!(update(copy.as_mut(), &view), 4.0, "the clone kept its own previous cost");
    r.reset("b", &view).unwrap();
    assert_eq!(update(r.as_mut(), &view), 0.0);
}

#[wasm_bindgen_test(unsupported = test)]
fn errors_and_error_rewards() {
    let view = toy_view("toy-v0/b");
    let mut r = CostReward::delta(space("d"), "Text");
    assert_eq!(r.reset("b", &view).unwrap_err().name(), "TypeError");
    let mut r = CostReward::delta(space("d"), "Nope");
    assert_eq!(r.reset("b", &view).unwrap_err().name(), "LookupError");
    let r = CostReward::delta(
        space("d").with_default_value(-5.0).with_default_negates_returns(true),
        "Inversions",
    );
    assert_eq!(r.reward_on_error(2.0), -7.0);
    let r = CostReward::delta(space("d").with_default_value(-5.0), "Inversions");
    assert_eq!(r.reward_on_error(2.0), -5.0);
    assert_eq!(r.name(), "d");
}
