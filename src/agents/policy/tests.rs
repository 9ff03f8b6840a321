//! Policies: saved and read back exactly, trained reproducibly, played by
//! action name on whatever action space the environment has, always ending
//! with their task's pipeline.

use super::train::{generated_uri, TrainOptions, Trainer};
use super::*;
use crate::agents::search::{Budget, SearchOptions, SearchRun};
use crate::compilers::make;
use crate::env::{EnvOptions, ResetOptions};
use wasm_bindgen_test::wasm_bindgen_test;

const FIB: &str = "benchmark://suite-v0/fib-iter";

fn small_options(seed: u64) -> TrainOptions {
    TrainOptions {
        seed,
        episode_length: 3,
        hidden: vec![8],
        batch: 2,
        minibatch: 4,
        epochs: 2,
        sizes: 10..20,
        programs: vec![FIB.into()],
        validate_every: 2,
        validation: vec![generated_uri(2_000_000, 10), FIB.into()],
        normalizer_episodes: 3,
        ..Default::default()
    }
}

fn trained(seed: u64, updates: usize) -> (Policy, Vec<train::CurvePoint>) {
    let mut trainer = Trainer::new(small_options(seed)).unwrap();
    for _ in 0..updates {
        trainer.train_batch().unwrap();
    }
    (trainer.trained_policy(), trainer.curve().to_vec())
}

#[wasm_bindgen_test(unsupported = test)]
fn training_is_reproducible_and_reports_its_curve() {
    let (a, curve) = trained(5, 4);
    let (b, again) = trained(5, 4);
    assert_eq!(a.network, b.network, "same seed, same network");
    assert_eq!(a.normalizer, b.normalizer);
    assert_eq!(curve.len(), 4);
    assert_eq!(
        curve.iter().map(|p| (p.update, p.episodes, p.steps, p.mean_return.to_bits())).collect::<Vec<_>>(),
        again.iter().map(|p| (p.update, p.episodes, p.steps, p.mean_return.to_bits())).collect::<Vec<_>>()
    );
    assert_eq!(curve[3].episodes, 8);
    assert!(curve[1].validation.is_some() && curve[0].validation.is_none(), "validated every 2 updates");
    assert!(curve.iter().all(|p| p.entropy > 0.0 && p.steps <= p.episodes * 3));
    let (c, _) = trained(6, 4);
    assert_ne!(a.network, c.network, "another seed, another network");
    assert_eq!(a.training["updates"], 4);
    assert_eq!(a.training["algorithm"], "PPO with action masking");
}

#[wasm_bindgen_test(unsupported = test)]
fn a_saved_policy_reads_back_as_it_was_saved() {
    let (policy, _) = trained(1, 1);
    let text = policy.to_json().unwrap();
    let read = Policy::from_json(&text).unwrap();
    assert_eq!(read, policy.rounded());
    assert_eq!(read.to_json().unwrap(), text, "saving what was read changes nothing");
    assert!(
        text.len() < 40 * (policy.network.parameters() + 2 * policy.network.inputs()),
        "{} bytes",
        text.len()
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn bad_policies_are_value_errors() {
    let (policy, _) = trained(1, 1);
    let good: serde_json::Value = serde_json::from_str(&policy.to_json().unwrap()).unwrap();
    let broken = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        edit(&mut v);
        Policy::from_json(&v.to_string()).unwrap_err()
    };
    assert_eq!(Policy::from_json("not json").unwrap_err().name(), "ValueError");
    assert!(broken(&|v| v["format"] = "compgym-policy-v1".into()).message().contains("format"));
    let e = broken(&|v| v["actions"].as_array_mut().unwrap().push("-extra".into()));
    assert!(e.message().contains("inputs"), "{e}");
    let e = broken(&|v| v["network"]["layers"][0]["bias"].as_array_mut().unwrap().push(0.0.into()));
    assert_eq!(e.name(), "ValueError");
    assert!(broken(&|v| v["episodeLength"] = 0.into()).message().contains("episode length"));
    assert!(broken(&|v| v["network"]["layers"] = serde_json::json!([])).message().contains("layer"));
    assert!(broken(&|v| v["normalizer"]["mean"].as_array_mut().unwrap().pop().map(drop).unwrap_or(()))
        .message()
        .contains("normalizer"));
    assert_eq!(broken(&|v| v["task"] = "speed".into()).name(), "ValueError");
}

fn rollout(policy: Policy, benchmark: &str, cost: &str) -> crate::agents::SearchResult {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(benchmark.into()), ..Default::default() }).unwrap();
    let options = SearchOptions { cost: cost.into(), budget: Budget::default(), ..Default::default() };
    let mut run = SearchRun::new(&env, Box::new(PolicyRollout::new(Rc::new(policy))), options).unwrap();
    run.run(1.0, |_| true).unwrap();
    run.result().unwrap()
}

