//! `CompilerEnv` from JavaScript's side: make, reset/step/multistep/fork,
//! the views, rewards and derived spaces written in JS, states, CSV,
//! datasets, and every error path.
#![cfg(target_arch = "wasm32")]

use compgym::js::env::compiler_env::{make, registered_envs, JsCompilerEnv};
use compgym::js::env::state::{compiler_env_states_from_csv, compiler_env_states_to_csv};
use compgym::js::env::wasm_memory_bytes;
use compgym::js::spaces::JsSpace;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::js_values::{get, message, name, num as n, obj};

const STATES_CSV: &str = include_str!("../data/compiler_env_states.csv");
const FIB: &str = "benchmark://suite-v0/fib-iter";

/// Evaluates a JS expression.
fn js(expr: &str) -> JsValue {
    Function::new_no_args(&format!("return ({expr});")).call0(&JsValue::NULL).unwrap()
}

fn env(id: &str, options: &[(&str, JsValue)]) -> JsCompilerEnv {
    let mut all = vec![("benchmark", JsValue::from_str(FIB))];
    all.extend(options.iter().cloned());
    make(JsValue::from(id), Some(obj(&all))).unwrap()
}

fn strings(v: &JsValue) -> Vec<String> {
    Array::from(v).iter().map(|s| s.as_string().unwrap()).collect()
}

#[wasm_bindgen_test]
fn make_knows_the_registered_ids_and_rejects_others() {
    let ids = registered_envs();
    for id in ["bril-v0", "bril-ic-v0", "bril-runtime-v0", "bril-autophase-ic-v0", "bril-ir-ic-v0"] {
        assert!(ids.contains(&id.to_string()), "{id}");
    }
    let e = make(JsValue::from("nope-v0"), None).err().unwrap();
    assert_eq!(name(&e), "LookupError");
    assert!(message(&e).contains("nope-v0"));
    let e = make(JsValue::from("bril-v0"), Some(obj(&[("rewardSpce", "x".into())]))).err().unwrap();
    assert_eq!(name(&e), "TypeError");
    assert!(message(&e).contains("rewardSpce"));
    let e = make(JsValue::from("bril-v0"), Some(obj(&[("rewardSpace", "Nope".into())]))).err().unwrap();
    assert_eq!(name(&e), "LookupError");
    let e = make(JsValue::from("bril-v0"), Some(obj(&[("maxEpisodeSteps", n(-1.0))]))).err().unwrap();
    assert_eq!(name(&e), "ValueError");
    // The id's defaults apply; options override them.
    let ic = make(JsValue::from("bril-ic-v0"), None).unwrap();
    assert_eq!(ic.reward_space().unwrap().as_deref(), Some("IrInstructionCountOz"));
    let plain = make(JsValue::from("bril-ic-v0"), Some(obj(&[("rewardSpace", JsValue::NULL)]))).unwrap();
    assert_eq!(plain.reward_space().unwrap(), None);
}

#[wasm_bindgen_test]
fn step_before_reset_is_session_not_found_then_reset_works() {
    let e = env("bril-ic-v0", &[]);
    assert!(!e.in_episode().unwrap());
    let err = e.step(n(0.0), None).err().unwrap();
    assert_eq!(name(&err), "SessionNotFound");
    assert_eq!(name(&e.observation().get(JsValue::from("Ir")).err().unwrap()), "SessionNotFound");
    assert_eq!(name(&e.reward().get(JsValue::from("IrInstructionCount")).err().unwrap()), "SessionNotFound");
    assert_eq!(name(&e.state().err().unwrap()), "SessionNotFound");
    assert!(e.reset(None).unwrap().is_null(), "no observation space");
    assert!(e.in_episode().unwrap());
    assert_eq!(e.benchmark().unwrap().as_deref(), Some(FIB));
    let r = e.step(n(0.0), None).unwrap();
    assert!(get(&r, "reward").as_f64().is_some());
    e.close().unwrap();
    assert!(!e.in_episode().unwrap());
    assert_eq!(name(&e.step(n(0.0), None).err().unwrap()), "SessionNotFound");
    e.reset(None).unwrap();
    assert!(e.in_episode().unwrap());
}

