//! The compiler bandit, the TimeStep adapter over compiler environments and
//! `validateEnvironment`, from JavaScript's side.
#![cfg(target_arch = "wasm32")]

use compgym::js::bandit::JsPerArmBandit;
use compgym::js::compiler_bandit::JsCompilerBandit;
use compgym::js::compiler_timestep::JsCompilerTimeStep;
use compgym::js::validate::validate_environment;
use js_sys::JSON;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::js_values::{get, num, obj};

fn error_name(e: &JsValue) -> String {
    get(e, "name").as_string().unwrap()
}

fn ints(v: &JsValue) -> Vec<i32> {
    js_sys::Int32Array::new(v).to_vec()
}

fn floats(v: &JsValue) -> Vec<f32> {
    js_sys::Float32Array::new(v).to_vec()
}

fn bandit(seed: f64, batch: f64) -> JsCompilerBandit {
    JsCompilerBandit::new(obj(&[("seed", num(seed)), ("batchSize", num(batch))])).unwrap()
}

fn pair(a: i32, b: i32) -> JsValue {
    js_sys::Int32Array::from(&[a, b][..]).into()
}

#[wasm_bindgen_test]
fn compiler_bandit_steps_are_last_and_rewards_match_the_helpers() {
    let env = bandit(3.0, 2.0);
    let k = env.num_arms().unwrap();
    assert_eq!(env.arm_names().unwrap().len(), k as usize);
    assert_eq!(env.arm_names().unwrap()[0], "-dce");
    assert_eq!(env.arm_dim().unwrap(), k + env.property_names().len() as u32);
    assert!(env.current_programs().unwrap().is_none());
    let first = env.reset().unwrap();
    assert_eq!(ints(&get(&first, "stepType")), [0, 0]);
    let obs = get(&first, "observation");
    assert_eq!(js_sys::Float64Array::new(&get(&obs, "global")).length(), 2 * env.global_dim().unwrap());
    assert_eq!(js_sys::Float64Array::new(&get(&obs, "per_arm")).length(), 2 * k * env.arm_dim().unwrap());
    assert_eq!(env.current_programs().unwrap().unwrap().len(), 2);
    let expected = env.expected_rewards(pair(0, 1)).unwrap().to_vec();
    let best = env.optimal_expected_rewards().unwrap().to_vec();
    assert!(expected.iter().zip(&best).all(|(e, b)| e <= b));
    assert_eq!(env.optimal_actions().unwrap().length(), 2);
    let step = env.step(pair(0, 1)).unwrap();
    assert_eq!(ints(&get(&step, "stepType")), [2, 2]);
    assert_eq!(floats(&get(&step, "discount")), [0.0, 0.0]);
    assert_eq!(floats(&get(&step, "reward")), expected.iter().map(|&r| r as f32).collect::<Vec<_>>());
    assert_eq!(get(&env.action_spec().unwrap(), "maximum").as_f64(), Some((k - 1) as f64));
    env.validate(JsValue::from(2), JsValue::from(1)).unwrap();
}

#[wasm_bindgen_test]
fn compiler_bandit_replays_by_seed_and_by_state() {
    let run = |seed: f64| {
        let env = bandit(seed, 2.0);
        env.reset().unwrap();
        let ts = env.step(pair(2, 3)).unwrap();
        (env.current_programs().unwrap(), floats(&get(&ts, "reward")))
    };
    assert_eq!(run(8.0), run(8.0));

    let a = bandit(1.0, 2.0);
    a.reset().unwrap();
    let token = JSON::parse(&JSON::stringify(&a.get_state().unwrap()).unwrap().as_string().unwrap()).unwrap();
    let b = bandit(99.0, 2.0);
    b.set_state(token).unwrap();
    assert_eq!(a.current_programs().unwrap(), b.current_programs().unwrap());
    let (sa, sb) = (a.step(pair(4, 5)).unwrap(), b.step(pair(4, 5)).unwrap());
    assert_eq!(floats(&get(&sa, "reward")), floats(&get(&sb, "reward")));
    let bad = obj(&[("kind", "nope".into())]);
    assert_eq!(error_name(&b.set_state(bad).unwrap_err()), "ValueError");
}

