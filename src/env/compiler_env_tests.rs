//! `CompilerEnv` over the toy compiler: every method and error path.

use super::*;
use crate::compilers::toy::ToyBackend;
use crate::rewards::CostReward;
use crate::service::Benchmark;
use crate::spaces::RewardSpace;
use crate::value::Value;
use crate::views::DerivedSpaceOptions;
use crate::Rng;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

const BUBBLE: i64 = 0;
const REVERSE: i64 = 1;
const END: i64 = 3;

fn extras() -> EnvExtras {
    let space =
        |name: &str| RewardSpace::new(name).unwrap().with_deterministic(true).with_default_value(-10.0);
    EnvExtras {
        rewards: vec![
            Box::new(CostReward::delta(space("Inversions"), "Inversions").with_init_cost("InversionsO0")),
            Box::new(
                CostReward::normalized(space("InversionsNorm"), "Inversions").with_init_cost("InversionsO0"),
            ),
            Box::new(CostReward::baseline_relative(
                space("InversionsO1").with_default_negates_returns(true),
                "Inversions",
                "InversionsO0",
                "InversionsO1",
            )),
        ],
        derived_spaces: vec![DerivedSpace {
            id: "Double".into(),
            base_id: "Inversions".into(),
            translate: Rc::new(|v: Value| Ok(Value::Int(v.as_int().unwrap_or(0) * 2))),
            options: DerivedSpaceOptions::default(),
        }],
    }
}

fn fixed_clock() -> f64 {
    5.0
}

fn env(options: EnvOptions) -> CompilerEnv {
    CompilerEnv::new(Box::new(ToyBackend), extras(), options).unwrap()
}

fn toy(observation: Option<&str>, reward: Option<&str>) -> CompilerEnv {
    env(EnvOptions {
        benchmark: Some("toy-v0/b".into()),
        action_space: Some("toy-moves".into()),
        observation_space: Some(observation.map(String::from)),
        reward_space: Some(reward.map(String::from)),
        ..Default::default()
    })
}

fn int(i: i64) -> Value {
    Value::Int(i)
}

