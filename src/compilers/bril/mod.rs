//! The Bril compiler as a compilation session: the one place where the
//! compiler meets the service protocol. Actions are the passes of
//! [`passes::registry`]; observations are listed in [`observations`].

pub mod envs;
pub mod observations;
mod parsed;
mod recent;
mod shared_tables;
mod states;

use crate::bril::compile::run_program;
use crate::bril::interp::Limits;
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
use states::{Knowledge, ProgramState, StateTable, STATES_PER_BENCHMARK};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub const SUITE_DATASET: &str = "benchmark://suite-v0";
pub const LARGE_DATASET: &str = "benchmark://large-v0";
pub const RANDOM_DATASET: &str = "generator://random-v0";
/// Generated programs shaped like hand-written ones ([`generator::v1`]).
pub const RANDOM_V1_DATASET: &str = "generator://random-v1";

/// The name of the action space: one flag per pass.
pub const ACTION_SPACE: &str = "passes";

/// The compiler backend. It keeps what it learnt about recent benchmarks
/// (the parsed program, baselines, the states passes led to) so a reset
/// parses nothing and later episodes reuse earlier ones' work; environments
/// on the same benchmark share that work ([`shared_tables`]). Each
/// environment has its own backend (forks share it) and so its own
/// [`Knowledge`]: what its action mask knows depends on its own steps
/// alone, so seeded runs replay whatever other environments did.
#[derive(Default)]
pub struct BrilBackend {
    recent: Rc<RefCell<recent::Recent<Remembered>>>,
}

/// A benchmark seen recently: its contents, to notice a replaced benchmark.
struct Remembered {
    contents: Rc<[u8]>,
    shared: Rc<Shared>,
    knowledge: Rc<Knowledge>,
}

/// How many benchmarks reset more than once the backend remembers (those
/// reset once are fewer, [`recent`]).
pub const RECENT_BENCHMARKS: usize = recent::KEPT;

impl BrilBackend {
    pub fn new() -> BrilBackend {
        BrilBackend::default()
    }

    /// What every session on `benchmark` shares, parsed at most once while
    /// recent, and what this environment's sessions found on it.
    fn shared(&self, benchmark: &Benchmark) -> Result<(Rc<Shared>, Rc<Knowledge>)> {
        if let Some(known) = self.recent.borrow_mut().get(&benchmark.uri) {
            if *known.contents == *benchmark.contents() {
                return Ok((known.shared.clone(), known.knowledge.clone()));
            }
        }
        let contents: Rc<[u8]> = benchmark.contents().into();
        let shared = shared_tables::shared_for(&contents, || Ok(Shared::new(parse_benchmark(benchmark)?)))?;
        let knowledge = Rc::new(Knowledge::default());
        let entry = Remembered { contents, shared: shared.clone(), knowledge: knowledge.clone() };
        self.recent.borrow_mut().insert(&benchmark.uri, entry);
        Ok((shared, knowledge))
    }
}

/// The pass flags as a Commandline space, in registry order.
pub fn action_space() -> Result<Space> {
    let flags =
        passes::registry().iter().map(|p| CommandlineFlag::new(p.flag, p.flag, p.description)).collect();
    Ok(Commandline::new(ACTION_SPACE, flags)?.into())
}

/// The program of `benchmark`, parsed and verified (once per thread for the
/// same contents, see [`parsed`]).
fn parse_benchmark(benchmark: &Benchmark) -> Result<Program> {
    parsed::parsed(benchmark.contents(), || parse_contents(benchmark))
}

fn parse_contents(benchmark: &Benchmark) -> Result<Program> {
    let text = std::str::from_utf8(benchmark.contents())
        .map_err(|_| Error::benchmark_init(format!("{}: the program is not UTF-8 text", benchmark.uri)))?;
    let program = parse_any(text).and_then(|p| verify(&p).map(|()| p));
    let program = program
        .map_err(|e| Error::benchmark_init(format!("{}: {}: {}", benchmark.uri, e.name(), e.message())))?;
    // Nothing to optimise. (A program without @main is kept: its size can be
    // optimised, and validating it says it cannot run.)
    if program.functions.is_empty() {
        return Err(Error::benchmark_init(format!(
            "{}: the program is empty: it has no functions",
            benchmark.uri
        )));
    }
    Ok(program)
}

