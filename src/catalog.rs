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
        "rewards": envs::REWARDS.iter().map(|r| entry(r.name, r.description)).collect::<Vec<_>>(),
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
        let rewards: Vec<String> = env.reward_view().spaces().iter().map(|r| r.name().to_string()).collect();
        assert_eq!(names("rewards"), rewards);
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
