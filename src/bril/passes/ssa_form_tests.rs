//! Every pass on programs in SSA form (`set`/`get`, as `-to-ssa` leaves
//! them): the result verifies (a `get` stays its variable's only writer),
//! prints the same output, and is reported changed exactly when it is.

use crate::bril::passes::registry;
use crate::bril::passes::ssa::to_ssa;
use crate::bril::passes::testing::{check_pass_on, corpus, Case, Rerun};

#[test]
fn every_pass_keeps_ssa_form_programs_well_formed_and_their_output() {
    let mut cases: Vec<Case> = corpus(0);
    for seed in 0..100 {
        let program = crate::bril::generator::generate(seed, 60).unwrap();
        let args = program.main_args();
        cases.push(Case { name: format!("generator://random-v0/{seed}"), program, args });
    }
    for case in &mut cases {
        to_ssa(&mut case.program).unwrap();
    }
    assert!(
        cases
            .iter()
            .filter(|c| c.program.functions.iter().any(|f| f.instrs().any(|i| i.op == crate::bril::Op::Get)))
            .count()
            > 100
    );
    for info in registry() {
        for case in &cases {
            check_pass_on(case, &|p| (info.run)(p), Rerun::of(info.flag));
        }
    }
}
