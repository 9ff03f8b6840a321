use super::*;
use crate::bandit::functions::{GaussianContext, LinearNormalReward, UniformNumActions};
use crate::bandit::linucb::LinUcb;
use crate::bandit::observation::actions_value;
use crate::env::validate::{validate_environment, validate_environment_with_policy};
use crate::env::StepType;
use crate::value::{Array, ArrayData, DType};
use wasm_bindgen_test::wasm_bindgen_test;

const K: usize = 6;
const THETA: [f64; 7] = [0.3, -0.2, 0.1, 1.0, -0.8, 0.6, 0.4];

fn linear(seed: u64, batch: usize, noise: f64) -> StationaryStochasticPerArmBuilder {
    StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(3, 0.0, 1.0).unwrap(),
        GaussianContext::new(4, 0.0, 1.0).unwrap(),
        K,
        LinearNormalReward::new(THETA.to_vec(), noise).unwrap(),
    )
    .batch_size(batch)
    .seed(seed)
}

fn env(seed: u64, batch: usize) -> StationaryStochasticPerArmEnvironment {
    linear(seed, batch, 0.1).build().unwrap()
}

fn actions(a: &[i32]) -> Value {
    Value::Array(Array::vector(ArrayData::I32(a.to_vec())))
}

fn shape_of(v: &Value, key: &str) -> Vec<usize> {
    v.get(key).unwrap().as_array().unwrap().shape().to_vec()
}

#[wasm_bindgen_test(unsupported = test)]
fn specs_follow_the_first_samples_and_max_num_actions() {
    let e = env(1, 2);
    assert_eq!((e.global_dim(), e.arm_dim()), (3, 4));
    assert!(e.batched());
    assert_eq!(e.batch_size(), Some(2));
    let Spec::Bounded(a) = e.action_spec() else { panic!("the action spec is bounded") };
    assert_eq!((a.dtype(), a.shape()), (DType::I32, &[][..]));
    assert_eq!(a.maximum_array().unwrap().data(), &ArrayData::I32(vec![K as i32 - 1]));
    let obs = e.observation_spec();
    assert_eq!(obs.get("global").unwrap().array_spec().unwrap().shape(), [3]);
    assert_eq!(obs.get("per_arm").unwrap().array_spec().unwrap().shape(), [K, 4]);
    assert!(obs.get("num_actions").is_none());
    let with_n = linear(1, 2, 0.1).num_actions_fn(UniformNumActions::new(1, 3).unwrap()).build().unwrap();
    let Some(Spec::Bounded(n)) = with_n.observation_spec().get("num_actions").cloned() else {
        panic!("num_actions is a bounded spec")
    };
    assert_eq!(n.minimum_array().unwrap().data(), &ArrayData::I32(vec![1]));
    assert_eq!(n.maximum_array().unwrap().data(), &ArrayData::I32(vec![K as i32]));
}