#[wasm_bindgen_test(unsupported = test)]
fn reset_returns_the_observation_and_starts_an_episode() {
    let mut e = toy(Some("Inversions"), Some("Inversions"));
    assert!(!e.in_episode());
    assert_eq!(e.reset(ResetOptions::default()).unwrap(), Some(int(10)));
    assert!(e.in_episode());
    assert_eq!(e.benchmark(), Some("benchmark://toy-v0/b"));
    assert_eq!(e.episode_reward(), Some(0.0));
    assert_eq!(e.actions(), &[] as &[Value]);
    assert_eq!(e.compiler_version().unwrap(), "toy 1.0");
    assert_eq!(e.version(), crate::VERSION);
    // Reset options change the settings for good.
    let obs = e
        .reset(ResetOptions {
            benchmark: Some("toy-v0/a".into()),
            observation_space: Some(Some("Double".into())),
            reward_space: Some(None),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(obs, Some(int(4)));
    assert_eq!(e.episode_reward(), None);
    assert_eq!(e.observation_space().unwrap().id, "Double");
    assert_eq!(e.reset(ResetOptions::default()).unwrap(), Some(int(4)), "the benchmark stays");
    assert_eq!(e.service().borrow().session_count(), 1, "reset ends the previous session");
}

#[wasm_bindgen_test(unsupported = test)]
fn step_returns_gymnasium_results() {
    let mut e = toy(Some("Inversions"), Some("Inversions"));
    e.reset(ResetOptions::default()).unwrap();
    let r = e.step(int(BUBBLE)).unwrap();
    assert_eq!((r.observation.one(), r.reward.one()), (Some(&int(6)), Some(&4.0)));
    assert!(!r.terminated && !r.truncated && !r.info.action_had_no_effect && !r.info.new_action_space);
    assert_eq!(r.info.error, None);
    let r = e.step(int(REVERSE)).unwrap();
    assert_eq!(r.reward.one(), Some(&2.0));
    assert_eq!(e.episode_reward(), Some(6.0));
    assert_eq!(e.actions(), &[int(BUBBLE), int(REVERSE)]);
    let r = e.step(int(END)).unwrap();
    assert!(r.terminated);
    // Without observation or reward spaces there is nothing to compute.
    let mut bare = toy(None, None);
    bare.reset(ResetOptions::default()).unwrap();
    let r = bare.step(int(BUBBLE)).unwrap();
    assert_eq!((r.observation, r.reward), (Observed::None, Observed::None));
    let sorted_twice = bare.multistep(&vec![int(BUBBLE); 5], &StepOptions::default()).unwrap();
    assert!(!sorted_twice.info.action_had_no_effect);
    assert!(bare.step(int(BUBBLE)).unwrap().info.action_had_no_effect, "bubble on a sorted list");
}

#[wasm_bindgen_test(unsupported = test)]
fn multistep_with_explicit_spaces_returns_lists() {
    let mut e = toy(Some("Inversions"), Some("Inversions"));
    e.reset(ResetOptions::default()).unwrap();
    let options = StepOptions {
        observation_spaces: Some(vec!["Text".into(), "Double".into(), "Inversions".into()]),
        reward_spaces: Some(vec!["InversionsO1".into(), "Inversions".into()]),
    };
    let r = e.multistep(&[int(BUBBLE)], &options).unwrap();
    assert_eq!(r.observation.many().unwrap(), &[Value::Str("4 3 2 1 5".into()), int(12), int(6)]);
    assert_eq!(r.reward.many().unwrap(), &[1.0, 4.0]);
    assert_eq!(e.episode_reward(), Some(4.0), "the environment's reward space counts in the return");
    let r = e.multistep(&[int(BUBBLE), int(BUBBLE)], &StepOptions::default()).unwrap();
    assert_eq!(r.reward.one(), Some(&5.0)); // 6 -> 3 -> 1
    let unknown = StepOptions { observation_spaces: Some(vec!["Nope".into()]), reward_spaces: None };
    assert_eq!(e.multistep(&[], &unknown).unwrap_err().name(), "LookupError");
    let unknown = StepOptions { observation_spaces: None, reward_spaces: Some(vec!["Nope".into()]) };
    assert_eq!(e.multistep(&[], &unknown).unwrap_err().name(), "LookupError");
}

#[wasm_bindgen_test(unsupported = test)]
fn errors_never_kill_the_environment() {
    let mut e = toy(Some("Inversions"), Some("Inversions"));
    assert_eq!(e.step(int(0)).unwrap_err().name(), "SessionNotFound");
    assert_eq!(e.send_param("toy.len", "").unwrap_err().name(), "SessionNotFound");
    assert_eq!(e.observation().get("Inversions").unwrap_err().name(), "SessionNotFound");
    e.reset(ResetOptions::default()).unwrap();
    // Out-of-range and ill-typed actions: ValueError, nothing applied or recorded.
    assert_eq!(e.step(int(17)).unwrap_err().name(), "ValueError");
    assert_eq!(e.step(Value::Str("bubble".into())).unwrap_err().name(), "ValueError");
    assert_eq!(e.multistep(&[int(0), int(-1)], &StepOptions::default()).unwrap_err().name(), "ValueError");
    assert_eq!(e.actions().len(), 0);
    assert_eq!(e.step(int(BUBBLE)).unwrap().reward.one(), Some(&4.0));
    // A compiler failure ends the episode with default results.
    assert_eq!(e.send_param("toy.fail", "action").unwrap(), "ok");
    let r = e.step(int(BUBBLE)).unwrap();
    assert!(r.terminated);
    assert_eq!(r.info.error.as_ref().unwrap().name(), "ServiceError");
    assert_eq!((r.observation.one(), r.reward.one()), (Some(&int(0)), Some(&-10.0)));
    assert!(!e.in_episode());
    assert_eq!(e.step(int(BUBBLE)).unwrap_err().name(), "SessionNotFound");
    assert_eq!(e.service().borrow().session_count(), 0);
    // And the next reset works.
    assert_eq!(e.reset(ResetOptions::default()).unwrap(), Some(int(10)));
    // A failed observation is a failure too; reward_on_error negates returns when asked.
    e.set_reward_space(Some("InversionsO1")).unwrap();
    e.step(int(BUBBLE)).unwrap();
    e.send_param("toy.fail", "observation").unwrap();
    let r = e.step(int(BUBBLE)).unwrap();
    assert_eq!(r.reward.one(), Some(&-11.0));
    assert_eq!(e.episode_reward(), Some(-10.0));
    // Bad settings are LookupErrors and change nothing.
    assert_eq!(e.set_observation_space(Some("Nope")).unwrap_err().name(), "LookupError");
    assert_eq!(e.set_reward_space(Some("Nope")).unwrap_err().name(), "LookupError");
    assert_eq!(e.set_action_space("nope").unwrap_err().name(), "LookupError");
    assert_eq!(e.observation_space().unwrap().id, "Inversions");
    assert_eq!(
        e.reset(ResetOptions { benchmark: Some("toy-v0/nope".into()), ..Default::default() })
            .unwrap_err()
            .name(),
        "BenchmarkInitError"
    );
    assert_eq!(e.set_benchmark("no such uri").unwrap_err().name(), "BenchmarkInitError");
    assert!(!e.in_episode());
    assert_eq!(
        e.reset(ResetOptions { benchmark: Some("toy-v0/a".into()), ..Default::default() }).unwrap(),
        Some(int(2))
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn truncation_after_max_episode_steps() {
    let mut e = env(EnvOptions {
        benchmark: Some("toy-v0/b".into()),
        max_episode_steps: Some(3),
        ..Default::default()
    });
    e.reset(ResetOptions::default()).unwrap();
    assert!(!e.step(int(REVERSE)).unwrap().truncated);
    assert!(!e.step(int(REVERSE)).unwrap().truncated);
    assert!(e.step(int(REVERSE)).unwrap().truncated);
    e.reset(ResetOptions::default()).unwrap();
    assert!(e.multistep(&vec![int(REVERSE); 3], &StepOptions::default()).unwrap().truncated);
}

#[wasm_bindgen_test(unsupported = test)]
fn fork_copies_the_episode_and_reward_state() {
    let mut e = toy(Some("Inversions"), Some("Inversions"));
    e.reset(ResetOptions::default()).unwrap();
    e.step(int(BUBBLE)).unwrap();
    let mut f = e.fork().unwrap();
    assert_eq!(
        (f.actions(), f.episode_reward(), f.benchmark()),
        (e.actions(), e.episode_reward(), e.benchmark())
    );
    assert_eq!(e.service().borrow().session_count(), 2);
    let a = e.step(int(BUBBLE)).unwrap();
    let b = f.step(int(BUBBLE)).unwrap();
    assert_eq!(a, b, "same state, same reward state");
    f.step(int(REVERSE)).unwrap();
    assert_ne!(f.observation().get("Text").unwrap(), e.observation().get("Text").unwrap());
    // Rewards are copied when first written, by whichever side writes
    // first: here the fork, then its parent.
    let mut g = e.fork().unwrap();
    let c = g.step(int(REVERSE)).unwrap();
    let d = e.step(int(REVERSE)).unwrap();
    assert_eq!(c, d, "the fork's step left its parent's reward state alone");
    assert_eq!(g.episode_reward(), e.episode_reward());
    drop(g);
    // The fork's reset goes back to the same benchmark.
    assert_eq!(f.reset(ResetOptions::default()).unwrap(), Some(int(10)));
    f.close();
    f.close();
    assert!(!f.in_episode());
    drop(f);
    assert_eq!(e.service().borrow().session_count(), 1);
    // Forking outside an episode resets first.
    let mut g = toy(None, None);
    let h = g.fork().unwrap();
    assert!(g.in_episode() && h.in_episode());
}

#[wasm_bindgen_test(unsupported = test)]
fn views_rewards_and_parameters() {
    let mut e = toy(None, Some("Inversions"));
    e.reset(ResetOptions::default()).unwrap();
    assert_eq!(e.observation().get("Double").unwrap(), int(20));
    assert_eq!(e.observation().spaces().len(), 6);
    e.step(int(BUBBLE)).unwrap();
    assert_eq!(e.reward("InversionsNorm").unwrap(), 0.4);
    assert_eq!(e.reward("Nope").unwrap_err().name(), "LookupError");
    assert_eq!(e.reward_range(), (f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!(e.send_param("toy.len", "").unwrap(), "5");
    assert_eq!(e.send_param("unknown", "").unwrap_err().name(), "ValueError");
    // Spaces added after construction work at once.
    e.observation_mut()
        .add_derived_space(
            "Neg",
            "Inversions",
            Rc::new(|v: Value| Ok(Value::Int(-v.as_int().unwrap_or(0)))),
            DerivedSpaceOptions::default(),
        )
        .unwrap();
    e.set_observation_space(Some("Neg")).unwrap();
    assert_eq!(e.step(int(BUBBLE)).unwrap().observation.one(), Some(&int(-3)));
    e.add_reward_space(Box::new(CostReward::delta(RewardSpace::new("Fresh").unwrap(), "Inversions")))
        .unwrap();
    assert_eq!(e.reward_space().unwrap().name(), "Inversions");
    e.set_reward_space(Some("Fresh")).unwrap();
    assert_eq!(e.episode_reward(), Some(0.0), "a new reward space restarts the return");
}

#[wasm_bindgen_test(unsupported = test)]
fn action_spaces_and_commandlines() {
    let mut e = env(EnvOptions { benchmark: Some("toy-v0/b".into()), ..Default::default() });
    assert_eq!(e.action_space().name, "toy-flags");
    assert_eq!(e.action_spaces().len(), 2);
    e.reset(ResetOptions::default()).unwrap();
    e.multistep(&[int(BUBBLE), int(REVERSE)], &StepOptions::default()).unwrap();
    assert_eq!(e.commandline().unwrap(), "-bubble -reverse");
    assert_eq!(e.commandline_to_actions("-reverse -end").unwrap(), vec![int(REVERSE), int(END)]);
    assert!(e.commandline_to_actions("-nope").is_err());
    e.reset(ResetOptions { action_space: Some("toy-moves".into()), ..Default::default() }).unwrap();
    assert_eq!(e.action_space().name, "toy-moves");
    e.step(int(REVERSE)).unwrap();
    assert_eq!(e.commandline().unwrap(), "reverse");
    assert_eq!(e.commandline_to_actions("bubble end").unwrap(), vec![int(BUBBLE), int(END)]);
}

#[wasm_bindgen_test(unsupported = test)]
fn state_apply_and_validate() {
    let mut e = toy(None, Some("Inversions"));
    assert_eq!(e.state().unwrap_err().name(), "SessionNotFound");
    e.reset(ResetOptions::default()).unwrap();
    e.multistep(&[int(BUBBLE), int(REVERSE)], &StepOptions::default()).unwrap();
    let state = e.state().unwrap();
    assert_eq!(
        (state.benchmark.as_str(), state.commandline.as_str(), state.reward),
        ("benchmark://toy-v0/b", "bubble reverse", Some(6.0))
    );
    let v = e.validate(None).unwrap();
    assert!(v.okay(), "{:?}", v.errors);
    assert!(v.reward_validated && v.benchmark_semantics_validated && !v.actions_replay_failed);
    assert_eq!(e.actions().len(), 2, "validation leaves the episode alone");
    assert_eq!(e.service().borrow().session_count(), 1);
    // A wrong reward.
    let wrong = CompilerEnvState { reward: Some(7.0), ..state.clone() };
    let v = e.validate(Some(&wrong)).unwrap();
    assert!(v.reward_validation_failed && !v.okay());
    // A commandline that does not replay.
    let bad = CompilerEnvState { commandline: "bubble nope".into(), ..state.clone() };
    assert!(e.validate(Some(&bad)).unwrap().actions_replay_failed);
    // Semantics: a program that changed meaning.
    e.send_param("toy.corrupt", "").unwrap();
    let mut other = e.fork().unwrap();
    other.apply(&state).unwrap();
    assert_eq!(other.observation().get("Text").unwrap(), Value::Str("5 1 2 3 4".into()));
    assert_eq!(other.episode_reward(), Some(6.0));
    // apply on a state CSV round trip.
    let csv = write_csv(&[e.state().unwrap()]);
    assert_eq!(read_csv(&csv).unwrap()[0], state);
}

#[wasm_bindgen_test(unsupported = test)]
fn semantic_validation_failures_are_listed() {
    use crate::service::{CompilationSession, CompilerBackend};
    // A backend whose sessions always fail semantic validation.
    struct Liar;
    struct LiarSession(Box<dyn CompilationSession>);
    impl CompilationSession for LiarSession {
        fn apply_action(&mut self, a: &Value) -> crate::Result<crate::service::ActionOutcome> {
            self.0.apply_action(a)
        }
        fn get_observation(
            &mut self,
            i: usize,
            s: &crate::service::ObservationSpace,
        ) -> crate::Result<Value> {
            self.0.get_observation(i, s)
        }
        fn fork(&self) -> crate::Result<Box<dyn CompilationSession>> {
            Ok(Box::new(LiarSession(self.0.fork()?)))
        }
        fn validate(&mut self) -> crate::Result<Option<Vec<String>>> {
            Ok(Some(vec!["wrong output".into()]))
        }
    }
    impl CompilerBackend for Liar {
        fn compiler_version(&self) -> String {
            ToyBackend.compiler_version()
        }
        fn action_spaces(&self) -> Vec<crate::service::ActionSpace> {
            ToyBackend.action_spaces()
        }
        fn observation_spaces(&self) -> Vec<crate::service::ObservationSpace> {
            ToyBackend.observation_spaces()
        }
        fn start_session(&self, b: &Benchmark, a: usize) -> crate::Result<Box<dyn CompilationSession>> {
            Ok(Box::new(LiarSession(ToyBackend.start_session(b, a)?)))
        }
    }
    let mut e = CompilerEnv::new(Box::new(Liar), EnvExtras::default(), EnvOptions::default()).unwrap();
    assert_eq!(
        e.reset(ResetOptions::default()).unwrap_err().name(),
        "BenchmarkInitError",
        "no datasets, no default"
    );
    e.add_benchmark(Benchmark::from_contents("user-v0/x", "2 1")).unwrap();
    e.reset(ResetOptions { benchmark: Some("user-v0/x".into()), ..Default::default() }).unwrap();
    let v = e.validate(None).unwrap();
    assert!(v.benchmark_semantics_validation_failed);
    assert_eq!(v.errors, vec![ValidationError { kind: "Semantics".into(), details: "wrong output".into() }]);
    assert!(!v.reward_validated, "no reward space");
}

#[wasm_bindgen_test(unsupported = test)]
fn datasets_and_default_benchmark() {
    let mut e = env(EnvOptions::default());
    e.reset(ResetOptions::default()).unwrap();
    assert_eq!(e.benchmark(), Some("benchmark://toy-v0/a"), "the first benchmark of the first dataset");
    let d = e.datasets().clone();
    assert_eq!(d.datasets().len(), 2);
    assert_eq!(d.listed_benchmarks().count(), 3);
    assert_eq!(d.dataset("toy-v0").unwrap().size(), Some(3));
    assert_eq!(d.dataset("nope-v0").unwrap_err().name(), "LookupError");
    let mut rng = Rng::seed_from_u64(3);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..50 {
        let uri = d.random_benchmark(&mut rng).unwrap();
        e.reset(ResetOptions { benchmark: Some(uri.clone()), ..Default::default() }).unwrap();
        seen.insert(uri.split('/').nth(2).unwrap().to_string());
    }
    assert!(seen.contains("toy-random-v0") && seen.contains("toy-v0"));
    let mut again = Rng::seed_from_u64(3);
    assert_eq!(Datasets::new(d.datasets().to_vec()).random_benchmark(&mut again).unwrap(), {
        let mut r = Rng::seed_from_u64(3);
        d.random_benchmark(&mut r).unwrap()
    });
    assert!(d
        .random_benchmark_in("generator://toy-random-v0", &mut rng)
        .unwrap()
        .starts_with("generator://toy-random-v0/"));
    assert_eq!(Datasets::default().random_benchmark(&mut rng).unwrap_err().name(), "LookupError");
}

#[wasm_bindgen_test(unsupported = test)]
fn walltime_uses_the_injected_clock() {
    let mut e = env(EnvOptions { clock: Some(fixed_clock), ..Default::default() });
    assert_eq!(e.episode_walltime(), 0.0);
    e.reset(ResetOptions::default()).unwrap();
    assert_eq!(e.episode_walltime(), 0.0, "a clock that stands still");
    assert_eq!(e.state().unwrap().walltime, 0.0);
    assert!(e.validate(None).unwrap().walltime == 0.0);
}

#[wasm_bindgen_test(unsupported = test)]
fn an_episode_stops_at_the_step_cap_and_a_reset_starts_afresh() {
    let cap = crate::limits::MAX_EPISODE_STEPS as usize;
    let mut e = toy(None, None);
    e.reset(ResetOptions::default()).unwrap();
    let chunk = vec![int(BUBBLE); 1 << 16];
    for _ in 0..cap / chunk.len() - 1 {
        assert!(!e.multistep(&chunk, &StepOptions::default()).unwrap().truncated);
    }
    // One more than the cap at once is refused whole.
    let over = vec![int(BUBBLE); chunk.len() + 1];
    let err = e.multistep(&over, &StepOptions::default()).unwrap_err();
    assert_eq!(err.name(), "LimitError");
    assert!(err.message().contains(&format!("at most {cap} actions")), "{err}");
    assert_eq!(e.actions().len(), cap - chunk.len(), "nothing of it was applied");
    e.multistep(&chunk[1..], &StepOptions::default()).unwrap();
    assert!(e.step(int(BUBBLE)).unwrap().truncated, "the step that reaches the cap truncates");
    assert_eq!(e.step(int(BUBBLE)).unwrap_err().name(), "LimitError");
    assert_eq!(e.actions().len(), cap);
    e.reset(ResetOptions::default()).unwrap();
    assert!(e.actions().is_empty());
    assert!(!e.step(int(REVERSE)).unwrap().truncated);
}
