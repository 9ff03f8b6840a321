use super::*;
use crate::bril::features::testing::corpus;
use crate::bril::parse_text;
use wasm_bindgen_test::wasm_bindgen_test;

fn edges(g: &ProgramGraph) -> Vec<(usize, usize, Flow, i64)> {
    (0..g.edge_count()).map(|i| g.edge(i)).collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn a_call_and_its_data_flow() {
    let p = parse_text(
        "@main {\n  a: int = const 2;\n  b: int = call @dbl a;\n  print b;\n}\n@dbl(x: int): int {\n  y: int = add x x;\n  ret y;\n}\n",
    )
    .unwrap();
    let g = build(&p);
    // 0 external; main: 1 const, 2 call, 3 print, 4 a, 5 const 2, 6 b;
    // dbl: 7 add, 8 ret, 9 x, 10 y.
    assert_eq!(g.node_count(), 11);
    assert_eq!(g.node(0), &[3, -1, -1, -1, -1]);
    assert_eq!(g.node(1), &[0, Op::Const as i64, 0, 0, 0]);
    assert_eq!(g.node(2), &[0, Op::Call as i64, 0, 0, 0]);
    assert_eq!(g.node(3), &[0, Op::Print as i64, 0, 0, -1]);
    assert_eq!(g.node(4), &[1, 0, 0, -1, 0]);
    assert_eq!(g.node(5), &[2, 0, 0, -1, 2]);
    assert_eq!(g.node(7), &[0, Op::Add as i64, 1, 0, 0]);
    assert_eq!(g.node(9), &[1, 0, 1, -1, 1], "a parameter");
    use Flow::*;
    let expected = vec![
        (1, 2, Control, 0),
        (1, 4, Data, 0),
        (5, 1, Data, 0),
        (2, 3, Control, 0),
        (4, 2, Data, 0),
        (2, 6, Data, 0),
        (6, 3, Data, 0),
        (7, 8, Control, 0),
        (9, 7, Data, 0),
        (9, 7, Data, 1),
        (7, 10, Data, 0),
        (10, 8, Data, 0),
        (2, 7, Call, 0),
        (8, 2, Call, 0),
        (0, 1, Call, 0),
        (3, 0, Call, 0),
        (0, 7, Call, 0),
        (8, 0, Call, 0),
    ];
    assert_eq!(edges(&g), expected);
}

#[wasm_bindgen_test(unsupported = test)]
fn control_crosses_empty_blocks_and_leaves_at_the_end() {
    let p =
        parse_text("@main {\n  c: bool = const true;\n  br c .a .end;\n.a:\n.b:\n  jmp .end;\n.end:\n}\n")
            .unwrap();
    let g = build(&p);
    let control: Vec<_> = edges(&g).into_iter().filter(|e| e.2 != Flow::Data).collect();
    use Flow::*;
    // 1 const, 2 br, 3 jmp: the br's then-edge skips empty `.a`; both the
    // br's else-target and the jmp's target are the function's end.
    assert_eq!(
        control,
        vec![(1, 2, Control, 0), (2, 3, Control, 0), (0, 1, Call, 0), (2, 0, Call, 0), (3, 0, Call, 0)]
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn set_writes_its_shadow_and_reads_its_value() {
    let p = parse_text("@main {\n  v: int = const 1;\n  set x v;\n  x: int = get;\n  print x;\n}\n").unwrap();
    let g = build(&p);
    // 1 const, 2 set, 3 get, 4 print, 5 v, 6 const 1, 7 x.
    let data: Vec<_> = edges(&g).into_iter().filter(|e| e.2 == Flow::Data).map(|e| (e.0, e.1, e.3)).collect();
    assert_eq!(data, vec![(1, 5, 0), (6, 1, 0), (2, 7, 0), (5, 2, 1), (3, 7, 0), (7, 4, 0)]);
    assert_eq!(g.node(7)[1], 0, "x's type comes from the get");
}

#[wasm_bindgen_test(unsupported = test)]
fn empty_function_gets_no_call_edge() {
    let p = parse_text("@main {\n  call @nothing;\n}\n@nothing {\n}\n").unwrap();
    let g = build(&p);
    assert_eq!(g.node_count(), 2);
    assert_eq!(edges(&g), vec![(0, 1, Flow::Call, 0), (1, 0, Flow::Call, 0)]);
}

#[wasm_bindgen_test(unsupported = test)]
fn json_describes_nodes_for_people() {
    let p = parse_text("@main {\n  a: int = const 5;\n  p: ptr<int> = alloc a;\n  free p;\n}\n").unwrap();
    let g = build(&p);
    let json = g.to_json(&p);
    let texts: Vec<&str> =
        json["nodes"].as_array().unwrap().iter().map(|n| n["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["[external]", "const", "alloc", "free", "a: int", "const 5", "p: ptr<int>"]);
    assert_eq!(json["nodes"][2]["full_text"], "p: ptr<int> = alloc a");
    assert_eq!(
        json["links"][0],
        serde_json::json!({"source": 1, "target": 2, "flow": "control", "position": 0})
    );
    assert_eq!(json["links"].as_array().unwrap().len(), g.edge_count());
    // Texts of another program's graph degrade instead of failing.
    let other = g.to_json(&parse_text("@main {\n}\n").unwrap());
    assert_eq!(other["nodes"][2]["text"], "?");
    assert_eq!(other["nodes"][5]["text"], "const ?");
}

#[wasm_bindgen_test(unsupported = test)]
fn codes() {
    assert_eq!(type_code(Type::CHAR), 3);
    assert_eq!(type_code(Type::INT.ptr_to().unwrap()), 4);
    assert_eq!(type_name(11), "ptr<ptr<char>>");
    assert_eq!(literal_class(Literal::Int(0), Type::FLOAT), 5);
    assert_eq!(literal_class(Literal::Bool(true), Type::BOOL), 4);
    for (i, k) in NodeKind::ALL.iter().enumerate() {
        assert_eq!(*k as usize, i);
    }
    for (i, f) in Flow::ALL.iter().enumerate() {
        assert_eq!(*f as usize, i);
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn graphs_are_well_formed_over_the_corpus() {
    for (name, p) in corpus() {
        let g = build(&p);
        assert_eq!(build(&p), g, "{name}: deterministic");
        let n = g.node_count();
        let kinds: Vec<i64> = (0..n).map(|i| g.node(i)[0]).collect();
        let count_kind = |k: NodeKind| kinds.iter().filter(|&&x| x == k as i64).count();
        assert_eq!(count_kind(NodeKind::Instruction), p.instr_count(), "{name}");
        let consts = p.functions.iter().flat_map(|f| f.instrs()).filter(|i| i.op == Op::Const).count();
        assert_eq!(count_kind(NodeKind::Constant), consts, "{name}");
        assert_eq!(count_kind(NodeKind::External), 1, "{name}");

        let mut has_out = vec![false; n];
        let mut has_in = vec![false; n];
        for (s, t, flow, pos) in edges(&g) {
            assert!(s < n && t < n, "{name}: edge {s}->{t} of {n} nodes");
            assert!(pos >= 0);
            let (ks, kt) = (kinds[s], kinds[t]);
            match flow {
                Flow::Control => assert!(ks == 0 && kt == 0, "{name}: control between instructions"),
                Flow::Data => {
                    assert!((ks == 0) != (kt == 0), "{name}: data joins an instruction and a value")
                }
                Flow::Call => assert!(ks != 1 && ks != 2 && kt != 1 && kt != 2, "{name}"),
            }
            has_out[s] = true;
            has_in[t] = true;
        }
        for i in 0..n {
            // Every instruction leads somewhere (next, target or an exit);
            // every value node but an unused parameter is connected.
            if kinds[i] == NodeKind::Instruction as i64 {
                assert!(has_out[i], "{name}: instruction node {i} has no way out");
            } else if !(kinds[i] == NodeKind::Variable as i64 && g.node(i)[4] == 1) {
                assert!(has_out[i] || has_in[i], "{name}: node {i} is isolated");
            }
        }

        let json = g.to_json(&p);
        let text = serde_json::to_string(&json).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["nodes"].as_array().unwrap().len(), n);

        let value = g.into_graph();
        let nodes = value.nodes.as_ref().unwrap();
        assert_eq!(nodes.shape(), &[n, NODE_FEATURES.len()]);
        let edges = value.edges.as_ref().unwrap();
        assert_eq!(edges.shape()[1], 2);
        assert_eq!(value.edge_links.as_ref().unwrap().shape(), edges.shape());
    }
}
