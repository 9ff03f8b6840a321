//! The Bril environments end to end: make, reset, step, observations,
//! rewards, fork, state, validation, and their errors.

use super::observations::Obs;
use crate::bril::interp::{run, Limits};
use crate::bril::{passes, suite};
use crate::compilers::make;
use crate::env::compiler_env::{EnvOptions, ResetOptions, StepOptions};
use crate::error::ErrorKind;
use crate::service::Benchmark;
use crate::value::Value;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

const BENCHMARK: &str = "benchmark://suite-v0/dead-code";

fn flag(name: &str) -> Value {
    let i = passes::registry().iter().position(|p| p.flag == name).unwrap();
    Value::Int(i as i64)
}

fn ic_env() -> crate::env::CompilerEnv {
    make("bril-ic-v0", EnvOptions { benchmark: Some(BENCHMARK.into()), ..EnvOptions::default() }).unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn every_registered_id_makes_an_environment() {
    for id in ["bril-v0", "bril-ic-v0", "bril-runtime-v0", "bril-autophase-ic-v0", "bril-ir-ic-v0"] {
        let mut env = make(id, EnvOptions::default()).unwrap();
        env.reset(ResetOptions::default()).unwrap();
        assert!(env.benchmark().unwrap().starts_with("benchmark://suite-v0/"), "{id}");
    }
    assert_eq!(make("bril-v9", EnvOptions::default()).err().unwrap().kind(), ErrorKind::Lookup);
}

#[wasm_bindgen_test(unsupported = test)]
fn the_action_space_is_every_pass() {
    let env = ic_env();
    let space = &env.action_space().space;
    assert_eq!(space.name(), "passes");
    let flags: Vec<&str> = passes::registry().iter().map(|p| p.flag).collect();
    match space.kind() {
        crate::spaces::SpaceKind::Commandline(c) => assert_eq!(c.flags(), flags),
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn dead_code_elimination_shrinks_the_program_and_earns_a_reward() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    let before = env.observation().get("IrInstructionCount").unwrap().as_int().unwrap();
    let result = env.step(flag("-dce")).unwrap();
    let after = env.observation().get("IrInstructionCount").unwrap().as_int().unwrap();
    assert!(after < before, "{before} -> {after}");
    let reward = *result.reward.one().unwrap();
    assert!(reward > 0.0, "reward {reward}");
    assert!(!result.info.action_had_no_effect);
    let again = env.step(flag("-dce")).unwrap();
    assert!(again.info.action_had_no_effect);
    assert_eq!(*again.reward.one().unwrap(), 0.0);
    assert_eq!(env.episode_reward(), Some(reward));
}

#[wasm_bindgen_test(unsupported = test)]
fn observations_match_the_compiler() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    let program = suite::get(BENCHMARK).unwrap();
    let outcome = run(&program.program().unwrap(), &program.args(), &Limits::default());
    let view = env.observation();
    assert_eq!(view.get("Output").unwrap(), Value::Str(outcome.stdout.clone()));
    assert_eq!(view.get("DynamicInstructionCount").unwrap(), Value::Int(outcome.dyn_inst as i64));
    assert_eq!(view.get("DynamicInstructionCountO0").unwrap(), Value::Int(outcome.dyn_inst as i64));
    assert_eq!(view.get("IsRunnable").unwrap(), Value::Bool(true));
    assert!(view.get("Ir").unwrap().as_str().unwrap().contains("@main"));
    assert_eq!(view.get("IrSha1").unwrap().as_str().unwrap().len(), 40);
    assert_eq!(view.get("InstCount").unwrap().as_array().unwrap().len(), 48);
    assert_eq!(view.get("Autophase").unwrap().as_array().unwrap().len(), 60);
    assert!(matches!(view.get("Programl").unwrap(), Value::Graph(_)));
    let dict = view.get("InstCountDict").unwrap();
    assert!(dict.get("TotalInstsCount").and_then(Value::as_int).unwrap() > 0);
    assert_eq!(view.get("InstCountNorm").unwrap().as_array().unwrap().len(), 47);
    assert!(view.get("AutophaseDict").unwrap().get("TotalInsts").is_some());
    for &obs in Obs::ALL {
        let value = view.get(obs.name()).unwrap();
        assert!(view.spec(obs.name()).unwrap().space.contains(&value), "{} = {value:?}", obs.name());
    }
    assert_eq!(view.get("Nope").unwrap_err().kind(), ErrorKind::Lookup);
}

#[wasm_bindgen_test(unsupported = test)]
fn fork_is_independent_and_keeps_the_reward_state() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    env.step(flag("-dce")).unwrap();
    let mut fork = env.fork().unwrap();
    assert_eq!(fork.actions(), env.actions());
    assert_eq!(fork.episode_reward(), env.episode_reward());
    fork.step(flag("-lvn")).unwrap();
    assert_eq!(env.actions().len(), 1);
    assert_eq!(fork.actions().len(), 2);
}

