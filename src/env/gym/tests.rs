use super::*;
use crate::compilers::make;
use crate::env::compiler_env::{EnvOptions, ResetOptions};
use crate::error::ErrorKind;
use serde_json::{json, Value as Json};
use wasm_bindgen_test::wasm_bindgen_test;

/// The seeded episode every side replays: natively here, and from the npm
/// package in Node and in Chromium (`tests/js/gym.test.mjs`).
const TRACE: &str = include_str!("../../../tests/data/gym_seeded_trace.json");

fn gym(id: &str, options: GymOptions) -> GymCompilerEnv {
    let env = make(id, EnvOptions::default()).expect("registered");
    GymCompilerEnv::new(env, id, options).expect("a Gymnasium face")
}

fn suite() -> GymOptions {
    GymOptions { dataset: Some("benchmark://suite-v0".into()), ..Default::default() }
}

fn ints(value: &Value) -> Vec<i64> {
    let array = value.as_array().expect("an array observation");
    (0..array.len()).map(|i| array.data().get_i128(i).expect("integers") as i64).collect()
}

fn benchmark_of(info: &Value) -> String {
    info.get("benchmark").and_then(Value::as_str).expect("info.benchmark").to_string()
}

fn samples(env: &mut GymCompilerEnv, n: usize) -> Vec<i64> {
    (0..n).map(|_| env.action_space_mut().sample().as_int().expect("an integer action")).collect()
}

/// The trace's episode: see `tests/data/gym_seeded_trace.json`.
fn trace() -> Json {
    let mut env = gym("bril-autophase-ic-v0", suite());
    let (observation, info) = env.reset(Some(42), ResetOptions::default()).expect("reset");
    let actions = samples(&mut env, 6);
    let steps: Vec<Json> = actions
        .iter()
        .map(|&a| {
            let s = env.step(&Value::Int(a)).expect("step");
            json!([s.reward, s.terminated, s.truncated])
        })
        .collect();
    let next: Vec<String> =
        (0..3).map(|_| benchmark_of(&env.reset(None, ResetOptions::default()).expect("reset").1)).collect();
    let (_, info7) = env.reset(Some(7), ResetOptions::default()).expect("reset");
    json!({
        "id": "bril-autophase-ic-v0",
        "dataset": "benchmark://suite-v0",
        "seed": 42,
        "benchmark": benchmark_of(&info),
        "observation": ints(&observation),
        "actions": actions,
        "steps": steps,
        "unseeded_benchmarks": next,
        "seed7": { "benchmark": benchmark_of(&info7), "actions": samples(&mut env, 4) },
    })
}

#[wasm_bindgen_test(unsupported = test)]
fn a_seed_fixes_the_benchmark_the_observation_and_the_action_samples() {
    let expected: Json = serde_json::from_str(TRACE).expect("the trace is JSON");
    let actual = trace();
    assert_eq!(actual, expected, "the seeded trace changed; it is now:\n{actual}");
    assert_eq!(trace(), actual, "two runs differ");
}

