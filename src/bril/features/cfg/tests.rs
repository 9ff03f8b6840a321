use super::*;
use crate::bril::features::testing::corpus;
use crate::bril::parse_text;
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

const DIAMOND: &str = "@main {
  c: bool = const true;
  br c .left .right;
.left:
  x: char = const '\\n';
  jmp .exit;
.right:
  x: char = const '\"';
.exit:
  print x;
}
";

#[wasm_bindgen_test(unsupported = test)]
fn json_lists_blocks_and_successors() {
    let p = parse_text(DIAMOND).unwrap();
    let json = to_json(&p);
    let f = &json["functions"][0];
    assert_eq!(f["name"], "main");
    let blocks = f["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 4);
    assert_eq!(
        blocks[0],
        json!({"id": 0, "label": null, "instrs": ["c: bool = const true", "br c .left .right"], "successors": [1, 2]})
    );
    assert_eq!(blocks[2]["successors"], json!([3]), "falls through");
    assert_eq!(blocks[3]["successors"], json!([]));
    assert_eq!(blocks[1]["label"], "left");
}

#[wasm_bindgen_test(unsupported = test)]
fn dot_draws_blocks_and_labeled_branches() {
    let p = parse_text(DIAMOND).unwrap();
    let dot = to_dot(&p);
    assert!(dot.starts_with("digraph cfg {\n"));
    assert!(dot.contains("f0_b0 -> f0_b1 [label=\"T\"];"));
    assert!(dot.contains("f0_b0 -> f0_b2 [label=\"F\"];"));
    assert!(dot.contains("f0_b1 -> f0_b3;"));
    assert!(dot.contains("f0_b2 -> f0_b3;"));
    assert!(dot.contains("x: char = const '\\\\n'"), "backslash escaped: {dot}");
    assert!(dot.contains("x: char = const '\\\"'"), "quote escaped: {dot}");
    check_dot(&dot);
    assert_eq!(function_dot(&p, 0), dot);
    check_dot(&function_dot(&p, 7));
}

/// A DOT document is well formed enough for Graphviz: quoted strings close,
/// braces balance outside them, and edges join declared nodes.
fn check_dot(dot: &str) {
    let mut depth = 0i32;
    let (mut in_string, mut escaped) = (false, false);
    for c in dot.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                (false, '\n') => panic!("newline inside a string"),
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        assert!(depth >= 0, "unbalanced braces");
    }
    assert!(!in_string && depth == 0, "unclosed string or brace");
    let declared: std::collections::HashSet<&str> =
        dot.lines().filter_map(|l| l.trim().split_once(" [label=")).map(|(n, _)| n).collect();
    for line in dot.lines().filter(|l| l.contains(" -> ")) {
        let (a, rest) = line.trim().split_once(" -> ").unwrap();
        let b = rest.trim_end_matches(';').split(' ').next().unwrap();
        assert!(declared.contains(a) && declared.contains(b), "edge {line} joins undeclared nodes");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn well_formed_over_the_corpus() {
    for (name, p) in corpus() {
        let dot = to_dot(&p);
        check_dot(&dot);
        let edges = dot.lines().filter(|l| l.contains(" -> ")).count();
        let succs: usize =
            p.functions.iter().map(|f| f.block_ids().map(|b| f.successors(b).len()).sum::<usize>()).sum();
        assert_eq!(edges, succs, "{name}");
        let text = serde_json::to_string(&to_json(&p)).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["functions"].as_array().unwrap().len(), p.functions.len(), "{name}");
        assert_eq!(to_dot(&p), dot, "{name}: deterministic");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn text_is_the_json_printed_on_the_corpus() {
    let p = parse_text(DIAMOND).unwrap();
    assert_eq!(
        to_json_text(&p),
        r#"{"functions":[{"blocks":[{"id":0,"instrs":["c: bool = const true","br c .left .right"],"label":null,"successors":[1,2]},{"id":1,"instrs":["x: char = const '\\n'","jmp .exit"],"label":"left","successors":[3]},{"id":2,"instrs":["x: char = const '\"'"],"label":"right","successors":[3]},{"id":3,"instrs":["print x"],"label":"exit","successors":[]}],"name":"main"}]}"#
    );
    for (name, p) in corpus() {
        assert_eq!(to_json_text(&p), to_json(&p).to_string(), "{name}");
    }
}