#[wasm_bindgen_test]
fn compiler_bandit_errors_are_typed_and_leave_it_working() {
    let names: js_sys::Array = ["fib-iter", "dead-code"].iter().map(|&n| JsValue::from_str(n)).collect();
    let env = JsCompilerBandit::new(obj(&[("programs", names.into())])).unwrap();
    assert_eq!(env.program_names().unwrap(), ["fib-iter", "dead-code"]);
    assert_eq!(error_name(&env.optimal_actions().unwrap_err()), "ValueError");
    env.reset().unwrap();
    let e = env.step(num(99.0)).unwrap_err();
    assert_eq!(error_name(&e), "ValueError");
    assert!(get(&e, "message").as_string().unwrap().contains("out of range"));
    assert_eq!(error_name(&env.step(pair(0, 1)).unwrap_err()), "ValueError");
    assert_eq!(ints(&get(&env.step(num(0.0)).unwrap(), "stepType")), [2]);

    let unknown: js_sys::Array = [JsValue::from_str("no-such-program")].into_iter().collect();
    let e = JsCompilerBandit::new(obj(&[("programs", unknown.into())])).err().unwrap();
    assert_eq!(error_name(&e), "LookupError");
    let e = JsCompilerBandit::new(obj(&[("programs", "fib-iter".into())])).err().unwrap();
    assert_eq!(error_name(&e), "TypeError");
    let e = JsCompilerBandit::new(obj(&[("batchSize", num(0.0))])).err().unwrap();
    assert_eq!(error_name(&e), "ValueError");
    assert_eq!(error_name(&JsCompilerBandit::new(num(5.0)).err().unwrap()), "TypeError");
}

fn adapter(extra: &[(&str, JsValue)]) -> JsCompilerTimeStep {
    let mut entries = vec![
        ("benchmark", JsValue::from_str("benchmark://suite-v0/fib-iter")),
        ("observationSpace", JsValue::from_str("IrInstructionCount")),
        ("maxEpisodeSteps", num(2.0)),
    ];
    entries.extend(extra.iter().cloned());
    JsCompilerTimeStep::new(JsValue::from("bril-ic-v0"), obj(&entries)).unwrap()
}

#[wasm_bindgen_test]
fn the_adapter_follows_tf_agents_step_types_and_discounts() {
    let env = adapter(&[]);
    let first = env.reset().unwrap();
    assert_eq!(get(&first, "stepType").as_f64(), Some(0.0));
    assert_eq!((get(&first, "reward").as_f64(), get(&first, "discount").as_f64()), (Some(0.0), Some(1.0)));
    let mid = env.step(num(0.0)).unwrap();
    assert_eq!(get(&mid, "stepType").as_f64(), Some(1.0));
    let info = env.get_info().unwrap();
    assert!(get(&info, "actionHadNoEffect").as_bool().is_some());
    assert!(get(&info, "error").is_null() || get(&info, "error").is_undefined());
    let last = env.step(num(1.0)).unwrap();
    assert_eq!((get(&last, "stepType").as_f64(), get(&last, "discount").as_f64()), (Some(2.0), Some(1.0)));
    assert_eq!(env.commandline().unwrap(), "-dce -lvn");
    assert!(env.should_reset().unwrap());
    assert_eq!(get(&env.step(num(0.0)).unwrap(), "stepType").as_f64(), Some(0.0));
    assert_eq!(get(&env.action_spec().unwrap(), "dtype").as_string().unwrap(), "int64");
    assert_eq!(get(&env.reward_spec().unwrap(), "dtype").as_string().unwrap(), "float64");
}

