//! The agents from JavaScript's side: `SearchAgent` (progress, budgets,
//! cancellation, results that replay on a fresh environment), `Policy` and
//! `PolicyPlayer`, `PolicyTrainer`, `Leaderboard` and `leaderboard()`, and
//! every bad argument as a typed error that leaves the instance working.
#![cfg(target_arch = "wasm32")]

use compgym::js::agents::agent_names;
use compgym::js::agents::leaderboard::{leaderboard, JsLeaderboard};
use compgym::js::agents::policy::JsPolicy;
use compgym::js::agents::search_agent::JsSearchAgent;
use compgym::js::agents::trainer::JsPolicyTrainer;
use compgym::js::env::compiler_env::{make, JsCompilerEnv};
use js_sys::{Array, Function};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::js_values::{get, message, name, num as n, obj};

// Where a few hundred steps of any search find something.
const HISTOGRAM: &str = "benchmark://suite-v0/histogram";

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

fn f(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap_or_else(|| panic!("{key} of {v:?}"))
}

fn numbers(v: &JsValue) -> Vec<f64> {
    Array::from(v).iter().map(|x| x.as_f64().unwrap()).collect()
}

fn agent(name: &str, options: &[(&str, JsValue)]) -> JsSearchAgent {
    let mut all = vec![("benchmark", s(HISTOGRAM))];
    all.extend(options.iter().cloned());
    JsSearchAgent::new(JsValue::from(name), obj(&all)).unwrap()
}

/// A fresh environment at `result`'s state: its cost, and its validation.
fn replay(result: &JsValue, source: Option<&str>) -> (f64, JsValue) {
    let env = make(JsValue::from("bril-v0"), None).unwrap();
    if let Some(source) = source {
        env.add_benchmark(get(result, "benchmark"), s(source)).unwrap();
    }
    let state = get(result, "state");
    env.apply(state.clone()).unwrap();
    let cost = env.observation().get(JsValue::from("IrInstructionCount")).unwrap().as_f64().unwrap();
    (cost, env.validate(Some(state)).unwrap())
}

#[wasm_bindgen_test]
fn the_agents_are_named() {
    assert_eq!(agent_names(), ["random", "greedy", "beam", "explore", "guided", "policy", "fixed"]);
}

#[wasm_bindgen_test]
fn a_search_reports_progress_in_chunks_and_its_result_replays() {
    let a = agent("explore", &[("steps", n(400.0)), ("seconds", JsValue::NULL), ("seed", n(0.0))]);
    assert_eq!(a.name().unwrap(), "explore");
    let mut fractions = Vec::new();
    loop {
        let p = a.run_chunk(0.005).unwrap();
        assert!(f(&p, "bestCost") <= f(&p, "initialCost"));
        assert_eq!(numbers(&get(&p, "bestActions")).is_empty(), f(&p, "bestCost") == f(&p, "initialCost"));
        fractions.push(f(&p, "fraction"));
        if get(&p, "status").as_string().unwrap() != "running" {
            assert_eq!(get(&p, "status").as_string().unwrap(), "out of budget");
            assert_eq!((f(&p, "steps"), f(&p, "fraction")), (400.0, 1.0));
            assert!(f(&p, "episodes") > 1.0 && f(&p, "elapsed") >= 0.0);
            break;
        }
    }
    assert!(fractions.windows(2).all(|w| w[0] <= w[1]));
    let result = a.result().unwrap();
    let (cost, validation) = replay(&result, None);
    assert_eq!(cost, f(&result, "cost"));
    assert!(f(&result, "cost") < f(&result, "initialCost"));
    assert_eq!(get(&validation, "okay"), JsValue::TRUE, "{:?}", get(&validation, "errors"));
    let passes: Vec<String> =
        Array::from(&get(&result, "passes")).iter().map(|p| p.as_string().unwrap()).collect();
    assert_eq!(passes.join(" "), get(&result, "commandline").as_string().unwrap());
    let csv = get(&result, "csv").as_string().unwrap();
    assert!(csv.starts_with("benchmark,reward,walltime,commandline\n") && csv.contains(HISTOGRAM), "{csv}");
    // A step budget makes a run reproducible.
    let again = agent("explore", &[("steps", n(400.0)), ("seconds", JsValue::NULL), ("seed", n(0.0))]);
    let again = again.run(JsValue::UNDEFINED, None).unwrap();
    assert_eq!(get(&again, "commandline"), get(&result, "commandline"));
}