#[wasm_bindgen_test(unsupported = test)]
fn unseeded_resets_keep_drawing_from_the_generator() {
    let mut env = gym("bril-ic-v0", suite());
    env.reset(Some(3), ResetOptions::default()).expect("reset");
    let seed = env.np_random_seed();
    let draws: Vec<String> =
        (0..8).map(|_| benchmark_of(&env.reset(None, ResetOptions::default()).expect("reset").1)).collect();
    assert_eq!(env.np_random_seed(), seed, "an unseeded reset keeps the seed");
    assert!(draws.iter().collect::<std::collections::HashSet<_>>().len() > 1, "{draws:?}");
    env.reset(Some(3), ResetOptions::default()).expect("reset");
    let again: Vec<String> =
        (0..8).map(|_| benchmark_of(&env.reset(None, ResetOptions::default()).expect("reset").1)).collect();
    assert_eq!(draws, again);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_failed_reset_commits_nothing() {
    let mut env = gym("bril-ic-v0", suite());
    env.reset(Some(5), ResetOptions::default()).expect("reset");
    let mut reference = gym("bril-ic-v0", suite());
    reference.reset(Some(5), ResetOptions::default()).expect("reset");
    let bad =
        ResetOptions { benchmark: Some("benchmark://suite-v0/no-such-program".into()), ..Default::default() };
    let error = env.reset(None, bad).expect_err("an unknown benchmark");
    assert_eq!(error.kind(), ErrorKind::BenchmarkInit);
    let bad_seeded = ResetOptions { benchmark: Some("not a uri".into()), ..Default::default() };
    assert!(env.reset(Some(99), bad_seeded).is_err());
    assert_eq!(env.np_random_seed(), Some(5), "a failed seeded reset keeps the old seed");
    let (_, info) = env.reset(None, ResetOptions::default()).expect("reset");
    let (_, expected) = reference.reset(None, ResetOptions::default()).expect("reset");
    assert_eq!(benchmark_of(&info), benchmark_of(&expected));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_benchmark_given_to_reset_draws_nothing() {
    let mut env = gym("bril-ic-v0", suite());
    let given =
        ResetOptions { benchmark: Some("benchmark://suite-v0/fib-iter".into()), ..Default::default() };
    let (_, info) = env.reset(Some(1), given).expect("reset");
    assert_eq!(benchmark_of(&info), "benchmark://suite-v0/fib-iter");
    let mut other = gym("bril-ic-v0", suite());
    assert_eq!(
        benchmark_of(&env.reset(None, ResetOptions::default()).expect("reset").1),
        benchmark_of(&other.reset(Some(1), ResetOptions::default()).expect("reset").1),
        "the given benchmark used none of the generator's draws"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn without_a_dataset_resets_replay_the_benchmark() {
    let env = make(
        "bril-ic-v0",
        EnvOptions { benchmark: Some("benchmark://suite-v0/fib-iter".into()), ..Default::default() },
    )
    .expect("make");
    let mut env = GymCompilerEnv::new(env, "bril-ic-v0", GymOptions::default()).expect("face");
    for seed in [Some(1), None, Some(2)] {
        let (_, info) = env.reset(seed, ResetOptions::default()).expect("reset");
        assert_eq!(benchmark_of(&info), "benchmark://suite-v0/fib-iter");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn an_environment_without_an_observation_space_observes_its_text() {
    let mut env = gym("bril-v0", GymOptions { render_mode: Some("ansi".into()), ..Default::default() });
    assert!(matches!(env.observation_space().kind(), crate::spaces::SpaceKind::Sequence(_)));
    let (observation, _) = env.reset(Some(0), ResetOptions::default()).expect("reset");
    assert!(observation.as_str().is_some_and(|ir| ir.contains("@main")), "{observation:?}");
    assert!(env.observation_space().contains(&observation));
    let step = env.step(&Value::Int(0)).expect("step");
    assert_eq!(step.reward, 0.0, "no reward space: reward 0");
    assert_eq!(env.reward_range(), (f64::NEG_INFINITY, f64::INFINITY));
    let frame = env.render().expect("render").expect("a frame");
    assert_eq!(frame, step.observation);
    assert_eq!(env.metadata().render_modes, vec!["ansi".to_string()]);
}

#[wasm_bindgen_test(unsupported = test)]
fn infos_and_spec() {
    let mut env = gym("bril-ic-v0", GymOptions::default());
    assert_eq!(env.spec().map(|s| s.id.as_str()), Some("bril-ic-v0"));
    assert_eq!(env.spec().and_then(|s| s.reward_threshold), Some(1.0));
    assert_eq!(env.render().expect("render"), None, "no render mode: no frame");
    let (_, info) = env.reset(Some(0), ResetOptions::default()).expect("reset");
    assert!(info.get("benchmark").is_some());
    let step = env.step(&Value::Int(0)).expect("step");
    assert_eq!(step.info.get("actionHadNoEffect").map(|v| matches!(v, Value::Bool(_))), Some(true));
    assert_eq!(step.info.get("newActionSpace"), Some(&Value::Bool(false)));
    assert!(step.info.get("error").is_none());
}

#[wasm_bindgen_test(unsupported = test)]
fn bad_arguments_are_typed_errors_and_change_nothing() {
    let make_with = |options| {
        let env = make("bril-ic-v0", EnvOptions::default()).expect("make");
        GymCompilerEnv::new(env, "bril-ic-v0", options).map(|_| ()).expect_err("bad options")
    };
    assert_eq!(
        make_with(GymOptions { dataset: Some("nope-v0".into()), ..Default::default() }).kind(),
        ErrorKind::Lookup
    );
    assert_eq!(
        make_with(GymOptions { render_mode: Some("human".into()), ..Default::default() }).kind(),
        ErrorKind::Value
    );

    let mut env = gym("bril-ic-v0", suite());
    assert_eq!(env.step(&Value::Int(0)).expect_err("before reset").kind(), ErrorKind::SessionNotFound);
    env.reset(Some(0), ResetOptions::default()).expect("reset");
    let error = env.step(&Value::Int(1000)).expect_err("outside the action space");
    assert_eq!(error.kind(), ErrorKind::Value);
    assert!(env.compiler_env().actions().is_empty(), "the bad action was not recorded");
    env.step(&Value::Int(0)).expect("the environment still works");
}

#[wasm_bindgen_test(unsupported = test)]
fn fork_copies_the_generators() {
    let mut env = gym("bril-ic-v0", suite());
    env.reset(Some(11), ResetOptions::default()).expect("reset");
    env.step(&Value::Int(0)).expect("step");
    let mut fork = env.fork().expect("fork");
    assert_eq!(fork.compiler_env().actions(), env.compiler_env().actions());
    assert_eq!(samples(&mut fork, 5), samples(&mut env, 5));
    let a = benchmark_of(&fork.reset(None, ResetOptions::default()).expect("reset").1);
    let b = benchmark_of(&env.reset(None, ResetOptions::default()).expect("reset").1);
    assert_eq!(a, b);
    env.close().expect("close");
    env.close().expect("close twice");
    fork.step(&Value::Int(1)).expect("the fork is independent");
}

#[wasm_bindgen_test(unsupported = test)]
fn the_first_unseeded_reset_seeds_from_entropy() {
    fn four() -> u64 {
        4
    }
    let mut env = gym("bril-ic-v0", GymOptions { entropy: Some(four), ..suite() });
    let (_, info) = env.reset(None, ResetOptions::default()).expect("reset");
    assert_eq!(env.np_random_seed(), Some(4));
    let mut seeded = gym("bril-ic-v0", suite());
    let (_, expected) = seeded.reset(Some(4), ResetOptions::default()).expect("reset");
    assert_eq!(benchmark_of(&info), benchmark_of(&expected));
    assert_eq!(samples(&mut env, 3), samples(&mut seeded, 3));
}

fn mask_of(info: &Value) -> Vec<u8> {
    match info.get("actionMask").and_then(Value::as_array).map(|a| a.data()) {
        Some(crate::value::ArrayData::U8(m)) => m.clone(),
        other => panic!("info.actionMask is not a uint8 array: {other:?}"),
    }
}

fn flag(env: &GymCompilerEnv, flag: &str) -> i64 {
    env.compiler_env().commandline_to_actions(flag).expect("a pass")[0].as_int().expect("an index")
}

#[wasm_bindgen_test(unsupported = test)]
fn the_action_mask_hides_what_is_known_to_do_nothing() {
    let mut env = gym("bril-ic-v0", GymOptions::default());
    let program =
        ResetOptions { benchmark: Some("generator://random-v1/4242?size=20".into()), ..Default::default() };
    let (_, info) = env.reset(Some(0), program.clone()).expect("reset");
    assert_eq!(mask_of(&info), vec![1; 32], "nothing is known before any step");
    let dce = flag(&env, "-dce");
    let mut first = env.step(&Value::Int(dce)).expect("step");
    if first.info.get("actionHadNoEffect") != Some(&Value::Bool(true)) {
        first = env.step(&Value::Int(dce)).expect("-dce again does nothing");
    }
    assert_eq!(first.info.get("actionHadNoEffect"), Some(&Value::Bool(true)));
    let mask = mask_of(&first.info);
    assert_eq!(mask[dce as usize], 0, "-dce did nothing here");
    assert!(first.info.get("fixedPoint").is_none());
    assert_eq!(mask.iter().filter(|&&m| m == 0).count(), 1);

    // The shared tree of states remembers it for every later episode.
    let (_, info) = env.reset(None, program).expect("reset");
    let again = env.step(&Value::Int(dce)).expect("step");
    let remembered = mask_of(&again.info);
    assert_eq!(remembered, mask, "the state after -dce is known to be -dce's fixed point");
    assert_eq!(mask_of(&info).len(), 32);
    let mut space = env.action_space().clone();
    for _ in 0..50 {
        let sampled = space.sample_constrained(&crate::spaces::Constraint::mask(remembered.clone())).unwrap();
        assert_ne!(sampled, Value::Int(dce), "a masked sample never draws a masked action");
    }
}
