//! A toy compiler served through the same traits as a real one: its
//! programs are lists of integers, its actions reorder them, its cost is
//! the number of inversions. It exists to show (and test) that the service,
//! the views, the rewards and `CompilerEnv` know nothing of any particular
//! compiler.
//!
//! * Programs: whitespace-separated integers. Benchmarks `benchmark://toy-v0/{a,b,sorted}`
//!   and `generator://toy-random-v0/SEED` (six integers drawn from SEED).
//! * Action spaces: 0 `toy-flags` (Commandline `-bubble -reverse -rotate -end`),
//!   1 `toy-moves` (NamedDiscrete of the same four). `bubble` is one
//!   bubble-sort pass (no effect on a sorted list), `end` ends the session.
//!   A list of fewer than two integers cannot be reordered: its session
//!   starts with the same kind of space holding `end` alone (`toy-flags-end`,
//!   `toy-moves-end`), sent as StartSession's `new_action_space`.
//! * Observations: see [`obs`].
//! * Session parameters: `toy.fail` = `action` or `observation` makes the
//!   next one fail; `toy.corrupt` changes the program's meaning (an element);
//!   `toy.len` replies with the list's length, `toy.computed` with how many
//!   observations the session has computed.
//! * Validation: the list must still hold the same multiset of integers.

use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::service::{
    ActionOutcome, ActionSpace, Benchmark, BenchmarkUri, CompilationSession, CompilerBackend, Dataset,
    DatasetBenchmarks, ObservationSpace,
};
use crate::spaces::{Commandline, CommandlineFlag, NamedDiscrete, Scalar, Sequence, SequenceDType, Space};
use crate::value::{Array, ArrayData, DType, Value};

/// Observation space indices.
pub mod obs {
    /// Inversions now (int64): the cost.
    pub const INVERSIONS: usize = 0;
    /// Inversions of the unoptimised program.
    pub const INVERSIONS_O0: usize = 1;
    /// Inversions after the baseline pipeline (one bubble pass).
    pub const INVERSIONS_O1: usize = 2;
    /// The list, an int64 array.
    pub const LIST: usize = 3;
    /// The list as text.
    pub const TEXT: usize = 4;
}

const MOVES: [(&str, &str); 4] = [
    ("bubble", "one bubble-sort pass"),
    ("reverse", "reverse the list"),
    ("rotate", "rotate left by one"),
    ("end", "end the session"),
];

pub const DATASET: &str = "benchmark://toy-v0";
pub const RANDOM_DATASET: &str = "generator://toy-random-v0";
const PROGRAMS: [(&str, &str); 3] = [("a", "3 1 2"), ("b", "5 4 3 2 1"), ("sorted", "1 2 3")];

pub struct ToyBackend;

/// The MOVES a list of `len` integers can use: all, or `end` alone.
fn moves_for(len: usize) -> &'static [usize] {
    if len < 2 {
        &[3]
    } else {
        &[0, 1, 2, 3]
    }
}

/// Action space `kind` (0 flags, 1 names) over `moves` (indices into MOVES).
fn action_space(kind: usize, moves: &[usize]) -> ActionSpace {
    let suffix = if moves.len() < MOVES.len() { "-end" } else { "" };
    let chosen = moves.iter().map(|&m| MOVES[m]);
    let space = if kind == 0 {
        let flags = chosen.map(|(m, d)| CommandlineFlag::new(m, &format!("-{m}"), d)).collect();
        Commandline::new(&format!("toy-flags{suffix}"), flags).map(Space::from)
    } else {
        NamedDiscrete::new(&format!("toy-moves{suffix}"), chosen.map(|(m, _)| m.to_string()).collect())
            .map(Space::from)
    };
    ActionSpace::new(space.unwrap_or_else(|_| unreachable!()))
}