#[wasm_bindgen_test]
fn steps_take_integers_and_pass_names_and_reject_bad_actions() {
    let e = env("bril-ir-ic-v0", &[]);
    let ir = e.reset(None).unwrap();
    assert!(ir.as_string().unwrap().contains("@main"));
    let r = e.step("-dce".into(), None).unwrap();
    assert!(get(&r, "observation").as_string().is_some());
    assert!(get(&r, "reward").as_f64().is_some());
    assert_eq!(get(&r, "terminated"), JsValue::FALSE);
    assert_eq!(get(&r, "truncated"), JsValue::FALSE);
    let info = get(&r, "info");
    assert!(get(&info, "actionHadNoEffect").as_bool().is_some());
    assert_eq!(get(&info, "newActionSpace"), JsValue::FALSE);
    assert!(get(&info, "error").is_undefined());
    e.step(n(1.0), None).unwrap();
    assert_eq!(e.commandline().unwrap(), "-dce -lvn");
    let actions: Vec<f64> = Array::from(&e.actions().unwrap()).iter().map(|a| a.as_f64().unwrap()).collect();
    assert_eq!(actions, vec![0.0, 1.0]);
    // Out of range, fractional, unknown names: errors, and the episode goes on.
    for (bad, kind) in [(n(999.0), "ValueError"), (n(-1.0), "ValueError"), (n(0.5), "TypeError")] {
        let err = e.step(bad, None).err().unwrap();
        assert_eq!(name(&err), kind, "{}", message(&err));
    }
    assert!(name(&e.step("-no-such-pass".into(), None).err().unwrap()).ends_with("Error"));
    assert_eq!(name(&e.step("-dce -lvn".into(), None).err().unwrap()), "ValueError");
    assert_eq!(name(&e.step(JsValue::NULL, None).err().unwrap()), "TypeError");
    assert_eq!(Array::from(&e.actions().unwrap()).length(), 2);
    e.step(n(0.0), None).unwrap();
    assert_eq!(Array::from(&e.actions().unwrap()).length(), 3);
}

#[wasm_bindgen_test]
fn multistep_returns_lists_for_explicit_spaces() {
    let e = env("bril-ic-v0", &[]);
    e.reset(None).unwrap();
    let actions = js("['-dce', 1, '-peephole']");
    let options = js(
        "({observationSpaces: ['IrInstructionCount', 'Autophase'], rewardSpaces: ['IrInstructionCount']})",
    );
    let r = e.multistep(actions, Some(options)).unwrap();
    let observations = Array::from(&get(&r, "observation"));
    assert_eq!(observations.length(), 2);
    assert!(observations.get(0).as_f64().unwrap() > 0.0);
    assert!(observations.get(1).is_object());
    assert_eq!(Array::from(&get(&r, "reward")).length(), 1);
    assert_eq!(e.commandline().unwrap(), "-dce -lvn -peephole");
    // The environment's own spaces: single values.
    let r = e.multistep(js("[0]"), None).unwrap();
    assert!(get(&r, "reward").as_f64().is_some());
    let err = e.multistep(js("[0]"), Some(js("({observationSpaces: ['Nope']})"))).err().unwrap();
    assert_eq!(name(&err), "LookupError");
    assert_eq!(name(&e.multistep(n(0.0), None).err().unwrap()), "TypeError");
    assert_eq!(name(&e.multistep(js("[0]"), Some(js("({rewards: []})"))).err().unwrap()), "TypeError");
}

#[wasm_bindgen_test]
fn step_takes_compiler_gyms_per_step_spaces() {
    let e = env("bril-autophase-ic-v0", &[]);
    e.reset(None).unwrap();
    let options =
        js("({observationSpaces: ['IrInstructionCount', 'Ir'], rewardSpaces: ['IrInstructionCount']})");
    let r = e.step("-dce".into(), Some(options)).unwrap();
    let observations = Array::from(&get(&r, "observation"));
    assert_eq!(observations.length(), 2);
    assert!(observations.get(0).as_f64().unwrap() > 0.0);
    assert!(observations.get(1).as_string().unwrap().contains("@main"));
    let rewards = Array::from(&get(&r, "reward"));
    assert_eq!(rewards.length(), 1);
    assert!(rewards.get(0).as_f64().is_some());
    // Only rewards asked for: the observation is a list of the environment's own.
    let r = e
        .step("-lvn".into(), Some(js("({rewardSpaces: ['IrInstructionCountNorm', 'IrInstructionCount']})")))
        .unwrap();
    let observations = Array::from(&get(&r, "observation"));
    assert_eq!(observations.length(), 1);
    assert!(
        observations.get(0).is_instance_of::<js_sys::BigInt64Array>(),
        "Autophase, as `observation` has it"
    );
    assert_eq!(Array::from(&get(&r, "reward")).length(), 2);
    assert_eq!(e.commandline().unwrap(), "-dce -lvn");
    // Bad options are errors that step nothing.
    let err = e.step(n(0.0), Some(js("({observationSpaces: ['Nope']})"))).err().unwrap();
    assert_eq!(name(&err), "LookupError");
    let err = e.step(n(0.0), Some(js("({observations: []})"))).err().unwrap();
    assert_eq!(name(&err), "TypeError");
    assert!(message(&err).contains("step options"), "{}", message(&err));
    assert_eq!(e.commandline().unwrap(), "-dce -lvn");
}