#[wasm_bindgen_test(unsupported = test)]
fn reset_is_first_and_every_step_is_last_with_the_next_observation() {
    for batch in [1, 3] {
        let mut e = linear(5, batch, 0.0).build().unwrap();
        let first = e.reset().unwrap();
        assert!(first.is_first());
        assert_eq!(first.rewards().unwrap(), vec![0.0; batch]);
        assert_eq!(first.discounts().unwrap(), vec![1.0; batch]);
        assert_eq!(shape_of(&first.observation, "global"), [batch, 3]);
        assert_eq!(shape_of(&first.observation, "per_arm"), [batch, K, 4]);

        let chosen: Vec<i32> = (0..batch as i32).map(|b| b % K as i32).collect();
        let idx: Vec<usize> = chosen.iter().map(|&a| a as usize).collect();
        let expected = e.expected_rewards(&idx).unwrap();
        let ts = e.step(&actions(&chosen)).unwrap();
        assert_eq!(ts.step_types().unwrap(), vec![StepType::Last; batch]);
        assert_eq!(ts.discounts().unwrap(), vec![0.0; batch]);
        // Noiseless: the reward is theta · [global, arm], as float32.
        let want: Vec<f64> = expected.iter().map(|&r| r as f32 as f64).collect();
        assert_eq!(ts.rewards().unwrap(), want);
        assert_ne!(ts.observation, first.observation);
        assert_eq!(Some(&ts.observation), e.observation().map(|o| o.to_value().unwrap()).as_ref());
        // No auto-reset: the next step acts on the observation just returned.
        assert!(e.step(&actions(&chosen)).unwrap().is_last());
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn a_step_before_reset_resets_and_ignores_the_action() {
    let mut e = env(2, 1);
    let ts = e.step(&actions(&[99])).unwrap();
    assert!(ts.is_first());
    assert_eq!(ts, env(2, 1).reset().unwrap());
}

fn trajectory(e: &mut StationaryStochasticPerArmEnvironment, steps: usize) -> Vec<TimeStep> {
    let mut out = vec![e.reset().unwrap()];
    let batch = e.batch_size().unwrap();
    for t in 0..steps {
        let a: Vec<i32> = (0..batch).map(|b| ((t + b) % K) as i32).collect();
        out.push(e.step(&actions(&a)).unwrap());
    }
    out
}

#[wasm_bindgen_test(unsupported = test)]
fn the_same_seed_gives_identical_observations_and_rewards() {
    let a = trajectory(&mut env(7, 2), 5);
    assert_eq!(a, trajectory(&mut env(7, 2), 5));
    assert_ne!(a, trajectory(&mut env(8, 2), 5));
    // Reseeding an existing environment gives a fresh environment's episode.
    let mut other = env(8, 2);
    trajectory(&mut other, 3);
    other.seed(7).unwrap();
    assert_eq!(a, trajectory(&mut other, 5));
}

#[wasm_bindgen_test(unsupported = test)]
fn actions_must_match_the_batch_and_the_available_arms() {
    let mut e = linear(3, 2, 0.1).num_actions_fn(|_: &mut Rng| Ok(2)).build().unwrap();
    e.reset().unwrap();
    let before = e.get_state().unwrap();
    let cases = [
        (actions(&[0]), "ValueError", "action: the number of actions (1) must match the batch size (2)"),
        (
            actions(&[0, 1, 1]),
            "ValueError",
            "action: the number of actions (3) must match the batch size (2)",
        ),
        (
            actions(&[0, 2]),
            "ValueError",
            "action: action 2 for sample 1 is out of range: 2 arms are available (0..1)",
        ),
        (
            actions(&[-1, 0]),
            "ValueError",
            "action: action -1 for sample 0 is out of range: actions are arm indices >= 0",
        ),
        (
            Value::Array(Array::vector(ArrayData::F32(vec![0.0, 1.0]))),
            "TypeError",
            "action: expected integer actions, got dtype float32",
        ),
        (Value::Str("0".into()), "TypeError", "action: expected an int32 array of 2 actions, got a string"),
        (Value::Int(0), "ValueError", "action: the number of actions (1) must match the batch size (2)"),
    ];
    for (action, kind, message) in cases {
        let err = e.step(&action).unwrap_err();
        assert_eq!((err.name(), err.message()), (kind, message));
        assert_eq!(e.get_state().unwrap(), before, "a failed step changes nothing");
    }
    // Lists of integers and other integer dtypes are actions too.
    assert!(e.step(&Value::List(vec![Value::Int(1), Value::Int(0)])).is_ok());
    assert!(e.step(&Value::Array(Array::vector(ArrayData::I64(vec![0, 1])))).is_ok());
}

#[wasm_bindgen_test(unsupported = test)]
fn num_actions_is_capped_to_one_through_k() {
    let mut calls = 0;
    let wild = move |_: &mut Rng| {
        calls += 1;
        Ok(if calls % 2 == 0 { 100 } else { -5 })
    };
    let mut e = linear(1, 4, 0.1).num_actions_fn(wild).build().unwrap();
    let ts = e.reset().unwrap();
    let n = ts.observation.get("num_actions").unwrap().as_array().unwrap();
    assert_eq!(n.data(), &ArrayData::I32(vec![1, K as i32, 1, K as i32]));
}

#[wasm_bindgen_test(unsupported = test)]
fn bad_callbacks_are_value_errors_that_name_the_function() {
    let short = StationaryStochasticPerArmEnvironment::builder(
        {
            let mut calls = 0;
            move |_: &mut Rng| {
                calls += 1;
                Ok(vec![0.0; if calls > 2 { 2 } else { 3 }])
            }
        },
        GaussianContext::new(2, 0.0, 1.0).unwrap(),
        3,
        |x: &[f64], _: &mut Rng| Ok(x.iter().sum::<f64>()),
    )
    .build()
    .unwrap();
    let nan_arm = StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(2, 0.0, 1.0).unwrap(),
        |_: &mut Rng| Ok(vec![f64::NAN]),
        3,
        |x: &[f64], _: &mut Rng| Ok(x[0]),
    )
    .build()
    .map(|_| ())
    .unwrap_err();
    assert_eq!(nan_arm.name(), "ValueError");
    assert_eq!(nan_arm.message(), "armContextSamplingFn returned NaN at index 0; expected finite numbers");

    let mut short = short;
    short.reset().unwrap();
    let e = short.step(&actions(&[0])).unwrap_err();
    assert_eq!(
        e.message(),
        "globalContextSamplingFn returned 2 values; expected 3 (the size of its first sample)"
    );

    let mut nan_reward = StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        2,
        |_: &[f64], _: &mut Rng| Ok(f64::NAN),
    )
    .build()
    .unwrap();
    nan_reward.reset().unwrap();
    let e = nan_reward.step(&actions(&[1])).unwrap_err();
    assert_eq!(
        (e.name(), e.message()),
        ("ValueError", "rewardFn returned NaN for sample 0; expected a finite number")
    );

    // A callback's own error keeps its kind and gains the function's name.
    let mut failing = linear(1, 1, 0.1)
        .num_actions_fn(|_: &mut Rng| Err(crate::Error::new(crate::ErrorKind::Runtime, "callback threw")))
        .build()
        .unwrap();
    let e = failing.reset().unwrap_err();
    assert_eq!((e.name(), e.message()), ("RuntimeError", "numActionsFn: callback threw"));
    assert!(failing.current_time_step().is_none());

    let e = linear(1, 0, 0.1).build().map(|_| ()).unwrap_err();
    assert_eq!((e.name(), e.message()), ("ValueError", "batch_size must be at least 1, got 0"));
    let zero_arms = StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        0,
        LinearNormalReward::new(vec![1.0, 1.0], 0.0).unwrap(),
    )
    .build()
    .map(|_| ())
    .unwrap_err();
    assert_eq!(zero_arms.message(), "max_num_actions must be at least 1, got 0");
}

