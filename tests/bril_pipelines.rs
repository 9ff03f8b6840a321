//! The pipelines against the community benchmarks: -O2 cuts the geometric
//! mean of dynamic instruction counts by at least 30% and breaks nothing;
//! -Oz cuts the static count more than any other pipeline.
#![cfg(not(target_arch = "wasm32"))]

use compgym::bril::interp::Limits;
use compgym::bril::parse_text;
use compgym::bril::passes::quality::{geomean_ratio, measure, ProgramQuality};

fn community_results() -> Vec<ProgramQuality> {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bril-bench"));
    assert!(root.is_dir(), "benchmark folder {} is missing", root.display());
    let mut results = Vec::new();
    for dir in std::fs::read_dir(root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            // Programs without a reference output never finish under brili either.
            if path.extension().is_some_and(|e| e == "bril") && path.with_extension("out").exists() {
                let program = parse_text(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let name = path.display().to_string();
                results.push(measure(&name, &program, &program.main_args(), &Limits::default()).unwrap());
            }
        }
    }
    assert!(results.len() >= 80);
    results
}

#[test]
fn pipelines_meet_their_goals_and_break_nothing() {
    let results = community_results();
    for r in &results {
        for (pipeline, m) in &r.measures {
            assert!(m.same_output, "{pipeline} changed the output of {}", r.name);
        }
    }
    let dynamic_cut = 1.0 - geomean_ratio(&results, "-O2", |m| m.dyn_count as f64);
    assert!(dynamic_cut >= 0.30, "-O2 cuts only {:.1}% of dynamic instructions", 100.0 * dynamic_cut);
    let static_cut = |p: &str| 1.0 - geomean_ratio(&results, p, |m| m.static_count as f64);
    for other in ["-O1", "-O2"] {
        assert!(
            static_cut("-Oz") > static_cut(other),
            "-Oz {} vs {other} {}",
            static_cut("-Oz"),
            static_cut(other)
        );
    }
}
