use super::*;
use crate::compilers::make;
use crate::compilers::toy::ToyBackend;
use crate::env::compiler_env::{EnvExtras, EnvOptions};
use crate::env::validate::validate_environment;
use crate::env::TimeStepEnvironment;
use wasm_bindgen_test::wasm_bindgen_test;

const FIB: &str = "benchmark://suite-v0/fib-iter";

fn bril(observation: Option<&str>, max_episode_steps: Option<u64>) -> CompilerTimeStepEnvironment {
    let env = make(
        "bril-ic-v0",
        EnvOptions {
            benchmark: Some(FIB.into()),
            observation_space: Some(observation.map(String::from)),
            max_episode_steps,
            ..Default::default()
        },
    )
    .unwrap();
    CompilerTimeStepEnvironment::new(env, CompilerTimeStepOptions::default()).unwrap()
}

fn action(a: i64) -> Value {
    Value::Array(Array::new(vec![], ArrayData::I64(vec![a])).unwrap())
}

fn pass(flag: &str) -> Value {
    let i = crate::bril::passes::registry().iter().position(|p| p.flag == flag).unwrap();
    action(i as i64)
}

#[wasm_bindgen_test(unsupported = test)]
fn specs_come_from_the_spaces() {
    let env = bril(Some("Autophase"), None);
    let Spec::Bounded(obs) = env.observation_spec() else { panic!("Autophase is a bounded box") };
    assert_eq!((obs.dtype(), obs.shape()), (DType::I64, &[crate::bril::features::autophase::LEN][..]));
    let Spec::Bounded(a) = env.action_spec() else { panic!("the action spec is bounded") };
    let n = crate::bril::passes::registry().len() as f64;
    assert_eq!((a.dtype(), a.shape()), (DType::I64, &[][..]));
    assert_eq!(a.maximum_array().unwrap().data().get_f64(0), n - 1.0);
    assert_eq!(env.reward_spec().array_spec().unwrap().dtype(), DType::F64);
    // Without an observation space the observation is an empty dict.
    let bare = bril(None, None);
    assert_eq!(bare.observation_spec(), Spec::Dict(vec![]));
    // A space with no array form is a TypeError naming it.
    let ir = make("bril-ir-ic-v0", EnvOptions::default()).unwrap();
    let e = CompilerTimeStepEnvironment::new(ir, CompilerTimeStepOptions::default()).err().unwrap();
    assert_eq!(e.name(), "TypeError");
    assert!(e.message().contains("\"Ir\""), "{e}");
}

#[wasm_bindgen_test(unsupported = test)]
fn reset_is_first_steps_are_mid_and_info_follows_the_step() {
    let mut env = bril(Some("IrInstructionCount"), None);
    assert!(env.get_info().is_err());
    let first = env.reset().unwrap();
    assert!(first.is_first());
    assert_eq!((first.rewards().unwrap(), first.discounts().unwrap()), (vec![0.0], vec![1.0]));
    let count = first.observation.as_array().unwrap().data().get_f64(0);
    let mid = env.step(&pass("-dce")).unwrap();
    assert!(mid.is_mid());
    assert_eq!(mid.discounts().unwrap(), [1.0]);
    assert!(mid.observation.as_array().unwrap().data().get_f64(0) <= count);
    let info = env.get_info().unwrap();
    assert_eq!(info.get("error"), Some(&Value::None));
    assert_eq!(info.get("benchmark"), Some(&Value::Str(FIB.into())));
    // Running the same pass twice changes nothing the second time.
    env.step(&pass("-dce")).unwrap();
    assert_eq!(env.get_info().unwrap().get("actionHadNoEffect"), Some(&Value::Bool(true)));
    // An action out of range is a ValueError that leaves the episode as it was.
    let before = env.current_time_step().cloned();
    assert_eq!(env.step(&action(99)).unwrap_err().name(), "ValueError");
    assert_eq!(env.step(&Value::Str("x".into())).unwrap_err().name(), "TypeError");
    assert_eq!(env.current_time_step().cloned(), before);
    assert_eq!(env.compiler_env().actions().len(), 2);
}

#[wasm_bindgen_test(unsupported = test)]
fn max_episode_steps_truncates_with_discount_one_then_auto_resets() {
    let mut env = bril(Some("IrInstructionCount"), Some(2));
    env.reset().unwrap();
    assert!(env.step(&pass("-lvn")).unwrap().is_mid());
    let last = env.step(&pass("-dce")).unwrap();
    assert!(last.is_last());
    assert_eq!(last.discounts().unwrap(), [1.0]);
    assert!(env.should_reset(&last));
    let again = env.step(&pass("-dce")).unwrap();
    assert!(again.is_first());
    assert!(env.compiler_env().actions().is_empty());
}

