//! Starting agents from plain data — what a JS face, a worker's message or
//! a command line holds: [`AgentRequest`] (an agent's name, the program, the
//! objective, a seed and a budget) becomes a [`SearchRun`];
//! [`LeaderboardRequest`] (tasks, agents and datasets by name and count)
//! becomes [`LeaderboardOptions`]. Every default and every check of those
//! fields lives here, so each face only reads its own kind of values.

use super::baseline::pipeline_actions;
use super::fixed::{best_sequence, MAX_LENGTH};
use super::kinds::{searches, AgentKind, Policies};
use super::leaderboard::{Dataset, LeaderboardOptions, UNSEEN_SEEDS};
use super::policy::Policy;
use super::programs::{bundled, own, OwnProgram, Split};
use super::search::{Budget, SearchOptions, SearchRun};
use super::task::Task;
use crate::bril::generator::v1 as generator;
use crate::compilers::make;
use crate::env::{Clock, CompilerEnv, EnvOptions, ResetOptions};
use crate::error::{Error, Result};
use crate::service::Benchmark;
use std::rc::Rc;

/// Steps per run when none are given: the leaderboard's.
pub const DEFAULT_STEPS: u64 = 5000;
/// Seconds per run when none are given: the leaderboard's.
pub const DEFAULT_SECONDS: f64 = 10.0;
/// The environment agents play when none is named.
pub const DEFAULT_ENV: &str = "bril-v0";
/// The objective when none is named.
pub const DEFAULT_REWARD: &str = "IrInstructionCount";
/// Where a program given as source is added when no URI is given.
pub const SOURCE_URI: &str = "benchmark://user-v0/program";

/// The size of the leaderboard's generated programs: random-v1 programs of
/// about 180 instructions, inside the sizes the policy trains on and near
/// the hand-written programs' (random-v1's default, 100, is about 450).
pub const GENERATED_SIZE: u32 = 40;

/// The most generated programs a leaderboard takes: one per unseen seed
/// (past them a program would be one training may draw).
pub const MAX_GENERATED: usize = (UNSEEN_SEEDS.end - UNSEEN_SEEDS.start) as usize;

/// A limit as a caller gives it: `None` takes the default, `Some(None)` is
/// no limit, `Some(Some(x))` is `x`.
pub type Limit<T> = Option<Option<T>>;

/// The steps and seconds of a budget, defaults filled in and checked: steps
/// at least 1, seconds positive and finite.
pub fn budget(steps: Limit<u64>, seconds: Limit<f64>) -> Result<Budget> {
    let steps = steps.unwrap_or(Some(DEFAULT_STEPS));
    let seconds = seconds.unwrap_or(Some(DEFAULT_SECONDS));
    if steps == Some(0) {
        return Err(Error::value("steps must be at least 1 (or null for no limit)"));
    }
    if let Some(s) = seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(Error::value(format!(
            "seconds must be positive and finite (or null for no limit), got {s}"
        )));
    }
    Ok(Budget { steps, seconds })
}

/// An agent by name: a search; `policy` or `guided` (the given weights for
/// their task, else the bundled ones); `fixed` (the best sequence on the
/// train side of the bundled programs and of `own`, for each of `tasks`).
pub fn agent_kind(
    name: &str,
    policy: Option<Rc<Policy>>,
    tasks: &[Task],
    own_programs: &[OwnProgram],
) -> Result<AgentKind> {
    let policies = || match &policy {
        Some(p) => Policies::with(p.clone()),
        None => Policies::bundled(),
    };
    match name {
        "policy" => return Ok(AgentKind::Policy(policies()?)),
        "guided" => return Ok(AgentKind::Guided(policies()?)),
        _ if policy.is_some() => {
            return Err(Error::value(format!(
                "a policy is given, but the agent is {name:?}, not \"policy\" or \"guided\""
            )))
        }
        "fixed" => {}
        _ => return AgentKind::by_name(name),
    }
    let mut env = make(DEFAULT_ENV, EnvOptions::default())?;
    let mut programs = bundled(Split::Train);
    for p in own(own_programs, Split::Train) {
        p.add_to(&mut env)?;
        programs.push(p.uri);
    }
    let sequences =
        tasks.iter().map(|&t| best_sequence(&env, t, &programs, MAX_LENGTH)).collect::<Result<_>>()?;
    Ok(AgentKind::Fixed(Rc::new(sequences)))
}

