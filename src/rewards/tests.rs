//! The generic reward kinds over the toy compiler's inversion count.

use super::*;
use crate::views::tests::{apply, toy_view};
use wasm_bindgen_test::wasm_bindgen_test;

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
