//! The pipelines against the community benchmarks: -O2 cuts the geometric
//! mean of dynamic instruction counts by at least 30% and breaks nothing;
//! -Oz cuts the static count more than any other pipeline.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use compgym::bril::interp::Limits;
use compgym::bril::passes::quality::{geomean_ratio, measure, ProgramQuality};

fn community_results() -> Vec<ProgramQuality> {
    // Programs without a reference output never finish under brili either.
    common::community()
        .into_iter()
        .filter(|c| c.reference_dyn.is_some())
        .map(|c| {
            let name = c.path.display().to_string();
            measure(&name, &c.program, &c.program.main_args(), &Limits::default()).unwrap()
        })
        .collect()
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
