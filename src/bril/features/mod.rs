//! Program features: what the environment observes of a program.
//!
//! Plain data, no spaces: names and values, arrays and graphs.
//! - [`inst_count`]: `InstCount` (per-opcode counters and totals),
//!   `InstCountNorm` and the dict form;
//! - [`autophase`]: `Autophase`, 60 named structural features;
//! - [`programl`]: `Programl`, the instruction/variable/constant graph with
//!   control, data and call edges, as a [`Graph`] and as JSON;
//! - [`structure`]: `Structure`, loops (depth, known trip counts) and the
//!   call graph (recursion, depth, small and single-use functions);
//! - [`mod@cfg`]: each function's control-flow graph as JSON and Graphviz DOT;
//! - [`ir_sha1`], [`ir_instruction_count`];
//! - [`observe`]: every numeric observation at once; [`to_json`]: every
//!   feature as one JSON document (`compgym features`).
//!
//! `cargo run --release --example features_timing [NAME]` times them.
//!
//! Every function here accepts any program the readers or passes produce
//! and never panics; features of a program are a pure function of it.

pub mod autophase;
pub mod cfg;
pub mod inst_count;
pub mod programl;
mod sha1;
mod shape;
pub mod structure;
#[cfg(test)]
mod testing;

pub use sha1::{sha1, to_hex, Sha1};

use crate::bril::ir::Program;
use crate::bril::print::to_text;
use crate::value::Graph;

/// `IrSha1`: the SHA-1 of the program's canonical text ([`to_text`]).
pub fn ir_sha1(program: &Program) -> [u8; 20] {
    sha1(to_text(program).as_bytes())
}

/// [`ir_sha1`] as 40 lowercase hex digits.
pub fn ir_sha1_hex(program: &Program) -> String {
    to_hex(&ir_sha1(program))
}

/// `IrInstructionCount`: static instruction count, labels excluded.
pub fn ir_instruction_count(program: &Program) -> i64 {
    program.instr_count() as i64
}

/// Every numeric observation of a program at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Observations {
    pub inst_count: [i64; inst_count::LEN],
    pub inst_count_norm: Vec<f64>,
    pub autophase: [i64; autophase::LEN],
    pub programl: Graph,
    pub ir_sha1: [u8; 20],
    pub ir_instruction_count: i64,
}

/// All of [`Observations`] for `program`.
pub fn observe(program: &Program) -> Observations {
    let counts = inst_count::counts(program);
    Observations {
        inst_count_norm: inst_count::normalize(&counts),
        inst_count: counts,
        autophase: autophase::features(program),
        programl: programl::graph(program),
        ir_sha1: ir_sha1(program),
        ir_instruction_count: ir_instruction_count(program),
    }
}

/// Every feature of `program` as one JSON document for people (what
/// `compgym features` prints): `ir_sha1`, `ir_instruction_count`,
/// `inst_count`, `inst_count_norm` and `autophase` as name → value objects,
/// `programl` (see [`programl::ProgramGraph::to_json`]) and `cfg` (see
/// [`cfg::to_json`]).
pub fn to_json(program: &Program) -> serde_json::Value {
    use serde_json::{Map, Value};
    fn object<T: Into<Value> + Copy>(names: &[&str], values: &[T]) -> Value {
        let map: Map<String, Value> =
            names.iter().zip(values).map(|(n, v)| (n.to_string(), (*v).into())).collect();
        Value::Object(map)
    }
    let counts = inst_count::counts(program);
    serde_json::json!({
        "ir_sha1": ir_sha1_hex(program),
        "ir_instruction_count": ir_instruction_count(program),
        "inst_count": object(&inst_count::NAMES, &counts),
        "inst_count_norm": object(inst_count::normalized_names(), &inst_count::normalize(&counts)),
        "autophase": object(&autophase::NAMES, &autophase::features(program)),
        "programl": programl::build(program).to_json(program),
        "cfg": cfg::to_json(program),
    })
}

#[cfg(test)]
mod tests;