#[wasm_bindgen_test]
fn every_agent_runs_by_name_and_step_does_one_piece() {
    for name in agent_names() {
        let a = agent(&name, &[("steps", n(60.0))]);
        let first = a.step().unwrap();
        // Guided's and fixed's first pieces are whole sequences (the
        // pipeline alone; the fixed prefix), the others' a few steps.
        let piece = if name == "guided" || name == "fixed" { 60.0 } else { 3.0 };
        assert!(f(&first, "steps") <= piece, "{name}: one piece is a few steps");
        let result = a.run(JsValue::UNDEFINED, Some(0.01)).unwrap();
        assert_eq!(get(&result, "agent").as_string().unwrap(), name);
        assert!(f(&result, "steps") <= 60.0);
        assert_eq!(replay(&result, None).0, f(&result, "cost"), "{name}");
    }
}

#[wasm_bindgen_test]
fn cancel_stops_a_run_that_would_never_end_and_keeps_its_best() {
    let a = agent("random", &[("steps", JsValue::NULL), ("seconds", JsValue::NULL)]);
    for _ in 0..3 {
        assert_eq!(get(&a.run_chunk(0.01).unwrap(), "status").as_string().unwrap(), "running");
    }
    let steps = f(&a.progress().unwrap(), "steps");
    a.cancel().unwrap();
    assert_eq!(a.status().unwrap(), "cancelled");
    assert_eq!(f(&a.run_chunk(1.0).unwrap(), "steps"), steps, "no work after cancel");
    let result = a.result().unwrap();
    assert_eq!(get(&result, "status").as_string().unwrap(), "cancelled");
    assert_eq!(replay(&result, None).0, f(&result, "cost"));
}

#[wasm_bindgen_test]
fn a_progress_callback_may_cancel_the_run() {
    let a = Rc::new(agent("random", &[("steps", JsValue::NULL), ("seconds", JsValue::NULL)]));
    let calls = Rc::new(Cell::new(0));
    let (inner, count) = (a.clone(), calls.clone());
    let cancel = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |progress: JsValue| {
        count.set(count.get() + 1);
        assert!(get(&progress, "steps").as_f64().is_some());
        if count.get() == 3 {
            inner.cancel().unwrap(); // re-entering to cancel is allowed
        }
        JsValue::UNDEFINED
    });
    let result = a.run(cancel.as_ref().clone(), Some(0.002)).unwrap();
    assert_eq!((calls.get(), get(&result, "status").as_string().unwrap()), (3, "cancelled".into()));
    // Returning false stops it too; a re-entrant run is a ServiceError.
    let b = Rc::new(agent("random", &[("steps", JsValue::NULL), ("seconds", JsValue::NULL)]));
    let inner = b.clone();
    let reenter = Closure::<dyn FnMut(JsValue) -> JsValue>::new(move |_: JsValue| {
        let e = inner.run(JsValue::UNDEFINED, None).unwrap_err();
        assert_eq!(name(&e), "ServiceError");
        JsValue::FALSE
    });
    let result = b.run(reenter.as_ref().clone(), Some(0.002)).unwrap();
    assert_eq!(get(&result, "status").as_string().unwrap(), "cancelled");
    // A callback that throws ends the call with its message; the agent stays usable.
    let throwing = Function::new_no_args("throw new RangeError('stop')");
    let e = b.run(throwing.into(), None).unwrap_err();
    assert!(message(&e).contains("stop"), "{}", message(&e));
    assert_eq!(b.status().unwrap(), "cancelled");
}