fn toy() -> CompilerTimeStepEnvironment {
    let env = CompilerEnv::new(
        Box::new(ToyBackend),
        EnvExtras::default(),
        EnvOptions {
            benchmark: Some("toy-v0/b".into()),
            action_space: Some("toy-moves".into()),
            observation_space: Some(Some("Inversions".into())),
            ..Default::default()
        },
    )
    .unwrap();
    CompilerTimeStepEnvironment::new(env, CompilerTimeStepOptions::default()).unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn a_terminated_session_is_last_with_discount_zero() {
    let mut env = toy();
    env.reset().unwrap();
    let end = env.step(&Value::Int(3)).unwrap();
    assert!(end.is_last());
    assert_eq!(end.discounts().unwrap(), [0.0]);
    assert_eq!(env.get_info().unwrap().get("error"), Some(&Value::None));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_compiler_error_ends_the_episode_and_shows_in_the_info() {
    // The toy compiler fails its next action on request.
    let mut env = toy();
    env.reset().unwrap();
    env.send_param("toy.fail", "action").unwrap();
    let failed = env.step(&Value::Int(0)).unwrap();
    assert!(failed.is_last());
    assert_eq!(failed.discounts().unwrap(), [0.0]);
    let error = env.get_info().unwrap().get("error").cloned().unwrap();
    assert_eq!(error.get("name"), Some(&Value::Str("ServiceError".into())));
    // The Bril compiler fails when a run needed by the observation runs out of fuel.
    let mut env = bril(Some("DynamicInstructionCount"), None);
    env.reset().unwrap();
    env.send_param("bril.fuel", "1").unwrap();
    let failed = env.step(&pass("-dce")).unwrap();
    assert!(failed.is_last());
    assert_eq!(failed.discounts().unwrap(), [0.0]);
    let spec = env.time_step_spec();
    crate::env::check_time_step(&spec, &failed, &[]).unwrap();
    let info = env.get_info().unwrap();
    assert!(matches!(info.get("error"), Some(Value::Dict(_))), "{info:?}");
    // The next step starts a new episode, which works.
    assert!(env.step(&pass("-dce")).unwrap().is_first());
}

#[wasm_bindgen_test(unsupported = test)]
fn state_tokens_replay_the_episode() {
    let mut env = bril(Some("Autophase"), None);
    env.reset().unwrap();
    env.step(&pass("-lvn")).unwrap();
    let mid = env.step(&pass("-dce")).unwrap();
    let token = env.get_state().unwrap();
    assert_eq!(token["commandline"], "-lvn -dce");
    let text = serde_json::to_string(&token).unwrap();

    let mut other = bril(Some("Autophase"), None);
    other.set_state(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(other.current_time_step(), Some(&mid));
    assert_eq!(other.get_state().unwrap(), token);
    // Both continue alike.
    assert_eq!(env.step(&pass("-gvn")).unwrap(), other.step(&pass("-gvn")).unwrap());

    // A bad token changes nothing.
    let before = other.get_state().unwrap();
    let mut bad = token.clone();
    bad["commandline"] = "-no-such-pass".into();
    assert!(other.set_state(&bad).is_err());
    bad = token.clone();
    bad["kind"] = "other".into();
    assert_eq!(other.set_state(&bad).unwrap_err().name(), "ValueError");
    assert_eq!(other.get_state().unwrap(), before);
}

#[wasm_bindgen_test(unsupported = test)]
fn seeded_resets_draw_benchmarks_from_the_dataset() {
    let benchmarks = |seed: u64| {
        let env = make("bril-ic-v0", EnvOptions::default()).unwrap();
        let options = CompilerTimeStepOptions { dataset: Some("suite-v0".into()), ..Default::default() };
        let mut env = CompilerTimeStepEnvironment::new(env, options).unwrap();
        env.seed(seed).unwrap();
        (0..4)
            .map(|_| {
                env.reset().unwrap();
                env.compiler_env().benchmark().unwrap().to_string()
            })
            .collect::<Vec<_>>()
    };
    let a = benchmarks(3);
    assert_eq!(a, benchmarks(3));
    assert!(a.iter().all(|b| b.starts_with("benchmark://suite-v0/")));
    assert!(a.iter().any(|b| b != &a[0]), "{a:?}");
}

#[wasm_bindgen_test(unsupported = test)]
fn validate_environment_passes() {
    let mut env = bril(Some("Autophase"), Some(3));
    env.validate(3, &mut Rng::seed_from_u64(5)).unwrap();
    let e = bril(Some("Autophase"), None).validate(1, &mut Rng::seed_from_u64(5)).unwrap_err();
    assert!(e.message().contains("max_episode_steps"), "{e}");
    let mut env = toy();
    validate_environment(&mut env, 5, &mut Rng::seed_from_u64(5)).unwrap();
    // 2^31 episodes would run for hours: refused before the first reset.
    let e = validate_environment(&mut env, 1 << 31, &mut Rng::seed_from_u64(5)).unwrap_err();
    assert_eq!(e.name(), "LimitError", "{e}");
    assert!(e.message().contains("10000"), "{e}");
}
