//! The Bril compiler as a compilation session: the one place where the
//! compiler meets the service protocol. Actions are the passes of
//! [`passes::registry`]; observations are listed in [`observations`].

pub mod envs;
pub mod observations;

use crate::bril::interp::{run, Limits};
use crate::bril::passes;
use crate::bril::{generator, parse_any, suite, verify, Program};
use crate::error::{Error, Result};
use crate::service::{
    ActionOutcome, ActionSpace, Benchmark, BenchmarkUri, CompilationSession, CompilerBackend, Dataset,
    DatasetBenchmarks, ObservationSpace,
};
use crate::spaces::{Commandline, CommandlineFlag, Space};
use crate::value::Value;
use observations::{static_observation, Obs};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub const SUITE_DATASET: &str = "benchmark://suite-v0";
pub const RANDOM_DATASET: &str = "generator://random-v0";

/// The name of the action space: one flag per pass.
pub const ACTION_SPACE: &str = "passes";

/// The compiler backend: stateless; sessions hold the programs.
pub struct BrilBackend;

/// The pass flags as a Commandline space, in registry order.
pub fn action_space() -> Result<Space> {
    let flags =
        passes::registry().iter().map(|p| CommandlineFlag::new(p.flag, p.flag, p.description)).collect();
    Ok(Commandline::new(ACTION_SPACE, flags)?.into())
}

fn parse_benchmark(benchmark: &Benchmark) -> Result<Program> {
    let text = std::str::from_utf8(benchmark.contents())
        .map_err(|_| Error::benchmark_init(format!("{}: the program is not UTF-8 text", benchmark.uri)))?;
    let program = parse_any(text).and_then(|p| verify(&p).map(|()| p));
    program.map_err(|e| Error::benchmark_init(format!("{}: {}: {}", benchmark.uri, e.name(), e.message())))
}

impl CompilerBackend for BrilBackend {
    fn compiler_version(&self) -> String {
        format!("bril-compgym {}", crate::VERSION)
    }

    fn action_spaces(&self) -> Vec<ActionSpace> {
        action_space().map(ActionSpace::new).into_iter().collect()
    }

    fn observation_spaces(&self) -> Vec<ObservationSpace> {
        observations::observation_spaces().unwrap_or_default()
    }

    fn start_session(
        &self,
        benchmark: &Benchmark,
        _action_space: usize,
    ) -> Result<Box<dyn CompilationSession>> {
        let program = parse_benchmark(benchmark)?;
        Ok(Box::new(BrilSession::new(program)))
    }

    fn resolve_benchmark(&self, uri: &BenchmarkUri) -> Result<Option<Benchmark>> {
        let name = uri.to_string();
        let dataset = uri.dataset_uri();
        if dataset == SUITE_DATASET {
            let program =
                suite::get(&uri.path).map_err(|e| Error::benchmark_init(e.message().to_string()))?;
            Ok(Some(Benchmark::from_contents(&name, program.source)))
        } else if dataset == RANDOM_DATASET {
            let program =
                generator::from_uri(&name).map_err(|e| Error::benchmark_init(e.message().to_string()))?;
            Ok(Some(Benchmark::from_contents(&name, crate::bril::to_text(&program))))
        } else {
            Ok(None)
        }
    }

    fn datasets(&self) -> Vec<Dataset> {
        vec![
            Dataset {
                name: SUITE_DATASET.into(),
                description:
                    "programs written for compgym: sorting, number theory, matrices, strings, floats, memory"
                        .into(),
                benchmarks: DatasetBenchmarks::Listed(suite::all().iter().map(|b| b.uri()).collect()),
            },
            Dataset {
                name: RANDOM_DATASET.into(),
                description: "random well-formed, terminating programs: SEED, optionally ?size=N".into(),
                benchmarks: DatasetBenchmarks::Seeded,
            },
        ]
    }
}

/// What one run of a program gave.
#[derive(Clone, Debug, PartialEq)]
struct RunSummary {
    dyn_inst: u64,
    stdout: String,
    error: Option<Error>,
}

