//! The npm manifest (pkg.json) and the crate agree on what the package is.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

fn manifest() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pkg.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn version_matches_cargo() {
    assert_eq!(manifest()["version"], compgym::VERSION);
}

#[test]
fn name_license_and_entry_points() {
    let m = manifest();
    assert_eq!(m["name"], "compgym");
    assert_eq!(m["license"], "MIT");
    assert_eq!(m["type"], "module");
    let dot = &m["exports"]["."];
    assert_eq!(dot["types"], "./compgym.d.ts");
    assert_eq!(dot["node"], "./node.js");
    assert_eq!(dot["default"], "./index.js");
    let files: Vec<&str> = m["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    for needed in ["index.js", "node.js", "compgym.js", "compgym_bg.wasm", "compgym.d.ts"] {
        assert!(files.contains(&needed), "files lacks {needed}");
    }
}
