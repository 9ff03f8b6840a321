//! From a program with names (as both readers see it) to the IR with ids.
//!
//! The text parser and the JSON reader each produce a [`RawProgram`] that
//! borrows its names from the input; [`assemble`] forms basic blocks and
//! resolves variables, labels and callees, reporting what does not resolve.

use std::borrow::Cow;
use std::sync::Arc;

use super::hash::FxHashMap as HashMap;

use super::ir::*;
use crate::error::{Error, ErrorKind, Result};

/// A name as a reader found it: borrowed from the input, or owned where the
/// input spelled it with escapes (a JSON string with `\\u00e9`).
pub(crate) type RawName<'a> = Cow<'a, str>;

pub(crate) struct RawProgram<'a> {
    pub functions: Vec<RawFunction<'a>>,
    pub args: Option<Vec<String>>,
}

pub(crate) struct RawFunction<'a> {
    pub name: RawName<'a>,
    pub params: Vec<(RawName<'a>, Type)>,
    pub ret: Option<Type>,
    pub items: Vec<RawItem<'a>>,
    pub pos: Pos,
}

pub(crate) enum RawItem<'a> {
    Label(RawName<'a>, Pos),
    Instr(RawInstr<'a>),
}

pub(crate) struct RawInstr<'a> {
    pub op: Op,
    pub dest: Option<(RawName<'a>, Type)>,
    pub args: Vec<RawName<'a>>,
    pub funcs: Vec<RawName<'a>>,
    pub labels: Vec<RawName<'a>>,
    pub value: Option<Literal>,
    pub pos: Pos,
}

impl<'a> RawInstr<'a> {
    pub fn new(op: Op, pos: Pos) -> Self {
        RawInstr { op, dest: None, args: Vec::new(), funcs: Vec::new(), labels: Vec::new(), value: None, pos }
    }
}

/// Tables past this size are refused so that every id fits a `u32` with room.
const MAX_TABLE: usize = 1 << 30;

fn at(func: &str, pos: Pos, message: String) -> Error {
    let message =
        if pos.is_known() { format!("@{func}: {pos}: {message}") } else { format!("@{func}: {message}") };
    Error::new(ErrorKind::Verify, message)
}

pub(crate) fn assemble(raw: RawProgram<'_>) -> Result<Program> {
    crate::ensure!(raw.functions.len() < MAX_TABLE, Limit, "too many functions");
    let mut func_ids: HashMap<&str, FuncId> = HashMap::default();
    for (i, f) in raw.functions.iter().enumerate() {
        if func_ids.insert(&f.name, FuncId::new(i)).is_some() {
            return Err(at(&f.name, f.pos, format!("function @{} defined twice", f.name)));
        }
    }
    let functions = raw
        .functions
        .iter()
        .map(|f| assemble_function(f, &func_ids).map(Arc::new))
        .collect::<Result<Vec<_>>>()?;
    Ok(Program { functions, args: raw.args })
}

struct Vars<'a> {
    ids: HashMap<&'a str, VarId>,
    names: Vec<Name>,
}

impl<'a> Vars<'a> {
    fn get(&mut self, name: &'a str) -> Result<VarId> {
        if let Some(&v) = self.ids.get(name) {
            return Ok(v);
        }
        crate::ensure!(self.names.len() < MAX_TABLE, Limit, "too many variables");
        let v = VarId::new(self.names.len());
        self.names.push(name.into());
        self.ids.insert(name, v);
        Ok(v)
    }
}

fn assemble_function(raw: &RawFunction<'_>, func_ids: &HashMap<&str, FuncId>) -> Result<Function> {
    let fname = &*raw.name;
    let mut vars = Vars { ids: HashMap::default(), names: Vec::new() };
    let mut params = Vec::with_capacity(raw.params.len());
    for (name, ty) in &raw.params {
        let (name, ty) = (&**name, *ty);
        if vars.ids.contains_key(name) {
            return Err(at(fname, raw.pos, format!("parameter {name} declared twice")));
        }
        params.push(Param { var: vars.get(name)?, ty });
    }

    // First pass: where each label lives. A block starts at every label and
    // at code after a terminator, so terminators only ever end blocks; both
    // passes split blocks by this same rule.
    let mut labels: HashMap<&str, BlockId> = HashMap::default();
    let mut block_count = 0usize;
    let mut need_block = true;
    for item in &raw.items {
        match item {
            RawItem::Label(name, pos) => {
                if labels.insert(&**name, BlockId::new(block_count)).is_some() {
                    return Err(at(fname, *pos, format!("label .{name} defined twice")));
                }
                block_count += 1;
                need_block = false;
            }
            RawItem::Instr(instr) => {
                if need_block {
                    block_count += 1;
                }
                need_block = instr.op.is_terminator();
            }
        }
    }
    crate::ensure!(block_count < MAX_TABLE, Limit, "too many blocks");

    // Second pass: the blocks and instructions, every name resolved.
    let mut blocks: Vec<Block> = Vec::with_capacity(block_count);
    let mut need_block = true;
    for item in &raw.items {
        match item {
            RawItem::Label(name, pos) => {
                let mut block = Block::new(Some((**name).into()));
                block.label_pos = *pos;
                blocks.push(block);
                need_block = false;
            }
            RawItem::Instr(raw_instr) => {
                if need_block {
                    blocks.push(Block::new(None));
                }
                need_block = raw_instr.op.is_terminator();
                let instr = resolve_instr(fname, raw_instr, &mut vars, &labels, func_ids)?;
                if let Some(block) = blocks.last_mut() {
                    block.instrs.push(instr);
                }
            }
        }
    }

    Ok(Function { name: fname.into(), params, ret: raw.ret, blocks, vars: vars.names, pos: raw.pos })
}

fn resolve_instr<'a>(
    fname: &str,
    raw: &'a RawInstr<'_>,
    vars: &mut Vars<'a>,
    labels: &HashMap<&str, BlockId>,
    func_ids: &HashMap<&str, FuncId>,
) -> Result<Instr> {
    let mut instr = Instr::new(raw.op).with_pos(raw.pos);
    if let Some((name, ty)) = &raw.dest {
        instr.dest = Some(Dest { var: vars.get(name)?, ty: *ty });
    }
    for a in &raw.args {
        instr.args.push(vars.get(a)?);
    }
    for l in &raw.labels {
        match labels.get(&**l) {
            Some(&b) => instr.labels.push(b),
            None => return Err(at(fname, raw.pos, format!("{}: unknown label .{l}", raw.op))),
        }
    }
    match raw.funcs.as_slice() {
        [] => {}
        [callee] => match func_ids.get(&**callee) {
            Some(&f) => instr.func = Some(f),
            None => return Err(at(fname, raw.pos, format!("{}: unknown function @{callee}", raw.op))),
        },
        more => {
            return Err(at(fname, raw.pos, format!("{}: expected one function, got {}", raw.op, more.len())))
        }
    }
    instr.value = raw.value;
    Ok(instr)
}