/// The number of pairs out of order, by merge sort: programs are input, so
/// this stays O(n log n).
fn inversions(list: &[i64]) -> i64 {
    fn sort_count(v: &mut [i64], buf: &mut Vec<i64>) -> i64 {
        if v.len() < 2 {
            return 0;
        }
        let mid = v.len() / 2;
        let mut n = sort_count(&mut v[..mid], buf) + sort_count(&mut v[mid..], buf);
        buf.clear();
        let (mut i, mut j) = (0, mid);
        while i < mid && j < v.len() {
            if v[j] < v[i] {
                n += (mid - i) as i64;
                buf.push(v[j]);
                j += 1;
            } else {
                buf.push(v[i]);
                i += 1;
            }
        }
        buf.extend_from_slice(&v[i..mid]);
        buf.extend_from_slice(&v[j..]);
        v.copy_from_slice(buf);
        n
    }
    sort_count(&mut list.to_vec(), &mut Vec::with_capacity(list.len()))
}

/// One bubble pass; whether anything moved.
fn bubble(list: &mut [i64]) -> bool {
    let mut moved = false;
    for i in 1..list.len() {
        if list[i - 1] > list[i] {
            list.swap(i - 1, i);
            moved = true;
        }
    }
    moved
}

fn parse_program(b: &Benchmark) -> Result<Vec<i64>> {
    let text = std::str::from_utf8(b.contents())
        .map_err(|_| Error::benchmark_init(format!("{}: program is not UTF-8", b.uri)))?;
    text.split_whitespace()
        .map(|w| {
            w.parse::<i64>().map_err(|_| Error::benchmark_init(format!("{}: {w:?} is not an integer", b.uri)))
        })
        .collect()
}

fn cost_space(name: &str) -> ObservationSpace {
    ObservationSpace::new(
        Scalar::new(name, Some(0.0), None, DType::I64).unwrap_or_else(|_| unreachable!()).into(),
    )
    .with_default(Value::Int(0))
}

impl CompilerBackend for ToyBackend {
    fn compiler_version(&self) -> String {
        "toy 1.0".into()
    }

    fn action_spaces(&self) -> Vec<ActionSpace> {
        vec![action_space(0, moves_for(usize::MAX)), action_space(1, moves_for(usize::MAX))]
    }

    fn observation_spaces(&self) -> Vec<ObservationSpace> {
        let seq = |name, dtype| Sequence::new(name, (0, None), dtype, None, None).map(Space::from);
        vec![
            cost_space("Inversions"),
            cost_space("InversionsO0"),
            cost_space("InversionsO1"),
            ObservationSpace::new(
                seq("List", SequenceDType::Array(DType::I64)).unwrap_or_else(|_| unreachable!()),
            ),
            ObservationSpace::new(seq("Text", SequenceDType::Str).unwrap_or_else(|_| unreachable!()))
                .with_default(Value::Str(String::new())),
        ]
    }

    fn start_session(
        &self,
        benchmark: &Benchmark,
        action_space: usize,
    ) -> Result<Box<dyn CompilationSession>> {
        let list = parse_program(benchmark)?;
        let moves = moves_for(list.len());
        Ok(Box::new(ToySession {
            original: list.clone(),
            list,
            fail: None,
            action_space,
            moves,
            computed: 0,
        }))
    }

    fn resolve_benchmark(&self, uri: &BenchmarkUri) -> Result<Option<Benchmark>> {
        let name = uri.to_string();
        if uri.dataset_uri() == DATASET {
            Ok(PROGRAMS
                .iter()
                .find(|(p, _)| *p == uri.path)
                .map(|(_, text)| Benchmark::from_contents(&name, *text)))
        } else if uri.dataset_uri() == RANDOM_DATASET {
            let seed: u64 = uri.path.parse().map_err(|_| {
                Error::benchmark_init(format!("{name}: the path must be a seed, not {:?}", uri.path))
            })?;
            let mut rng = Rng::seed_from_u64(seed);
            let text: Vec<String> = (0..6).map(|_| rng.int_inclusive(-9, 9).to_string()).collect();
            Ok(Some(Benchmark::from_contents(&name, text.join(" "))))
        } else {
            Ok(None)
        }
    }