impl RunSummary {
    fn of(program: &Program, args: &[String], limits: &Limits) -> RunSummary {
        let outcome = run(program, args, limits);
        RunSummary { dyn_inst: outcome.dyn_inst, stdout: outcome.stdout, error: outcome.result.err() }
    }

    fn dyn_inst(&self) -> Result<i64> {
        match &self.error {
            None => Ok(self.dyn_inst as i64),
            Some(e) => Err(Error::service(format!("the program does not run: {e}"))),
        }
    }
}

/// A baseline: a fixed pipeline applied to the unoptimised program.
struct Baseline {
    program: Program,
    run: Option<RunSummary>,
}

/// What a session and all its forks share: the unoptimised program, its
/// arguments, and baselines computed at most once.
struct Shared {
    original: Program,
    args: Vec<String>,
    baselines: RefCell<HashMap<&'static str, Baseline>>,
}

pub struct BrilSession {
    /// The current program, shared with forks until one of them changes it
    /// (so a fork copies no program).
    program: Rc<Program>,
    shared: Rc<Shared>,
    limits: Limits,
    /// The run of the current program, until an action changes it.
    run: Option<Rc<RunSummary>>,
    /// Passes known to leave the current program as it is, one bit per
    /// registry index. Passes are deterministic: one that just changed
    /// nothing changes nothing again until another pass changes the program,
    /// so it is not run again. Cleared whenever the program changes.
    no_effect: u64,
}

impl BrilSession {
    pub fn new(program: Program) -> BrilSession {
        let args = program.args.clone().unwrap_or_default();
        let shared = Shared { original: program.clone(), args, baselines: RefCell::default() };
        BrilSession {
            program: Rc::new(program),
            shared: Rc::new(shared),
            limits: default_limits(),
            run: None,
            no_effect: 0,
        }
    }

    /// The current program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    fn current_run(&mut self) -> &RunSummary {
        let (program, args, limits) = (&self.program, &self.shared.args, &self.limits);
        self.run.get_or_insert_with(|| Rc::new(RunSummary::of(program, args, limits)))
    }

    /// Runs `pass` on the current program; true if it changed it. A program
    /// shared with forks is copied first, and the copy kept only if it changed.
    fn run_pass(&mut self, pass: &passes::PassInfo) -> Result<bool> {
        match Rc::get_mut(&mut self.program) {
            Some(program) => (pass.run)(program),
            None => {
                let mut copy = Program::clone(&self.program);
                let changed = (pass.run)(&mut copy)?;
                if changed {
                    self.program = Rc::new(copy);
                }
                Ok(changed)
            }
        }
    }

    /// The static count, or with `dynamic` the dynamic count, of the
    /// original program after `pipeline`; each pipeline runs at most once
    /// per benchmark and is shared with forks.
    fn baseline_count(&self, pipeline: &'static str, dynamic: bool) -> Result<i64> {
        let mut baselines = self
            .shared
            .baselines
            .try_borrow_mut()
            .map_err(|_| Error::service("baselines are being computed already"))?;
        if !baselines.contains_key(pipeline) {
            let mut program = self.shared.original.clone();
            passes::run_pipeline(&mut program, pipeline)?;
            baselines.insert(pipeline, Baseline { program, run: None });
        }
        let baseline = baselines.get_mut(pipeline).ok_or_else(|| Error::service("baseline vanished"))?;
        if !dynamic {
            return Ok(crate::bril::features::ir_instruction_count(&baseline.program));
        }
        let (program, args, limits) = (&baseline.program, &self.shared.args, &self.limits);
        baseline.run.get_or_insert_with(|| RunSummary::of(program, args, limits)).dyn_inst()
    }
}

/// Interpreter limits for observations: generous, but a runaway program is an error, not a hang.
fn default_limits() -> Limits {
    Limits { fuel: 200_000_000, ..Limits::default() }
}