/// The observation an agent lowers to earn `reward`: the one cost the
/// reward is computed from (every built-in reward is a cost's decrease,
/// plain, normalised or relative to a baseline, so lowering the cost earns
/// the most reward). A ValueError for a reward that reads no single cost.
pub fn objective_cost(env: &CompilerEnv, reward: &str) -> Result<String> {
    let space = env.reward_view().space(reward)?.space();
    match space.observation_spaces() {
        [cost] => Ok(cost.clone()),
        other => Err(Error::value(format!(
            "reward {reward:?} reads {} observations; an agent lowers one cost (e.g. IrInstructionCount)",
            other.len()
        ))),
    }
}

/// What to run: see the fields.
#[derive(Clone, Default)]
pub struct AgentRequest {
    /// `random`, `greedy`, `beam`, `explore` or `policy`.
    pub agent: String,
    /// The environment id (default [`DEFAULT_ENV`]).
    pub env: Option<String>,
    /// The program's URI; with `source`, the URI it is added under (default [`SOURCE_URI`]).
    pub benchmark: Option<String>,
    /// A program of one's own, as the compiler reads it (Bril text or JSON).
    pub source: Option<String>,
    /// The reward whose cost the agent lowers (default [`DEFAULT_REWARD`]).
    pub reward_space: Option<String>,
    pub seed: u64,
    pub steps: Limit<u64>,
    pub seconds: Limit<f64>,
    /// Searches start from the baseline's passes (`-Oz` for code size,
    /// `-O2` for runtime), as on the leaderboard; the policy never does.
    pub from_baseline: bool,
    /// The policy's weights (default: the bundled ones).
    pub policy: Option<Rc<Policy>>,
    pub clock: Option<Clock>,
}

impl AgentRequest {
    /// The run, on an environment of its own, ready for its first chunk.
    pub fn start(self) -> Result<SearchRun> {
        let budget = budget(self.steps, self.seconds)?;
        let env_options = EnvOptions {
            clock: self.clock,
            reward_space: Some(None),
            observation_space: Some(None),
            ..Default::default()
        };
        let mut env = make(self.env.as_deref().unwrap_or(DEFAULT_ENV), env_options)?;
        let uri = match (self.benchmark, self.source) {
            (uri, Some(source)) => {
                let uri = uri.unwrap_or_else(|| SOURCE_URI.to_string());
                env.add_benchmark(Benchmark::from_contents(&uri, source))?;
                uri
            }
            (Some(uri), None) => uri,
            (None, None) => return Err(Error::value("give the program: a benchmark URI or a source")),
        };
        env.reset(ResetOptions { benchmark: Some(uri), ..Default::default() })?;
        let reward = self.reward_space.as_deref().unwrap_or(DEFAULT_REWARD);
        let cost = objective_cost(&env, reward)?;
        let task = Task::for_cost(&cost);
        let kind = agent_kind(&self.agent, self.policy, &[task.unwrap_or(Task::CodeSize)], &[])?;
        let start = if self.from_baseline && kind.is_search() {
            let task = task.ok_or_else(|| {
                Error::value(format!(
                    "no baseline lowers {cost:?}: fromBaseline needs a code size or runtime reward"
                ))
            })?;
            pipeline_actions(&env, &cost, &task.baseline_pipeline()?)?
        } else {
            Vec::new()
        };
        let options = SearchOptions { cost, budget, start, clock: self.clock };
        SearchRun::new(&env, kind.make(self.seed, task.unwrap_or(Task::CodeSize))?, options)
    }
}

