//! The per-arm bandit and the TimeStep API from JavaScript's side.
#![cfg(target_arch = "wasm32")]

use compgym::js::bandit::{JsLinUcb, JsPerArmBandit};
use js_sys::Function;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::js_values::{get, num, obj};

fn error_name(e: JsValue) -> String {
    get(&e, "name").as_string().unwrap()
}

fn error_message(e: &JsValue) -> String {
    get(e, "message").as_string().unwrap()
}

fn f64s(v: &JsValue) -> Vec<f64> {
    js_sys::Float64Array::new(v).to_vec()
}

fn linear_options(batch: f64, seed: f64, extra: &[(&str, JsValue)]) -> JsValue {
    let theta: js_sys::Array = [1.0, -1.0, 0.5, 2.0, -0.5].iter().map(|&x| num(x)).collect();
    let mut entries = vec![
        ("globalContextSamplingFn", obj(&[("kind", "gaussian".into()), ("dim", num(2.0))])),
        ("armContextSamplingFn", obj(&[("kind", "uniform".into()), ("dim", num(3.0)), ("low", num(-1.0))])),
        ("maxNumActions", num(4.0)),
        ("rewardFn", obj(&[("kind", "linear".into()), ("theta", theta.into()), ("noiseStd", num(0.1))])),
        ("batchSize", num(batch)),
        ("seed", num(seed)),
    ];
    entries.extend(extra.iter().cloned());
    obj(&entries)
}

#[wasm_bindgen_test]
fn built_in_bandit_steps_are_last_and_batched() {
    let env = JsPerArmBandit::new(linear_options(3.0, 7.0, &[])).unwrap();
    assert_eq!(
        (env.global_dim().unwrap(), env.arm_dim().unwrap(), env.max_num_actions().unwrap()),
        (2, 3, 4)
    );
    assert_eq!(env.batch_size().unwrap(), Some(3));
    let first = env.reset().unwrap();
    assert_eq!(js_sys::Int32Array::new(&get(&first, "stepType")).to_vec(), vec![0, 0, 0]);
    let obs = get(&first, "observation");
    assert_eq!(f64s(&get(&obs, "global")).len(), 3 * 2);
    assert_eq!(f64s(&get(&obs, "per_arm")).len(), 3 * 4 * 3);
    let actions: js_sys::Array = [0.0, 1.0, 3.0].iter().map(|&x| num(x)).collect();
    let step = env.step(actions.into()).unwrap();
    assert_eq!(js_sys::Int32Array::new(&get(&step, "stepType")).to_vec(), vec![2, 2, 2]);
    assert_eq!(js_sys::Float32Array::new(&get(&step, "discount")).to_vec(), vec![0.0, 0.0, 0.0]);
    assert_eq!(js_sys::Float32Array::new(&get(&step, "reward")).length(), 3);
    let spec = env.action_spec().unwrap();
    assert_eq!(get(&spec, "dtype").as_string().unwrap(), "int32");
    assert_eq!(get(&spec, "maximum").as_f64(), Some(3.0));
    env.validate(JsValue::from(3), JsValue::from(1)).unwrap();
}

#[wasm_bindgen_test]
fn same_seed_same_episode_and_state_replays() {
    let run = |seed: f64| {
        let env = JsPerArmBandit::new(linear_options(2.0, seed, &[])).unwrap();
        env.reset().unwrap();
        let ts = env.step(js_sys::Int32Array::from(&[1, 2][..]).into()).unwrap();
        f64s(&get(&get(&ts, "observation"), "global"))
    };
    assert_eq!(run(5.0), run(5.0));
    assert_ne!(run(5.0), run(6.0));

    let env = JsPerArmBandit::new(linear_options(2.0, 5.0, &[])).unwrap();
    env.reset().unwrap();
    let token = env.get_state().unwrap();
    let text = js_sys::JSON::stringify(&token).unwrap();
    let a = env.step(js_sys::Int32Array::from(&[0, 0][..]).into()).unwrap();
    env.set_state(js_sys::JSON::parse(&text.as_string().unwrap()).unwrap()).unwrap();
    let b = env.step(js_sys::Int32Array::from(&[0, 0][..]).into()).unwrap();
    assert_eq!(js_sys::JSON::stringify(&a).unwrap(), js_sys::JSON::stringify(&b).unwrap());
}

