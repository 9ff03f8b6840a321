//! Bril JSON written straight from the program with serde's `Serialize`:
//! no `serde_json::Value` tree is built.
//!
//! The bytes are those of the tree the writer used to build: serde_json's
//! maps sort their keys, so every object's keys are written here in sorted
//! order (`args`, `dest`, `funcs`, `labels`, `op`, `pos`, `pos_end`,
//! `type`, `value`), and numbers go through the same serializer calls.

use std::cell::Cell;
use std::io;

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

use super::super::ir::{Function, Instr, Literal, Pos, Program, Type};
use super::Positions;

/// The program as Bril JSON, with the given positions.
pub(super) struct ProgramJson<'a> {
    program: &'a Program,
    marks: Marks<'a>,
}

impl<'a> ProgramJson<'a> {
    pub(super) fn new(program: &'a Program, positions: Positions<'a>) -> Self {
        ProgramJson { program, marks: Marks { positions, next_end: Cell::new(0) } }
    }
}

/// The program as pretty-printed JSON: serde_json's pretty form, byte for
/// byte, into a buffer sized beforehand.
pub(super) fn to_string_pretty(program: &ProgramJson) -> String {
    let items: usize = program.program.functions.iter().map(|f| f.instr_count() + f.blocks.len()).sum();
    let mut out = Vec::with_capacity(items.saturating_mul(BYTES_PER_ITEM));
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Pretty::default());
    match program.serialize(&mut ser) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// About what one instruction takes in the pretty form (the buffer grows
/// when it takes more).
const BYTES_PER_ITEM: usize = 128;

/// serde_json's `PrettyFormatter` with two-space indents, each line break
/// and its indent written in one piece rather than one write per level
/// (which was most of the writer's time).
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

/// `,` and a line break, then spaces for indents up to [`SHALLOW`] levels.
const BREAKS: &[u8] = b",\n                                                                ";
const SHALLOW: usize = (BREAKS.len() - 2) / 2;

impl Pretty {
    /// A line break, after a comma unless `first`, and the current indent.
    fn line<W: ?Sized + io::Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        let start = usize::from(first);
        if self.depth <= SHALLOW {
            return w.write_all(&BREAKS[start..2 + 2 * self.depth]);
        }
        w.write_all(&BREAKS[start..2])?;
        (0..self.depth).try_for_each(|_| w.write_all(b"  "))
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"[")
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(w, true)?;
        }
        w.write_all(b"]")
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(w, true)?;
        }
        w.write_all(b"}")
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The positions objects get as they are written, in source order (a
/// function, then its labels and instructions): the ends are a list in that
/// order.
struct Marks<'a> {
    positions: Positions<'a>,
    next_end: Cell<usize>,
}

impl Marks<'_> {
    /// The `pos` and `pos_end` of the next object, which starts at `start`.
    fn next(&self, start: Pos) -> (Option<Pos>, Option<Pos>) {
        if matches!(self.positions, Positions::None) {
            return (None, None);
        }
        let pos = Some(start).filter(|p| p.is_known());
        let mut end = None;
        if let Positions::StartsAndEnds(ends) = self.positions {
            let at = self.next_end.get();
            end = ends.0.get(at).copied().filter(|e| e.is_known());
            self.next_end.set(at + 1);
        }
        (pos, end)
    }
}

impl Serialize for ProgramJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("functions", &Functions(self))?;
        map.end()
    }
}

struct Functions<'a>(&'a ProgramJson<'a>);

impl Serialize for Functions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ProgramJson { program, marks } = self.0;
        let mut seq = s.serialize_seq(Some(program.functions.len()))?;
        for f in &program.functions {
            seq.serialize_element(&FunctionJson { program, f, marks })?;
        }
        seq.end()
    }
}

struct FunctionJson<'a> {
    program: &'a Program,
    f: &'a Function,
    marks: &'a Marks<'a>,
}

impl Serialize for FunctionJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.f;
        let (pos, pos_end) = self.marks.next(f.pos);
        let mut map = s.serialize_map(None)?;
        if !f.params.is_empty() {
            map.serialize_entry("args", &Params(f))?;
        }
        map.serialize_entry("instrs", &Items { program: self.program, f, marks: self.marks })?;
        map.serialize_entry("name", &*f.name)?;
        positions(&mut map, pos, pos_end)?;
        if let Some(ret) = f.ret {
            map.serialize_entry("type", &TypeJson(ret))?;
        }
        map.end()
    }
}

