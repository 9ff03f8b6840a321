//! Policies: saved and read back exactly, trained reproducibly, played by
//! action name on whatever action space the environment has.

use super::train::{generated_uri, TrainOptions, Trainer};
use super::*;
use crate::agents::search::{Budget, SearchOptions, SearchRun};
use crate::compilers::make;
use crate::env::{EnvOptions, ResetOptions};
use wasm_bindgen_test::wasm_bindgen_test;

fn small_options(seed: u64) -> TrainOptions {
    TrainOptions {
        seed,
        episode_length: 6,
        hidden: vec![8],
        batch: 2,
        sizes: 10..20,
        validate_every: 2,
        validation: vec![generated_uri(2_000_000, 10), generated_uri(2_000_001, 10)],
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
    assert_eq!(curve.len(), 4);
    assert_eq!(
        curve.iter().map(|p| (p.update, p.episodes, p.steps, p.mean_return.to_bits())).collect::<Vec<_>>(),
        again.iter().map(|p| (p.update, p.episodes, p.steps, p.mean_return.to_bits())).collect::<Vec<_>>()
    );
    assert_eq!(curve[3].episodes, 8);
    assert!(curve[1].validation.is_some() && curve[0].validation.is_none(), "validated every 2 updates");
    assert!(curve.iter().all(|p| p.entropy > 0.0 && p.steps <= p.episodes * 6));
    let (c, _) = trained(6, 4);
    assert_ne!(a.network, c.network, "another seed, another network");
    assert_eq!(a.training["updates"], 4);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_saved_policy_reads_back_as_it_was_saved() {
    let (policy, _) = trained(1, 1);
    let text = policy.to_json().unwrap();
    let read = Policy::from_json(&text).unwrap();
    assert_eq!(read, policy.rounded());
    assert_eq!(read.to_json().unwrap(), text, "saving what was read changes nothing");
    assert!(text.len() < 40 * policy.network.parameters(), "{} bytes", text.len());
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
    assert!(broken(&|v| v["format"] = "other".into()).message().contains("format"));
    let e = broken(&|v| v["actions"].as_array_mut().unwrap().push("-extra".into()));
    assert!(e.message().contains("inputs"), "{e}");
    let e = broken(&|v| v["network"]["layers"][0]["bias"].as_array_mut().unwrap().push(0.0.into()));
    assert_eq!(e.name(), "ValueError");
    assert!(broken(&|v| v["episodeLength"] = 0.into()).message().contains("episode length"));
    assert!(broken(&|v| v["network"]["layers"] = serde_json::json!([])).message().contains("layer"));
}

fn rollout(policy: Policy, benchmark: &str) -> crate::agents::SearchResult {
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(benchmark.into()), ..Default::default() }).unwrap();
    let options =
        SearchOptions { cost: "IrInstructionCount".into(), budget: Budget::default(), ..Default::default() };
    let mut run = SearchRun::new(&env, Box::new(PolicyRollout::new(Rc::new(policy))), options).unwrap();
    run.run(1.0, |_| true).unwrap();
    run.result().unwrap()
}

