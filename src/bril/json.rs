//! Bril JSON, the canonical interchange form, read and written.
//!
//! The writer produces exactly the shape `bril2json` does: optional keys
//! (`args`, `funcs`, `labels`, function `args` and `type`) appear only when
//! non-empty, and source positions only when asked for ([`Positions`]). The
//! reader also accepts the `pos` objects `bril2json -p` adds.

use serde_json::{json, Map, Value};

use super::assemble::{assemble, RawFunction, RawInstr, RawItem, RawProgram};
use super::ir::*;
use super::parse::SourceEnds;
use super::types::MAX_PTR_DEPTH;
use crate::error::{Error, ErrorKind, Result};

/// Reads a program from Bril JSON text.
pub fn parse_json(src: &str) -> Result<Program> {
    let value: Value =
        serde_json::from_str(src).map_err(|e| Error::new(ErrorKind::Parse, format!("invalid JSON: {e}")))?;
    from_json_value(&value)
}

/// Reads a program from an already parsed JSON value.
pub fn from_json_value(value: &Value) -> Result<Program> {
    let functions = value
        .get("functions")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("a program is an object with a \"functions\" array"))?;
    let functions = functions
        .iter()
        .enumerate()
        .map(|(i, f)| read_function(f).map_err(|e| e.context(format!("function {i}"))))
        .collect::<Result<Vec<_>>>()?;
    assemble(RawProgram { functions, args: None })
}

fn bad(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, message)
}

fn str_field<'a>(obj: &'a Value, key: &str) -> Result<Option<&'a str>> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("\"{key}\" must be a string"))),
    }
}

fn str_list<'a>(obj: &'a Value, key: &str) -> Result<Vec<&'a str>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().ok_or_else(|| bad(format!("\"{key}\" must hold strings"))))
            .collect(),
        Some(_) => Err(bad(format!("\"{key}\" must be an array"))),
    }
}

fn read_pos(obj: &Value) -> Pos {
    let field = |k: &str| {
        obj.get("pos").and_then(|p| p.get(k)).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
    };
    match (field("row"), field("col")) {
        (Some(line), Some(col)) => Pos::new(line, col),
        _ => Pos::UNKNOWN,
    }
}

fn read_type(value: &Value) -> Result<Type> {
    let mut depth = 0u8;
    let mut v = value;
    loop {
        match v {
            Value::String(name) => {
                let base = BaseType::from_name(name).ok_or_else(|| bad(format!("unknown type {name}")))?;
                return Ok(Type { base, ptr_depth: depth });
            }
            Value::Object(map) if map.len() == 1 && map.contains_key("ptr") => {
                if depth >= MAX_PTR_DEPTH {
                    return Err(bad("pointer type nested too deeply"));
                }
                depth += 1;
                v = &map["ptr"];
            }
            _ => return Err(bad(format!("bad type {value}"))),
        }
    }
}

fn read_function(f: &Value) -> Result<RawFunction<'_>> {
    let name = str_field(f, "name")?.ok_or_else(|| bad("a function needs a \"name\""))?;
    let params = match f.get("args") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(args)) => args
            .iter()
            .map(|a| {
                let n = str_field(a, "name")?.ok_or_else(|| bad("a parameter needs a \"name\""))?;
                let t = a.get("type").ok_or_else(|| bad("a parameter needs a \"type\""))?;
                Ok((n, read_type(t)?))
            })
            .collect::<Result<Vec<_>>>()?,
        Some(_) => return Err(bad("function \"args\" must be an array")),
    };
    let ret = f.get("type").map(read_type).transpose()?;
    let instrs = match f.get("instrs") {
        None => &[][..],
        Some(Value::Array(items)) => items.as_slice(),
        Some(_) => return Err(bad("\"instrs\" must be an array")),
    };
    let items = instrs
        .iter()
        .enumerate()
        .map(|(i, v)| read_item(v).map_err(|e| e.context(format!("@{name}: instruction {i}"))))
        .collect::<Result<Vec<_>>>()?;
    Ok(RawFunction { name, params, ret, items, pos: read_pos(f) })
}

fn read_item(v: &Value) -> Result<RawItem<'_>> {
    if !v.is_object() {
        return Err(bad("an instruction must be an object"));
    }
    if let Some(label) = str_field(v, "label")? {
        return Ok(RawItem::Label(label, read_pos(v)));
    }
    let op_name = str_field(v, "op")?.ok_or_else(|| bad("an instruction needs \"op\" or \"label\""))?;
    let op = Op::from_name(op_name).ok_or_else(|| bad(format!("unknown opcode {op_name}")))?;
    let mut instr = RawInstr::new(op, read_pos(v));
    match (str_field(v, "dest")?, v.get("type")) {
        (Some(dest), Some(ty)) => instr.dest = Some((dest, read_type(ty)?)),
        (Some(dest), None) => return Err(bad(format!("{op_name}: destination {dest} has no type"))),
        (None, Some(_)) => return Err(bad(format!("{op_name}: a type without a destination"))),
        (None, None) => {}
    }
    instr.args = str_list(v, "args")?;
    instr.funcs = str_list(v, "funcs")?;
    instr.labels = str_list(v, "labels")?;
    instr.value = v.get("value").map(read_literal).transpose()?;
    Ok(RawItem::Instr(instr))
}