/// A leaderboard by names and counts; `Default` is `compgym leaderboard`'s.
#[derive(Clone)]
pub struct LeaderboardRequest {
    /// `size` and/or `runtime`.
    pub tasks: Vec<String>,
    /// Searches by name, and `policy`.
    pub agents: Vec<String>,
    /// The policy's weights (default: the bundled ones); given, it joins the agents.
    pub policy: Option<Rc<Policy>>,
    /// The first programs of the suite (`None`: all; 0: none).
    pub suite: Option<usize>,
    /// The first programs of `large-v0`, when the compiler has it (`None`: all; 0: none).
    pub large: Option<usize>,
    /// Generated programs, of seeds training never draws (at most
    /// [`MAX_GENERATED`]).
    pub generated: usize,
    /// Their size, 1 to the generator's largest.
    pub size: u32,
    /// Programs of one's own (one dataset per folder they came from).
    pub own: Vec<OwnProgram>,
    /// Only the hand-written programs (suite, large, one's own) on this
    /// side of the train/held-out split, as one dataset, and the same
    /// without the programs that read no input.
    pub split: Option<Split>,
    pub steps: Limit<u64>,
    pub seconds: Limit<f64>,
    pub from_baseline: bool,
    pub seed: u64,
    pub clock: Option<Clock>,
}

impl Default for LeaderboardRequest {
    fn default() -> Self {
        let mut agents: Vec<String> = searches().map(String::from).collect();
        agents.push("policy".into());
        LeaderboardRequest {
            tasks: vec!["size".into(), "runtime".into()],
            agents,
            policy: None,
            suite: None,
            large: None,
            generated: 100,
            size: GENERATED_SIZE,
            own: Vec::new(),
            split: None,
            steps: None,
            seconds: None,
            from_baseline: true,
            seed: 0,
            clock: None,
        }
    }
}

impl LeaderboardRequest {
    /// A leaderboard for tests: 4 suite, 2 large and 4 generated programs, 200 steps each.
    pub fn quick() -> LeaderboardRequest {
        LeaderboardRequest {
            suite: Some(4),
            large: Some(2),
            generated: 4,
            steps: Some(Some(200)),
            seconds: Some(None),
            ..LeaderboardRequest::default()
        }
    }