#[wasm_bindgen_test(unsupported = test)]
fn a_rollout_plays_one_greedy_episode_and_keeps_its_final_state() {
    let (policy, _) = trained(2, 2);
    let benchmark = generated_uri(1_000_000, 30);
    let a = rollout(policy.clone(), &benchmark);
    let b = rollout(policy.clone(), &benchmark);
    assert_eq!((&a.actions, a.cost, a.steps), (&b.actions, b.cost, b.steps), "deterministic");
    assert!(a.steps <= 6 && a.actions.len() == a.steps as usize, "one episode: {a:?}");
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.apply(&a.state()).unwrap();
    assert_eq!(
        env.observation().get("IrInstructionCount").unwrap().as_f64(),
        Some(a.cost),
        "the final state's cost"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn actions_are_matched_by_name() {
    let (mut policy, _) = trained(3, 1);
    // Actions the environment lacks are never chosen; the others keep their names.
    policy.actions[0] = "-not-a-pass".into();
    let result = rollout(policy.clone(), &generated_uri(1_000_001, 30));
    let flags: Vec<&str> = result.commandline.split_whitespace().collect();
    assert!(flags.iter().all(|f| crate::bril::passes::by_flag(f).is_ok() && *f != "-dce"));
    policy.actions.iter_mut().for_each(|a| *a = format!("{a}-renamed"));
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions::default()).unwrap();
    let options = SearchOptions { cost: "IrInstructionCount".into(), ..Default::default() };
    let mut run = SearchRun::new(&env, Box::new(PolicyRollout::new(Rc::new(policy))), options).unwrap();
    assert_eq!(run.step_once().unwrap_err().name(), "ValueError");
}

#[wasm_bindgen_test(unsupported = test)]
fn the_pretrained_policy_knows_every_pass() {
    let policy = Policy::pretrained().unwrap();
    let flags: Vec<&str> = crate::bril::passes::registry().iter().map(|p| p.flag).collect();
    assert!(policy.actions.iter().all(|a| flags.contains(&a.as_str())), "{:?}", policy.actions);
    assert_eq!(policy.observation, "Autophase");
    assert!(policy.training["seconds"].as_f64().unwrap() <= 610.0);
}

#[wasm_bindgen_test(unsupported = test)]
fn history_masks_what_is_known_to_do_nothing() {
    let mut h = History::new(3, 4);
    let mut allowed = Vec::new();
    h.record(1, false);
    h.allowed(&[true, true, true], &mut allowed);
    assert_eq!(allowed, [true, false, true]);
    h.record(0, true);
    h.allowed(&[true, true, false], &mut allowed);
    assert_eq!(allowed, [true, true, false], "a change forgets what did nothing before it");
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
fn a_player_stepping_an_environment_plays_the_rollout() {
    let policy = Rc::new(Policy::pretrained().unwrap());
    let benchmark = generated_uri(1_000_002, 40);
    let rolled = rollout((*policy).clone(), &benchmark);
    let mut env = make("bril-v0", EnvOptions::default()).unwrap();
    env.reset(ResetOptions { benchmark: Some(benchmark), ..Default::default() }).unwrap();
    let mut player = play::Player::new(policy.clone(), &env).unwrap();
    let mut names = Vec::new();
    while let Some(played) = player.step(&mut env).unwrap() {
        assert!(played.choice.probability > 0.0 && played.choice.probability <= 1.0);
        assert_eq!(policy.actions[played.choice.action], played.choice.name);
        assert_eq!(played.error, None);
        names.push(played.choice.name);
    }
    assert!(player.done() && player.choose(&env).unwrap().is_none());
    assert_eq!(names.join(" "), rolled.commandline);
    assert_eq!(player.steps(), names.len());
    assert_eq!(env.observation().get("IrInstructionCount").unwrap().as_f64(), Some(rolled.cost));
}

#[wasm_bindgen_test(unsupported = test)]
fn training_options_that_cannot_train_are_value_errors() {
    assert!(TrainOptions::default().check().is_ok());
    let bad = [
        TrainOptions { episode_length: 0, ..Default::default() },
        TrainOptions { batch: 0, ..Default::default() },
        TrainOptions { hidden: vec![0], ..Default::default() },
        TrainOptions { hidden: vec![1 << 20], ..Default::default() },
        TrainOptions { learning_rate: f64::NAN, ..Default::default() },
        TrainOptions { entropy: -1.0, ..Default::default() },
        TrainOptions { sizes: 30..30, ..Default::default() },
        TrainOptions { sizes: 10..50_000, ..Default::default() },
    ];
    for options in bad {
        let e = Trainer::new(options.clone()).err().unwrap();
        assert_eq!(e.name(), "ValueError", "{options:?}");
    }
}
