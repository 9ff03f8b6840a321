//! `Programl`: the program as one graph of instructions, variables and
//! constants with control, data and call edges, after ProGraML.
//!
//! Nodes:
//! - node 0 is the external node: the world outside the program, which
//!   may call any function;
//! - one instruction node per instruction, in layout order, function by
//!   function (labels are not nodes);
//! - one variable node per variable of a function that the function
//!   mentions (parameters included);
//! - one constant node per `const` instruction, holding its literal.
//!
//! Edges, each with an operand position:
//! - control: an instruction to the next one executed, across fall-through
//!   and empty blocks; a `br` to its targets' first instructions at positions
//!   0 (then) and 1 (else), a `jmp` to its target's at 0;
//! - data: a variable to each instruction that reads it, at the operand's
//!   index; an instruction to the variable it writes, at 0 (a `set` writes
//!   its shadow variable, operand 0); a constant to its `const`, at 0;
//! - call: a `call` to the callee's first instruction and each of the
//!   callee's exits (its `ret`s and last instructions before falling off its
//!   end) back to the `call`; the external node to every function's first
//!   instruction and every exit back to the external node. All at 0.
//!
//! Bril is not in SSA form, so a variable node stands for every
//! assignment of that variable. A function without instructions has no
//! node to enter and gets no call edge.
//!
//! [`NODE_FEATURES`] columns of the int64 node array, [`EDGE_FEATURES`]
//! columns of the edge array; see [`NodeKind`], [`Flow`], [`type_code`]
//! and [`literal_class`] for their codes.

use crate::bril::ir::{Function, Instr, Literal, Op, Program, Type, VarId};
use crate::bril::print::{instr_to_text, write_literal};
use crate::value::{Array, ArrayData, Graph};

/// Columns of the node feature array `[N, NODE_FEATURES.len()]`:
/// - `kind`: a [`NodeKind`];
/// - `code`: an instruction's opcode index in [`Op::ALL`]; a variable's or a
///   constant's [`type_code`] (-1 for a variable never defined); -1 for the
///   external node;
/// - `function`: index of the function the node belongs to (-1 external);
/// - `block`: an instruction's block index in its function (-1 otherwise);
/// - `detail`: an instruction's result [`type_code`] (-1 without result); a
///   variable's 1 when it is a parameter, else 0; a constant's
///   [`literal_class`]; -1 for the external node.
pub const NODE_FEATURES: [&str; 5] = ["kind", "code", "function", "block", "detail"];
const NODE_WIDTH: usize = NODE_FEATURES.len();

/// Columns of the edge feature array `[E, 2]`: a [`Flow`] and the operand
/// position. `edge_links` is `[E, 2]`: source and target node indices.
pub const EDGE_FEATURES: [&str; 2] = ["flow", "position"];

/// What a node stands for (column `kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    Instruction = 0,
    Variable = 1,
    Constant = 2,
    External = 3,
}

impl NodeKind {
    pub const ALL: [NodeKind; 4] =
        [NodeKind::Instruction, NodeKind::Variable, NodeKind::Constant, NodeKind::External];

    pub const fn name(self) -> &'static str {
        match self {
            NodeKind::Instruction => "instruction",
            NodeKind::Variable => "variable",
            NodeKind::Constant => "constant",
            NodeKind::External => "external",
        }
    }
}

/// The relation an edge stands for (column `flow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    Control = 0,
    Data = 1,
    Call = 2,
}

impl Flow {
    pub const ALL: [Flow; 3] = [Flow::Control, Flow::Data, Flow::Call];

    pub const fn name(self) -> &'static str {
        match self {
            Flow::Control => "control",
            Flow::Data => "data",
            Flow::Call => "call",
        }
    }
}

/// A type as one integer: `int` 0, `bool` 1, `float` 2, `char` 3, plus 4
/// per level of `ptr<...>` (so `ptr<int>` is 4, `ptr<ptr<char>>` 11).
pub fn type_code(ty: Type) -> i64 {
    ty.base as i64 + 4 * i64::from(ty.ptr_depth)
}

/// A constant's value class: int 0 → 0, int 1 → 1, other ints → 2,
/// `false` → 3, `true` → 4, floats → 5 (an integer literal of type float
/// too), chars → 6.
pub fn literal_class(value: Literal, ty: Type) -> i64 {
    match value {
        _ if ty == Type::FLOAT => 5,
        Literal::Int(0) => 0,
        Literal::Int(1) => 1,
        Literal::Int(_) => 2,
        Literal::Bool(false) => 3,
        Literal::Bool(true) => 4,
        Literal::Float(_) => 5,
        Literal::Char(_) => 6,
    }
}