#[wasm_bindgen_test]
fn properties_and_settings() {
    let e = env("bril-autophase-ic-v0", &[("maxEpisodeSteps", n(2.0))]);
    assert_eq!(e.observation_space().unwrap().as_deref(), Some("Autophase"));
    assert_eq!(e.reward_space().unwrap().as_deref(), Some("IrInstructionCountOz"));
    assert!(!e.version().unwrap().is_empty());
    assert!(e.compiler_version().unwrap().starts_with("bril-compgym"));
    let space = e.action_space().unwrap();
    assert_eq!(space.n().unwrap(), compgym::bril::passes::registry().len() as f64);
    assert_eq!(e.action_spaces().unwrap().len(), 1);
    assert_eq!(e.max_episode_steps().unwrap().as_f64(), Some(2.0));
    let range = e.reward_range().unwrap();
    assert_eq!(range.len(), 2);
    let obs = e.reset(None).unwrap();
    assert!(obs.is_instance_of::<js_sys::BigInt64Array>() || obs.is_object());
    assert_eq!(e.episode_reward().unwrap().as_f64(), Some(0.0));
    assert!(e.episode_walltime().unwrap() >= 0.0);
    assert_eq!(get(&e.step(n(0.0), None).unwrap(), "truncated"), JsValue::FALSE);
    assert_eq!(get(&e.step(n(1.0), None).unwrap(), "truncated"), JsValue::TRUE);
    e.set_max_episode_steps(JsValue::NULL).unwrap();
    assert!(e.max_episode_steps().unwrap().is_null());
    // Settable spaces: names, null, unknown names.
    e.set_observation_space(JsValue::from("IrInstructionCount")).unwrap();
    assert!(get(&e.step(n(0.0), None).unwrap(), "observation").as_f64().is_some());
    e.set_observation_space(JsValue::UNDEFINED).unwrap();
    assert!(get(&e.step(n(0.0), None).unwrap(), "observation").is_null());
    assert_eq!(name(&e.set_observation_space(JsValue::from("Nope")).err().unwrap()), "LookupError");
    e.set_reward_space(JsValue::UNDEFINED).unwrap();
    assert!(e.episode_reward().unwrap().is_null());
    assert!(get(&e.step(n(0.0), None).unwrap(), "reward").is_null());
    assert_eq!(e.reward_range().unwrap(), vec![f64::NEG_INFINITY, f64::INFINITY]);
    assert_eq!(name(&e.set_reward_space(JsValue::from("Nope")).err().unwrap()), "LookupError");
    assert_eq!(name(&e.set_action_space(JsValue::from("nope")).err().unwrap()), "LookupError");
    // Reset options change settings.
    let obs = e
        .reset(Some(js("({observationSpace: 'IrInstructionCount', rewardSpace: 'IrInstructionCount'})")))
        .unwrap();
    assert!(obs.as_f64().unwrap() > 0.0);
    assert_eq!(e.reward_space().unwrap().as_deref(), Some("IrInstructionCount"));
    assert_eq!(name(&e.reset(Some(js("({observationSpace: 'Nope'})"))).err().unwrap()), "LookupError");
    assert_eq!(
        name(&e.reset(Some(js("({benchmark: 'benchmark://suite-v0/nope'})"))).err().unwrap()),
        "BenchmarkInitError"
    );
    assert_eq!(name(&e.reset(Some(js("({benchmark: 3})"))).err().unwrap()), "TypeError");
    // The failed resets left a working environment on the old benchmark.
    e.reset(None).unwrap();
    assert_eq!(e.benchmark().unwrap().as_deref(), Some(FIB));
    e.set_benchmark(JsValue::from("benchmark://suite-v0/gcd-lcm")).unwrap();
    e.reset(None).unwrap();
    assert_eq!(e.benchmark().unwrap().as_deref(), Some("benchmark://suite-v0/gcd-lcm"));
    assert!(e.to_string_js().contains("CompilerEnv"));
}

#[wasm_bindgen_test]
fn send_param_and_commandlines() {
    let e = env("bril-v0", &[]);
    assert_eq!(
        name(&e.send_param(JsValue::from("bril.num_passes"), JsValue::from("")).err().unwrap()),
        "SessionNotFound"
    );
    e.reset(None).unwrap();
    assert_eq!(
        e.send_param(JsValue::from("bril.num_passes"), JsValue::from("")).unwrap(),
        compgym::bril::passes::registry().len().to_string()
    );
    assert_eq!(name(&e.send_param(JsValue::from("no.such"), JsValue::from("")).err().unwrap()), "ValueError");
    assert_eq!(e.commandline_to_actions(JsValue::from("-lvn -dce")).unwrap(), vec![1.0, 0.0]);
    assert!(e.commandline_to_actions(JsValue::from("-nope")).is_err());
    assert_eq!(e.commandline().unwrap(), "");
}

#[wasm_bindgen_test]
fn forks_are_independent_and_copy_reward_state() {
    let e = env("bril-ic-v0", &[("rewardSpace", "IrInstructionCount".into())]);
    e.reset(None).unwrap();
    e.step("-inline".into(), None).unwrap();
    let before = e.episode_reward().unwrap().as_f64().unwrap();
    let f = e.fork().unwrap();
    assert_eq!(f.commandline().unwrap(), e.commandline().unwrap());
    assert_eq!(f.episode_reward().unwrap().as_f64(), Some(before));
    // Same program: the same action gives the same reward on both.
    let a = get(&e.step("-dce".into(), None).unwrap(), "reward").as_f64().unwrap();
    let b = get(&f.step("-dce".into(), None).unwrap(), "reward").as_f64().unwrap();
    assert_eq!(a, b);
    f.step("-lvn".into(), None).unwrap();
    assert_eq!(e.commandline().unwrap(), "-inline -dce");
    assert_eq!(f.commandline().unwrap(), "-inline -dce -lvn");
    assert!(e.observation().get(JsValue::from("Ir")).unwrap().as_string().is_some());
    f.close().unwrap();
    assert!(e.in_episode().unwrap());
    e.step(n(0.0), None).unwrap();
    // Forking outside an episode resets first.
    let g = make(JsValue::from("bril-v0"), Some(obj(&[("benchmark", FIB.into())]))).unwrap();
    let h = g.fork().unwrap();
    assert!(h.in_episode().unwrap());
}