/// JSON numbers cannot be infinite or NaN, so float literals that are (a
/// folded `fdiv`, a text literal past f64's range) are written as these
/// strings, as JavaScript's `String(x)` writes them, and read back.
const NON_FINITE: [(&str, f64); 3] =
    [("Infinity", f64::INFINITY), ("-Infinity", f64::NEG_INFINITY), ("NaN", f64::NAN)];

fn read_literal(v: &Value) -> Result<Literal> {
    match v {
        Value::Bool(b) => Ok(Literal::Bool(*b)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(Literal::Int(i))
            } else if n.is_u64() {
                Err(bad(format!("integer {n} out of range")))
            } else {
                n.as_f64().map(Literal::Float).ok_or_else(|| bad(format!("bad number {n}")))
            }
        }
        Value::String(s) => {
            if let Some((_, x)) = NON_FINITE.iter().find(|(name, _)| name == s) {
                return Ok(Literal::Float(*x));
            }
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(Literal::Char(c)),
                _ => Err(bad(format!("a char value must be one character, got {s:?}"))),
            }
        }
        _ => Err(bad(format!("bad literal {v}"))),
    }
}

/// The program as a Bril JSON value.
pub fn to_json_value(program: &Program) -> Value {
    to_json_value_with(program, Positions::None)
}

/// Which source positions the JSON carries, as `bril2json` does: none by
/// default, `pos` with `-p`, `pos` and `pos_end` with `-pp` (on functions,
/// labels and instructions, as `{"row", "col"}` objects, 1-based).
#[derive(Clone, Copy, Debug)]
pub enum Positions<'a> {
    None,
    Starts,
    /// With where each object ends, from [`super::parse::parse_text_with_ends`].
    StartsAndEnds(&'a SourceEnds),
}

/// [`to_json_value`] with source positions.
pub fn to_json_value_with(program: &Program, positions: Positions) -> Value {
    let mut marks = Marks { positions, next_end: 0 };
    let functions: Vec<Value> =
        program.functions.iter().map(|f| function_json(program, f, &mut marks)).collect();
    json!({ "functions": functions })
}

/// [`to_json`] with source positions.
pub fn to_json_with(program: &Program, positions: Positions) -> String {
    serde_json::to_string_pretty(&to_json_value_with(program, positions)).unwrap_or_default()
}

/// Adds positions to objects as they are written, in source order.
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

/// The program as pretty-printed Bril JSON.
pub fn to_json(program: &Program) -> String {
    serde_json::to_string_pretty(&to_json_value(program)).unwrap_or_default()
}

/// The program as compact Bril JSON.
pub fn to_json_compact(program: &Program) -> String {
    to_json_value(program).to_string()
}

pub fn type_json(ty: Type) -> Value {
    let mut v = Value::from(ty.base.name());
    for _ in 0..ty.ptr_depth {
        v = json!({ "ptr": v });
    }
    v
}

