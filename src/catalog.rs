//! The registry: every list a user chooses from (passes, observations,
//! rewards, agents, space kinds), each entry with its name and one plain
//! sentence, as one JSON value for the JS face (`catalog()`), the command
//! line and the playground.
//!
//! Each list is declared once, beside the code that matches on it
//! ([`passes::registry`], [`Obs`] and [`envs::DERIVED`], [`envs::REWARDS`],
//! [`kinds::AGENTS`], [`spaces::KINDS`], Autophase's features); this module
//! only gathers them.

use crate::agents::kinds;
use crate::bril::features::autophase;
use crate::bril::passes;
use crate::compilers::bril::envs;
use crate::compilers::bril::observations::Obs;
use crate::spaces;
use serde_json::{json, Value as Json};

/// `{passes, observations, rewards, agents, spaceKinds, autophase}`: lists
/// of `{name, description, ...}` in their own order (passes in action
/// order, Autophase's features in the vector's).
/// Passes add `sentence` (plain words; `description` is the technical line),
/// rewards `runsProgram` and `needsO2` (see [`envs::runtime_reward`]),
/// agents `label` and `seedOnly`, space kinds `batching`.
pub fn catalog() -> Json {
    let entry = |name: &str, description: &str| json!({ "name": name, "description": description });
    let observations = Obs::ALL
        .iter()
        .map(|o| entry(o.name(), o.description()))
        .chain(envs::DERIVED.iter().map(|&(name, description)| entry(name, description)));
    json!({
        "passes": passes::registry()
            .iter()
            .map(|p| json!({ "name": p.flag, "description": p.description, "sentence": p.sentence }))
            .collect::<Vec<_>>(),
        "observations": observations.collect::<Vec<_>>(),
        "rewards": envs::REWARDS
            .iter()
            .map(|r| json!({
                "name": r.name,
                "description": r.description,
                "runsProgram": r.runs_program(),
                "needsO2": r.needs_o2(),
            }))
            .collect::<Vec<_>>(),
        "agents": kinds::AGENTS
            .iter()
            .map(|a| json!({
                "name": a.name,
                "label": a.label,
                "description": a.description,
                "seedOnly": a.seed_only,
            }))
            .collect::<Vec<_>>(),
        "autophase": autophase::NAMES
            .iter()
            .zip(autophase::DESCRIPTIONS)
            .map(|(name, description)| entry(name, description))
            .collect::<Vec<_>>(),
        "spaceKinds": spaces::KINDS
            .iter()
            .map(|k| json!({ "name": k.name, "description": k.description, "batching": k.batching.name() }))
            .collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::kinds::AgentKind;
    use crate::compilers::make;
    use crate::env::EnvOptions;
    use std::collections::BTreeSet;

    fn names(list: &str) -> Vec<String> {
        catalog()[list].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn every_entry_has_a_unique_name_and_a_sentence() {
        let catalog = catalog();
        for (list, entries) in catalog.as_object().unwrap() {
            let entries = entries.as_array().unwrap();
            assert!(!entries.is_empty(), "{list}");
            let unique: BTreeSet<&str> = entries.iter().map(|e| e["name"].as_str().unwrap()).collect();
            assert_eq!(unique.len(), entries.len(), "{list}: names are unique");
            for e in entries {
                for key in ["description", "sentence"].into_iter().filter(|k| e.get(*k).is_some()) {
                    let text = e[key].as_str().unwrap();
                    assert!(text.len() > 5 && text.trim() == text, "{list}/{}: {key} {text:?}", e["name"]);
                }
            }
        }
    }

    /// What an environment offers is what the registry lists, in order.
    #[test]
    fn the_registry_lists_what_the_environment_offers() {
        let env = make("bril-v0", EnvOptions::default()).unwrap();
        let offered: Vec<String> = env.observation().spaces().iter().map(|s| s.id.clone()).collect();
        assert_eq!(names("observations"), offered);
        let crate::spaces::SpaceKind::Commandline(actions) = env.action_space().space.kind() else {
            panic!("the action space is a Commandline");
        };
        assert_eq!(names("passes"), actions.flags());
        let rewards: Vec<String> = env.reward_view().spaces().map(|r| r.name().to_string()).collect();
        assert_eq!(names("rewards"), rewards);
    }

    /// The runtime rewards computed from counts are the environment's own,
    /// step by step, for every reward that runs the program.
    #[test]
    fn runtime_rewards_from_counts_are_the_environments() {
        use crate::env::compiler_env::ResetOptions;
        use crate::value::Value;
        let runtime: Vec<&str> = envs::REWARDS.iter().filter(|r| r.runs_program()).map(|r| r.name).collect();
        assert_eq!(
            runtime,
            ["DynamicInstructionCount", "DynamicInstructionCountNorm", "DynamicInstructionCountO2"]
        );
        let o2: Vec<&str> = envs::REWARDS.iter().filter(|r| r.needs_o2()).map(|r| r.name).collect();
        assert_eq!(o2, ["DynamicInstructionCountO2"]);
        let count = |env: &crate::env::CompilerEnv, name: &str| match env.observation().get(name).unwrap() {
            Value::Int(x) => x as f64,
            other => panic!("{name}: {other:?}"),
        };
        for name in runtime {
            let mut env = make("bril-v0", EnvOptions::default()).unwrap();
            env.set_reward_space(Some(name)).unwrap();
            env.reset(ResetOptions {
                benchmark: Some("benchmark://suite-v0/loop-invariant".into()),
                ..Default::default()
            })
            .unwrap();
            let (o0, o2) =
                (count(&env, "DynamicInstructionCountO0"), count(&env, "DynamicInstructionCountO2"));
            for flag in ["-licm", "-lvn", "-dce", "-peephole"] {
                let before = count(&env, "DynamicInstructionCount");
                let index = passes::registry().iter().position(|p| p.flag == flag).unwrap();
                let step = env.step(Value::Int(index as i64)).unwrap();
                let after = count(&env, "DynamicInstructionCount");
                let own = *step.reward.one().unwrap();
                let computed = envs::runtime_reward(name, before, after, Some(o0), Some(o2)).unwrap();
                assert_eq!(computed.to_bits(), own.to_bits(), "{name} after {flag}");
            }
        }
    }

    #[test]
    fn a_runtime_reward_from_counts_refuses_what_it_cannot_compute() {
        let kind = |r: crate::error::Result<f64>| r.unwrap_err().name().to_string();
        assert_eq!(kind(envs::runtime_reward("Speed", 2.0, 1.0, Some(2.0), None)), "LookupError");
        assert_eq!(kind(envs::runtime_reward("IrInstructionCount", 2.0, 1.0, Some(2.0), None)), "ValueError");
        assert_eq!(
            kind(envs::runtime_reward("DynamicInstructionCountO2", 2.0, 1.0, Some(2.0), None)),
            "ValueError"
        );
        assert_eq!(
            kind(envs::runtime_reward("DynamicInstructionCountNorm", 2.0, 1.0, None, None)),
            "ValueError"
        );
        assert_eq!(
            kind(envs::runtime_reward("DynamicInstructionCount", f64::NAN, 1.0, None, None)),
            "ValueError"
        );
        // The delta needs no baseline; the floor holds where -O2 barely helps.
        assert_eq!(envs::runtime_reward("DynamicInstructionCount", 9.0, 4.0, None, None).unwrap(), 5.0);
        let floored =
            envs::runtime_reward("DynamicInstructionCountO2", 1000.0, 990.0, Some(1000.0), Some(999.0));
        assert_eq!(floored.unwrap(), 10.0 / (crate::rewards::cost::BASELINE_FLOOR * 1000.0));
    }

    #[test]
    fn every_agent_is_known_by_its_name() {
        for name in names("agents") {
            AgentKind::check_name(&name).unwrap();
        }
        for name in kinds::searches() {
            assert_eq!(AgentKind::by_name(name).unwrap().name(), name);
        }
        assert_eq!(AgentKind::check_name("oracle").unwrap_err().name(), "LookupError");
        let usage = crate::cli::usage();
        assert!(names("agents").iter().all(|n| usage.contains(n.as_str())));
    }
}