/// `policy` with its stop choice made (nearly) certain, or impossible.
fn always(mut policy: Policy, stop: bool) -> Policy {
    let last = policy.network.layers.len() - 1;
    let layer = &mut policy.network.layers[last];
    let n = policy.actions.len();
    layer.bias[n] = if stop { 1e6 } else { -1e6 };
    policy
}

#[wasm_bindgen_test(unsupported = test)]
fn a_rollout_plays_one_greedy_episode_then_the_pipeline() {
    let (policy, _) = trained(2, 2);
    let benchmark = generated_uri(1_000_000, 30);
    let a = rollout(policy.clone(), &benchmark, "IrInstructionCount");
    let b = rollout(policy.clone(), &benchmark, "IrInstructionCount");
    assert_eq!((&a.actions, a.cost, a.steps), (&b.actions, b.cost, b.steps), "deterministic");
    assert!(
        a.actions.len() <= a.steps as usize,
        "the pipeline's groups it did not keep count as steps: {a:?}"
    );
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.apply(&a.state()).unwrap();
    assert_eq!(
        env.observation().get("IrInstructionCount").unwrap().as_f64(),
        Some(a.cost),
        "the final state's cost"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_policy_that_stops_at_once_gives_the_pipelines_result() {
    let (policy, _) = trained(2, 1);
    for (task, cost, baseline) in [
        (Task::CodeSize, "IrInstructionCount", "IrInstructionCountOz"),
        (Task::Runtime, "DynamicInstructionCount", "DynamicInstructionCountO2"),
    ] {
        let policy = Policy { task: task.short_name().into(), ..always(policy.clone(), true) };
        let result = rollout(policy, FIB, cost);
        let mut env = make("bril-v0", EnvOptions::default()).unwrap();
        env.reset(ResetOptions { benchmark: Some(FIB.into()), ..Default::default() }).unwrap();
        assert_eq!(Some(result.cost), env.observation().get(baseline).unwrap().as_f64(), "{task:?}");
    }
    // One that never stops runs its whole episode first.
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(FIB.into()), ..Default::default() }).unwrap();
    let mut player = play::Player::new(Rc::new(always(policy.clone(), false)), &env).unwrap();
    while player.step(&mut env).unwrap().is_some() {}
    assert_eq!(player.steps(), policy.episode_length);
}

#[wasm_bindgen_test(unsupported = test)]
fn actions_are_matched_by_name() {
    let (policy, _) = trained(3, 1);
    let mut renamed = always(policy, false);
    // Actions the environment lacks are never chosen.
    renamed.actions[0] = "-not-a-pass".into();
    let result = rollout(renamed.clone(), &generated_uri(1_000_001, 30), "IrInstructionCount");
    assert!(result.commandline.split_whitespace().all(|f| crate::bril::passes::by_flag(f).is_ok()));
    renamed.actions.iter_mut().for_each(|a| *a = format!("{a}-renamed"));
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions::default()).unwrap();
    let options = SearchOptions { cost: "IrInstructionCount".into(), ..Default::default() };
    let mut run = SearchRun::new(&env, Box::new(PolicyRollout::new(Rc::new(renamed))), options).unwrap();
    assert_eq!(run.step_once().unwrap_err().name(), "ValueError");
}