#[wasm_bindgen_test]
fn observation_view_lists_specs_and_computes_lazily() {
    let e = env("bril-v0", &[]);
    let view = e.observation();
    let specs = view.spaces().unwrap();
    let autophase = specs.iter().find(|s| s.id() == "Autophase").unwrap();
    assert!(autophase.deterministic());
    assert!(!autophase.platform_dependent());
    assert!(!autophase.derived());
    assert_eq!(autophase.to_string_js(), "ObservationSpaceSpec(Autophase)");
    assert!(!autophase.space().name().is_empty());
    let _ = autophase.default_value();
    let dict = view.spec(JsValue::from("AutophaseDict")).unwrap();
    assert!(dict.derived());
    assert_eq!(dict.index(), autophase.index());
    assert_eq!(name(&view.spec(JsValue::from("Nope")).err().unwrap()), "LookupError");
    assert_eq!(name(&view.get(JsValue::from("Autophase")).err().unwrap()), "SessionNotFound");
    e.reset(None).unwrap();
    assert_eq!(name(&view.get(JsValue::from("Nope")).err().unwrap()), "LookupError");
    let count = view.get(JsValue::from("IrInstructionCount")).unwrap().as_f64().unwrap();
    assert!(count > 0.0);
    let dict = view.get(JsValue::from("AutophaseDict")).unwrap();
    assert!(get(&dict, "TotalInsts").as_f64().is_some() || get(&dict, "TotalInsts").is_bigint());
}

#[wasm_bindgen_test]
fn js_derived_spaces_translate_and_name_themselves_in_errors() {
    let e = env("bril-v0", &[]);
    let view = e.observation();
    let double = Function::new_with_args("x", "return x * 2");
    view.add_derived_space(JsValue::from("Double"), JsValue::from("IrInstructionCount"), double.into(), None)
        .unwrap();
    let half = Function::new_with_args("x", "return x / 2");
    let space: JsValue = JsSpace::scalar(js("({name: 'Half', min: 0, dtype: 'float64'})")).unwrap().into();
    view.add_derived_space(
        JsValue::from("Half"),
        JsValue::from("IrInstructionCount"),
        half.into(),
        Some(obj(&[("space", space), ("deterministic", JsValue::FALSE)])),
    )
    .unwrap();
    assert!(!view.spec(JsValue::from("Half")).unwrap().deterministic());
    e.reset(None).unwrap();
    let count = view.get(JsValue::from("IrInstructionCount")).unwrap().as_f64().unwrap();
    assert_eq!(view.get(JsValue::from("Double")).unwrap().as_f64(), Some(count * 2.0));
    assert_eq!(view.get(JsValue::from("Half")).unwrap().as_f64(), Some(count / 2.0));
    e.set_observation_space(JsValue::from("Double")).unwrap();
    assert!(get(&e.step(n(0.0), None).unwrap(), "observation").as_f64().is_some());
    // A throwing translate and one whose value is outside its space.
    let throws = Function::new_with_args("x", "throw new Error('bad translate')");
    view.add_derived_space(JsValue::from("Throws"), JsValue::from("IrInstructionCount"), throws.into(), None)
        .unwrap();
    let err = view.get(JsValue::from("Throws")).err().unwrap();
    assert!(
        message(&err).contains("\"Throws\"") && message(&err).contains("bad translate"),
        "{}",
        message(&err)
    );
    let negative = Function::new_with_args("x", "return -1");
    view.add_derived_space(
        JsValue::from("Negative"),
        JsValue::from("IrInstructionCount"),
        negative.into(),
        Some(obj(&[("space", JsSpace::scalar(js("({min: 0, dtype: 'int64'})")).unwrap().into())])),
    )
    .unwrap();
    let err = view.get(JsValue::from("Negative")).err().unwrap();
    assert!(message(&err).contains("\"Negative\""), "{}", message(&err));
    let wrong = Function::new_with_args("x", "return 'text'");
    view.add_derived_space(JsValue::from("Wrong"), JsValue::from("IrInstructionCount"), wrong.into(), None)
        .unwrap();
    assert!(message(&view.get(JsValue::from("Wrong")).err().unwrap()).contains("\"Wrong\""));
    // The environment still works after the errors.
    view.get(JsValue::from("Double")).unwrap();
    // Argument errors.
    let f: JsValue = Function::new_with_args("x", "return x").into();
    assert_eq!(
        name(
            &view
                .add_derived_space(JsValue::from("X"), JsValue::from("Nope"), f.clone(), None)
                .err()
                .unwrap()
        ),
        "LookupError"
    );
    assert_eq!(
        name(&view.add_derived_space(JsValue::from("X"), JsValue::from("Ir"), n(1.0), None).err().unwrap()),
        "TypeError"
    );
    assert_eq!(
        name(
            &view
                .add_derived_space(
                    JsValue::from("X"),
                    JsValue::from("Ir"),
                    f.clone(),
                    Some(js("({spaec: 1})"))
                )
                .err()
                .unwrap()
        ),
        "TypeError"
    );
    // A translate that re-enters the environment gets a ServiceError, not a panic.
    let alias: JsValue = JsCompilerEnv::from_shared(e.shared().clone()).into();
    Reflect::set(&js_sys::global(), &"__compgymEnv".into(), &alias).unwrap();
    let reenter = Function::new_with_args("x", "globalThis.__compgymEnv.step(0); return x");
    view.add_derived_space(
        JsValue::from("Reenter"),
        JsValue::from("IrInstructionCount"),
        reenter.into(),
        None,
    )
    .unwrap();
    let err = view.get(JsValue::from("Reenter")).err().unwrap();
    assert_eq!(name(&err), "ServiceError", "{}", message(&err));
    let reads = Function::new_with_args(
        "x",
        "return globalThis.__compgymEnv.observation.get('IrInstructionCount') + x",
    );
    view.add_derived_space(JsValue::from("Reads"), JsValue::from("IrInstructionCount"), reads.into(), None)
        .unwrap();
    let count = view.get(JsValue::from("IrInstructionCount")).unwrap().as_f64().unwrap();
    assert_eq!(view.get(JsValue::from("Reads")).unwrap().as_f64(), Some(count * 2.0), "a nested read works");
    e.step(n(0.0), None).unwrap();
}

