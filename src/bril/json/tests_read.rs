//! The reader's guarantees: the errors (kind, message, path to the bad
//! field), limits, borrowed and escaped names, exact integers, and the same
//! result from text and from a parsed value.

use super::*;
use crate::bril::{parse_text, to_text};

fn error(src: &str) -> Error {
    let from_text = parse_json(src).expect_err(src);
    if let Ok(value) = serde_json::from_str::<Value>(src) {
        let from_value = from_json_value(&value).expect_err(src);
        assert_eq!(
            (from_value.kind(), from_value.message()),
            (from_text.kind(), from_text.message()),
            "{src}"
        );
    }
    from_text
}

/// Each input with the error the reader over a `Value` tree gave it (the
/// messages were taken from that reader before it was replaced).
const ERRORS: &[(&str, ErrorKind, &str)] = &[
    (r#"{"functions": 3}"#, ErrorKind::Parse, r#"a program is an object with a "functions" array"#),
    ("[]", ErrorKind::Parse, r#"a program is an object with a "functions" array"#),
    ("7", ErrorKind::Parse, r#"a program is an object with a "functions" array"#),
    (r#"{"functions":[{"instrs":[]}]}"#, ErrorKind::Parse, r#"function 0: a function needs a "name""#),
    (r#"{"functions":[{"name":5,"instrs":[]}]}"#, ErrorKind::Parse, r#"function 0: "name" must be a string"#),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"frob"}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: unknown opcode frob",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"id","dest":"x","args":["y"]}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: id: destination x has no type",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"char","value":"ab"}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: a char value must be one character, got "ab""#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"jmp","labels":["nowhere"]}]}]}"#,
        ErrorKind::Verify,
        "@m: jmp: unknown label .nowhere",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":{"ptr":{"ptr":"void"}},"value":1}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: unknown type void",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[5]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: an instruction must be an object",
    ),
    (
        r#"{"functions":[{"instrs":[{"op":"nop"},{"op":3}],"name":"m"}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 1: "op" must be a string"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"int","value":18446744073709551615}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: integer 18446744073709551615 out of range",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"int","value":null}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: bad literal null",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"int","value":[1,{"a":2}]}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: bad literal [1,{"a":2}]"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":[1],"value":1}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: bad type [1]",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":{"ptr":"int","q":1},"value":1}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: bad type {"ptr":"int","q":1}"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"flt","value":1}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: unknown type flt",
    ),
    (
        r#"{"functions":[{"name":"m","args":[{"name":"a"}],"instrs":[]}]}"#,
        ErrorKind::Parse,
        r#"function 0: a parameter needs a "type""#,
    ),
    (
        r#"{"functions":[{"name":"m","args":[{"type":"int"}],"instrs":[]}]}"#,
        ErrorKind::Parse,
        r#"function 0: a parameter needs a "name""#,
    ),
    (
        r#"{"functions":[{"name":"m","args":{},"instrs":[]}]}"#,
        ErrorKind::Parse,
        r#"function 0: function "args" must be an array"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":{}}]}"#,
        ErrorKind::Parse,
        r#"function 0: "instrs" must be an array"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"print","args":[1]}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: "args" must hold strings"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"print","args":"x"}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: "args" must be an array"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"nop","dest":"x"}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: nop: destination x has no type",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"nop","type":"int"}]}]}"#,
        ErrorKind::Parse,
        "function 0: @m: instruction 0: nop: a type without a destination",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"label":5}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: "label" must be a string"#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{}]}]}"#,
        ErrorKind::Parse,
        r#"function 0: @m: instruction 0: an instruction needs "op" or "label""#,
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[]},{"name":"m","instrs":[]}]}"#,
        ErrorKind::Verify,
        "@m: function @m defined twice",
    ),
    // A key given twice counts the last time, as in a parsed tree.
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"nop"}]}], "functions": 3}"#,
        ErrorKind::Parse,
        r#"a program is an object with a "functions" array"#,
    ),
    // Malformed JSON anywhere comes before a bad field.
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"frob"}]}]} x"#,
        ErrorKind::Parse,
        "invalid JSON: trailing characters at line 1 column 55",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"frob"}]}"#,
        ErrorKind::Parse,
        "invalid JSON: EOF while parsing a list at line 1 column 51",
    ),
    (
        r#"{"functions":[{"name":"m","instrs":[{"op":"const","dest":"x","type":"int","value":1e400}]}]}"#,
        ErrorKind::Parse,
        "invalid JSON: number out of range at line 1 column 87",
    ),
];

#[test]
fn errors_keep_their_kind_and_message_with_the_path_to_the_bad_field() {
    for &(src, kind, message) in ERRORS {
        let e = error(src);
        assert_eq!((e.kind(), e.message()), (kind, message), "{src}");
    }
}