pub fn literal_json(value: Literal) -> Value {
    match value {
        Literal::Int(i) => Value::from(i),
        Literal::Float(x) if x.is_nan() => Value::from("NaN"),
        Literal::Float(x) if x.is_infinite() => Value::from(if x > 0.0 { "Infinity" } else { "-Infinity" }),
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
        let params: Vec<Value> =
            f.params.iter().map(|p| json!({ "name": f.var_name(p.var), "type": type_json(p.ty) })).collect();
        obj.insert("args".into(), Value::from(params));
    }
    if let Some(ret) = f.ret {
        obj.insert("type".into(), type_json(ret));
    }
    let mut instrs = Vec::with_capacity(f.instr_count() + f.blocks.len());
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
                let label = f.blocks.get(l.index()).and_then(|b| b.label.as_deref());
                Value::from(label.unwrap_or("?"))
            })
            .collect();
        obj.insert("labels".into(), Value::from(labels));
    }
    if let Some(value) = instr.value {
        obj.insert("value".into(), literal_json(value));
    }
    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse::parse_text;

    #[test]
    fn positions_as_bril2json_gives_them() {
        let src = "@main {\n  v: int = const 1;\n.l:\n  print v;\n}\n";
        let (p, ends) = crate::bril::parse::parse_text_with_ends(src).unwrap();
        let at = |row: u32, col: u32| json!({ "row": row, "col": col });
        let none = to_json_value_with(&p, Positions::None);
        assert!(!none.to_string().contains("pos"));
        let starts = to_json_value_with(&p, Positions::Starts);
        let f = &starts["functions"][0];
        assert_eq!((&f["pos"], f.get("pos_end")), (&at(1, 1), None));
        let both = to_json_value_with(&p, Positions::StartsAndEnds(&ends));
        let f = &both["functions"][0];
        assert_eq!((&f["pos"], &f["pos_end"]), (&at(1, 1), &at(1, 6)), "the signature: @main");
        let items = &f["instrs"];
        assert_eq!((&items[0]["pos"], &items[0]["pos_end"]), (&at(2, 3), &at(2, 20)), "through the ';'");
        assert_eq!(
            (&items[1]["pos"], &items[1]["pos_end"]),
            (&at(3, 1), &at(3, 4)),
            "the label with its ':'"
        );
        assert_eq!((&items[2]["pos"], &items[2]["pos_end"]), (&at(4, 3), &at(4, 11)));
        // Positions are extra keys: reading the JSON back gives the same program.
        let mut again = parse_json(&both.to_string()).unwrap();
        let mut original = p.clone();
        again.clear_positions();
        original.clear_positions();
        original.args = None;
        assert_eq!(again, original);
    }

    #[test]
    fn writes_the_bril2json_shape() {
        let p = parse_text(
            "@main {\n  x: float = const 0;\n  y: ptr<int> = alloc n;\n  call @g x;\n.l:\n  ret;\n}\n@g(a: float): int {\n  c: char = const 'z';\n  ret a;\n}",
        );
        // `n` is undefined, which is fine for the reader: it checks names, not flow.
        let p = p.unwrap();
        let v = to_json_value(&p);
        let expected = json!({"functions": [
            {"name": "main", "instrs": [
                {"op": "const", "dest": "x", "type": "float", "value": 0},
                {"op": "alloc", "dest": "y", "type": {"ptr": "int"}, "args": ["n"]},
                {"op": "call", "funcs": ["g"], "args": ["x"]},
                {"label": "l"},
                {"op": "ret"}
            ]},
            {"name": "g", "args": [{"name": "a", "type": "float"}], "type": "int", "instrs": [
                {"op": "const", "dest": "c", "type": "char", "value": "z"},
                {"op": "ret", "args": ["a"]}
            ]}
        ]});
        assert_eq!(v, expected);
        let mut back = parse_json(&to_json(&p)).unwrap();
        back.clear_positions();
        let mut p = p;
        p.clear_positions();
        assert_eq!(back, p);
    }

    #[test]
    fn non_finite_float_literals_round_trip_as_strings() {
        let p =
            crate::bril::parse_text("@main {\n  a: float = const 1e999;\n  b: float = const -1e999;\n}\n")
                .unwrap();
        let json = to_json(&p);
        assert!(json.contains("\"Infinity\"") && json.contains("\"-Infinity\""), "{json}");
        assert_eq!(crate::bril::to_text(&parse_json(&json).unwrap()), crate::bril::to_text(&p));
        let nan = parse_json(r#"{"functions":[{"name":"main","instrs":[{"op":"const","dest":"n","type":"float","value":"NaN"}]}]}"#)
            .unwrap();
        assert!(to_json(&nan).contains("\"NaN\""));
        // A one-character string is still a char.
        assert!(parse_json(r#"{"functions":[{"name":"main","instrs":[{"op":"const","dest":"c","type":"char","value":"N"}]}]}"#).is_ok());
    }

    #[test]
    fn reads_positions_and_rejects_malformed_input() {
        let p = parse_json(
            r#"{"functions":[{"name":"main","pos":{"row":1,"col":1},"instrs":[{"op":"nop","pos":{"row":2,"col":3}}]}]}"#,
        )
        .unwrap();
        assert_eq!(p.functions[0].blocks[0].instrs[0].pos, Pos::new(2, 3));
        let bad_inputs = [
            "",
            "[]",
            r#"{"functions": 3}"#,
            r#"{"functions":[{"instrs":[]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[{"op":"frob"}]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[{"op":"id","dest":"x","args":["y"]}]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"char","value":"ab"}]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[{"op":"jmp","labels":["nowhere"]}]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":{"ptr":{"ptr":"void"}},"value":1}]}]}"#,
            r#"{"functions":[{"name":"m","instrs":[5]}]}"#,
        ];
        for input in bad_inputs {
            assert!(parse_json(input).is_err(), "{input}");
        }
    }
}