    fn datasets(&self) -> Vec<Dataset> {
        vec![
            Dataset {
                name: DATASET.into(),
                description: "three fixed lists".into(),
                benchmarks: DatasetBenchmarks::Listed(
                    PROGRAMS.iter().map(|(p, _)| format!("{DATASET}/{p}")).collect(),
                ),
            },
            Dataset {
                name: RANDOM_DATASET.into(),
                description: "six random integers per seed".into(),
                benchmarks: DatasetBenchmarks::Seeded,
            },
        ]
    }
}

#[derive(Clone)]
struct ToySession {
    original: Vec<i64>,
    list: Vec<i64>,
    /// `"action"` or `"observation"`: fail the next one (for tests).
    fail: Option<String>,
    /// The action space the session was started with, and its moves.
    action_space: usize,
    moves: &'static [usize],
    /// Observations computed so far (for tests).
    computed: usize,
}

impl CompilationSession for ToySession {
    fn apply_action(&mut self, action: &Value) -> Result<ActionOutcome> {
        if self.fail.as_deref() == Some("action") {
            self.fail = None;
            return Err(Error::new(crate::ErrorKind::Runtime, "injected action failure"));
        }
        let i = action.as_int().ok_or_else(|| Error::type_error("toy actions are integers"))?;
        let mut outcome = ActionOutcome::default();
        let chosen = usize::try_from(i).ok().and_then(|i| self.moves.get(i));
        match chosen.map(|&m| MOVES[m].0) {
            Some("bubble") => outcome.action_had_no_effect = !bubble(&mut self.list),
            Some("reverse") => self.list.reverse(),
            Some("rotate") if !self.list.is_empty() => self.list.rotate_left(1),
            Some("rotate") => outcome.action_had_no_effect = true,
            Some(_) => outcome.end_of_session = true,
            None => return Err(Error::value(format!("toy action {i} is out of range"))),
        }
        Ok(outcome)
    }

    fn get_observation(&mut self, index: usize, space: &ObservationSpace) -> Result<Value> {
        if self.fail.as_deref() == Some("observation") {
            self.fail = None;
            return Err(Error::new(crate::ErrorKind::Runtime, "injected observation failure"));
        }
        self.computed += 1;
        Ok(match index {
            obs::INVERSIONS => Value::Int(inversions(&self.list)),
            obs::INVERSIONS_O0 => Value::Int(inversions(&self.original)),
            obs::INVERSIONS_O1 => {
                let mut l = self.original.clone();
                bubble(&mut l);
                Value::Int(inversions(&l))
            }
            obs::LIST => Value::Array(Array::vector(ArrayData::I64(self.list.clone()))),
            obs::TEXT => Value::Str(self.list.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")),
            _ => return Err(Error::value(format!("no observation {:?}", space.name))),
        })
    }

    fn fork(&self) -> Result<Box<dyn CompilationSession>> {
        Ok(Box::new(self.clone()))
    }

    fn new_action_space(&self) -> Option<ActionSpace> {
        (self.moves.len() < MOVES.len()).then(|| action_space(self.action_space, self.moves))
    }

    fn handle_session_parameter(&mut self, key: &str, value: &str) -> Result<Option<String>> {
        Ok(match key {
            "toy.fail" => {
                self.fail = Some(value.to_string());
                Some("ok".into())
            }
            "toy.corrupt" => {
                if let Some(x) = self.list.first_mut() {
                    *x = x.wrapping_add(1000);
                }
                Some("ok".into())
            }
            "toy.len" => Some(self.list.len().to_string()),
            "toy.computed" => Some(self.computed.to_string()),
            _ => None,
        })
    }

    fn validate(&mut self) -> Result<Option<Vec<String>>> {
        let (mut a, mut b) = (self.original.clone(), self.list.clone());
        a.sort_unstable();
        b.sort_unstable();
        Ok(Some(if a == b {
            Vec::new()
        } else {
            vec![format!("the list {:?} is not a permutation of {:?}", self.list, self.original)]
        }))
    }
}