impl CompilerBackend for BrilBackend {
    fn forget_recent(&mut self) {
        self.recent.borrow_mut().clear();
    }

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
        let (shared, knowledge) = self.shared(benchmark)?;
        Ok(Box::new(BrilSession::on(shared, knowledge)))
    }

    fn resolve_benchmark(&self, uri: &BenchmarkUri) -> Result<Option<Benchmark>> {
        let name = uri.to_string();
        let dataset = uri.dataset_uri();
        if dataset == SUITE_DATASET {
            let program =
                suite::get(&uri.path).map_err(|e| Error::benchmark_init(e.message().to_string()))?;
            Ok(Some(Benchmark::from_contents(&name, program.source)))
        } else if dataset == LARGE_DATASET {
            let program =
                suite::large::get(&uri.path).map_err(|e| Error::benchmark_init(e.message().to_string()))?;
            Ok(Some(Benchmark::from_contents(&name, program.source)))
        } else if dataset == RANDOM_DATASET || dataset == RANDOM_V1_DATASET {
            let program =
                generator::from_uri(&name).map_err(|e| Error::benchmark_init(e.message().to_string()))?;
            Ok(Some(Benchmark::from_contents(&name, crate::bril::to_text(&program))))
        } else {
            Ok(None)
        }
    }

    fn check_benchmark(&self, benchmark: &Benchmark) -> Result<()> {
        parse_benchmark(benchmark).map(drop)
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
                name: LARGE_DATASET.into(),
                description: "larger programs written for compgym (300+ instructions, several functions): graphs, matrices, numerics, interpreters, simulations"
                    .into(),
                benchmarks: DatasetBenchmarks::Listed(suite::large::uris().collect()),
            },
            Dataset {
                name: RANDOM_DATASET.into(),
                description: "random well-formed, terminating programs: SEED, optionally ?size=N".into(),
                benchmarks: DatasetBenchmarks::Seeded,
            },
            Dataset {
                name: RANDOM_V1_DATASET.into(),
                description: "random programs shaped like hand-written ones (loops over arrays bounded by # ARGS, calls, recursion, checksums printed): SEED, optionally ?size=N"
                    .into(),
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
        // Long runs compiled where the host gives an engine; the same outcome.
        let outcome = run_program(program, args, limits);
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

/// What a session and all its forks share: the unoptimised program (the
/// root of the states passes lead to), its arguments, and baselines
/// computed at most once.
struct Shared {
    root: Rc<ProgramState>,
    args: Vec<String>,
    /// Whether `args` are the benchmark's own (runs are then remembered per state).
    own_args: bool,
    /// The states passes led to from `root`, by content.
    states: Rc<StateTable>,
    baselines: RefCell<HashMap<&'static str, Baseline>>,
}

impl Shared {
    fn new(program: Program) -> Shared {
        let args = program.args.clone().unwrap_or_default();
        let (states, root) = StateTable::new(program, STATES_PER_BENCHMARK);
        Shared { root, args, own_args: true, states: Rc::new(states), baselines: RefCell::default() }
    }

    /// The same states with other arguments (and so baselines of their own).
    fn with_args(&self, args: Vec<String>) -> Shared {
        Shared {
            root: self.root.clone(),
            args,
            own_args: false,
            states: self.states.clone(),
            baselines: RefCell::default(),
        }
    }

    fn original(&self) -> &Program {
        self.root.program()
    }
}

pub struct BrilSession {
    /// The current program and what is known of it, shared with forks and
    /// with every session that reached the same state.
    state: Rc<ProgramState>,
    shared: Rc<Shared>,
    /// What this environment's sessions found passes to leave unchanged
    /// (for the action mask), on `shared`'s states.
    knowledge: Rc<Knowledge>,
    limits: Limits,
    /// The run of the current program when it cannot be the state's own
    /// (other arguments or limits), until an action changes the program.
    own_run: Option<Rc<RunSummary>>,
}

impl BrilSession {
    pub fn new(program: Program) -> BrilSession {
        BrilSession::on(Rc::new(Shared::new(program)), Rc::default())
    }

    fn on(shared: Rc<Shared>, knowledge: Rc<Knowledge>) -> BrilSession {
        BrilSession { state: shared.root.clone(), shared, knowledge, limits: default_limits(), own_run: None }
    }

    /// The current program.
    pub fn program(&self) -> &Program {
        self.state.program()
    }

    fn current_run(&mut self) -> Rc<RunSummary> {
        let (args, limits) = (&self.shared.args, &self.limits);
        if self.shared.own_args && *limits == default_limits() {
            return self.state.run(|program| RunSummary::of(program, args, limits));
        }
        let state = &self.state;
        self.own_run.get_or_insert_with(|| Rc::new(RunSummary::of(state.program(), args, limits))).clone()
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
            let mut program = self.shared.original().clone();
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
        let (index, pass) =
            usize::try_from(index).ok().and_then(|i| passes::registry().get(i).map(|p| (i, p))).ok_or_else(
                || Error::value(format!("no pass {index}: there are {}", passes::registry().len())),
            )?;
        let changed =
            ProgramState::apply(&mut self.state, index, pass, &self.shared.states, &self.knowledge)?;
        if changed {
            self.own_run = None;
        }
        Ok(ActionOutcome { action_had_no_effect: !changed, ..ActionOutcome::default() })
    }

    fn get_observation(&mut self, index: usize, space: &ObservationSpace) -> Result<Value> {
        let obs =
            Obs::from_index(index).ok_or_else(|| Error::value(format!("no observation {:?}", space.name)))?;
        let value = match obs.is_feature_vector() {
            true => self.state.features(obs, |program| static_observation(obs, program)),
            false => static_observation(obs, self.state.program()),
        };
        if let Some(value) = value {
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
            // Answered above, from the program or a baseline.
            Obs::Ir
            | Obs::BrilJson
            | Obs::IrSha1
            | Obs::InstCount
            | Obs::Autophase
            | Obs::Programl
            | Obs::ProgramlJson
            | Obs::Cfg
            | Obs::CfgDot
            | Obs::IrInstructionCount
            | Obs::IrInstructionCountO0
            | Obs::IrInstructionCountO1
            | Obs::IrInstructionCountO2
            | Obs::IrInstructionCountOz
            | Obs::DynamicInstructionCountO0
            | Obs::DynamicInstructionCountO1
            | Obs::DynamicInstructionCountO2
            | Obs::DynamicInstructionCountOz
            | Obs::Structure
            | Obs::Features => return Err(Error::value(format!("no observation {:?}", space.name))),
        })
    }

    /// What this environment knows: passes one of its sessions found to
    /// leave this very program unchanged (not what other environments
    /// sharing the states found).
    fn known_no_effect(&self, no_effect: &mut [bool]) {
        self.state.mark_unchanged(&self.knowledge, no_effect);
    }

    fn fork(&self) -> Result<Box<dyn CompilationSession>> {
        Ok(Box::new(BrilSession {
            state: self.state.clone(),
            shared: self.shared.clone(),
            knowledge: self.knowledge.clone(),
            limits: self.limits,
            own_run: self.own_run.clone(),
        }))
    }

    fn handle_session_parameter(&mut self, key: &str, value: &str) -> Result<Option<String>> {
        Ok(Some(match key {
            "bril.fuel" => {
                self.limits.fuel = value
                    .parse()
                    .map_err(|_| Error::value(format!("bril.fuel must be an integer, got {value:?}")))?;
                self.own_run = None;
                self.limits.fuel.to_string()
            }
            "bril.args" => {
                let args: Vec<String> = value.split_whitespace().map(String::from).collect();
                self.shared = Rc::new(self.shared.with_args(args));
                self.own_run = None;
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
        if let Err(e) = verify(self.state.program()) {
            errors.push(format!("the optimised program is not well formed: {e}"));
        }
        if self.shared.original().main().is_none() {
            // brili runs such a program as doing nothing: an empty output proves nothing.
            errors.push(
                "the program has no @main function: nothing runs, so its output cannot be checked".into(),
            );
            return Ok(Some(errors));
        }
        let expected = RunSummary::of(self.shared.original(), &self.shared.args, &self.limits);
        if let Some(e) = &expected.error {
            // Nothing to compare against: a program that fails, runs out of
            // fuel or lacks its arguments cannot show that its output is kept.
            errors.push(format!(
                "the unoptimised program does not run to the end, so its output cannot be checked: {e}"
            ));
            return Ok(Some(errors));
        }
        let got = self.current_run();
        if got.stdout != expected.stdout {
            errors.push(format!("output differs: expected {:?}, got {:?}", expected.stdout, got.stdout));
        }
        if let Some(e) = &got.error {
            errors.push(format!("the optimised program fails: {e}"));
        }
        Ok(Some(errors))
    }
}

#[cfg(test)]
mod tests;
