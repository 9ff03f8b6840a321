use super::*;
use crate::bril::features::testing::corpus;
use crate::bril::parse_text;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test(unsupported = test)]
fn ir_sha1_fingerprints_the_canonical_text() {
    let p = parse_text("@main {\n  a: int = const 1;\n  print a;\n}\n").unwrap();
    assert_eq!(ir_sha1(&p), sha1(to_text(&p).as_bytes()));
    assert_eq!(ir_sha1_hex(&p).len(), 40);
    // Layout and comments do not matter, the program does.
    let same = parse_text("# a comment\n@main {\n a: int = const 1; print a;\n}").unwrap();
    assert_eq!(ir_sha1(&same), ir_sha1(&p));
    let other = parse_text("@main {\n  a: int = const 2;\n  print a;\n}\n").unwrap();
    assert_ne!(ir_sha1(&other), ir_sha1(&p));
}

#[wasm_bindgen_test(unsupported = test)]
fn instruction_counts() {
    let p = parse_text("@main {\n  a: int = const 1;\n.l:\n  print a;\n}\n").unwrap();
    assert_eq!(ir_instruction_count(&p), 2);
}

#[wasm_bindgen_test(unsupported = test)]
fn observations_are_deterministic_and_consistent() {
    for (name, p) in corpus() {
        let o = observe(&p);
        assert_eq!(observe(&p), o, "{name}");
        assert_eq!(o.inst_count[0], o.ir_instruction_count, "{name}");
        assert_eq!(o.autophase[autophase::Feature::TotalInsts as usize], o.ir_instruction_count, "{name}");
        assert_eq!(o.inst_count_norm.len(), inst_count::LEN - 1);
        let n = o.programl.nodes.as_ref().unwrap().shape()[0];
        assert!(n > o.ir_instruction_count as usize, "{name}: the external node comes on top");
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn json_report_names_every_feature() {
    let p = parse_text("@main {\n  a: int = const 1;\n  b: int = add a a;\n  print b;\n}\n").unwrap();
    let report = to_json(&p);
    assert_eq!(report["ir_sha1"], ir_sha1_hex(&p));
    assert_eq!(report["ir_instruction_count"], 3);
    assert_eq!(report["inst_count"]["AddCount"], 1);
    assert_eq!(report["inst_count"].as_object().unwrap().len(), inst_count::LEN);
    assert_eq!(report["inst_count_norm"]["PrintCount"].as_f64(), Some(1.0 / 3.0));
    assert_eq!(report["autophase"]["IntArith"], 1);
    assert_eq!(report["autophase"].as_object().unwrap().len(), autophase::LEN);
    assert_eq!(report["programl"]["nodes"].as_array().unwrap().len(), 7);
    assert_eq!(report["cfg"]["functions"][0]["name"], "main");
    let text = serde_json::to_string_pretty(&report).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), report);
}

#[wasm_bindgen_test(unsupported = test)]
fn large_generated_programs() {
    for seed in 100..104 {
        let p = crate::bril::generator::generate(seed, 400).unwrap();
        let o = observe(&p);
        assert_eq!(o.inst_count[0], p.instr_count() as i64);
        let links = o.programl.edge_links.as_ref().unwrap();
        let n = o.programl.nodes.as_ref().unwrap().shape()[0] as i64;
        let crate::value::ArrayData::I64(v) = links.data() else { panic!("edge links are int64") };
        assert!(v.iter().all(|&x| (0..n).contains(&x)), "seed {seed}");
        let report = serde_json::to_string(&to_json(&p)).unwrap();
        assert!(report.contains(&ir_sha1_hex(&p)));
        assert!(cfg::to_dot(&p).ends_with("}\n"));
    }
}
