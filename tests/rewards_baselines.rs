//! The baseline-relative rewards of the Bril environments: always divided by
//! the current benchmark's own baselines, floored where the baseline barely
//! improves the program.

use compgym::compilers::make;
use compgym::env::{CompilerEnv, EnvOptions, ResetOptions};
use compgym::rewards::cost::baseline_divisor;
use compgym::service::Benchmark;
use compgym::value::Value;

fn env(reward: &str) -> CompilerEnv {
    make("bril-v0", EnvOptions { reward_space: Some(Some(reward.into())), ..Default::default() }).unwrap()
}

fn reset(env: &mut CompilerEnv, uri: &str) {
    env.reset(ResetOptions { benchmark: Some(uri.into()), ..Default::default() }).unwrap();
}

fn count(env: &CompilerEnv, observation: &str) -> f64 {
    env.observation().get(observation).unwrap().as_f64().unwrap()
}

/// Applies the flags; returns the episode's reward.
fn run(env: &mut CompilerEnv, commandline: &str) -> f64 {
    for action in env.commandline_to_actions(commandline).unwrap() {
        assert!(env.step(action).unwrap().info.error.is_none());
    }
    env.episode_reward().unwrap()
}

/// What the episode so far should have earned, from the observations.
fn expected(env: &CompilerEnv, cost: &str, baseline: &str) -> f64 {
    let initial = count(env, &format!("{cost}O0"));
    (initial - count(env, cost)) / baseline_divisor(initial, count(env, baseline))
}

/// `dead` dead definitions before `live` printed constants.
fn program(dead: usize, live: usize) -> String {
    let mut text = String::from("@main {\n");
    for i in 0..dead {
        text.push_str(&format!("  d{i}: int = const {i};\n"));
    }
    for i in 0..live {
        text.push_str(&format!("  v{i}: int = const {i};\n  print v{i};\n"));
    }
    text + "}\n"
}

#[test]
fn where_oz_does_a_real_job_the_divisor_is_its_improvement() {
    let mut env = env("IrInstructionCountOz");
    reset(&mut env, "benchmark://suite-v0/dead-code"); // 27 instructions, -Oz leaves 11
    assert_eq!((count(&env, "IrInstructionCountO0"), count(&env, "IrInstructionCountOz")), (27.0, 11.0));
    let reward = run(&mut env, "-dce -adce -simplify-cfg");
    let removed = 27.0 - count(&env, "IrInstructionCount");
    assert!(removed > 0.0);
    assert_eq!(reward, removed / 16.0);
}

#[test]
fn where_the_baseline_does_nothing_the_divisor_is_a_twentieth_of_the_program() {
    // 2 dead definitions before 50 printed constants: 102 instructions, and
    // -Oz removes only the 2 (under 5%).
    let mut env = env("IrInstructionCountOz");
    env.add_benchmark(Benchmark::from_contents("benchmark://user-v0/lean", program(2, 50))).unwrap();
    reset(&mut env, "benchmark://user-v0/lean");
    assert_eq!((count(&env, "IrInstructionCountO0"), count(&env, "IrInstructionCountOz")), (102.0, 100.0));
    let reward = run(&mut env, "-dce");
    assert_eq!(reward, 2.0 / (0.05 * 102.0), "matching -Oz is worth what removing 2 of 102 instructions is");
}

#[test]
fn a_reset_to_another_benchmark_uses_its_baselines() {
    for (reward, cost, baseline) in [
        ("IrInstructionCountOz", "IrInstructionCount", "IrInstructionCountOz"),
        ("DynamicInstructionCountO2", "DynamicInstructionCount", "DynamicInstructionCountO2"),
    ] {
        let mut env = env(reward);
        reset(&mut env, "benchmark://suite-v0/dead-code");
        run(&mut env, "-dce");
        for uri in ["benchmark://suite-v0/bubble-sort", "benchmark://suite-v0/loop-invariant"] {
            reset(&mut env, uri);
            let got = run(&mut env, "-mem2reg -sccp -lvn -licm -dce -simplify-cfg");
            let want = expected(&env, cost, baseline);
            assert!((got - want).abs() < 1e-9, "{reward} on {uri}: {got} != {want}");
        }
    }
}

#[test]
fn a_benchmark_replaced_under_the_same_uri_uses_the_new_baselines() {
    let uri = "benchmark://user-v0/replaced";
    let mut env = env("IrInstructionCountOz");
    // First: 10 dead definitions of 20 instructions, -Oz removes them all.
    env.add_benchmark(Benchmark::from_contents(uri, program(10, 5))).unwrap();
    reset(&mut env, uri);
    assert_eq!(run(&mut env, "-dce"), 1.0);
    // Then: 1 dead definition of 61; the divisor is 5% of 61.
    env.add_benchmark(Benchmark::from_contents(uri, program(1, 30))).unwrap();
    reset(&mut env, uri);
    assert_eq!(count(&env, "IrInstructionCountO0"), 61.0, "the session runs the new program");
    assert_eq!(count(&env, "IrInstructionCountOz"), 60.0, "and observes its baselines");
    assert_eq!(run(&mut env, "-dce"), 1.0 / (0.05 * 61.0), "the reward divides by the new program's");
    // A fork keeps the episode's divisor; a later reset still reads the current program's.
    let mut fork = env.fork().unwrap();
    assert_eq!(fork.step(Value::Int(0)).unwrap().reward.one().copied(), Some(0.0));
    env.add_benchmark(Benchmark::from_contents(uri, program(10, 5))).unwrap();
    reset(&mut env, uri);
    assert_eq!(run(&mut env, "-dce"), 1.0);
}
