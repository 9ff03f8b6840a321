//! Bril JSON, the canonical interchange form, read and written.
//!
//! The writer produces exactly the shape `bril2json` does: optional keys
//! (`args`, `funcs`, `labels`, function `args` and `type`) appear only when
//! non-empty, and source positions only when asked for ([`Positions`]). The
//! reader also accepts the `pos` objects `bril2json -p` adds.

use serde_json::Value;

use super::assemble::assemble;
use super::ir::*;
use super::parse::SourceEnds;
use crate::error::{Error, ErrorKind, Result};

mod read;
#[cfg(test)]
mod tests_read;
mod write;

/// Reads a program from Bril JSON text.
pub fn parse_json(src: &str) -> Result<Program> {
    let invalid = |e: serde_json::Error| Error::new(ErrorKind::Parse, format!("invalid JSON: {e}"));
    let mut de = serde_json::Deserializer::from_str(src);
    let raw = read::read_program(&mut de).map_err(invalid)?;
    // Trailing characters are the JSON's fault, which comes before the program's.
    de.end().map_err(invalid)?;
    assemble(raw?)
}

/// Reads a program from an already parsed JSON value.
pub fn from_json_value(value: &Value) -> Result<Program> {
    let raw =
        read::read_program(value).map_err(|e| Error::new(ErrorKind::Parse, format!("invalid JSON: {e}")))?;
    assemble(raw?)
}

/// JSON numbers cannot be infinite or NaN, so float literals that are (a
/// folded `fdiv`, a text literal past f64's range) are written as these
/// strings, as JavaScript's `String(x)` writes them, and read back.
const NON_FINITE: [(&str, f64); 3] =
    [("Infinity", f64::INFINITY), ("-Infinity", f64::NEG_INFINITY), ("NaN", f64::NAN)];

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
    serde_json::to_value(write::ProgramJson::new(program, positions)).unwrap_or_default()
}

/// [`to_json`] with source positions.
pub fn to_json_with(program: &Program, positions: Positions) -> String {
    write::to_string_pretty(&write::ProgramJson::new(program, positions))
}

/// The program as pretty-printed Bril JSON.
pub fn to_json(program: &Program) -> String {
    to_json_with(program, Positions::None)
}

/// The program as compact Bril JSON.
pub fn to_json_compact(program: &Program) -> String {
    serde_json::to_string(&write::ProgramJson::new(program, Positions::None)).unwrap_or_default()
}

pub fn type_json(ty: Type) -> Value {
    serde_json::to_value(write::TypeJson(ty)).unwrap_or_default()
}

pub fn literal_json(value: Literal) -> Value {
    serde_json::to_value(write::LiteralJson(value)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse::parse_text;
    use serde_json::json;

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
