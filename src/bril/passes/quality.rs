//! How much the pipelines optimise: static and dynamic instruction counts of
//! programs before and after each pipeline, with outputs checked. The
//! numbers behind `compgym bench-passes`.

use super::{pipelines, run_pipeline};
use crate::bril::interp::{run, Limits};
use crate::bril::Program;
use crate::error::Result;

/// One program under one pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub static_count: i64,
    pub dyn_count: u64,
    /// The output and success equal the unoptimised program's.
    pub same_output: bool,
}

/// One program under every pipeline (`-O0` first).
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramQuality {
    pub name: String,
    pub measures: Vec<(&'static str, Measure)>,
}

/// Measures `program` run on `args` under every pipeline (a VerifyError
/// if the program is not well formed).
pub fn measure(name: &str, program: &Program, args: &[String], limits: &Limits) -> Result<ProgramQuality> {
    crate::bril::verify(program)?;
    let baseline = run(program, args, limits);
    let mut measures = Vec::new();
    for pipeline in pipelines() {
        let mut optimised = program.clone();
        run_pipeline(&mut optimised, pipeline)?;
        let outcome = run(&optimised, args, limits);
        measures.push((
            pipeline,
            Measure {
                static_count: optimised.instr_count() as i64,
                dyn_count: outcome.dyn_inst,
                same_output: outcome.stdout == baseline.stdout && outcome.is_ok() == baseline.is_ok(),
            },
        ));
    }
    Ok(ProgramQuality { name: name.to_string(), measures })
}

/// The geometric mean over programs of `after / before` for one pipeline,
/// where `count` picks the static or the dynamic count.
pub fn geomean_ratio(results: &[ProgramQuality], pipeline: &str, count: impl Fn(&Measure) -> f64) -> f64 {
    let logs: Vec<f64> = results
        .iter()
        .filter_map(|r| {
            let before = count(&r.measures.first()?.1);
            let after = count(&r.measures.iter().find(|(p, _)| *p == pipeline)?.1);
            (before > 0.0 && after > 0.0).then(|| (after / before).ln())
        })
        .collect();
    if logs.is_empty() {
        1.0
    } else {
        (logs.iter().sum::<f64>() / logs.len() as f64).exp()
    }
}