#[wasm_bindgen_test]
fn js_callbacks_draw_from_the_environment_rng() {
    let global = Function::new_with_args("rng", "return [rng.random(), rng.normal()]");
    let arm = Function::new_with_args("rng", "return new Float64Array([rng.random()])");
    let reward = Function::new_with_args("x, rng", "return x[0] + x[2] + 0 * rng.random()");
    let options = obj(&[
        ("globalContextSamplingFn", global.into()),
        ("armContextSamplingFn", arm.into()),
        ("maxNumActions", num(2.0)),
        ("rewardFn", reward.into()),
        ("seed", num(3.0)),
    ]);
    let a = JsPerArmBandit::new(options.clone()).unwrap();
    let b = JsPerArmBandit::new(options).unwrap();
    let (ta, tb) = (a.reset().unwrap(), b.reset().unwrap());
    assert_eq!(js_sys::JSON::stringify(&ta).unwrap(), js_sys::JSON::stringify(&tb).unwrap());
    let obs = get(&ta, "observation");
    let (g, arms) = (f64s(&get(&obs, "global")), f64s(&get(&obs, "per_arm")));
    let step = a.step(num(1.0)).unwrap();
    let r = get(&step, "reward")
        .as_f64()
        .or_else(|| Some(js_sys::Float32Array::new(&get(&step, "reward")).get_index(0) as f64))
        .unwrap();
    assert!((r - (g[0] + arms[1])).abs() < 1e-6, "reward {r} vs {}", g[0] + arms[1]);
}

#[wasm_bindgen_test]
fn bad_callbacks_and_actions_are_value_errors_that_name_them() {
    let wrong = Function::new_no_args("return 'nope'");
    let options = linear_options(1.0, 0.0, &[("globalContextSamplingFn", wrong.into())]);
    let error = JsPerArmBandit::new(options).err().unwrap();
    assert!(error_message(&error).contains("globalContextSamplingFn"), "{}", error_message(&error));
    assert_eq!(error_name(error), "ValueError");

    let throws = Function::new_no_args("throw new Error('boom')");
    let options = linear_options(1.0, 0.0, &[("armContextSamplingFn", throws.into())]);
    let error = JsPerArmBandit::new(options).err().unwrap();
    assert!(error_message(&error).contains("armContextSamplingFn threw: boom"), "{}", error_message(&error));

    let missing = obj(&[("maxNumActions", num(2.0))]);
    assert_eq!(error_name(JsPerArmBandit::new(missing).err().unwrap()), "TypeError");

    let env = JsPerArmBandit::new(linear_options(2.0, 0.0, &[])).unwrap();
    env.reset().unwrap();
    assert_eq!(error_name(env.step(num(1.0)).unwrap_err()), "ValueError"); // one action for a batch of 2
    let out_of_range = js_sys::Int32Array::from(&[0, 4][..]);
    assert_eq!(error_name(env.step(out_of_range.into()).unwrap_err()), "ValueError");
    assert_eq!(
        error_name(env.step(js_sys::Array::of2(&num(0.5), &num(1.0)).into()).unwrap_err()),
        "ValueError"
    );
    assert_eq!(error_name(env.set_state(obj(&[("kind", "other".into())])).unwrap_err()), "ValueError");
    // The environment still works after every error.
    env.step(js_sys::Int32Array::from(&[0, 3][..]).into()).unwrap();
}

#[wasm_bindgen_test]
fn num_actions_limits_the_arms() {
    let n = obj(&[("kind", "uniform".into()), ("low", num(1.0)), ("high", num(2.0))]);
    let env = JsPerArmBandit::new(linear_options(4.0, 2.0, &[("numActionsFn", n)])).unwrap();
    let ts = env.reset().unwrap();
    let available = js_sys::Int32Array::new(&get(&get(&ts, "observation"), "num_actions")).to_vec();
    assert!(available.iter().all(|&k| (1..=2).contains(&k)));
    let optimal = env.optimal_actions().unwrap().to_vec();
    assert!(optimal.iter().zip(&available).all(|(&a, &k)| a < k));
    env.validate(JsValue::from(4), JsValue::from(0)).unwrap();
}

#[wasm_bindgen_test]
fn linucb_beats_random_on_the_linear_bandit() {
    let regret = |learn: bool| {
        let env = JsPerArmBandit::new(linear_options(1.0, 11.0, &[])).unwrap();
        let mut agent = JsLinUcb::new(JsValue::from(5), JsValue::from(1.0), JsValue::from(1.0)).unwrap();
        let mut rng = compgym::rng::Rng::seed_from_u64(4);
        env.reset().unwrap();
        let mut total = 0.0;
        for _ in 0..600 {
            let best = env.optimal_expected_rewards().unwrap().get_index(0);
            let action = if learn { agent.act(&env).unwrap().get_index(0) } else { rng.below(4) as i32 };
            let got = env.expected_rewards(num(action as f64)).unwrap().get_index(0);
            total += best - got;
            let ts = env.step(num(action as f64)).unwrap();
            if learn {
                agent.learn(get(&ts, "reward")).unwrap();
            }
        }
        total
    };
    let (smart, random) = (regret(true), regret(false));
    assert!(smart < 0.3 * random, "LinUCB regret {smart} vs random {random}");
}

#[wasm_bindgen_test]
fn unsupported_methods_say_not_implemented() {
    let env = JsPerArmBandit::new(linear_options(1.0, 0.0, &[])).unwrap();
    let error = env.render(JsValue::UNDEFINED).unwrap_err();
    assert!(error_message(&error).starts_with("NotImplemented"), "{}", error_message(&error));
    assert!(error.is_instance_of::<js_sys::Error>());
}