#[wasm_bindgen_test(unsupported = test)]
fn state_replays_and_validates() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    for f in ["-inline", "-lvn", "-dce", "-peephole"] {
        env.step(flag(f)).unwrap();
    }
    let state = env.state().unwrap();
    assert_eq!(state.commandline, "-inline -lvn -dce -peephole");
    let result = env.validate(None).unwrap();
    assert!(result.errors.is_empty(), "{:?}", result.errors);
    let mut other = make("bril-ic-v0", EnvOptions::default()).unwrap();
    other.apply(&state).unwrap();
    assert_eq!(other.observation().get("Ir").unwrap(), env.observation().get("Ir").unwrap());
}

#[wasm_bindgen_test(unsupported = test)]
fn errors_leave_the_environment_working() {
    let mut env = ic_env();
    assert_eq!(env.step(flag("-dce")).unwrap_err().kind(), ErrorKind::SessionNotFound);
    env.reset(ResetOptions::default()).unwrap();
    let out_of_range = Value::Int(passes::registry().len() as i64);
    assert_eq!(env.step(out_of_range).unwrap_err().kind(), ErrorKind::Value);
    assert!(env.actions().is_empty());
    assert_eq!(env.set_reward_space(Some("Nope")).unwrap_err().kind(), ErrorKind::Lookup);
    let error = env
        .reset(ResetOptions { benchmark: Some("benchmark://suite-v0/nope".into()), ..Default::default() })
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BenchmarkInit);
    env.reset(ResetOptions::default()).unwrap();
    env.step(flag("-dce")).unwrap();
}