#[wasm_bindgen_test]
fn a_program_of_ones_own_is_searched_and_replays() {
    let source = "@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  d: int = mul a b;\n  print c;\n}\n";
    let a = JsSearchAgent::new(s("greedy"), obj(&[("source", s(source)), ("steps", n(200.0))])).unwrap();
    let result = a.run(JsValue::UNDEFINED, None).unwrap();
    assert_eq!(get(&result, "benchmark").as_string().unwrap(), "benchmark://user-v0/program");
    assert_eq!((f(&result, "initialCost"), f(&result, "cost")), (5.0, 4.0));
    let (cost, validation) = replay(&result, Some(source));
    assert_eq!(cost, 4.0);
    assert_eq!(get(&validation, "okay"), JsValue::TRUE);
    // Bril JSON as an object, under a URI of one's choosing.
    let json = js_sys::JSON::parse(
        &compgym::js::bril::bril_to_json(JsValue::from(source), JsValue::UNDEFINED).unwrap(),
    )
    .unwrap();
    let options = obj(&[("source", json), ("benchmark", s("benchmark://user-v0/mine")), ("steps", n(50.0))]);
    let result = JsSearchAgent::new(s("beam"), options).unwrap().run(JsValue::UNDEFINED, None).unwrap();
    assert_eq!(get(&result, "benchmark").as_string().unwrap(), "benchmark://user-v0/mine");
}

#[wasm_bindgen_test]
fn bad_arguments_are_typed_errors_and_the_instance_keeps_working() {
    let error = |name_: &str, options: JsValue| {
        name(&JsSearchAgent::new(JsValue::from(name_), options).err().unwrap())
    };
    let bench = ("benchmark", s(HISTOGRAM));
    assert_eq!(error("oracle", obj(std::slice::from_ref(&bench))), "LookupError");
    assert_eq!(error("greedy", JsValue::UNDEFINED), "TypeError");
    assert_eq!(error("greedy", obj(&[])), "ValueError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("steps", n(-1.0))])), "ValueError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("steps", n(0.0))])), "ValueError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("seconds", s("ten"))])), "TypeError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("seconds", n(f64::INFINITY))])), "ValueError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("sede", n(1.0))])), "TypeError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("rewardSpace", s("Nope"))])), "LookupError");
    assert_eq!(error("greedy", obj(&[bench.clone(), ("policy", s("{}"))])), "ValueError");
    assert_eq!(error("policy", obj(&[bench.clone(), ("policy", n(3.0))])), "TypeError");
    assert_eq!(error("greedy", obj(&[("benchmark", s("benchmark://suite-v0/nope"))])), "BenchmarkInitError");
    assert_eq!(error("greedy", obj(&[("source", s("@main {"))])), "BenchmarkInitError");
    assert_eq!(error("greedy", obj(&[("source", n(1.0))])), "TypeError");
    let e = JsSearchAgent::new(s("oracle"), obj(std::slice::from_ref(&bench))).err().unwrap();
    assert!(message(&e).contains("random, greedy, beam, explore, guided, policy, fixed"), "{}", message(&e));
    let a = agent("greedy", &[]);
    assert_eq!(name(&a.run_chunk(-1.0).err().unwrap()), "ValueError");
    assert_eq!(name(&a.run(n(1.0), None).err().unwrap()), "TypeError");
    let result = a.run(JsValue::UNDEFINED, None).unwrap();
    assert_eq!(get(&result, "status").as_string().unwrap(), "done", "still works");
}

