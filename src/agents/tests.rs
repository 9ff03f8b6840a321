//! The searches on the Bril compiler and on the toy one: reproducible,
//! resumable, within budget, never worse than where they start, and
//! results that replay.

use super::baseline::{pipeline_actions, Pipeline};
use super::beam::{BeamSearch, BeamSearchOptions};
use super::explore::{Explore, ExploreOptions};
use super::greedy::Greedy;
use super::kinds::{searches, AgentKind};
use super::random::{RandomSearch, RandomSearchOptions};
use super::search::{Budget, Search, SearchOptions, SearchResult, SearchRun, Status};
use super::task::Task;
use crate::bril::passes;
use crate::compilers::make;
use crate::compilers::toy::ToyBackend;
use crate::env::{CompilerEnv, EnvExtras, EnvOptions, ResetOptions};
use crate::value::Value;
use std::cell::Cell;
use wasm_bindgen_test::wasm_bindgen_test;

const SIZE: &str = "IrInstructionCount";

fn bril(benchmark: &str) -> CompilerEnv {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(benchmark.into()), ..Default::default() }).unwrap();
    env
}

fn run(
    env: &CompilerEnv,
    search: Box<dyn Search>,
    cost: &str,
    start: Vec<usize>,
    steps: u64,
) -> SearchResult {
    let options = SearchOptions { cost: cost.into(), budget: Budget::steps(steps), start, clock: None };
    let mut run = SearchRun::new(env, search, options).unwrap();
    run.run(0.01, |_| true).unwrap();
    run.result().unwrap()
}

/// A new session on `env`'s benchmark after `actions`.
fn after(env: &CompilerEnv, actions: &[usize]) -> CompilerEnv {
    let mut at = env.sibling();
    at.reset(ResetOptions { benchmark: env.benchmark().map(String::from), ..Default::default() }).unwrap();
    for &a in actions {
        at.step(Value::Int(a as i64)).unwrap();
    }
    at
}