#[wasm_bindgen_test(unsupported = test)]
fn the_pretrained_policies_know_every_pass_and_their_task() {
    let flags: Vec<&str> = crate::bril::passes::registry().iter().map(|p| p.flag).collect();
    for task in [Task::CodeSize, Task::Runtime] {
        let policy = Policy::pretrained_for(task).unwrap();
        assert_eq!(policy.task().unwrap(), task);
        assert_eq!(policy.actions, flags, "every pass, in the action space's order");
        assert_eq!(policy.observation, "Features");
        assert!(policy.training["seconds"].as_f64().unwrap() <= 1800.0, "{}", policy.training);
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn history_masks_what_is_known_to_do_nothing() {
    let mut h = History::new(3, 4);
    let mut allowed = Vec::new();
    h.record(1, false);
    h.allowed(&[true, true, true], &mut allowed);
    assert_eq!(allowed, [true, false, true, true], "the stop choice last, always allowed");
    h.record(0, true);
    h.allowed(&[true, true, false], &mut allowed);
    assert_eq!(allowed, [true, true, false, true], "a change forgets what did nothing before it");
    let mut input = Vec::new();
    h.input(&[0.0, 1.0], &mut input);
    assert_eq!(input.len(), input_length(2, 3));
    assert_eq!(input[5..8], [1.0, 0.0, 0.0], "the last action, one-hot");
    assert_eq!(*input.last().unwrap(), 0.5, "half the episode gone");
    assert!(!h.done());
    h.record(2, true);
    h.record(2, false);
    assert!(h.done());
}

#[wasm_bindgen_test(unsupported = test)]
fn the_normalizer_standardises_what_it_was_fitted_on() {
    let samples = vec![vec![1.0, 5.0], vec![3.0, 5.0]];
    let n = Normalizer::fit(&samples, 2);
    let mut x = vec![3.0, 5.0];
    n.apply(&mut x);
    assert_eq!(x, [1.0, 0.0], "one standard deviation up; a constant input stays at 0");
}

#[wasm_bindgen_test(unsupported = test)]
fn a_player_stepping_an_environment_plays_the_rollout() {
    let (policy, _) = trained(4, 2);
    let policy = Rc::new(policy);
    let benchmark = generated_uri(1_000_002, 40);
    let rolled = rollout((*policy).clone(), &benchmark, "IrInstructionCount");
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(benchmark), ..Default::default() }).unwrap();
    let mut player = play::Player::new(policy.clone(), &env).unwrap();
    assert_eq!(player.finish(&mut env).unwrap_err().name(), "ValueError", "not stopped yet");
    let mut names = Vec::new();
    while let Some(played) = player.step(&mut env).unwrap() {
        assert!(played.choice.probability > 0.0 && played.choice.probability <= 1.0);
        assert_eq!(policy.actions[played.choice.action], played.choice.name);
        assert_eq!(played.error, None);
        names.push(played.choice.name);
    }
    assert!(player.done() && player.choose(&env).unwrap().is_none());
    assert_eq!(player.steps(), names.len());
    let cost = player.finish(&mut env).unwrap();
    assert_eq!(cost, rolled.cost);
    assert_eq!(player.finish(&mut env).unwrap(), cost, "finishing twice runs the pipeline once");
    assert!(rolled.commandline.starts_with(&names.join(" ")), "{} / {names:?}", rolled.commandline);
}

#[wasm_bindgen_test(unsupported = test)]
fn training_options_that_cannot_train_are_value_errors() {
    assert!(TrainOptions::default().check().is_ok());
    let bad = [
        TrainOptions { episode_length: 0, ..Default::default() },
        TrainOptions { batch: 0, ..Default::default() },
        TrainOptions { epochs: 0, ..Default::default() },
        TrainOptions { hidden: vec![0], ..Default::default() },
        TrainOptions { hidden: vec![1 << 20], ..Default::default() },
        TrainOptions { learning_rate: f64::NAN, ..Default::default() },
        TrainOptions { entropy: -1.0, ..Default::default() },
        TrainOptions { clip: 1.5, ..Default::default() },
        TrainOptions { sizes: 30..30, ..Default::default() },
        TrainOptions { sizes: 10..50_000, ..Default::default() },
    ];
    for options in bad {
        let e = Trainer::new(options.clone()).err().unwrap();
        assert_eq!(e.name(), "ValueError", "{options:?}");
    }
}
