//! Programs the feature tests sweep: the whole suite and generated ones.

use crate::bril::{generator, suite, Program};

/// Every suite program and 30 generated ones, with a name for messages.
pub(crate) fn corpus() -> Vec<(String, Program)> {
    let suite = suite::all().iter().map(|b| (b.name.to_string(), b.program().expect("suite program parses")));
    let generated = (0..30u64).map(|seed| {
        (format!("generated {seed}"), generator::generate(seed, 40).expect("generated program parses"))
    });
    suite.chain(generated).collect()
}