/// Where a node comes from, to describe it to people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    External,
    /// Function, block, instruction index in the block.
    Instruction(u32, u32, u32),
    /// Function, variable.
    Variable(u32, u32),
    /// The `const` instruction: function, block, index in the block.
    Constant(u32, u32, u32),
}

/// A program graph: flat feature arrays ready to become a [`Graph`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProgramGraph {
    /// `[N, 5]` row-major, columns [`NODE_FEATURES`].
    pub node_features: Vec<i64>,
    /// `[E, 2]` row-major: flow, position.
    pub edge_features: Vec<i64>,
    /// `[E, 2]` row-major: source, target.
    pub edge_links: Vec<i64>,
    origins: Vec<Origin>,
}

const NONE: u32 = u32::MAX;

impl ProgramGraph {
    pub fn node_count(&self) -> usize {
        self.origins.len()
    }

    pub fn edge_count(&self) -> usize {
        self.edge_links.len() / 2
    }

    /// The feature row of node `i`.
    pub fn node(&self, i: usize) -> &[i64] {
        &self.node_features[i * NODE_WIDTH..(i + 1) * NODE_WIDTH]
    }

    /// Edge `i` as (source, target, flow, position).
    pub fn edge(&self, i: usize) -> (usize, usize, Flow, i64) {
        let flow = Flow::ALL[self.edge_features[2 * i] as usize];
        (
            self.edge_links[2 * i] as usize,
            self.edge_links[2 * i + 1] as usize,
            flow,
            self.edge_features[2 * i + 1],
        )
    }

    fn push_node(&mut self, origin: Origin, row: [i64; NODE_WIDTH]) -> u32 {
        self.origins.push(origin);
        self.node_features.extend_from_slice(&row);
        (self.origins.len() - 1) as u32
    }

    fn push_edge(&mut self, source: u32, target: u32, flow: Flow, position: usize) {
        self.edge_links.extend_from_slice(&[i64::from(source), i64::from(target)]);
        self.edge_features.extend_from_slice(&[flow as i64, position as i64]);
    }

    /// The graph value: int64 `nodes [N, 5]`, `edges [E, 2]`, `edge_links [E, 2]`.
    pub fn into_graph(self) -> Graph {
        let (n, e) = (self.node_count(), self.edge_count());
        let array = |rows: usize, cols: usize, data: Vec<i64>| {
            // The builder keeps every row full, so the shape always matches.
            Array::new(vec![rows, cols], ArrayData::I64(data)).ok()
        };
        Graph {
            nodes: array(n, NODE_WIDTH, self.node_features),
            edges: array(e, 2, self.edge_features),
            edge_links: array(e, 2, self.edge_links),
            n_nodes: None,
            n_edges: None,
        }
    }

    /// A node-link JSON document for people: `nodes` with `id`, `type`,
    /// `text` (`add`, `v: int`, `const 5`) and for instructions `full_text`,
    /// `function`, `block`; `links` with `source`, `target`, `flow`, `position`.
    /// `program` is the one the graph was built from (texts of nodes another
    /// program lacks read `?`).
    pub fn to_json(&self, program: &Program) -> serde_json::Value {
        use serde_json::{json, Value};
        let nodes: Vec<Value> = (0..self.node_count())
            .map(|id| {
                let row = self.node(id);
                let kind = NodeKind::ALL[row[0] as usize].name();
                match self.origins[id] {
                    Origin::External => json!({"id": id, "type": kind, "text": "[external]"}),
                    Origin::Instruction(fi, b, k) => {
                        let (text, full_text) = match instr_at(program, fi, b, k) {
                            Some((f, instr)) => (instr.op.name(), instr_to_text(program, f, instr)),
                            None => ("?", String::from("?")),
                        };
                        json!({
                            "id": id, "type": kind, "text": text, "full_text": full_text,
                            "function": fi, "block": b,
                        })
                    }
                    Origin::Variable(fi, var) => {
                        let name = program.functions.get(fi as usize).map_or("?", |f| f.var_name(VarId(var)));
                        let ty = if row[1] < 0 { "?".to_string() } else { type_name(row[1]) };
                        json!({"id": id, "type": kind, "text": format!("{name}: {ty}"), "function": fi})
                    }
                    Origin::Constant(fi, b, k) => {
                        let mut text = String::from("const ");
                        match instr_at(program, fi, b, k).and_then(|(_, i)| i.value) {
                            Some(value) => write_literal(&mut text, value),
                            None => text.push('?'),
                        }
                        json!({"id": id, "type": kind, "text": text, "function": fi})
                    }
                }
            })
            .collect();
        let links: Vec<Value> = (0..self.edge_count())
            .map(|i| {
                let (source, target, flow, position) = self.edge(i);
                json!({"source": source, "target": target, "flow": flow.name(), "position": position})
            })
            .collect();
        json!({"directed": true, "multigraph": true, "nodes": nodes, "links": links})
    }
}

