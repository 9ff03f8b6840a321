//! The leaderboard, whole or one cell at a time, for `compgym.leaderboard`
//! and `compgym.ray`. A request is the JSON of `LeaderboardRequest`'s plain
//! fields; results are the JSON of `agents::leaderboard::to_json`. A cell is
//! one agent on one program of one task's dataset: the core's `Leaderboard`
//! run over that one program, with the row's agent, task and seed, so a cell
//! run anywhere gives the entry the whole run gives (the walltime apart).
//! The table is assembled by the core from the cells' entries.
//!
//! Every call releases the GIL: the core's work makes its own environments
//! and returns plain strings.

use crate::errors::IntoPy;
use compgym::agents::leaderboard::{table, to_json, Dataset, Entry, Leaderboard, LeaderboardOptions, Row};
use compgym::agents::policy::Policy;
use compgym::agents::programs::{OwnProgram, Split};
use compgym::agents::request::{LeaderboardRequest, Limit};
use compgym::Error;
use pyo3::prelude::*;
use serde_json::{json, Map, Value};
use std::rc::Rc;

const KEYS: &[&str] = &[
    "tasks",
    "agents",
    "suite",
    "large",
    "generated",
    "size",
    "programs",
    "split",
    "policy",
    "steps",
    "seconds",
    "from_baseline",
    "seed",
];

fn value_error(message: String) -> Error {
    Error::value(message)
}

fn strings(o: &Map<String, Value>, key: &str) -> compgym::Result<Option<Vec<String>>> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(String::from)
                    .ok_or_else(|| value_error(format!("{key} must be a list of str")))
            })
            .collect::<compgym::Result<Vec<_>>>()
            .map(Some),
        Some(_) => Err(value_error(format!("{key} must be a list of str"))),
    }
}

fn count(o: &Map<String, Value>, key: &str) -> compgym::Result<Option<u64>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            v.as_u64().map(Some).ok_or_else(|| value_error(format!("{key} must be an int >= 0 or None")))
        }
    }
}

/// `None`: the default; `Some(None)`: no limit (JSON null).
fn limit<T>(
    o: &Map<String, Value>,
    key: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> compgym::Result<Limit<T>> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(v) => read(v)
            .map(|x| Some(Some(x)))
            .ok_or_else(|| value_error(format!("{key} must be a number or None"))),
    }
}

/// Programs of one's own as `compgym.leaderboard` read them: each its
/// folder's name (the dataset), its path there and its text; the core names
/// them as the command line's `--programs` does.
fn own_programs(o: &Map<String, Value>) -> compgym::Result<Vec<OwnProgram>> {
    let Some(items) = o.get("programs") else { return Ok(Vec::new()) };
    let bad = || value_error("programs must be a list of {\"dataset\", \"path\", \"source\"} dicts".into());
    let items = items.as_array().ok_or_else(bad)?;
    items
        .iter()
        .map(|p| {
            let field = |k: &str| p.get(k).and_then(Value::as_str).ok_or_else(bad);
            Ok(OwnProgram::from_file(field("dataset")?, field("path")?, field("source")?.to_string()))
        })
        .collect()
}

/// A string field, if given.
fn text<'a>(o: &'a Map<String, Value>, key: &str) -> compgym::Result<Option<&'a str>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or_else(|| value_error(format!("{key} must be a str"))),
    }
}

/// The request's options: the core reads and checks every field.
fn options(request: &str) -> compgym::Result<LeaderboardOptions> {
    let value: Value = serde_json::from_str(request).map_err(|e| value_error(format!("request: {e}")))?;
    let Value::Object(o) = value else { return Err(value_error("the request must be a dict".into())) };
    if let Some(key) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(value_error(format!("unknown leaderboard option {key:?} (known: {})", KEYS.join(", "))));
    }
    let mut r = LeaderboardRequest::default();
    if let Some(tasks) = strings(&o, "tasks")? {
        r.tasks = tasks;
    }
    if let Some(agents) = strings(&o, "agents")? {
        r.agents = agents;
    }
    if o.contains_key("suite") {
        r.suite = count(&o, "suite")?.map(|n| n as usize);
    }
    if o.contains_key("large") {
        r.large = count(&o, "large")?.map(|n| n as usize);
    }
    if let Some(n) = count(&o, "generated")? {
        // The core bounds it; past usize it is past that bound too.
        r.generated = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = count(&o, "size")? {
        r.size = u32::try_from(n).map_err(|_| value_error("size is too large".into()))?;
    }
    r.steps = limit(&o, "steps", Value::as_u64)?;
    r.seconds = limit(&o, "seconds", Value::as_f64)?;
    if let Some(b) = o.get("from_baseline") {
        r.from_baseline = b.as_bool().ok_or_else(|| value_error("from_baseline must be a bool".into()))?;
    }
    if let Some(seed) = count(&o, "seed")? {
        r.seed = seed;
    }
    r.own = own_programs(&o)?;
    if let Some(side) = text(&o, "split")? {
        r.split = Some(Split::by_name(side)?);
    }
    if let Some(weights) = text(&o, "policy")? {
        r.policy = Some(Rc::new(Policy::from_json(weights)?));
    }
    r.options()
}

/// The rows in order (task, dataset, agent nested as the core's plan), each
/// with its programs.
fn plan(o: &LeaderboardOptions) -> Vec<(usize, usize, usize)> {
    let mut rows = Vec::new();
    for t in 0..o.tasks.len() {
        for d in 0..o.datasets.len() {
            for a in 0..o.agents.len() {
                rows.push((t, d, a));
            }
        }
    }
    rows
}