    pub fn options(self) -> Result<LeaderboardOptions> {
        let tasks = self.tasks.iter().map(|t| Task::by_name(t)).collect::<Result<Vec<_>>>()?;
        if tasks.is_empty() {
            return Err(Error::value("the leaderboard needs at least one task: size or runtime"));
        }
        let mut agents: Vec<AgentKind> = Vec::new();
        for name in &self.agents {
            let policy =
                if matches!(name.as_str(), "policy" | "guided") { self.policy.clone() } else { None };
            agents.push(agent_kind(name, policy, &tasks, &self.own)?);
        }
        if self.policy.is_some() && !self.agents.iter().any(|n| n == "policy" || n == "guided") {
            agents.push(agent_kind("policy", self.policy.clone(), &tasks, &self.own)?);
        }
        if agents.is_empty() {
            return Err(Error::value("the leaderboard needs at least one agent"));
        }
        let mut datasets = Vec::new();
        match self.split {
            Some(side) => datasets.extend(Dataset::hand_written(side, &self.own)?),
            None => {
                if self.suite != Some(0) {
                    datasets.push(Dataset::suite(self.suite));
                }
                if self.large != Some(0) {
                    datasets.extend(Dataset::listed("benchmark://large-v0", self.large)?);
                }
                datasets.extend(Dataset::own(&self.own));
            }
        }
        if self.generated > 0 {
            // Checked before the list of URIs, which this number sizes, is made.
            if self.generated > MAX_GENERATED {
                return Err(Error::value(format!(
                    "generated must be at most {MAX_GENERATED}, got {}",
                    self.generated
                )));
            }
            if !(1..=generator::MAX_SIZE).contains(&self.size) {
                return Err(Error::value(format!(
                    "size must be 1..={} (the generator's), got {}",
                    generator::MAX_SIZE,
                    self.size
                )));
            }
            datasets.push(Dataset::generated(self.generated, self.size));
        }
        Ok(LeaderboardOptions {
            tasks,
            datasets,
            agents,
            own: self.own,
            budget: budget(self.steps, self.seconds)?,
            from_baseline: self.from_baseline,
            seed: self.seed,
            clock: self.clock,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Status;
    use wasm_bindgen_test::wasm_bindgen_test;

    // Where a few hundred steps of any search find something (trapezoid needs
    // inlining and a long clean-up first).
    const HISTOGRAM: &str = "benchmark://suite-v0/histogram";

    fn request(agent: &str) -> AgentRequest {
        AgentRequest {
            agent: agent.into(),
            benchmark: Some(HISTOGRAM.into()),
            steps: Some(Some(300)),
            ..Default::default()
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn budgets_take_defaults_and_refuse_nonsense() {
        assert_eq!(budget(None, None).unwrap(), Budget { steps: Some(5000), seconds: Some(10.0) });
        assert_eq!(budget(Some(None), Some(Some(2.5))).unwrap(), Budget { steps: None, seconds: Some(2.5) });
        for (steps, seconds) in [(Some(Some(0)), None), (None, Some(Some(0.0))), (None, Some(Some(f64::NAN)))]
        {
            assert_eq!(budget(steps, seconds).unwrap_err().name(), "ValueError");
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_request_runs_its_agent_and_reports_progress() {
        let mut run = request("explore").start().unwrap();
        let mut fractions = vec![run.progress().fraction];
        while run.run_chunk(0.0).unwrap().is_running() {
            fractions.push(run.progress().fraction);
        }
        assert!(fractions.windows(2).all(|w| w[0] <= w[1]), "the budget's share only grows");
        let (progress, result) = (run.progress(), run.result().unwrap());
        assert_eq!((progress.fraction, progress.status, progress.steps), (1.0, Status::OutOfBudget, 300));
        assert!(progress.episodes > 1, "explore walks from archived states: {progress:?}");
        assert_eq!(progress.best_actions, result.actions);
        assert!(result.cost < result.initial_cost && result.benchmark == HISTOGRAM);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_program_of_ones_own_is_added_under_its_uri() {
        let source = "@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  d: int = add a b;\n  print c;\n}\n";
        let mut r = AgentRequest { source: Some(source.into()), benchmark: None, ..request("greedy") };
        let mut run = r.clone().start().unwrap();
        run.run(1.0, |_| true).unwrap();
        let result = run.result().unwrap();
        assert_eq!((result.benchmark.as_str(), result.initial_cost), (SOURCE_URI, 5.0));
        assert_eq!(result.cost, 4.0, "the unused sum is dead: {result:?}");
        r.source = Some("@main {".into());
        assert!(r.start().is_err(), "a program that does not parse");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn the_objective_is_the_cost_a_reward_is_computed_from() {
        let env = make("bril-v0", EnvOptions::default()).unwrap();
        for (reward, cost) in [
            ("IrInstructionCount", "IrInstructionCount"),
            ("IrInstructionCountOz", "IrInstructionCount"),
            ("IrInstructionCountNorm", "IrInstructionCount"),
            ("DynamicInstructionCountO2", "DynamicInstructionCount"),
        ] {
            assert_eq!(objective_cost(&env, reward).unwrap(), cost, "{reward}");
        }
        assert_eq!(objective_cost(&env, "Nope").unwrap_err().name(), "LookupError");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn bad_requests_are_typed_errors() {
        let name = |r: AgentRequest| r.start().err().map(|e| e.name());
        assert_eq!(name(request("oracle")), Some("LookupError"));
        assert_eq!(name(AgentRequest { benchmark: None, ..request("greedy") }), Some("ValueError"));
        let policy = Some(Rc::new(Policy::pretrained().unwrap()));
        assert_eq!(name(AgentRequest { policy: policy.clone(), ..request("greedy") }), Some("ValueError"));
        assert_eq!(name(AgentRequest { steps: Some(Some(0)), ..request("greedy") }), Some("ValueError"));
        assert_eq!(
            name(AgentRequest { reward_space: Some("Nope".into()), ..request("greedy") }),
            Some("LookupError")
        );
        assert!(AgentRequest { policy, ..request("policy") }.start().is_ok());
        let missing =
            AgentRequest { benchmark: Some("benchmark://suite-v0/nope".into()), ..request("greedy") };
        assert!(missing.start().is_err());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn from_the_baseline_a_search_is_never_worse_than_it() {
        let env = {
            let mut env = make("bril-v0", EnvOptions::default()).unwrap();
            env.reset(ResetOptions { benchmark: Some(HISTOGRAM.into()), ..Default::default() }).unwrap();
            env
        };
        let oz = env.observation().get("IrInstructionCountOz").unwrap().as_f64().unwrap();
        let mut run =
            AgentRequest { from_baseline: true, steps: Some(Some(40)), ..request("random") }.start().unwrap();
        run.run(1.0, |_| true).unwrap();
        assert!(run.result().unwrap().cost <= oz);
        let runtime = AgentRequest {
            from_baseline: true,
            reward_space: Some("DynamicInstructionCountO2".into()),
            ..request("greedy")
        };
        assert!(runtime.start().is_ok());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn leaderboard_requests_name_their_parts() {
        let options = LeaderboardRequest { agents: vec!["greedy".into()], ..LeaderboardRequest::quick() }
            .options()
            .unwrap();
        assert_eq!(options.budget, Budget::steps(200));
        assert_eq!(options.agents.len(), 1);
        let sizes: Vec<usize> = options.datasets.iter().map(|d| d.benchmarks.len()).collect();
        assert_eq!(sizes, [4, 2, 4]);
        let bad = |r: LeaderboardRequest| r.options().err().map(|e| e.name());
        let quick = LeaderboardRequest::quick;
        assert_eq!(bad(LeaderboardRequest { agents: vec!["oracle".into()], ..quick() }), Some("LookupError"));
        assert_eq!(bad(LeaderboardRequest { tasks: vec!["speed".into()], ..quick() }), Some("LookupError"));
        assert_eq!(bad(LeaderboardRequest { agents: vec![], ..quick() }), Some("ValueError"));
        assert_eq!(bad(LeaderboardRequest { tasks: vec![], ..quick() }), Some("ValueError"));
        let with_policy = LeaderboardRequest {
            agents: vec![],
            policy: Some(Rc::new(Policy::pretrained().unwrap())),
            ..quick()
        };
        assert_eq!(with_policy.options().unwrap().agents[0].name(), "policy");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn generated_programs_are_bounded_before_any_is_listed() {
        let bad = |r: LeaderboardRequest| r.options().err().map(|e| (e.name(), e.message().to_string()));
        let quick = LeaderboardRequest::quick;
        let too_many = bad(LeaderboardRequest { generated: usize::MAX, ..quick() }).unwrap();
        assert_eq!(too_many.0, "ValueError");
        assert!(too_many.1.contains("at most 1000000"), "{}", too_many.1);
        for size in [0, generator::MAX_SIZE + 1, u32::MAX] {
            assert_eq!(
                bad(LeaderboardRequest { size, ..quick() }).map(|e| e.0),
                Some("ValueError"),
                "{size}"
            );
        }
        let largest = LeaderboardRequest { generated: 1, size: generator::MAX_SIZE, ..quick() };
        assert!(largest.options().unwrap().datasets.last().unwrap().benchmarks[0].ends_with("?size=20000"));
        // Without generated programs their size is never read.
        assert!(LeaderboardRequest { generated: 0, size: 0, ..quick() }.options().is_ok());
    }
}