/// Instruction `k` of block `b` of function `fi`, if `program` has it (it
/// does when the graph was built from `program`).
fn instr_at(program: &Program, fi: u32, b: u32, k: u32) -> Option<(&Function, &Instr)> {
    let f = program.functions.get(fi as usize)?;
    Some((f, f.blocks.get(b as usize)?.instrs.get(k as usize)?))
}

/// The Bril spelling of a [`type_code`].
fn type_name(code: i64) -> String {
    const BASES: [&str; 4] = ["int", "bool", "float", "char"];
    let (base, depth) = (BASES[(code % 4) as usize], code / 4);
    let mut s = "ptr<".repeat(depth as usize);
    s.push_str(base);
    s.push_str(&">".repeat(depth as usize));
    s
}

/// The program graph of `program`.
pub fn build(program: &Program) -> ProgramGraph {
    let n_instrs = program.instr_count();
    let mut g = ProgramGraph {
        // Rough capacities: instructions dominate both counts.
        node_features: Vec::with_capacity((2 * n_instrs + 1) * NODE_WIDTH),
        edge_features: Vec::with_capacity(4 * n_instrs * 2),
        edge_links: Vec::with_capacity(4 * n_instrs * 2),
        origins: Vec::with_capacity(2 * n_instrs + 1),
    };
    g.push_node(Origin::External, [NodeKind::External as i64, -1, -1, -1, -1]);
    let mut b = Builder::default();
    for (fi, f) in program.functions.iter().enumerate() {
        b.add_function(&mut g, fi, f);
    }
    b.add_calls(&mut g);
    g
}

/// The program graph as a [`Graph`] value.
pub fn graph(program: &Program) -> Graph {
    build(program).into_graph()
}

/// State kept across functions while building.
#[derive(Default)]
struct Builder {
    /// Per function: its first instruction node, or NONE.
    entries: Vec<u32>,
    /// Per function: the range of its exits in `exits`.
    exit_ranges: Vec<(u32, u32)>,
    exits: Vec<u32>,
    /// Call instruction nodes and their callees.
    calls: Vec<(u32, usize)>,
    /// Per block of the current function: the first instruction control
    /// reaches on entering it, or NONE when it leaves the function.
    block_entry: Vec<u32>,
    /// Per variable of the current function: its node, or NONE.
    var_nodes: Vec<u32>,
}

impl Builder {
    fn add_function(&mut self, g: &mut ProgramGraph, fi: usize, f: &Function) {
        let first = g.node_count() as u32;
        for (bi, block) in f.blocks.iter().enumerate() {
            for (k, instr) in block.instrs.iter().enumerate() {
                let result = instr.dest.map_or(-1, |d| type_code(d.ty));
                let row = [NodeKind::Instruction as i64, instr.op as i64, fi as i64, bi as i64, result];
                g.push_node(Origin::Instruction(fi as u32, bi as u32, k as u32), row);
            }
        }
        // Empty blocks fall through, so a block's entry is that of the
        // first non-empty block from it on.
        self.block_entry.clear();
        self.block_entry.resize(f.blocks.len(), NONE);
        let mut next = NONE;
        let mut end = g.node_count() as u32;
        for (bi, block) in f.blocks.iter().enumerate().rev() {
            if !block.instrs.is_empty() {
                end -= block.instrs.len() as u32;
                next = end;
            }
            self.block_entry[bi] = next;
        }
        self.entries.push(self.block_entry.first().copied().unwrap_or(NONE));

        self.var_nodes.clear();
        self.var_nodes.resize(f.vars.len(), NONE);
        for p in &f.params {
            let node = self.var_node(g, fi, p.var.index());
            if node != NONE {
                g.node_features[node as usize * NODE_WIDTH + 4] = 1;
                self.set_var_type(g, node, p.ty);
            }
        }

        let exits_start = self.exits.len() as u32;
        let mut node = first;
        for (bi, block) in f.blocks.iter().enumerate() {
            for (k, instr) in block.instrs.iter().enumerate() {
                let is_last = k + 1 == block.instrs.len();
                self.add_control(g, node, instr, is_last, bi);
                self.add_data(g, fi, node, instr, (bi, k));
                if instr.op == Op::Call {
                    if let Some(callee) = instr.func {
                        self.calls.push((node, callee.index()));
                    }
                }
                node += 1;
            }
        }
        self.exit_ranges.push((exits_start, self.exits.len() as u32));
    }