#[wasm_bindgen_test(unsupported = test)]
fn user_programs_and_generated_programs() {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    let text = "@main {\n  x: int = const 1;\n  y: int = add x x;\n  print x;\n}\n";
    env.add_benchmark(Benchmark::from_contents("benchmark://user-v0/tiny", text)).unwrap();
    env.reset(ResetOptions { benchmark: Some("benchmark://user-v0/tiny".into()), ..Default::default() })
        .unwrap();
    assert_eq!(env.observation().get("Output").unwrap(), Value::Str("1\n".into()));

    let bad = Benchmark::from_contents("benchmark://user-v0/bad", "@main {\n  x: int = const ;\n}\n");
    let error = env.add_benchmark(bad).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BenchmarkInit);
    assert!(error.message().contains("2:"), "says where: {}", error.message());

    env.reset(ResetOptions {
        benchmark: Some("generator://random-v0/7?size=30".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(env.observation().get("IsRunnable").unwrap(), Value::Bool(true));
}

#[wasm_bindgen_test(unsupported = test)]
fn multistep_with_explicit_spaces() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    let options = StepOptions {
        observation_spaces: Some(vec!["IrInstructionCount".into(), "DynamicInstructionCount".into()]),
        reward_spaces: Some(vec!["IrInstructionCount".into(), "DynamicInstructionCountNorm".into()]),
    };
    let result = env.multistep(&[flag("-lvn"), flag("-dce")], &options).unwrap();
    assert_eq!(result.observation.many().unwrap().len(), 2);
    assert_eq!(result.reward.many().unwrap().len(), 2);
    assert_eq!(env.actions().len(), 2);
}

#[wasm_bindgen_test(unsupported = test)]
fn session_parameters() {
    let mut env = ic_env();
    env.reset(ResetOptions::default()).unwrap();
    assert_eq!(env.send_param("bril.num_passes", "").unwrap(), passes::registry().len().to_string());
    assert_eq!(env.send_param("bril.fuel", "10").unwrap(), "10");
    assert_eq!(env.observation().get("IsRunnable").unwrap(), Value::Bool(false));
    assert_eq!(env.send_param("bril.fuel", "x").unwrap_err().kind(), ErrorKind::Service);
    assert_eq!(env.send_param("nope", "1").unwrap_err().kind(), ErrorKind::Value);
}

fn session_of(src: &str) -> super::BrilSession {
    super::BrilSession::new(crate::bril::parse_text(src).unwrap())
}

/// A pass that changed nothing is not run again on the same program, yet
/// runs again (and may act) once another pass has changed the program.
#[wasm_bindgen_test(unsupported = test)]
fn passes_without_effect_run_again_after_a_change() {
    use crate::service::CompilationSession;
    let mut s = session_of("@main {\n  x: int = const 1;\n  y: int = id x;\n  print y;\n}");
    assert!(s.apply_action(&flag("-dce")).unwrap().action_had_no_effect, "everything is used");
    assert!(s.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    assert!(!s.apply_action(&flag("-lvn")).unwrap().action_had_no_effect, "print reads x");
    assert!(!s.apply_action(&flag("-dce")).unwrap().action_had_no_effect, "y is dead now");
    assert_eq!(s.program().instr_count(), 2);
    assert_eq!(crate::bril::to_text(s.program()), "@main {\n  x: int = const 1;\n  print x;\n}\n");
}

/// Forks share the program until one changes it; a change in one is never
/// seen by the other, and each keeps what it knows of its own program.
#[wasm_bindgen_test(unsupported = test)]
fn forks_share_the_program_until_one_changes_it() {
    use crate::service::CompilationSession;
    let src = "@main {\n  x: int = const 1;\n  y: int = id x;\n  print y;\n}";
    let mut s = session_of(src);
    assert!(s.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    let mut fork = s.fork().unwrap();
    assert!(!fork.apply_action(&flag("-lvn")).unwrap().action_had_no_effect);
    assert!(!fork.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    let count = |s: &mut dyn CompilationSession| {
        let obs = Obs::IrInstructionCount;
        let i = Obs::ALL.iter().position(|&o| o == obs).unwrap();
        s.get_observation(i, &obs.observation_space().unwrap()).unwrap().as_int().unwrap()
    };
    assert_eq!(count(fork.as_mut()), 2);
    assert_eq!(count(&mut s), 3, "the original keeps its program");
    assert_eq!(
        crate::bril::to_text(s.program()),
        crate::bril::to_text(&crate::bril::parse_text(src).unwrap())
    );
    assert!(s.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    assert!(!s.apply_action(&flag("-lvn")).unwrap().action_had_no_effect);
}

#[wasm_bindgen_test(unsupported = test)]
fn random_v1_programs_are_a_dataset() {
    let mut env = ic_env();
    assert_eq!(env.datasets().dataset("generator://random-v1").unwrap().size(), None);
    let uri = "generator://random-v1/7?size=200";
    env.reset(ResetOptions { benchmark: Some(uri.into()), ..Default::default() }).unwrap();
    assert_eq!(env.benchmark().unwrap(), uri);
    assert_eq!(env.observation().get("IsRunnable").unwrap(), Value::Bool(true));
    let program = crate::bril::generator::v1::generate(7, 200).unwrap();
    let expected = run(&program, &program.main_args(), &Limits::default()).into_stdout().unwrap();
    assert_eq!(env.observation().get("Output").unwrap(), Value::Str(expected));
    let count = env.observation().get("IrInstructionCount").unwrap().as_int().unwrap();
    assert_eq!(count, program.instr_count() as i64);
    let bad =
        env.reset(ResetOptions { benchmark: Some("generator://random-v1/x".into()), ..Default::default() });
    assert_eq!(bad.err().unwrap().kind(), ErrorKind::BenchmarkInit);
}

#[wasm_bindgen_test(unsupported = test)]
fn the_large_programs_are_a_dataset() {
    let mut env = ic_env();
    let large = env.datasets().dataset("large-v0").unwrap().clone();
    assert_eq!(large.size(), Some(suite::large::names().count() as u64));
    let uri = suite::large::uris().next().unwrap();
    env.reset(ResetOptions { benchmark: Some(uri.clone()), ..Default::default() }).unwrap();
    assert_eq!(env.benchmark().unwrap(), uri);
    assert!(env.observation().get("IrInstructionCount").unwrap().as_int().unwrap() >= 300);
    let missing =
        env.reset(ResetOptions { benchmark: Some("benchmark://large-v0/nope".into()), ..Default::default() });
    assert_eq!(missing.err().unwrap().kind(), ErrorKind::BenchmarkInit);
}

/// Validation of a user program on `bril-v0`, after one `-dce`.
fn validate_user_program(uri: &str, text: &str) -> Vec<String> {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.add_benchmark(Benchmark::from_contents(uri, text)).unwrap();
    env.reset(ResetOptions { benchmark: Some(uri.into()), ..Default::default() }).unwrap();
    env.step(Value::Int(0)).unwrap();
    env.validate(None).unwrap().errors.into_iter().map(|e| e.details).collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn validation_fails_where_the_program_cannot_show_its_output_is_kept() {
    let never_ends = "@main {\n.top:\n  jmp .top;\n}\n";
    let divides_by_zero =
        "@main {\n  z: int = const 0;\n  one: int = const 1;\n  q: int = div one z;\n  print q;\n}\n";
    let needs_an_argument = "@main(n: int) {\n  print n;\n}\n";
    for (name, text, why) in [
        ("loop", never_ends, "fuel"),
        ("div", divides_by_zero, "division by zero"),
        ("args", needs_an_argument, "argument"),
    ] {
        let errors = validate_user_program(&format!("benchmark://user-v0/{name}"), text);
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
        assert!(
            errors[0].contains("does not run to the end") && errors[0].to_lowercase().contains(why),
            "{name}: {errors:?}"
        );
    }
    let fine = "@main {\n  a: int = const 1;\n  print a;\n}\n";
    assert!(validate_user_program("benchmark://user-v0/fine", fine).is_empty());
}

#[wasm_bindgen_test(unsupported = test)]
fn programs_that_cannot_load_are_refused_when_added_and_main_is_needed_to_validate() {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    for (name, text, why) in
        [("empty", "", "empty"), ("semicolon", "@main {\n  a: int = const 1\n  print a;\n}\n", "")]
    {
        let e = env
            .add_benchmark(Benchmark::from_contents(&format!("benchmark://user-v0/{name}"), text))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BenchmarkInit, "{name}: {e}");
        assert!(e.message().contains(why), "{name}: {e}");
    }
    let library = "@helper(x: int): int {\n  ret x;\n}\n";
    let errors = validate_user_program("benchmark://user-v0/library", library);
    assert!(errors.len() == 1 && errors[0].contains("no @main"), "{errors:?}");
}

/// Two environments on one benchmark share its states (the second's step
/// reaches the very program the first's made, no pass run again), but each
/// masks only what it tried itself; the states go when the last one closes.
#[wasm_bindgen_test(unsupported = test)]
fn environments_on_one_benchmark_share_its_states_not_their_masks() {
    use crate::service::CompilationSession;
    let uri = "benchmark://own-v0/shared-states";
    let text = "@main {\n  x: int = const 1;\n  y: int = id x;\n  z: int = add x x;\n  print y;\n}\n";
    let benchmark = Benchmark::from_contents(uri, text);
    let before = super::shared_tables::entries();
    let (first, second) = (super::BrilBackend::new(), super::BrilBackend::new());
    let (shared, first_knows) = first.shared(&benchmark).unwrap();
    let (same, second_knows) = second.shared(&benchmark).unwrap();
    assert!(Rc::ptr_eq(&shared, &same), "one table for the benchmark");
    assert!(!Rc::ptr_eq(&first_knows, &second_knows), "two environments' knowledge");
    let mut a = super::BrilSession::on(shared.clone(), first_knows);
    let mut b = super::BrilSession::on(same, second_knows);
    assert!(!a.apply_action(&flag("-dce")).unwrap().action_had_no_effect, "z is dead");
    assert!(a.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    assert!(!b.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    assert!(Rc::ptr_eq(&a.state, &b.state), "the second reached the first's state");
    let dce = passes::registry().iter().position(|p| p.flag == "-dce").unwrap();
    let masked = |s: &super::BrilSession| {
        let mut no_effect = vec![false; passes::registry().len()];
        s.known_no_effect(&mut no_effect);
        no_effect[dce]
    };
    assert!(masked(&a) && !masked(&b), "the second never tried -dce here");
    assert!(b.apply_action(&flag("-dce")).unwrap().action_had_no_effect);
    assert!(masked(&b));
    // A third environment after both are gone starts a table of its own.
    let weak = Rc::downgrade(&shared);
    drop((a, b, shared, first, second));
    assert!(weak.upgrade().is_none(), "the states went with the environments");
    let third = super::BrilBackend::new();
    let (fresh, _) = third.shared(&benchmark).unwrap();
    assert_eq!(fresh.root.program().instr_count(), 4);
    assert!(super::shared_tables::entries() <= before + 2, "dead entries are swept");
}