#[wasm_bindgen_test]
fn the_bundled_policy_plays_an_environment_step_by_step_as_its_rollout_does() {
    let policy = JsPolicy::pretrained(JsValue::UNDEFINED).unwrap();
    assert_eq!(
        (policy.observation(), policy.task(), policy.pipeline()),
        ("Features".into(), "size".into(), "-Oz".into())
    );
    assert_eq!(JsPolicy::pretrained(s("runtime")).unwrap().pipeline(), "-O2");
    assert_eq!(name(&JsPolicy::pretrained(s("speed")).err().unwrap()), "LookupError");
    assert!(policy.parameters() > 1000 && policy.episode_length() > 0);
    assert!(policy.actions().contains(&"-dce".to_string()));
    assert!(get(&policy.training(), "seconds").as_f64().unwrap() > 0.0);
    let copy = JsPolicy::from_json(JsValue::from(policy.to_json().unwrap())).unwrap();
    assert_eq!(copy.to_json().unwrap(), policy.to_json().unwrap());
    assert_eq!(name(&JsPolicy::from_json(s("{}")).err().unwrap()), "ValueError");

    let benchmark = "benchmark://suite-v0/loop-invariant";
    let rollout = policy.rollout(obj(&[("benchmark", s(benchmark))])).unwrap();
    let rolled = rollout.run(JsValue::UNDEFINED, None).unwrap();
    let by_name = JsSearchAgent::new(s("policy"), obj(&[("benchmark", s(benchmark))])).unwrap();
    assert_eq!(
        get(&by_name.run(JsValue::UNDEFINED, None).unwrap(), "commandline"),
        get(&rolled, "commandline")
    );
    let as_option = obj(&[("benchmark", s(benchmark)), ("policy", JsValue::from(copy))]);
    let with_copy = JsSearchAgent::new(s("policy"), as_option).unwrap();
    assert_eq!(
        get(&with_copy.run(JsValue::UNDEFINED, None).unwrap(), "commandline"),
        get(&rolled, "commandline")
    );
    assert_eq!(
        name(&policy.rollout(obj(&[("benchmark", s(benchmark)), ("policy", s("{}"))])).err().unwrap()),
        "TypeError"
    );

    let env: JsCompilerEnv =
        make(JsValue::from("bril-v0"), Some(obj(&[("benchmark", s(benchmark))]))).unwrap();
    env.reset(None).unwrap();
    let player = policy.play(&env).unwrap();
    assert_eq!(name(&player.finish().err().unwrap()), "ValueError", "its passes are not over yet");
    let mut taken = Vec::new();
    while let Some(choice) = Some(player.act().unwrap()).filter(|c| !c.is_null()) {
        let step = player.step().unwrap();
        assert_eq!(get(&step, "action"), get(&choice, "action"), "act says what step does");
        assert!(get(&step, "error").is_null() && get(&step, "changed").as_bool().is_some());
        taken.push(get(&step, "action").as_string().unwrap());
    }
    assert!(player.done().unwrap() && player.step().unwrap().is_null());
    assert_eq!(player.steps().unwrap(), taken.len());
    // Its passes, then the pipeline: the rollout's result.
    assert_eq!(player.finish().unwrap(), f(&rolled, "cost"));
    assert!(get(&rolled, "commandline").as_string().unwrap().starts_with(&taken.join(" ")));

    // act(observation, info) in a loop of one's own: the same passes.
    let env: JsCompilerEnv = make(
        JsValue::from("bril-v0"),
        Some(obj(&[("benchmark", s(benchmark)), ("observationSpace", s("Features"))])),
    )
    .unwrap();
    let mut observation = env.reset(None).unwrap();
    let mut info = obj(&[("benchmark", s(benchmark))]);
    let mut acted = Vec::new();
    while let Some(index) = policy.act(observation.clone(), info.clone()).unwrap().as_f64() {
        acted.push(policy.actions()[index as usize].clone());
        let step = env.step(n(index), None).unwrap();
        observation = get(&step, "observation");
        let changed = get(&get(&step, "info"), "actionHadNoEffect");
        info = obj(&[("actionHadNoEffect", changed)]);
    }
    assert_eq!(acted, taken);
    assert_eq!(
        name(&policy.act(n(1.0), JsValue::UNDEFINED).err().unwrap()),
        "ValueError",
        "not its observation"
    );
    let zeros = js_sys::Uint8Array::new_with_length(policy.actions().len() as u32);
    let masked = obj(&[("benchmark", s(benchmark)), ("actionMask", zeros.into())]);
    assert!(policy.act(env.reset(None).unwrap(), masked).unwrap().is_null(), "nothing allowed: it stops");
}