#[wasm_bindgen_test]
fn specs_make_derived_spaces_that_views_add() {
    let e = env("bril-v0", &[]);
    let view = e.observation();
    let base = view.spec(JsValue::from("IrInstructionCount")).unwrap();
    let plus_one = Function::new_with_args("x", "return x + 1");
    let spec = base.make_derived_space(JsValue::from("PlusOne"), plus_one.into(), None).unwrap();
    assert_eq!((spec.id(), spec.derived(), spec.index()), ("PlusOne".to_string(), true, base.index()));
    assert_eq!(name(&view.get(JsValue::from("PlusOne")).err().unwrap()), "LookupError", "made, not added");
    view.add_space(&spec).unwrap();
    // Derived again: translations compose.
    let times_ten = Function::new_with_args("x", "return x * 10");
    view.add_space(
        &spec.make_derived_space(JsValue::from("PlusOneTimesTen"), times_ten.into(), None).unwrap(),
    )
    .unwrap();
    e.reset(None).unwrap();
    let count = view.get(JsValue::from("IrInstructionCount")).unwrap().as_f64().unwrap();
    assert_eq!(view.get(JsValue::from("PlusOne")).unwrap().as_f64(), Some(count + 1.0));
    assert_eq!(view.get(JsValue::from("PlusOneTimesTen")).unwrap().as_f64(), Some((count + 1.0) * 10.0));
    let f: JsValue = Function::new_with_args("x", "return x").into();
    assert_eq!(
        name(&base.make_derived_space(JsValue::from(""), f.clone(), None).err().unwrap()),
        "ValueError"
    );
    assert_eq!(name(&base.make_derived_space(JsValue::from("X"), n(1.0), None).err().unwrap()), "TypeError");
    assert_eq!(
        name(&base.make_derived_space(JsValue::from("X"), f, Some(js("({spaec: 1})"))).err().unwrap()),
        "TypeError"
    );
}

/// A JS reward class counting its calls; `clone()` optional.
fn counting_reward(name: &str, with_clone: bool) -> JsValue {
    let clone = if with_clone {
        "clone() { const c = new R(); c.calls = this.calls; c.cloned = true; return c; }"
    } else {
        ""
    };
    js(&format!(
        "(() => {{ class R {{
            constructor() {{ this.name = '{name}'; this.observationSpaces = ['IrInstructionCount']; this.calls = 0; this.range = [null, 0]; this.defaultValue = -5; this.deterministic = true; }}
            reset(benchmark, view) {{ this.view = view; this.benchmark = benchmark; this.calls = 0; this.start = view.get('IrInstructionCount'); }}
            update(actions, observations, view) {{ this.calls += 1; this.last = view.get('Autophase'); return this.calls * 10 + actions.length + 0 * observations[0]; }}
            total() {{ return this.calls; }}
            {clone}
        }} return new R(); }})()"
    ))
}