impl CompilationSession for BrilSession {
    fn apply_action(&mut self, action: &Value) -> Result<ActionOutcome> {
        let index = action.as_int().ok_or_else(|| Error::type_error("a Bril action is a pass index"))?;
        let pass = usize::try_from(index).ok().and_then(|i| passes::registry().get(i)).ok_or_else(|| {
            Error::value(format!("no pass {index}: there are {}", passes::registry().len()))
        })?;
        let known = 1u64.checked_shl(index as u32).unwrap_or(0);
        if self.no_effect & known != 0 {
            return Ok(ActionOutcome { action_had_no_effect: true, ..ActionOutcome::default() });
        }
        let changed = match self.run_pass(pass) {
            Ok(changed) => changed,
            Err(e) => {
                // A failing pass may have left part of its work behind.
                self.run = None;
                self.no_effect = 0;
                return Err(e);
            }
        };
        if changed {
            // Even the pass that just ran may change the new program again.
            self.run = None;
            self.no_effect = 0;
        } else {
            self.no_effect |= known;
        }
        Ok(ActionOutcome { action_had_no_effect: !changed, ..ActionOutcome::default() })
    }

    fn get_observation(&mut self, index: usize, space: &ObservationSpace) -> Result<Value> {
        let obs =
            Obs::from_index(index).ok_or_else(|| Error::value(format!("no observation {:?}", space.name)))?;
        if let Some(value) = static_observation(obs, &self.program) {
            return Ok(value);
        }
        if let Some(pipeline) = obs.baseline() {
            return self.baseline_count(pipeline, obs.runs_program()).map(Value::Int);
        }
        let run = self.current_run();
        Ok(match obs {
            Obs::DynamicInstructionCount => Value::Int(run.dyn_inst()?),
            Obs::Output => Value::Str(run.stdout.clone()),
            Obs::IsRunnable => Value::Bool(run.error.is_none()),
            _ => return Err(Error::value(format!("no observation {:?}", space.name))),
        })
    }

    fn fork(&self) -> Result<Box<dyn CompilationSession>> {
        Ok(Box::new(BrilSession {
            program: Rc::clone(&self.program),
            shared: Rc::clone(&self.shared),
            limits: self.limits,
            run: self.run.clone(),
            no_effect: self.no_effect,
        }))
    }

    fn handle_session_parameter(&mut self, key: &str, value: &str) -> Result<Option<String>> {
        Ok(Some(match key {
            "bril.fuel" => {
                self.limits.fuel = value
                    .parse()
                    .map_err(|_| Error::value(format!("bril.fuel must be an integer, got {value:?}")))?;
                self.run = None;
                self.limits.fuel.to_string()
            }
            "bril.args" => {
                let args: Vec<String> = value.split_whitespace().map(String::from).collect();
                let shared =
                    Shared { original: self.shared.original.clone(), args, baselines: RefCell::default() };
                self.shared = Rc::new(shared);
                self.run = None;
                self.shared.args.join(" ")
            }
            "bril.num_passes" => passes::registry().len().to_string(),
            _ => return Ok(None),
        }))
    }

    /// Runs the program and the unoptimised one on the benchmark's arguments
    /// and compares what they print and whether they succeed.
    fn validate(&mut self) -> Result<Option<Vec<String>>> {
        let mut errors = Vec::new();
        if let Err(e) = verify(&self.program) {
            errors.push(format!("the optimised program is not well formed: {e}"));
        }
        let expected = RunSummary::of(&self.shared.original, &self.shared.args, &self.limits);
        let got = self.current_run().clone();
        if got.stdout != expected.stdout {
            errors.push(format!("output differs: expected {:?}, got {:?}", expected.stdout, got.stdout));
        }
        match (&expected.error, &got.error) {
            (None, Some(e)) => errors.push(format!("the optimised program fails: {e}")),
            (Some(e), None) => {
                errors.push(format!("the unoptimised program fails ({e}) but the optimised one does not"))
            }
            _ => {}
        }
        Ok(Some(errors))
    }
}

#[cfg(test)]
mod tests;