/// The cost `result` replays to on a fresh session.
fn replayed_cost(env: &CompilerEnv, result: &SearchResult, cost: &str) -> f64 {
    let mut replay = env.sibling();
    replay.apply(&result.state()).unwrap();
    replay.observation().get(cost).unwrap().as_f64().unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn every_search_is_reproducible_within_budget_and_replays() {
    let env = bril("benchmark://suite-v0/histogram");
    let initial = env.observation().get(SIZE).unwrap().as_f64().unwrap();
    for name in searches() {
        let kind = AgentKind::by_name(name).unwrap();
        let a = run(&env, kind.make(7, Task::CodeSize).unwrap(), SIZE, Vec::new(), 300);
        let b = run(&env, kind.make(7, Task::CodeSize).unwrap(), SIZE, Vec::new(), 300);
        assert_eq!(
            (&a.actions, a.cost, a.steps),
            (&b.actions, b.cost, b.steps),
            "{name}: same seed, same result"
        );
        assert!(a.steps <= 300, "{name} took {} steps", a.steps);
        assert!(a.cost < initial, "{name} found nothing in 300 steps");
        assert_eq!(replayed_cost(&env, &a, SIZE), a.cost, "{name}: the result replays to its cost");
        assert_eq!(a.agent, name);
        assert_eq!(a.state().benchmark, "benchmark://suite-v0/histogram");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn a_search_run_in_pieces_finds_what_it_finds_in_one_go() {
    let env = bril("benchmark://suite-v0/bubble-sort");
    let whole = run(&env, AgentKind::Explore.make(3, Task::CodeSize).unwrap(), SIZE, Vec::new(), 200);
    let options = SearchOptions { cost: SIZE.into(), budget: Budget::steps(200), ..Default::default() };
    let mut pieces =
        SearchRun::new(&env, AgentKind::Explore.make(3, Task::CodeSize).unwrap(), options).unwrap();
    let mut calls = 0;
    while pieces.step_once().unwrap().is_running() {
        calls += 1;
        assert!(pieces.progress().steps <= calls + 1, "a piece is at most one step");
    }
    assert_eq!(pieces.status(), Status::OutOfBudget);
    let result = pieces.result().unwrap();
    assert_eq!((result.actions, result.cost), (whole.actions, whole.cost));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_cancelled_run_keeps_its_best_so_far() {
    let env = bril("benchmark://suite-v0/dead-code");
    let options = SearchOptions { cost: SIZE.into(), ..Default::default() }; // no budget at all
    let mut run = SearchRun::new(&env, AgentKind::Random.make(1, Task::CodeSize).unwrap(), options).unwrap();
    let mut reports = 0;
    let status = run
        .run(0.0, |progress| {
            reports += 1;
            assert!(progress.best_cost <= progress.initial_cost);
            progress.steps < 50
        })
        .unwrap();
    assert_eq!(status, Status::Cancelled);
    assert!(reports >= 2);
    let result = run.result().unwrap();
    assert!((50..=51).contains(&result.steps));
    assert_eq!(run.step_once().unwrap(), Status::Cancelled, "a cancelled run stays cancelled");
    assert_eq!(run.result().unwrap(), result);
}

thread_local! {
    static NOW: Cell<f64> = const { Cell::new(0.0) };
}

/// A clock that moves a millisecond each time it is read.
fn ticking_clock() -> f64 {
    NOW.with(|now| {
        now.set(now.get() + 0.001);
        now.get()
    })
}

#[wasm_bindgen_test(unsupported = test)]
fn the_time_budget_reads_the_injected_clock() {
    let env = bril("benchmark://suite-v0/dead-code");
    let options = SearchOptions {
        cost: SIZE.into(),
        budget: Budget::seconds(0.1),
        clock: Some(ticking_clock),
        ..Default::default()
    };
    let mut run = SearchRun::new(&env, AgentKind::Random.make(1, Task::CodeSize).unwrap(), options).unwrap();
    assert_eq!(run.run(1.0, |_| true).unwrap(), Status::OutOfBudget);
    let progress = run.progress();
    assert!(progress.elapsed >= 0.1 && progress.elapsed < 0.11, "{}", progress.elapsed);
    // A millisecond a piece (between its two reads of the clock), a step a piece.
    assert!((95..=100).contains(&progress.steps), "{}", progress.steps);
}

#[wasm_bindgen_test(unsupported = test)]
fn greedy_stops_where_no_single_action_helps() {
    let env = bril("benchmark://suite-v0/redundant-expr");
    let result = run(&env, Box::new(Greedy::new()), SIZE, Vec::new(), 100_000);
    let mut at = env.sibling();
    at.apply(&result.state()).unwrap();
    let n = passes::registry().len();
    for action in 0..n as i64 {
        let mut fork = at.fork().unwrap();
        fork.step(Value::Int(action)).unwrap();
        let cost = fork.observation().get(SIZE).unwrap().as_f64().unwrap();
        assert!(cost >= result.cost, "action {action} still helps");
    }
    assert!(result.steps < 100_000, "greedy finishes on its own");
}

#[wasm_bindgen_test(unsupported = test)]
fn starting_from_the_baseline_never_ends_worse_than_it() {
    for (benchmark, cost, baseline, pipeline) in [
        (
            "benchmark://suite-v0/insertion-sort",
            SIZE,
            "IrInstructionCountOz",
            Pipeline::conditional(passes::size_groups()),
        ),
        (
            "benchmark://suite-v0/loop-invariant",
            "DynamicInstructionCount",
            "DynamicInstructionCountO2",
            Pipeline::flat(passes::pipeline("-O2").unwrap()),
        ),
    ] {
        let env = bril(benchmark);
        let start = pipeline_actions(&env, cost, &pipeline).unwrap();
        let at = after(&env, &start);
        let baseline = env.observation().get(baseline).unwrap().as_f64().unwrap();
        assert_eq!(
            at.observation().get(cost).unwrap().as_f64().unwrap(),
            baseline,
            "the start is the baseline"
        );
        for name in searches() {
            let result = run(
                &env,
                AgentKind::by_name(name).unwrap().make(0, Task::CodeSize).unwrap(),
                cost,
                start.clone(),
                60,
            );
            assert!(result.cost <= baseline, "{name} on {benchmark}: {} > {baseline}", result.cost);
        }
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn baseline_starts_reproduce_oz_on_the_whole_suite() {
    let pipeline = Pipeline::conditional(passes::size_groups());
    for b in crate::bril::suite::all() {
        let env = bril(&b.uri());
        let start = pipeline_actions(&env, SIZE, &pipeline).unwrap();
        let at = after(&env, &start);
        let got = at.observation().get(SIZE).unwrap();
        assert_eq!(got, env.observation().get("IrInstructionCountOz").unwrap(), "{}", b.name);
    }
}

fn toy() -> CompilerEnv {
    let options = EnvOptions {
        benchmark: Some("benchmark://toy-v0/b".into()),
        action_space: Some("toy-moves".into()),
        ..Default::default()
    };
    let mut env = CompilerEnv::new(Box::new(ToyBackend), EnvExtras::default(), options).unwrap();
    env.reset(ResetOptions::default()).unwrap();
    env
}

#[wasm_bindgen_test(unsupported = test)]
fn searches_take_the_action_space_the_environment_has() {
    // Another compiler: a list to sort, four moves (one ends the session),
    // states told apart by the list's text.
    let env = toy();
    let key = Some("Text".to_string());
    let searches: Vec<Box<dyn Search>> = vec![
        Box::new(RandomSearch::new(RandomSearchOptions::default())),
        Box::new(Greedy::new()),
        Box::new(BeamSearch::new(BeamSearchOptions { state_key: key.clone(), ..Default::default() })),
        Box::new(Explore::new(ExploreOptions { state_key: key, ..Default::default() })),
    ];
    for search in searches {
        let name = search.name().to_string();
        let result = run(&env, search, "Inversions", Vec::new(), 200);
        assert_eq!(result.cost, 0.0, "{name} sorts 5 4 3 2 1");
        assert_eq!(result.commandline, "reverse", "{name}: in one move");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn bad_searches_are_errors() {
    let env = toy();
    let options =
        |cost: &str, start: Vec<usize>| SearchOptions { cost: cost.into(), start, ..Default::default() };
    let make = |o| SearchRun::new(&env, Box::new(Greedy::new()), o).map(|_| ()).unwrap_err();
    assert_eq!(make(options("Nope", vec![])).name(), "LookupError");
    assert_eq!(make(options("Text", vec![])).name(), "TypeError");
    assert_eq!(make(options("Inversions", vec![9])).name(), "ValueError");
    let fresh = CompilerEnv::new(Box::new(ToyBackend), EnvExtras::default(), EnvOptions::default()).unwrap();
    let error = SearchRun::new(&fresh, Box::new(Greedy::new()), options("Inversions", vec![]))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(error.name(), "SessionNotFound");
}

#[wasm_bindgen_test(unsupported = test)]
fn explore_first_takes_every_action_from_the_start() {
    // -dead-functions alone takes histogram from 97 to 67 instructions: a
    // one-move improvement, found within as many steps as there are actions
    // whatever the seed.
    let env = bril("benchmark://suite-v0/histogram");
    let actions = passes::registry().len() as u64;
    for seed in 0..5 {
        let result =
            run(&env, AgentKind::Explore.make(seed, Task::CodeSize).unwrap(), SIZE, Vec::new(), actions);
        assert!(result.cost <= 67.0, "seed {seed}: {} after {} steps", result.cost, result.steps);
    }
}