#[wasm_bindgen_test(unsupported = test)]
fn validate_environment_accepts_the_bandit() {
    for batch in [1, 3] {
        validate_environment(&mut env(4, batch), 5, &mut Rng::seed_from_u64(1)).unwrap();
    }
    // With fewer available arms than the action spec allows, random actions
    // must respect num_actions (tf_agents' action constraint splitter).
    let mut e = linear(4, 2, 0.1).num_actions_fn(UniformNumActions::new(1, 3).unwrap()).build().unwrap();
    let mut policy = |ts: &TimeStep, rng: &mut Rng| {
        Ok(actions_value(&PerArmObservation::from_value(&ts.observation)?.random_available_actions(rng)))
    };
    validate_environment_with_policy(&mut e, 20, &mut Rng::seed_from_u64(1), &mut policy).unwrap();
    // Uniform actions over the whole spec hit an unavailable arm.
    let err = validate_environment(&mut e, 20, &mut Rng::seed_from_u64(1)).unwrap_err();
    assert!(err.message().contains("out of range"), "{err}");
}

#[wasm_bindgen_test(unsupported = test)]
fn state_tokens_replay_episodes_exactly_through_json() {
    let mut e =
        linear(9, 2, 0.5).num_actions_fn(UniformNumActions::new(2, K as i64).unwrap()).build().unwrap();
    trajectory(&mut e, 3);
    let token = e.get_state().unwrap();
    let text = serde_json::to_string(&token).unwrap();
    let play = |e: &mut StationaryStochasticPerArmEnvironment| -> Vec<TimeStep> {
        (0..4).map(|t| e.step(&actions(&[t % 2, 1])).unwrap()).collect()
    };
    let current = e.current_time_step().cloned();
    let first = play(&mut e);

    // Restore into the same and into a fresh environment with another seed.
    let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
    e.set_state(&parsed).unwrap();
    assert_eq!(e.current_time_step().cloned(), current);
    assert_eq!(play(&mut e), first);
    let mut fresh =
        linear(1234, 2, 0.5).num_actions_fn(UniformNumActions::new(2, K as i64).unwrap()).build().unwrap();
    fresh.set_state(&parsed).unwrap();
    assert_eq!(play(&mut fresh), first);

    // The RNG words travel as hex strings, safe for JavaScript numbers.
    assert!(token["rng"].as_array().unwrap().iter().all(|w| w.as_str().map(str::len) == Some(16)));
    // A token before the first reset restores "no time step yet".
    let blank = env(1, 2).get_state().unwrap();
    assert!(blank["observation"].is_null() && blank["time_step"].is_null());
}

#[wasm_bindgen_test(unsupported = test)]
fn set_state_rejects_foreign_tokens() {
    let mut e = env(1, 2);
    e.reset().unwrap();
    let token = e.get_state().unwrap();
    let mut other = env(1, 3);
    let err = other.set_state(&token).unwrap_err();
    assert!(
        err.message().contains("made for (batch_size, max_num_actions, global_dim, arm_dim) = (2, 6, 3, 4)"),
        "{err}"
    );
    let mut bad = token.clone();
    bad["rng"][0] = serde_json::json!("not hex");
    assert!(e.set_state(&bad).unwrap_err().message().contains("rng word"));
    let mut bad = token.clone();
    bad["observation"]["global"] = serde_json::json!([1.0]);
    assert_eq!(
        e.set_state(&bad).unwrap_err().message(),
        "state: observation.global has 1 values, expected 6"
    );
    let err = e.set_state(&serde_json::json!({"kind": "other"})).unwrap_err();
    assert_eq!(err.name(), "ValueError");
    assert!(err.message().starts_with("state: not a stationary_stochastic_per_arm token"), "{err}");
    // The failed restores left the environment as it was.
    assert_eq!(e.get_state().unwrap(), token);
}