fn entry_json(e: &Entry) -> Value {
    json!({
        "benchmark": e.benchmark, "initial": e.initial, "baseline": e.baseline, "cost": e.cost,
        "commandline": e.commandline, "steps": e.steps, "walltime": e.walltime, "invalid": e.invalid,
    })
}

fn entry_from(v: &Value) -> compgym::Result<Entry> {
    let bad = || value_error(format!("not a leaderboard entry: {v}"));
    let f = |k: &str| v.get(k).and_then(Value::as_f64).ok_or_else(bad);
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(String::from).ok_or_else(bad);
    Ok(Entry {
        benchmark: s("benchmark")?,
        initial: f("initial")?,
        baseline: f("baseline")?,
        cost: f("cost")?,
        commandline: s("commandline")?,
        steps: v.get("steps").and_then(Value::as_u64).ok_or_else(bad)?,
        walltime: f("walltime")?,
        invalid: match v.get("invalid") {
            None | Some(Value::Null) => None,
            Some(x) => Some(x.as_str().ok_or_else(bad)?.to_string()),
        },
    })
}

fn plan_json(request: &str) -> compgym::Result<String> {
    let o = options(request)?;
    let rows: Vec<Value> = plan(&o)
        .into_iter()
        .map(|(t, d, a)| {
            json!({
                "task": o.tasks[t].name(), "dataset": o.datasets[d].name, "agent": o.agents[a].name(),
                "benchmarks": o.datasets[d].benchmarks,
            })
        })
        .collect();
    Ok(Value::Array(rows).to_string())
}

fn cell_json(request: &str, row: usize, program: usize) -> compgym::Result<String> {
    let o = options(request)?;
    let &(t, d, a) =
        plan(&o).get(row).ok_or_else(|| Error::lookup(format!("the leaderboard has no row {row}")))?;
    let dataset = &o.datasets[d];
    let uri = dataset
        .benchmarks
        .get(program)
        .ok_or_else(|| Error::lookup(format!("row {row} ({}) has no program {program}", dataset.name)))?;
    let one = LeaderboardOptions {
        tasks: vec![o.tasks[t]],
        datasets: vec![Dataset { name: dataset.name.clone(), benchmarks: vec![uri.clone()] }],
        agents: vec![o.agents[a].clone()],
        ..o.clone()
    };
    let mut board = Leaderboard::new(one);
    board.run(|_, _| {})?;
    let entry = board
        .rows()
        .first()
        .and_then(|r| r.entries.first())
        .ok_or_else(|| Error::service("the cell ran no program"))?;
    Ok(entry_json(entry).to_string())
}

fn assemble(request: &str, entries: &str) -> compgym::Result<(String, String)> {
    let o = options(request)?;
    let entries: Value = serde_json::from_str(entries).map_err(|e| value_error(format!("entries: {e}")))?;
    let per_row = entries.as_array().ok_or_else(|| value_error("entries must be a list per row".into()))?;
    let plan = plan(&o);
    if per_row.len() != plan.len() {
        return Err(value_error(format!(
            "{} rows of entries for a leaderboard of {}",
            per_row.len(),
            plan.len()
        )));
    }
    let mut rows = Vec::new();
    for (&(t, d, a), list) in plan.iter().zip(per_row) {
        let list = list.as_array().ok_or_else(|| value_error("each row's entries must be a list".into()))?;
        let entries = list.iter().map(entry_from).collect::<compgym::Result<Vec<_>>>()?;
        if entries.iter().map(|e| &e.benchmark).ne(o.datasets[d].benchmarks.iter()) {
            return Err(value_error(format!("row {} has not one entry per program, in order", rows.len())));
        }
        rows.push(Row {
            task: o.tasks[t],
            dataset: o.datasets[d].name.clone(),
            agent: o.agents[a].name().to_string(),
            entries,
        });
    }
    Ok((to_json(&rows).to_string(), table(&rows)))
}

fn whole(request: &str) -> compgym::Result<(String, String)> {
    let mut board = Leaderboard::new(options(request)?);
    board.run(|_, _| {})?;
    Ok((to_json(board.rows()).to_string(), table(board.rows())))
}

/// The leaderboard's rows, as JSON: task, dataset, agent and benchmarks of each.
#[pyfunction]
pub fn leaderboard_plan(py: Python<'_>, request: &str) -> PyResult<String> {
    py.allow_threads(|| plan_json(request)).py()
}

/// One cell: the entry (JSON) of row `row`'s agent on its program `program`.
#[pyfunction]
pub fn leaderboard_cell(py: Python<'_>, request: &str, row: usize, program: usize) -> PyResult<String> {
    py.allow_threads(|| cell_json(request, row, program)).py()
}

/// The rows (JSON) and the table of the cells' entries, a list per row.
#[pyfunction]
pub fn leaderboard_assemble(py: Python<'_>, request: &str, entries: &str) -> PyResult<(String, String)> {
    py.allow_threads(|| assemble(request, entries)).py()
}

/// The whole leaderboard in this process: its rows (JSON) and table.
#[pyfunction]
pub fn leaderboard(py: Python<'_>, request: &str) -> PyResult<(String, String)> {
    py.allow_threads(|| whole(request)).py()
}
