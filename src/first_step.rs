//! The playground's first step: the compiler alone, for the first second of
//! a visit.
//!
//! The whole module (environments, datasets, generators, agents, bandits,
//! spaces) is about 800 KB compressed; the compiler a step runs is under a
//! third of it. So the page loads a module of this engine first (the
//! `first-step` feature builds it), lets a visitor step on the bundled suite
//! or on a program's text at once, and replays the steps into real
//! environments when the full module has arrived. What it answers is what
//! `bril-v0` answers for the same program and passes (its tests compare the
//! two): the action space's flags, the `IrInstructionCount` reward, whether
//! a pass changed the program, and the observations a first view shows
//! (`Ir`, `Cfg`, `IrInstructionCount`, `InstCountDict`, `AutophaseDict`).

use crate::bril::features::{autophase, cfg, inst_count, ir_instruction_count};
use crate::bril::ir::Program;
use crate::bril::print::to_text;
use crate::bril::{parse_text, passes, suite, verify};
use crate::error::{Error, Result};

/// The one reward the engine computes: `bril-v0`'s default.
pub const REWARD: &str = "IrInstructionCount";

/// The observations the engine answers, by name.
pub const OBSERVATIONS: [&str; 5] = ["Ir", "Cfg", "IrInstructionCount", "InstCountDict", "AutophaseDict"];

/// One state of an episode: a program, how it was reached, and what it cost.
#[derive(Clone, Debug)]
pub struct FirstStepEnv {
    benchmark: String,
    program: Program,
    /// The flags applied since the reset, in order (CompilerGym's commandline).
    flags: Vec<&'static str>,
}

/// What a step did: `bril-v0`'s reward and its `actionHadNoEffect`, inverted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub reward: f64,
    pub changed: bool,
}

/// An observation, in the kind `bril-v0` gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed {
    Text(String),
    Count(i64),
    /// Counts under their names, in the feature vector's order.
    Named(Vec<(&'static str, i64)>),
}

impl FirstStepEnv {
    /// The episode's start on `benchmark`: a program of the bundled suite
    /// (`benchmark://suite-v0/NAME`) when `source` is None, else the Bril
    /// text `source` under that URI. A program that does not parse, is not
    /// well formed or has no function is refused as `bril-v0` refuses it.
    pub fn reset(benchmark: &str, source: Option<&str>) -> Result<FirstStepEnv> {
        let text = match source {
            Some(text) => text,
            None => suite::get(benchmark)?.source,
        };
        let program = parse_text(text)
            .and_then(|p| verify(&p).map(|()| p))
            .map_err(|e| Error::benchmark_init(format!("{benchmark}: {}: {}", e.name(), e.message())))?;
        if program.functions.is_empty() {
            return Err(Error::benchmark_init(format!(
                "{benchmark}: the program is empty: it has no functions"
            )));
        }
        Ok(FirstStepEnv { benchmark: benchmark.to_string(), program, flags: Vec::new() })
    }

    /// The pass flags, in action order.
    pub fn flags() -> Vec<&'static str> {
        passes::registry().iter().map(|p| p.flag).collect()
    }

    /// What each pass does, in action order.
    pub fn descriptions() -> Vec<&'static str> {
        passes::registry().iter().map(|p| p.description).collect()
    }

    /// The names of the bundled suite's programs.
    pub fn suite() -> Vec<&'static str> {
        suite::names().collect()
    }

    pub fn benchmark(&self) -> &str {
        &self.benchmark
    }

    /// The flags applied since the reset, separated by spaces.
    pub fn commandline(&self) -> String {
        self.flags.join(" ")
    }

    /// Applies pass `action` (an index into [`FirstStepEnv::flags`]).
    pub fn step(&mut self, action: usize) -> Result<Outcome> {
        let count = passes::registry().len();
        let pass = passes::registry()
            .get(action)
            .ok_or_else(|| Error::value(format!("no pass {action}: there are {count}")))?;
        let before = ir_instruction_count(&self.program);
        let changed = (pass.run)(&mut self.program)?;
        self.flags.push(pass.flag);
        let after = ir_instruction_count(&self.program);
        Ok(Outcome { reward: (before - after) as f64, changed })
    }

    /// Observation `name`, one of [`OBSERVATIONS`].
    pub fn observe(&self, name: &str) -> Result<Observed> {
        let p = &self.program;
        Ok(match name {
            "Ir" => Observed::Text(to_text(p)),
            "Cfg" => Observed::Text(cfg::to_json_text(p)),
            "IrInstructionCount" => Observed::Count(ir_instruction_count(p)),
            "InstCountDict" => named(&inst_count::NAMES, &inst_count::counts(p)),
            "AutophaseDict" => named(&autophase::NAMES, &autophase::features(p)),
            _ => {
                return Err(Error::lookup(format!(
                    "the first step's engine has no observation {name:?}: it has {}",
                    OBSERVATIONS.join(", ")
                )))
            }
        })
    }
}