#[wasm_bindgen_test]
fn a_trainer_trains_in_chunks_and_gives_a_policy_that_plays() {
    let options = obj(&[
        ("seed", n(1.0)),
        ("hidden", Array::of1(&n(8.0)).into()),
        ("task", s("runtime")),
        ("episodeLength", n(5.0)),
        ("batch", n(2.0)),
        ("epochs", n(2.0)),
        ("normalizerEpisodes", n(2.0)),
        ("programShare", n(0.0)),
        ("sizes", Array::of2(&n(10.0), &n(20.0)).into()),
        ("validateEvery", n(2.0)),
        ("validation", Array::of1(&s("generator://random-v0/2000000?size=10")).into()),
    ]);
    let trainer = JsPolicyTrainer::new(options.clone()).unwrap();
    let first = trainer.train_batch().unwrap();
    assert_eq!((f(&first, "update"), f(&first, "episodes")), (1.0, 2.0));
    assert!(get(&first, "validation").is_null());
    let more = Array::from(&trainer.train_for(0.0).unwrap());
    assert_eq!(more.length(), 1, "at least one update");
    assert!(f(&more.get(0), "validation") > 0.0, "validated every 2 updates");
    assert_eq!(Array::from(&trainer.curve().unwrap()).length(), 2);
    let policy = trainer.policy().unwrap();
    assert_eq!((policy.episode_length(), policy.task()), (5, "runtime".to_string()));
    let result =
        policy.rollout(obj(&[("benchmark", s(HISTOGRAM))])).unwrap().run(JsValue::UNDEFINED, None).unwrap();
    assert!(f(&result, "cost") <= f(&result, "initialCost"));
    // The same seed trains the same network.
    let again = JsPolicyTrainer::new(options).unwrap();
    again.train_batch().unwrap();
    again.train_batch().unwrap();
    let network = |p: &JsPolicy| {
        serde_json::from_str::<serde_json::Value>(&p.to_json().unwrap()).unwrap()["network"].clone()
    };
    assert_eq!(network(&again.policy().unwrap()), network(&policy));
    let bad = |options: JsValue| name(&JsPolicyTrainer::new(options).err().unwrap());
    assert_eq!(bad(obj(&[("batch", n(0.0))])), "ValueError");
    assert_eq!(bad(obj(&[("hidden", n(8.0))])), "TypeError");
    assert_eq!(bad(obj(&[("sizes", Array::of1(&n(8.0)).into())])), "TypeError");
    assert_eq!(bad(obj(&[("sizes", Array::of2(&n(20.0), &n(10.0)).into())])), "ValueError");
    assert_eq!(bad(obj(&[("learningRate", n(-1.0))])), "ValueError");
    assert_eq!(bad(obj(&[("epoch", n(1.0))])), "TypeError");
    assert_eq!(bad(obj(&[("task", s("speed"))])), "LookupError");
    assert_eq!(bad(obj(&[("clip", n(1.5))])), "ValueError");
    assert_eq!(bad(obj(&[("programs", s("benchmark://large-v0"))])), "TypeError");
    assert_eq!(bad(obj(&[("programs", Array::of1(&s("generator://random-v0")).into())])), "LookupError");
    let none = Array::new().into();
    assert_eq!(
        bad(obj(&[("programs", none), ("programShare", n(0.5))])),
        "ValueError",
        "a share of no programs"
    );
    assert_eq!(
        bad(obj(&[("programs", Array::of1(&s(HISTOGRAM)).into()), ("programShare", n(2.0))])),
        "ValueError"
    );
}