#[wasm_bindgen_test]
fn the_adapter_state_replays_and_errors_are_typed() {
    let env = adapter(&[("maxEpisodeSteps", JsValue::NULL)]);
    env.reset().unwrap();
    env.step(num(1.0)).unwrap();
    let token =
        JSON::parse(&JSON::stringify(&env.get_state().unwrap()).unwrap().as_string().unwrap()).unwrap();
    let other = adapter(&[("maxEpisodeSteps", JsValue::NULL)]);
    other.set_state(token).unwrap();
    assert_eq!(other.commandline().unwrap(), "-lvn");
    let (a, b) = (env.step(num(0.0)).unwrap(), other.step(num(0.0)).unwrap());
    assert_eq!(get(&a, "observation").as_f64(), get(&b, "observation").as_f64());
    assert_eq!(get(&a, "reward").as_f64(), get(&b, "reward").as_f64());

    assert_eq!(error_name(&env.step(num(99.0)).unwrap_err()), "ValueError");
    assert_eq!(error_name(&env.step(num(0.5)).unwrap_err()), "ValueError");
    assert_eq!(error_name(&env.step("x".into()).unwrap_err()), "TypeError");
    let e = JsCompilerTimeStep::new(JsValue::from("no-such-env"), JsValue::UNDEFINED).err().unwrap();
    assert_eq!(error_name(&e), "LookupError");
    let e = JsCompilerTimeStep::new(JsValue::from("bril-ic-v0"), obj(&[("observationSpace", "Ir".into())]))
        .err()
        .unwrap();
    assert_eq!(error_name(&e), "TypeError");
    let e = JsCompilerTimeStep::new(JsValue::from("bril-ic-v0"), obj(&[("maxEpisodeSteps", "x".into())]))
        .err()
        .unwrap();
    assert_eq!(error_name(&e), "TypeError");
    // The environment still works after all that.
    assert_eq!(get(&env.step(num(2.0)).unwrap(), "stepType").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn a_compiler_failure_ends_the_episode_with_the_error_in_the_info() {
    let env = adapter(&[("observationSpace", "DynamicInstructionCount".into())]);
    env.reset().unwrap();
    env.send_param(JsValue::from("bril.fuel"), JsValue::from("1")).unwrap();
    let failed = env.step(num(0.0)).unwrap();
    assert_eq!(
        (get(&failed, "stepType").as_f64(), get(&failed, "discount").as_f64()),
        (Some(2.0), Some(0.0))
    );
    let error = get(&env.get_info().unwrap(), "error");
    assert_eq!(get(&error, "name").as_string().unwrap(), "ServiceError");
    assert_eq!(get(&env.step(num(0.0)).unwrap(), "stepType").as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
fn validate_environment_takes_every_time_step_environment() {
    let compiler: JsValue = bandit(2.0, 3.0).into();
    validate_environment(&compiler, JsValue::from(3)).unwrap();
    let env = adapter(&[("observationSpace", "Autophase".into())]);
    env.seed(num(4.0)).unwrap();
    validate_environment(&env.into(), JsValue::from(2)).unwrap();
    let stationary = JsPerArmBandit::new(obj(&[
        ("globalContextSamplingFn", obj(&[("kind", "gaussian".into()), ("dim", num(2.0))])),
        ("armContextSamplingFn", obj(&[("kind", "uniform".into()), ("dim", num(2.0))])),
        ("maxNumActions", num(3.0)),
        ("rewardFn", obj(&[("kind", "linear".into()), ("theta", JSON::parse("[1,2,3,4]").unwrap())])),
    ]))
    .unwrap();
    validate_environment(&stationary.into(), JsValue::UNDEFINED).unwrap();
    let endless = adapter(&[("maxEpisodeSteps", JsValue::NULL)]);
    assert_eq!(
        error_name(&endless.validate(JsValue::from(1), JsValue::UNDEFINED).unwrap_err()),
        "ValueError"
    );
    let e = validate_environment(&obj(&[]), JsValue::from(1)).unwrap_err();
    assert_eq!(error_name(&e), "TypeError");
}