fn named<T: Copy + Into<i64>>(names: &[&'static str], values: &[T]) -> Observed {
    Observed::Named(names.iter().copied().zip(values.iter().map(|&v| v.into())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compilers::registry::make;
    use crate::env::{EnvOptions, ResetOptions};
    use crate::value::Value;
    use crate::SpaceKind;

    fn as_observed(name: &str, value: Value) -> Observed {
        match (name, value) {
            (_, Value::Str(text)) => Observed::Text(text),
            (_, Value::Int(n)) => Observed::Count(n),
            ("InstCountDict", Value::Dict(d)) => named_from(&inst_count::NAMES, d),
            ("AutophaseDict", Value::Dict(d)) => named_from(&autophase::NAMES, d),
            (name, other) => panic!("{name}: unexpected {}", other.kind_name()),
        }
    }

    fn named_from(names: &[&'static str], dict: Vec<(String, Value)>) -> Observed {
        let value = |n: &str| dict.iter().find(|(k, _)| k == n).and_then(|(_, v)| v.as_int()).unwrap();
        Observed::Named(names.iter().map(|&n| (n, value(n))).collect())
    }

    /// Every suite program, every pass from its start and then a second
    /// pass after it: the engine and `bril-v0` agree on the reward, the
    /// effect and every observation the engine gives.
    #[test]
    fn answers_what_the_environment_answers() {
        let options = EnvOptions { reward_space: Some(Some(REWARD.into())), ..Default::default() };
        let mut env = make("bril-v0", options).unwrap();
        let flags = FirstStepEnv::flags();
        let SpaceKind::Commandline(space) = env.action_space().space.kind() else {
            panic!("bril-v0's actions")
        };
        assert_eq!(space.flags(), flags);
        for (k, name) in FirstStepEnv::suite().into_iter().enumerate() {
            let uri = format!("benchmark://suite-v0/{name}");
            for first in 0..flags.len() {
                let second = (first * 7 + k) % flags.len();
                let mut mine = FirstStepEnv::reset(&uri, None).unwrap();
                env.reset(ResetOptions { benchmark: Some(uri.clone()), ..Default::default() }).unwrap();
                for action in [first, second] {
                    let outcome = mine.step(action).unwrap();
                    let theirs = env.step(Value::Int(action as i64)).unwrap();
                    let at = format!("{uri} {}", mine.commandline());
                    assert_eq!(Some(&outcome.reward), theirs.reward.one(), "{at}: reward");
                    assert_eq!(outcome.changed, !theirs.info.action_had_no_effect, "{at}: effect");
                    for obs in OBSERVATIONS {
                        let expected = as_observed(obs, env.observation().get(obs).unwrap());
                        assert_eq!(mine.observe(obs).unwrap(), expected, "{at}: {obs}");
                    }
                }
                assert_eq!(mine.commandline(), env.state().unwrap().commandline);
            }
        }
    }

    #[test]
    fn own_text_and_refusals() {
        let mut env = FirstStepEnv::reset(
            "user://1",
            Some("@main {\n  a: int = const 1;\n  b: int = id a;\n  print a;\n}"),
        )
        .unwrap();
        assert_eq!(env.observe("IrInstructionCount").unwrap(), Observed::Count(3));
        let dce = FirstStepEnv::flags().iter().position(|&f| f == "-dce").unwrap();
        assert_eq!(env.step(dce).unwrap(), Outcome { reward: 1.0, changed: true });
        assert_eq!(env.step(dce).unwrap(), Outcome { reward: 0.0, changed: false });
        assert_eq!(env.commandline(), "-dce -dce");
        let fork = env.clone();
        assert_eq!(fork.observe("Ir").unwrap(), env.observe("Ir").unwrap());

        let no_pass = env.step(FirstStepEnv::flags().len()).unwrap_err();
        assert_eq!(no_pass.name(), "ValueError");
        assert_eq!(env.observe("Programl").unwrap_err().name(), "LookupError");
        for (uri, text) in [("user://2", "@main {"), ("user://3", "@main { print x; }"), ("user://4", "")] {
            let error = FirstStepEnv::reset(uri, Some(text)).unwrap_err();
            assert_eq!(error.name(), "BenchmarkInitError", "{text}");
            assert!(error.message().starts_with(uri), "{}", error.message());
        }
        assert_eq!(FirstStepEnv::reset("benchmark://suite-v0/nope", None).unwrap_err().name(), "LookupError");
    }
}
