//! The states a search has seen, told apart by one observation (such as
//! `IrSha1`, a hash of the program text): different action sequences often
//! lead to the same program, and a search should not keep it twice.

use super::context::SearchContext;
use crate::env::CompilerEnv;
use crate::error::Result;
use crate::spaces::value_to_json;
use crate::value::Value;
use std::collections::HashSet;

pub struct StateKeys {
    observation: Option<String>,
    seen: HashSet<String>,
}

impl StateKeys {
    /// Keys from `observation`; `None` tells no states apart (every state is new).
    pub fn new(observation: Option<String>) -> StateKeys {
        StateKeys { observation, seen: HashSet::new() }
    }

    /// The key of `env`'s state, if states are told apart.
    pub fn key(&self, context: &SearchContext, env: &CompilerEnv) -> Result<Option<String>> {
        let Some(id) = &self.observation else { return Ok(None) };
        Ok(Some(match context.observe(env, id)? {
            Value::Str(s) => s,
            other => value_to_json(&other).to_string(),
        }))
    }

    /// Records `env`'s state; true if it was not seen before.
    pub fn insert(&mut self, context: &SearchContext, env: &CompilerEnv) -> Result<bool> {
        Ok(match self.key(context, env)? {
            Some(key) => self.seen.insert(key),
            None => true,
        })
    }
}