#[wasm_bindgen_test(unsupported = test)]
fn regret_helpers_use_the_expected_reward() {
    let mut e =
        linear(6, 3, 0.1).num_actions_fn(UniformNumActions::new(1, K as i64).unwrap()).build().unwrap();
    assert!(e.optimal_actions().is_err(), "no observation before reset");
    e.reset().unwrap();
    let obs = e.observation().unwrap().clone();
    let best = e.optimal_actions().unwrap();
    let best_rewards = e.optimal_expected_rewards().unwrap();
    for b in 0..3 {
        assert!(best[b] < obs.available(b));
        for a in 0..obs.available(b) {
            let r = crate::bandit::functions::dot(&THETA, &obs.features(b, a));
            assert!(r <= best_rewards[b] + 1e-12);
        }
    }
    assert_eq!(e.expected_rewards(&best).unwrap(), best_rewards);

    let mut opaque = StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        GaussianContext::new(1, 0.0, 1.0).unwrap(),
        2,
        |x: &[f64], _: &mut Rng| Ok(x[1]),
    )
    .build()
    .unwrap();
    opaque.reset().unwrap();
    let err = opaque.optimal_actions().unwrap_err();
    assert_eq!(err.name(), "TypeError");
    assert!(err.message().starts_with("rewardFn: NotImplemented:"), "{err}");
}

/// Cumulative expected regret of `choose` over `steps` steps on the linear bandit.
fn regret(
    steps: usize,
    mut choose: impl FnMut(&PerArmObservation, &mut Rng) -> Vec<usize>,
    mut learn: impl FnMut(&PerArmObservation, &[usize], &[f64]),
) -> f64 {
    let mut e =
        linear(2024, 1, 0.5).num_actions_fn(UniformNumActions::new(3, K as i64).unwrap()).build().unwrap();
    let mut rng = Rng::seed_from_u64(77);
    e.reset().unwrap();
    let mut total = 0.0;
    for _ in 0..steps {
        let obs = e.observation().unwrap().clone();
        let chosen = choose(&obs, &mut rng);
        let best = e.optimal_expected_rewards().unwrap();
        let got = e.expected_rewards(&chosen).unwrap();
        total += best.iter().zip(&got).map(|(b, g)| b - g).sum::<f64>();
        let ts = e.step(&actions_value(&chosen)).unwrap();
        learn(&obs, &chosen, &ts.rewards().unwrap());
    }
    total
}

#[wasm_bindgen_test(unsupported = test)]
fn linucb_learns_the_linear_bandit() {
    let steps = 2000;
    let random = regret(steps, |obs, rng| obs.random_available_actions(rng), |_, _, _| {});
    let agent = std::cell::RefCell::new(LinUcb::new(THETA.len(), 1.0, 1.0).unwrap());
    let linucb = regret(
        steps,
        |obs, _| agent.borrow().select(obs).unwrap(),
        |obs, a, r| agent.borrow_mut().observe(obs, a, r).unwrap(),
    );
    println!("cumulative regret over {steps} steps: LinUCB {linucb:.1}, random {random:.1}");
    assert!(linucb < 0.3 * random, "LinUCB regret {linucb:.1} vs random {random:.1}");
    // The arm weights are learned (the global ones do not affect the choice).
    let theta = agent.borrow().theta().to_vec();
    for i in 3..7 {
        assert!((theta[i] - THETA[i]).abs() < 0.15, "{theta:?}");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn batches_and_arms_past_the_byte_budget_are_limit_errors() {
    let e = linear(1, usize::MAX / 3, 0.1).build().err().unwrap();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert!(e.message().contains("batch_size"), "{e}");
    let many_arms = StationaryStochasticPerArmEnvironment::builder(
        GaussianContext::new(3, 0.0, 1.0).unwrap(),
        GaussianContext::new(4, 0.0, 1.0).unwrap(),
        i32::MAX as usize,
        LinearNormalReward::new(THETA.to_vec(), 0.1).unwrap(),
    )
    .build();
    assert_eq!(many_arms.err().unwrap().name(), "LimitError");
    assert!(linear(1, 1000, 0.1).build().is_ok());
}