#[wasm_bindgen_test]
fn js_rewards_plug_in_and_fork_with_their_state() {
    let e = env("bril-v0", &[]);
    let reward = counting_reward("Calls", false);
    e.reward().add_space(reward.clone()).unwrap();
    let info = Array::from(&e.reward().spaces().unwrap());
    let calls = info.iter().find(|r| get(r, "name").as_string().as_deref() == Some("Calls")).unwrap();
    assert_eq!(strings(&get(&calls, "observationSpaces")), vec!["IrInstructionCount"]);
    assert_eq!(get(&calls, "defaultValue").as_f64(), Some(-5.0));
    assert_eq!(Array::from(&get(&calls, "range")).get(1).as_f64(), Some(0.0));
    e.set_reward_space(JsValue::from("Calls")).unwrap();
    e.reset(None).unwrap();
    assert_eq!(get(&reward, "benchmark").as_string().as_deref(), Some(FIB));
    assert!(get(&reward, "start").as_f64().unwrap() > 0.0, "reset read an observation through its view");
    assert_eq!(get(&e.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(11.0));
    assert_eq!(get(&e.multistep(js("[0, 1]"), None).unwrap(), "reward").as_f64(), Some(22.0));
    assert!(get(&reward, "last").is_object(), "update read Autophase through its view");
    assert_eq!(e.reward().get(JsValue::from("Calls")).unwrap(), 30.0);
    // Fork: a shallow copy with the same prototype, carrying the count.
    let f = e.fork().unwrap();
    assert_eq!(get(&f.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(41.0));
    assert_eq!(get(&e.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(41.0));
    assert_eq!(get(&reward, "calls").as_f64(), Some(4.0), "the original counts only its own steps");
    // So when the parent steps before its fork.
    let h = e.fork().unwrap();
    assert_eq!(get(&e.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(51.0));
    assert_eq!(get(&reward, "calls").as_f64(), Some(5.0), "the parent keeps its own reward object");
    assert_eq!(get(&h.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(51.0));
    assert_eq!(get(&reward, "calls").as_f64(), Some(5.0), "the fork counts in its copy");
    // With clone(): it is used.
    let cloning = counting_reward("Cloned", true);
    e.reward().add_space(cloning.clone()).unwrap();
    e.set_reward_space(JsValue::from("Cloned")).unwrap();
    e.step(n(0.0), None).unwrap();
    let g = e.fork().unwrap();
    assert_eq!(get(&g.step(n(0.0), None).unwrap(), "reward").as_f64(), Some(21.0));
    assert_eq!(get(&cloning, "calls").as_f64(), Some(1.0));
    // A view kept after the call is no longer usable.
    let use_kept = Function::new_with_args(
        "r",
        "try { r.view.get('Ir'); return 'usable'; } catch (e) { return e.name; }",
    );
    assert_eq!(use_kept.call1(&JsValue::NULL, &reward).unwrap().as_string().as_deref(), Some("ServiceError"));
}

#[wasm_bindgen_test]
fn throwing_and_re_entrant_js_rewards_give_errors_that_name_them() {
    let e = env("bril-v0", &[]);
    let throws = js("({name: 'Throws', observationSpaces: [], update() { throw new Error('no reward'); }})");
    e.reward().add_space(throws).unwrap();
    e.set_reward_space(JsValue::from("Throws")).unwrap();
    e.reset(None).unwrap();
    let err = e.step(n(0.0), None).err().unwrap();
    assert!(message(&err).contains("\"Throws\"") && message(&err).contains("no reward"), "{}", message(&err));
    let not_number = js("({name: 'Text', update() { return 'x'; }})");
    e.reward().add_space(not_number).unwrap();
    e.set_reward_space(JsValue::from("Text")).unwrap();
    let err = e.step(n(0.0), None).err().unwrap();
    assert_eq!(name(&err), "TypeError");
    assert!(message(&err).contains("\"Text\""));
    let bad_reset =
        js("({name: 'BadReset', reset() { throw new Error('reset failed'); }, update() { return 0; }})");
    e.reward().add_space(bad_reset).unwrap();
    let err = e.reset(None).err().unwrap();
    assert!(message(&err).contains("BadReset"), "{}", message(&err));
    // Re-entering the environment from a reward is a ServiceError.
    let e2 = env("bril-v0", &[]);
    let alias2: JsValue = JsCompilerEnv::from_shared(e2.shared().clone()).into();
    Reflect::set(&js_sys::global(), &"__compgymEnv2".into(), &alias2).unwrap();
    let reenters = js("({name: 'Reenters', update() { globalThis.__compgymEnv2.step(0); return 0; }})");
    e2.reward().add_space(reenters).unwrap();
    e2.set_reward_space(JsValue::from("Reenters")).unwrap();
    e2.reset(None).unwrap();
    let err = e2.step(n(0.0), None).err().unwrap();
    assert_eq!(name(&err), "ServiceError", "{}", message(&err));
    e2.set_reward_space(JsValue::UNDEFINED).unwrap();
    e2.step(n(0.0), None).unwrap();
    // Malformed reward objects.
    assert_eq!(name(&e.reward().add_space(js("({update() { return 0; }})")).err().unwrap()), "TypeError");
    assert_eq!(name(&e.reward().add_space(js("({name: 'NoUpdate'})")).err().unwrap()), "TypeError");
    assert_eq!(name(&e.reward().add_space(n(1.0)).err().unwrap()), "TypeError");
    let unknown = js("({name: 'U', observationSpaces: ['Nope'], update() { return 0; }})");
    assert_eq!(name(&e.reward().add_space(unknown).err().unwrap()), "LookupError");
    assert_eq!(name(&e.reward().get(JsValue::from("Nope")).err().unwrap()), "LookupError");
    // After all of it, the environment still works.
    e.set_reward_space(JsValue::from("IrInstructionCount")).unwrap();
    let _ = e.reward().add_space(js("({name: 'BadReset', update() { return 0; }})"));
    e.reset(None).unwrap();
    e.step(n(0.0), None).unwrap();
}

#[wasm_bindgen_test]
fn state_apply_and_validate() {
    let e = env("bril-ic-v0", &[]);
    e.reset(None).unwrap();
    e.multistep(js("['-inline', '-sccp', '-dce', '-simplify-cfg']"), None).unwrap();
    let state = e.state().unwrap();
    assert_eq!(get(&state, "benchmark").as_string().as_deref(), Some(FIB));
    assert_eq!(get(&state, "commandline").as_string().as_deref(), Some("-inline -sccp -dce -simplify-cfg"));
    assert!(get(&state, "reward").as_f64().is_some());
    let result = e.validate(None).unwrap();
    assert_eq!(get(&result, "okay"), JsValue::TRUE, "{:?}", js_sys::JSON::stringify(&result));
    assert_eq!(get(&result, "rewardValidated"), JsValue::TRUE);
    assert_eq!(get(&result, "benchmarkSemanticsValidated"), JsValue::TRUE);
    assert_eq!(Array::from(&get(&result, "errors")).length(), 0);
    // A wrong reward is reported.
    let wrong = obj(&[("benchmark", FIB.into()), ("commandline", "-dce".into()), ("reward", n(1234.0))]);
    let result = e.validate(Some(wrong)).unwrap();
    assert_eq!(get(&result, "okay"), JsValue::FALSE);
    assert_eq!(get(&result, "rewardValidationFailed"), JsValue::TRUE);
    let first = Array::from(&get(&result, "errors")).get(0);
    assert_eq!(get(&first, "kind").as_string().as_deref(), Some("Reward mismatch"));
    // apply replays a state on this environment.
    let other = e.fork().unwrap();
    other.apply(state.clone()).unwrap();
    assert_eq!(other.commandline().unwrap(), "-inline -sccp -dce -simplify-cfg");
    assert_eq!(other.episode_reward().unwrap().as_f64(), get(&state, "reward").as_f64());
    let bad = obj(&[("benchmark", FIB.into()), ("commandline", "-nope".into())]);
    assert!(other.apply(bad).is_err());
    assert_eq!(name(&other.apply(js("({benchmark: 'x'})")).err().unwrap()), "TypeError");
    assert_eq!(name(&other.validate(Some(n(3.0))).err().unwrap()), "TypeError");
    other.step(n(0.0), None).unwrap();
}

#[wasm_bindgen_test]
fn csv_round_trips_including_the_hand_written_file() {
    let states = compiler_env_states_from_csv(JsValue::from(STATES_CSV)).unwrap();
    let list = Array::from(&states);
    assert_eq!(list.length(), 4);
    let first = list.get(0);
    assert_eq!(get(&first, "benchmark").as_string().as_deref(), Some("benchmark://toy-v0/b"));
    assert_eq!(get(&first, "reward").as_f64(), Some(4.0));
    assert_eq!(get(&first, "walltime").as_f64(), Some(0.25));
    assert!(get(&list.get(1), "reward").is_null());
    assert_eq!(get(&list.get(2), "commandline").as_string().as_deref(), Some("opt -a,-b \"quoted\""));
    let text = compiler_env_states_to_csv(states.clone(), None).unwrap();
    assert_eq!(text, STATES_CSV.replace("\r\n", "\n").replace(",,\n", ",0.0,\n"));
    let again = compiler_env_states_from_csv(JsValue::from(&text)).unwrap();
    assert_eq!(js_sys::JSON::stringify(&again).unwrap(), js_sys::JSON::stringify(&states).unwrap());
    let rows = compiler_env_states_to_csv(states, Some(obj(&[("header", JsValue::FALSE)]))).unwrap();
    assert!(!rows.starts_with("benchmark,"));
    assert_eq!(Array::from(&compiler_env_states_from_csv(JsValue::from(&rows)).unwrap()).length(), 4);
    assert_eq!(name(&compiler_env_states_from_csv(JsValue::from("a,b,c")).err().unwrap()), "ValueError");
    assert_eq!(name(&compiler_env_states_to_csv(n(1.0), None).err().unwrap()), "TypeError");
    assert_eq!(name(&compiler_env_states_to_csv(js("[{benchmark: 'x'}]"), None).err().unwrap()), "TypeError");
}

#[wasm_bindgen_test]
fn add_benchmark_takes_text_or_json_and_reports_parse_errors() {
    let e = env("bril-ic-v0", &[]);
    let text = "@main {\n  a: int = const 1;\n  b: int = const 2;\n  c: int = add a b;\n  print a;\n}\n";
    e.add_benchmark(JsValue::from("benchmark://user-v0/small"), text.into()).unwrap();
    e.reset(Some(js("({benchmark: 'benchmark://user-v0/small'})"))).unwrap();
    let r = e.step("-dce".into(), None).unwrap();
    assert!(get(&r, "reward").as_f64().unwrap() > 0.0, "dce removes the dead add");
    let program = js("({functions: [{name: 'main', instrs: [{op: 'const', dest: 'x', type: 'int', value: 4}, {op: 'print', args: ['x']}]}]})");
    e.add_benchmark(JsValue::from("benchmark://user-v0/json"), program).unwrap();
    e.reset(Some(js("({benchmark: 'benchmark://user-v0/json'})"))).unwrap();
    assert!(e.observation().get(JsValue::from("Ir")).unwrap().as_string().unwrap().contains("const 4"));
    let err = e
        .add_benchmark(JsValue::from("benchmark://user-v0/bad"), "@main {\n  x: int = const;\n}\n".into())
        .err()
        .unwrap();
    assert_eq!(name(&err), "BenchmarkInitError");
    assert!(message(&err).contains("2:"), "line and column: {}", message(&err));
    assert_eq!(
        name(&e.add_benchmark(JsValue::from("benchmark://user-v0/x"), n(1.0)).err().unwrap()),
        "TypeError"
    );
    assert_eq!(
        name(&e.add_benchmark(JsValue::from("not a uri"), text.into()).err().unwrap()),
        "BenchmarkInitError"
    );
    e.step(n(0.0), None).unwrap();
}

#[wasm_bindgen_test]
fn datasets_and_random_benchmarks() {
    let e = env("bril-v0", &[]);
    let datasets = Array::from(&e.datasets().unwrap());
    assert!(datasets.length() >= 2);
    let suite = datasets.get(0);
    assert!(get(&suite, "size").as_f64().unwrap() > 10.0);
    assert!(strings(&get(&suite, "benchmarks")).contains(&FIB.to_string()));
    let seeded = datasets.iter().find(|d| get(d, "size").is_null()).unwrap();
    assert!(get(&seeded, "benchmarks").is_null());
    let a = e.random_benchmark(n(7.0), JsValue::UNDEFINED).unwrap();
    assert_eq!(a, e.random_benchmark(n(7.0), JsValue::UNDEFINED).unwrap());
    let name_ = get(&suite, "name").as_string().unwrap();
    for seed in 0..5 {
        let uri = e.random_benchmark(n(seed as f64), JsValue::from(name_.clone())).unwrap();
        assert!(uri.starts_with("benchmark://suite-v0/"), "{uri}");
    }
    // An Rng advances: two draws differ in general, and replay by seed.
    let draws = |_: ()| {
        let rng = compgym::js::rng::JsRng::new(n(3.0)).unwrap();
        let rng: JsValue = rng.into();
        (0..4).map(|_| e.random_benchmark(rng.clone(), JsValue::UNDEFINED).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(draws(()), draws(()));
    assert_eq!(name(&e.random_benchmark(n(-1.0), JsValue::UNDEFINED).err().unwrap()), "ValueError");
    assert_eq!(name(&e.random_benchmark(n(1.0), JsValue::from("nope")).err().unwrap()), "LookupError");
    e.reset(Some(obj(&[("benchmark", a.into())]))).unwrap();
}

#[wasm_bindgen_test]
fn wasm_memory_is_reported() {
    let bytes = wasm_memory_bytes();
    assert!(bytes >= 65536.0 && bytes % 65536.0 == 0.0);
}

#[wasm_bindgen_test]
fn the_action_space_keeps_its_generator_across_getter_calls() {
    let e = env("bril-v0", &[]);
    let draw = |e: &JsCompilerEnv| e.action_space().unwrap().sample().as_f64().unwrap() as i64;
    // Gymnasium's `env.action_space.sample()` advances: the getter does not hand out a fresh copy.
    let draws: std::collections::BTreeSet<i64> = (0..40).map(|_| draw(&e)).collect();
    assert!(draws.len() > 5, "{draws:?}");
    // Seeding through one object and sampling through others replays the seeded stream.
    e.action_space().unwrap().seed(n(42.0)).unwrap();
    let first: Vec<i64> = (0..10).map(|_| draw(&e)).collect();
    e.action_space().unwrap().seed(n(42.0)).unwrap();
    let again: Vec<i64> = (0..10).map(|_| draw(&e)).collect();
    assert_eq!(first, again);
    let mut alone = JsSpace::from_json(e.action_space().unwrap().to_json()).unwrap();
    alone.seed(n(42.0)).unwrap();
    let standalone: Vec<i64> = (0..10).map(|_| alone.sample().as_f64().unwrap() as i64).collect();
    assert_eq!(first, standalone, "the same stream as a space seeded alike");
    // Steps and resets keep it; another environment has its own.
    e.reset(None).unwrap();
    e.step(n(0.0), None).unwrap();
    let other = env("bril-v0", &[]);
    other.action_space().unwrap().seed(n(42.0)).unwrap();
    e.action_space().unwrap().seed(n(42.0)).unwrap();
    let _ = draw(&other);
    let ours: Vec<i64> = (0..10).map(|_| draw(&e)).collect();
    assert_eq!(ours, first, "drawing from another environment does not advance this one");
}