#[wasm_bindgen_test]
fn a_trainer_mixes_in_the_programs_it_is_given() {
    let options = |share: f64| {
        obj(&[
            ("hidden", Array::of1(&n(4.0)).into()),
            ("episodeLength", n(3.0)),
            ("batch", n(2.0)),
            ("normalizerEpisodes", n(2.0)),
            ("validateEvery", n(0.0)),
            ("programs", Array::of2(&s("benchmark://large-v0"), &s(HISTOGRAM)).into()),
            ("programShare", n(share)),
        ])
    };
    let saved = |t: &JsPolicyTrainer| {
        serde_json::from_str::<serde_json::Value>(&t.policy().unwrap().to_json().unwrap()).unwrap()
    };
    let mixed = JsPolicyTrainer::new(options(1.0)).unwrap();
    mixed.train_batch().unwrap();
    let mixed = saved(&mixed);
    assert_eq!(mixed["training"]["programShare"], 1.0);
    assert_eq!(mixed["training"]["programs"][0], "benchmark://large-v0");
    // Episodes on other programs: another network from the same seed.
    let generated = JsPolicyTrainer::new(options(0.0)).unwrap();
    generated.train_batch().unwrap();
    assert_ne!(saved(&generated)["network"], mixed["network"]);
}

#[wasm_bindgen_test]
fn the_leaderboard_runs_in_chunks_or_at_once_and_checks_every_result() {
    let options = || {
        obj(&[
            ("tasks", Array::of1(&s("size")).into()),
            ("agents", Array::of2(&s("greedy"), &s("policy")).into()),
            ("suite", n(2.0)),
            ("large", n(0.0)),
            ("generated", n(1.0)),
            ("steps", n(50.0)),
        ])
    };
    let board = JsLeaderboard::new(options()).unwrap();
    assert_eq!(f(&board.progress().unwrap(), "total"), 6.0);
    while !get(&board.run_chunk(0.01).unwrap(), "finished").as_bool().unwrap() {}
    let rows = Array::from(&board.rows().unwrap());
    assert_eq!(rows.length(), 4, "two agents on two datasets");
    for row in rows.iter() {
        assert_eq!(f(&row, "valid"), Array::from(&get(&row, "programs")).length() as f64);
        if get(&row, "agent").as_string().unwrap() == "greedy" {
            assert_eq!(f(&row, "worse"), 0.0, "from the baseline, never worse");
        }
    }
    let table = board.table().unwrap();
    assert_eq!(table.lines().count(), 6);
    assert!(table.contains("| code size | suite-v0 | greedy | -Oz |"), "{table}");
    let all = leaderboard(options()).unwrap();
    assert_eq!(get(&all, "table").as_string().unwrap().lines().count(), 6);
    let geomeans = |rows: &JsValue| Array::from(rows).iter().map(|r| f(&r, "geomean")).collect::<Vec<_>>();
    assert_eq!(geomeans(&get(&all, "rows")), geomeans(&board.rows().unwrap()));
    let bad = |options: JsValue| name(&leaderboard(options).err().unwrap());
    assert_eq!(bad(obj(&[("agents", Array::of1(&s("oracle")).into())])), "LookupError");
    assert_eq!(bad(obj(&[("tasks", Array::of1(&s("speed")).into())])), "LookupError");
    assert_eq!(bad(obj(&[("agents", s("greedy"))])), "TypeError");
    assert_eq!(bad(obj(&[("suite", n(-1.0))])), "ValueError");
    assert_eq!(bad(obj(&[("quick", n(1.0))])), "TypeError");
    assert_eq!(bad(obj(&[("steps", n(0.0))])), "ValueError");
}
