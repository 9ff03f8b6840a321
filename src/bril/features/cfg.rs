//! The control-flow graph of each function, for people and playgrounds:
//! JSON to draw and Graphviz DOT text.
//!
//! JSON: `{"functions": [{"name", "blocks": [{"id", "label", "instrs",
//! "successors"}]}]}`; `id` is the block's index in its function, `label`
//! its label without the dot (`null` when unlabeled), `instrs` the Bril text
//! of its instructions, `successors` the ids control may go to next (a
//! `br`'s then-target first).
//!
//! DOT: one `digraph`; each function a `cluster_F` subgraph, each block a
//! box node `fF_bB` listing its instructions; `br` edges are labeled `T`
//! and `F`.

use std::fmt::Write;

use crate::bril::ir::{BlockId, Function, Op, Program};
use crate::bril::print::instr_to_text;
use serde::Serialize;
use serde_json::Value;

/// The successors of block `b` that exist, in `Function::successors` order.
fn successors(f: &Function, b: usize) -> impl Iterator<Item = usize> + '_ {
    let n = f.blocks.len();
    f.successors(BlockId::new(b)).to_vec().into_iter().map(BlockId::index).filter(move |&s| s < n)
}

// The JSON's shapes, serialised straight to text (no `Value` tree on the way:
// the observation is asked for after every step a playground shows). Fields
// in alphabetical order, the order a `Value` map prints them in.
#[derive(Serialize)]
struct CfgJson<'a> {
    functions: Vec<FunctionCfg<'a>>,
}

#[derive(Serialize)]
struct FunctionCfg<'a> {
    blocks: Vec<BlockCfg<'a>>,
    name: &'a str,
}

#[derive(Serialize)]
struct BlockCfg<'a> {
    id: usize,
    instrs: Vec<String>,
    label: Option<&'a str>,
    successors: Vec<usize>,
}

fn function_cfg<'a>(program: &Program, f: &'a Function) -> FunctionCfg<'a> {
    let blocks = f
        .blocks
        .iter()
        .enumerate()
        .map(|(b, block)| BlockCfg {
            id: b,
            instrs: block.instrs.iter().map(|i| instr_to_text(program, f, i)).collect(),
            label: block.label.as_deref(),
            successors: successors(f, b).collect(),
        })
        .collect();
    FunctionCfg { blocks, name: &f.name }
}

fn program_cfg(program: &Program) -> CfgJson<'_> {
    CfgJson { functions: program.functions.iter().map(|f| function_cfg(program, f)).collect() }
}

/// The CFG of every function as JSON.
pub fn to_json(program: &Program) -> Value {
    serde_json::to_value(program_cfg(program)).unwrap_or(Value::Null)
}

/// [`to_json`] as text, written without building the `Value`.
pub fn to_json_text(program: &Program) -> String {
    serde_json::to_string(&program_cfg(program)).unwrap_or_default()
}

/// The CFG of every function as one Graphviz digraph.
pub fn to_dot(program: &Program) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (fi, f) in program.functions.iter().enumerate() {
        write_cluster(&mut out, program, fi, f);
    }
    out.push_str("}\n");
    out
}

/// The CFG of function `fi` alone as a Graphviz digraph (empty graph for
/// an index out of range).
pub fn function_dot(program: &Program, fi: usize) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n");
    if let Some(f) = program.functions.get(fi) {
        write_cluster(&mut out, program, fi, f);
    }
    out.push_str("}\n");
    out
}

fn write_cluster(out: &mut String, program: &Program, fi: usize, f: &Function) {
    let _ = writeln!(out, "  subgraph cluster_{fi} {{");
    out.push_str("    label=\"");
    escape_into(out, &format!("@{}", f.name));
    out.push_str("\";\n");
    for (b, block) in f.blocks.iter().enumerate() {
        let _ = write!(out, "    f{fi}_b{b} [label=\"");
        match &block.label {
            Some(label) => escape_into(out, &format!(".{label}:")),
            None => {
                let _ = write!(out, "<b{b}>");
            }
        }
        out.push_str("\\l");
        for instr in &block.instrs {
            out.push_str("  ");
            escape_into(out, &instr_to_text(program, f, instr));
            out.push_str("\\l");
        }
        out.push_str("\"];\n");
    }
    for b in 0..f.blocks.len() {
        let is_br = f.blocks[b].terminator().is_some_and(|t| t.op == Op::Br);
        for (k, s) in successors(f, b).enumerate() {
            let _ = write!(out, "    f{fi}_b{b} -> f{fi}_b{s}");
            if is_br {
                out.push_str(if k == 0 { " [label=\"T\"]" } else { " [label=\"F\"]" });
            }
            out.push_str(";\n");
        }
    }
    out.push_str("  }\n");
}

/// Writes `text` inside a DOT double-quoted string.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests;
