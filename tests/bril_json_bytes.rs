#![cfg(not(target_arch = "wasm32"))]
//! The JSON writer and reader that work without a `serde_json::Value` tree
//! give, byte for byte, what the tree-building writer gave (kept below as
//! the oracle) on every community program, every suite-v0 and large-v0
//! program, and each of them after `-O2`: without positions, with starts
//! (`-p`) and with ends (`-pp`); and reading that JSON gives the program
//! back, with its positions.

mod common;

use compgym::bril::json::{to_json_with, Positions};
use compgym::bril::parse::{parse_text_with_ends, SourceEnds};
use compgym::bril::{self, passes, suite, Program};

/// The writer as it was: a `Value` tree, pretty-printed by serde_json.
mod tree_writer {
    use compgym::bril::json::Positions;
    use compgym::bril::{Function, Instr, Literal, Pos, Program, Type};
    use serde_json::{json, Map, Value};

    pub fn to_json_with(program: &Program, positions: Positions) -> String {
        let mut marks = Marks { positions, next_end: 0 };
        let functions: Vec<Value> =
            program.functions.iter().map(|f| function_json(program, f, &mut marks)).collect();
        serde_json::to_string_pretty(&json!({ "functions": functions })).unwrap()
    }

    struct Marks<'a> {
        positions: Positions<'a>,
        next_end: usize,
    }

    impl Marks<'_> {
        fn mark(&mut self, obj: &mut Map<String, Value>, start: Pos) {
            let at = |p: Pos| json!({ "row": p.line, "col": p.col });
            if matches!(self.positions, Positions::None) {
                return;
            }
            if start.is_known() {
                obj.insert("pos".into(), at(start));
            }
            if let Positions::StartsAndEnds(ends) = self.positions {
                if let Some(&end) = ends.0.get(self.next_end).filter(|e| e.is_known()) {
                    obj.insert("pos_end".into(), at(end));
                }
                self.next_end += 1;
            }
        }
    }

    fn type_json(ty: Type) -> Value {
        let mut v = Value::from(ty.base.name());
        for _ in 0..ty.ptr_depth {
            v = json!({ "ptr": v });
        }
        v
    }

    fn literal_json(value: Literal) -> Value {
        match value {
            Literal::Int(i) => Value::from(i),
            Literal::Float(x) if x.is_nan() => Value::from("NaN"),
            Literal::Float(x) if x.is_infinite() => {
                Value::from(if x > 0.0 { "Infinity" } else { "-Infinity" })
            }
            Literal::Float(x) => Value::from(x),
            Literal::Bool(b) => Value::from(b),
            Literal::Char(c) => Value::from(c.to_string()),
        }
    }

    fn function_json(program: &Program, f: &Function, marks: &mut Marks) -> Value {
        let mut obj = Map::new();
        marks.mark(&mut obj, f.pos);
        obj.insert("name".into(), Value::from(&*f.name));
        if !f.params.is_empty() {
            let params: Vec<Value> = f
                .params
                .iter()
                .map(|p| json!({ "name": f.var_name(p.var), "type": type_json(p.ty) }))
                .collect();
            obj.insert("args".into(), Value::from(params));
        }
        if let Some(ret) = f.ret {
            obj.insert("type".into(), type_json(ret));
        }
        let mut instrs = Vec::new();
        for block in &f.blocks {
            if let Some(label) = &block.label {
                let mut obj = Map::new();
                obj.insert("label".into(), Value::from(&**label));
                marks.mark(&mut obj, block.label_pos);
                instrs.push(Value::Object(obj));
            }
            for instr in &block.instrs {
                let mut value = instr_json(program, f, instr);
                if let Value::Object(obj) = &mut value {
                    marks.mark(obj, instr.pos);
                }
                instrs.push(value);
            }
        }
        obj.insert("instrs".into(), Value::from(instrs));
        Value::Object(obj)
    }

    fn instr_json(program: &Program, f: &Function, instr: &Instr) -> Value {
        let mut obj = Map::new();
        obj.insert("op".into(), Value::from(instr.op.name()));
        if let Some(dest) = instr.dest {
            obj.insert("dest".into(), Value::from(f.var_name(dest.var)));
            obj.insert("type".into(), type_json(dest.ty));
        }
        if !instr.args.is_empty() {
            let args: Vec<Value> = instr.args.iter().map(|&a| Value::from(f.var_name(a))).collect();
            obj.insert("args".into(), Value::from(args));
        }
        if let Some(callee) = instr.func {
            let name = program.functions.get(callee.index()).map_or("?", |g| &*g.name);
            obj.insert("funcs".into(), json!([name]));
        }
        if !instr.labels.is_empty() {
            let labels: Vec<Value> = instr
                .labels
                .iter()
                .map(|&l| {
                    Value::from(f.blocks.get(l.index()).and_then(|b| b.label.as_deref()).unwrap_or("?"))
                })
                .collect();
            obj.insert("labels".into(), Value::from(labels));
        }
        if let Some(value) = instr.value {
            obj.insert("value".into(), literal_json(value));
        }
        Value::Object(obj)
    }
}

/// Every program to compare, by name, with its text.
fn sources() -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = common::community::bench_files()
        .into_iter()
        .map(|f| (f.path.display().to_string(), f.source))
        .collect();
    all.extend(suite::all().iter().map(|b| (b.uri(), b.source.to_string())));
    all.extend(suite::large::all().unwrap().iter().map(|b| (b.uri(), b.source.to_string())));
    all
}

/// Writes `program` in all three forms with both writers and reads each back.
fn check(name: &str, program: &Program, ends: &SourceEnds) {
    // JSON has no place for the text's `# ARGS:` line.
    let mut program = program.clone();
    program.args = None;
    let program = &program;
    for positions in [Positions::None, Positions::Starts, Positions::StartsAndEnds(ends)] {
        let ours = to_json_with(program, positions);
        assert!(
            ours == tree_writer::to_json_with(program, positions),
            "{name} ({positions:?}): the bytes differ"
        );
        let back = bril::parse_json(&ours).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(bril::to_text(&back), bril::to_text(program), "{name} ({positions:?}): read back differs");
        if !matches!(positions, Positions::None) {
            let starts = |p: &Program| -> Vec<_> {
                p.functions
                    .iter()
                    .flat_map(|f| f.blocks.iter().flat_map(|b| b.instrs.iter().map(|i| i.pos)))
                    .collect()
            };
            assert_eq!(starts(&back), starts(program), "{name}: positions read back differ");
        }
    }
}

#[test]
fn every_program_writes_the_same_bytes_and_reads_back() {
    let all = sources();
    assert!(all.len() > 100, "only {} programs", all.len());
    for (name, source) in all {
        let (program, ends) = parse_text_with_ends(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&name, &program, &ends);
        let mut optimised = program;
        passes::run_pipeline(&mut optimised, "-O2").unwrap_or_else(|e| panic!("{name}: -O2: {e}"));
        check(&format!("{name} after -O2"), &optimised, &SourceEnds(Vec::new()));
    }
}