#[test]
fn the_first_bad_field_wins_whatever_the_order_of_keys() {
    // Fields are judged in a fixed order (name, args, type, instrs), not as they come.
    let name_last = r#"{"functions":[{"instrs":[{"op":"frob"}],"args":5,"name":7}]}"#;
    assert_eq!(error(name_last).message(), r#"function 0: "name" must be a string"#);
    let instrs_first = r#"{"functions":[{"instrs":[{"op":"frob"}],"args":5,"name":"m"}]}"#;
    assert_eq!(error(instrs_first).message(), r#"function 0: function "args" must be an array"#);
    // The first bad function and the first bad instruction, later ones read but not judged.
    let two = r#"{"functions":[{"name":"a","instrs":[{"op":"nop"},{},{"op":"frob"}]},{"name":5}]}"#;
    assert_eq!(
        error(two).message(),
        r#"function 0: @a: instruction 1: an instruction needs "op" or "label""#
    );
    // A later syntax error still wins over an earlier bad field.
    assert!(error(r#"{"functions":[{"name":5}], "x": [1,}"#).message().starts_with("invalid JSON"));
}

#[test]
fn unknown_fields_are_skipped_and_malformed_positions_ignored() {
    let src = r#"{"x": {"deep": [[1, {"y": null}]]}, "functions":[{"name":"main","extra":[{}],
        "pos":"here","instrs":[{"op":"nop","comment":"hi","pos":{"row":-1,"col":2}},
        {"label":"l","pos":{"row":3,"col":4,"row":5}}]}]}"#;
    let p = parse_json(src).unwrap();
    let f = &p.functions[0];
    assert_eq!(f.pos, Pos::UNKNOWN);
    assert_eq!(f.blocks[0].instrs[0].pos, Pos::UNKNOWN);
    assert_eq!(f.blocks[1].label_pos, Pos::new(5, 4), "the last row given counts");
}

#[test]
fn names_with_escapes_read_as_the_names_they_spell() {
    let src = r#"{"functions":[{"name":"m\u00e9","args":[{"name":"a\"b","type":"int"}],"instrs":[
        {"op":"print","args":["a\"b"]},{"label":"l\\1"},{"op":"jmp","labels":["l\\1"]}]}]}"#;
    let p = parse_json(src).unwrap();
    let f = &p.functions[0];
    assert_eq!((&*f.name, f.var_name(f.params[0].var)), ("mé", "a\"b"));
    assert_eq!(f.blocks[1].label.as_deref(), Some("l\\1"));
    let again = parse_json(&to_json(&p)).unwrap();
    assert_eq!(to_text(&again), to_text(&p));
}

#[test]
fn integers_past_two_to_the_53_are_exact() {
    for n in [i64::MAX, i64::MIN, (1 << 53) + 1, -(1 << 53) - 1] {
        let src = format!(
            r#"{{"functions":[{{"name":"m","instrs":[{{"op":"const","dest":"x","type":"int","value":{n}}}]}}]}}"#
        );
        let p = parse_json(&src).unwrap();
        assert_eq!(p.functions[0].blocks[0].instrs[0].value, Some(Literal::Int(n)));
        assert!(to_json_compact(&p).contains(&format!("\"value\":{n}")), "{n}");
    }
}

#[test]
fn nesting_past_serde_jsons_limit_is_an_error_not_a_stack_overflow() {
    // In an unknown field, in a type, in a literal and around the program.
    let deep = |open: &str, close: &str| format!("{}1{}", open.repeat(100_000), close.repeat(100_000));
    let places = [
        format!(r#"{{"x": {}, "functions": []}}"#, deep("[", "]")),
        format!(
            r#"{{"functions":[{{"name":"m","instrs":[{{"op":"const","dest":"x","type":{},"value":1}}]}}]}}"#,
            deep(r#"{"ptr":"#, "}")
        ),
        format!(
            r#"{{"functions":[{{"name":"m","instrs":[{{"op":"const","dest":"x","type":"int","value":{}}}]}}]}}"#,
            deep("[", "]")
        ),
        deep("[", "]"),
    ];
    for src in places {
        let e = parse_json(&src).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse);
        assert!(e.message().contains("recursion limit exceeded") || e.message().contains("program"), "{e}");
    }
    // Within the limit, pointer types are read and then held to their own limit.
    let ptr = |depth: usize| {
        format!(
            r#"{{"functions":[{{"name":"m","instrs":[{{"op":"alloc","dest":"p","type":{}"int"{},"args":["n"]}}]}}]}}"#,
            r#"{"ptr":"#.repeat(depth),
            "}".repeat(depth)
        )
    };
    assert!(parse_json(&ptr(2)).is_ok());
    assert!(error(&ptr(100)).message().ends_with("pointer type nested too deeply"));
}

#[test]
fn a_value_and_its_text_read_the_same() {
    let p = parse_text(
        "@main(n: int): int {\n  x: float = const 0.1;\n  c: char = const 'é';\n.l:\n  ret n;\n}\n",
    )
    .unwrap();
    let text = to_json_with(&p, Positions::Starts);
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(from_json_value(&value).unwrap(), parse_json(&text).unwrap());
    assert_eq!(serde_json::to_string_pretty(&to_json_value_with(&p, Positions::Starts)).unwrap(), text);
    assert_eq!(to_json_value(&p).to_string(), to_json_compact(&p));
}