    fn add_control(&mut self, g: &mut ProgramGraph, node: u32, instr: &Instr, is_last: bool, bi: usize) {
        let mut exits = false;
        match instr.op {
            Op::Ret => exits = true,
            Op::Jmp | Op::Br => {
                for (pos, label) in instr.labels.iter().enumerate() {
                    match self.block_entry.get(label.index()).copied().unwrap_or(NONE) {
                        NONE => exits = true,
                        target => g.push_edge(node, target, Flow::Control, pos),
                    }
                }
            }
            _ if !is_last => g.push_edge(node, node + 1, Flow::Control, 0),
            _ => match self.block_entry.get(bi + 1).copied().unwrap_or(NONE) {
                NONE => exits = true,
                target => g.push_edge(node, target, Flow::Control, 0),
            },
        }
        if exits {
            self.exits.push(node);
        }
    }

    fn add_data(&mut self, g: &mut ProgramGraph, fi: usize, node: u32, instr: &Instr, at: (usize, usize)) {
        let shadow = usize::from(instr.op == Op::Set);
        for (pos, arg) in instr.args.iter().enumerate() {
            let var = self.var_node(g, fi, arg.index());
            if var == NONE {
                continue;
            }
            if pos < shadow {
                g.push_edge(node, var, Flow::Data, pos);
            } else {
                g.push_edge(var, node, Flow::Data, pos);
            }
        }
        if let Some(dest) = instr.dest {
            let var = self.var_node(g, fi, dest.var.index());
            if var != NONE {
                self.set_var_type(g, var, dest.ty);
                g.push_edge(node, var, Flow::Data, 0);
            }
        }
        if let (Op::Const, Some(value), Some(dest)) = (instr.op, instr.value, instr.dest) {
            let row =
                [NodeKind::Constant as i64, type_code(dest.ty), fi as i64, -1, literal_class(value, dest.ty)];
            let constant = g.push_node(Origin::Constant(fi as u32, at.0 as u32, at.1 as u32), row);
            g.push_edge(constant, node, Flow::Data, 0);
        }
    }

    /// The node of variable `var`, made on first mention (NONE for an id
    /// outside the function's table).
    fn var_node(&mut self, g: &mut ProgramGraph, fi: usize, var: usize) -> u32 {
        match self.var_nodes.get(var).copied() {
            None => NONE,
            Some(NONE) => {
                let row = [NodeKind::Variable as i64, -1, fi as i64, -1, 0];
                let node = g.push_node(Origin::Variable(fi as u32, var as u32), row);
                self.var_nodes[var] = node;
                node
            }
            Some(node) => node,
        }
    }

    /// Records a variable's type, the first one seen.
    fn set_var_type(&self, g: &mut ProgramGraph, node: u32, ty: Type) {
        let code = &mut g.node_features[node as usize * NODE_WIDTH + 1];
        if *code < 0 {
            *code = type_code(ty);
        }
    }

    fn add_calls(&mut self, g: &mut ProgramGraph) {
        for &(call, callee) in &self.calls {
            let Some(&entry) = self.entries.get(callee) else { continue };
            if entry == NONE {
                continue;
            }
            g.push_edge(call, entry, Flow::Call, 0);
            let (start, end) = self.exit_ranges[callee];
            for &exit in &self.exits[start as usize..end as usize] {
                g.push_edge(exit, call, Flow::Call, 0);
            }
        }
        for (fi, &entry) in self.entries.iter().enumerate() {
            if entry == NONE {
                continue;
            }
            g.push_edge(0, entry, Flow::Call, 0);
            let (start, end) = self.exit_ranges[fi];
            for &exit in &self.exits[start as usize..end as usize] {
                g.push_edge(exit, 0, Flow::Call, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests;