fn positions<M: SerializeMap>(map: &mut M, pos: Option<Pos>, pos_end: Option<Pos>) -> Result<(), M::Error> {
    if let Some(p) = pos {
        map.serialize_entry("pos", &PosJson(p))?;
    }
    if let Some(p) = pos_end {
        map.serialize_entry("pos_end", &PosJson(p))?;
    }
    Ok(())
}

struct Params<'a>(&'a Function);

impl Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let mut seq = s.serialize_seq(Some(f.params.len()))?;
        for p in &f.params {
            seq.serialize_element(&ParamJson(f.var_name(p.var), p.ty))?;
        }
        seq.end()
    }
}

struct ParamJson<'a>(&'a str, Type);

impl Serialize for ParamJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("name", self.0)?;
        map.serialize_entry("type", &TypeJson(self.1))?;
        map.end()
    }
}

/// A function's labels and instructions, in order.
struct Items<'a> {
    program: &'a Program,
    f: &'a Function,
    marks: &'a Marks<'a>,
}

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.f;
        let labels = f.blocks.iter().filter(|b| b.label.is_some()).count();
        let mut seq = s.serialize_seq(Some(f.instr_count() + labels))?;
        for block in &f.blocks {
            if let Some(label) = &block.label {
                seq.serialize_element(&LabelJson(label, self.marks.next(block.label_pos)))?;
            }
            for instr in &block.instrs {
                let marks = self.marks.next(instr.pos);
                seq.serialize_element(&InstrJson { program: self.program, f, instr, marks })?;
            }
        }
        seq.end()
    }
}

struct LabelJson<'a>(&'a str, (Option<Pos>, Option<Pos>));

impl Serialize for LabelJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("label", self.0)?;
        positions(&mut map, self.1 .0, self.1 .1)?;
        map.end()
    }
}

struct InstrJson<'a> {
    program: &'a Program,
    f: &'a Function,
    instr: &'a Instr,
    marks: (Option<Pos>, Option<Pos>),
}

impl Serialize for InstrJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (f, instr) = (self.f, self.instr);
        let mut map = s.serialize_map(None)?;
        if !instr.args.is_empty() {
            map.serialize_entry("args", &Names(instr.args.iter().map(|&a| f.var_name(a))))?;
        }
        if let Some(dest) = instr.dest {
            map.serialize_entry("dest", f.var_name(dest.var))?;
        }
        if let Some(callee) = instr.func {
            let name = self.program.functions.get(callee.index()).map_or("?", |g| &*g.name);
            map.serialize_entry("funcs", &[name])?;
        }
        if !instr.labels.is_empty() {
            let label = |l: &super::super::ir::BlockId| {
                f.blocks.get(l.index()).and_then(|b| b.label.as_deref()).unwrap_or("?")
            };
            map.serialize_entry("labels", &Names(instr.labels.iter().map(label)))?;
        }
        map.serialize_entry("op", instr.op.name())?;
        positions(&mut map, self.marks.0, self.marks.1)?;
        if let Some(dest) = instr.dest {
            map.serialize_entry("type", &TypeJson(dest.ty))?;
        }
        if let Some(value) = instr.value {
            map.serialize_entry("value", &LiteralJson(value))?;
        }
        map.end()
    }
}

/// Names given by an iterator that can be walked again.
struct Names<I>(I);

impl<'n, I: Iterator<Item = &'n str> + ExactSizeIterator + Clone> Serialize for Names<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// A type: its base type's name inside `ptr_depth` `{"ptr": ...}` objects.
pub(super) struct TypeJson(pub Type);

impl Serialize for TypeJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Type { base, ptr_depth } = self.0;
        if ptr_depth == 0 {
            return s.serialize_str(base.name());
        }
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("ptr", &TypeJson(Type { base, ptr_depth: ptr_depth - 1 }))?;
        map.end()
    }
}

/// A literal; non-finite floats as [`super::NON_FINITE`]'s names.
pub(super) struct LiteralJson(pub Literal);

impl Serialize for LiteralJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Literal::Int(i) => s.serialize_i64(i),
            Literal::Float(x) if x.is_nan() => s.serialize_str("NaN"),
            Literal::Float(x) if x.is_infinite() => {
                s.serialize_str(if x > 0.0 { "Infinity" } else { "-Infinity" })
            }
            Literal::Float(x) => s.serialize_f64(x),
            Literal::Bool(b) => s.serialize_bool(b),
            Literal::Char(c) => s.serialize_str(c.encode_utf8(&mut [0; 4])),
        }
    }
}

struct PosJson(Pos);

impl Serialize for PosJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("col", &self.0.col)?;
        map.serialize_entry("row", &self.0.line)?;
        map.end()
    }
}
