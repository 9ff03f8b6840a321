//! `-licm`: loop-invariant code motion into preheaders.
//!
//! Innermost loops first, an instruction `d = op args` moves to the loop's
//! preheader (made if missing) when:
//! - `op` is pure (no effect, cannot fail), or `div` by a variable whose
//!   every definition is the same nonzero `const`;
//! - no argument is written anywhere in the loop, and each is certainly
//!   assigned there (so the preheader can read it);
//! - the loop writes `d` only here, and `d` is not live on entry to the
//!   header (no read in or after the loop sees an older `d`).
//!
//! Why it is safe: the arguments hold the same values in the preheader as
//! at every iteration, so `d` gets the value it would get in the loop, and
//! every read of `d` the loop's code or its exits make is reached only
//! through this definition. Executing it when the loop would not have is
//! harmless: it cannot fail and has no effect.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::rewrite_functions;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::{ensure_preheader, find_loops, Loop};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

/// `-licm`.
pub fn licm(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        licm_function(f);
        Ok(())
    })
}

/// Whether every definition of `v` is a `const` of one nonzero value (so a
/// division by it cannot fail).
fn nonzero_constant(f: &Function, v: VarId) -> bool {
    if f.params.iter().any(|p| p.var == v) {
        return false;
    }
    let mut value = None;
    for i in f.instrs().filter(|i| i.def() == Some(v)) {
        match const_bits(i) {
            Some(b) if b != 0 && value.is_none_or(|x| x == b) => value = Some(b),
            _ => return false,
        }
    }
    value.is_some()
}

/// The instructions of `lp` that may move to its preheader, in an order
/// that keeps each after the invariants it reads.
fn hoistable(f: &Function, lp: &Loop, live: &Liveness, definite: &Definite) -> Vec<(BlockId, usize)> {
    let mut defs_in_loop = vec![0u32; f.vars.len()];
    for &b in &lp.body {
        for d in f.block(b).instrs.iter().filter_map(|i| i.def()) {
            defs_in_loop[d.index()] += 1;
        }
    }
    let defined: Vec<_> = lp.body.iter().map(|&b| definite.before_each(f, b)).collect();
    let mut hoisted_var = vec![false; f.vars.len()];
    let mut order = Vec::new();
    let mut taken: Vec<Vec<bool>> = lp.body.iter().map(|&b| vec![false; f.block(b).instrs.len()]).collect();
    // Moving one instruction can make those reading its result invariant: repeat.
    loop {
        let mut progress = false;
        for (k, &b) in lp.body.iter().enumerate() {
            for (i, instr) in f.block(b).instrs.iter().enumerate() {
                let Some(d) = instr.def() else { continue };
                if taken[k][i] {
                    continue;
                }
                let movable = match instr.op {
                    Op::Div => instr.args.get(1).is_some_and(|&v| nonzero_constant(f, v)),
                    op => op.is_pure(),
                };
                let invariant_arg = |a: &VarId| {
                    hoisted_var[a.index()]
                        || (defs_in_loop[a.index()] == 0 && defined[k][i].contains(a.index()))
                };
                if movable
                    && defs_in_loop[d.index()] == 1
                    && !live.live_in[lp.header.index()].contains(d.index())
                    && instr.args.iter().all(invariant_arg)
                {
                    taken[k][i] = true;
                    hoisted_var[d.index()] = true;
                    order.push((b, i));
                    progress = true;
                }
            }
        }
        if !progress {
            return order;
        }
    }
}

fn licm_function(f: &mut Function) {
    // Each round makes one preheader or empties one loop of its invariants,
    // so the number of rounds is bounded by twice the number of loops.
    let rounds = 2 * f.blocks.len() + 4;
    for _ in 0..rounds {
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let loops = find_loops(&cfg, &dom);
        let live = Liveness::new(f, &cfg);
        let definite = Definite::new(f, &cfg);
        let Some((lp, moves)) = loops.iter().find_map(|lp| {
            let moves = hoistable(f, lp, &live, &definite);
            (!moves.is_empty()).then_some((lp, moves))
        }) else {
            return;
        };
        let Some((pre, inserted)) = ensure_preheader(f, &cfg, lp) else { return };
        if inserted {
            continue; // block numbers moved: analyse again
        }
        let mut moved = Vec::with_capacity(moves.len());
        for &(b, i) in &moves {
            moved.push(std::mem::replace(&mut f.block_mut(b).instrs[i], Instr::new(Op::Nop)));
        }
        let mut gone: Vec<(BlockId, usize)> = moves;
        gone.sort();
        for &(b, i) in gone.iter().rev() {
            f.block_mut(b).instrs.remove(i);
        }
        let block = f.block_mut(pre);
        let at = block.instrs.len() - usize::from(block.terminator().is_some());
        block.instrs.splice(at..at, moved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::global_tests::check_global_pass as check_pass;
    use crate::bril::{parse_text, to_text};

    const LOOP: &str = "@main(n: int, m: int) {\n  i: int = const 0;\n.loop:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  one: int = const 1;\n  k: int = mul m m;\n  t: int = add k one;\n  ten: int = const 10;\n  q: int = div t ten;\n  r: int = div t m;\n  i: int = add i one;\n  print q r;\n  jmp .loop;\n.done:\n  print i;\n}";

    #[test]
    fn hoists_invariant_chains_but_not_a_possibly_failing_division() {
        let mut p = parse_text(LOOP).unwrap();
        let args = ["4".to_string(), "3".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(licm(&mut p).unwrap());
        let after = run(&p, &args, &Limits::default());
        assert_eq!(before.stdout, after.stdout);
        assert_eq!(after.dyn_inst + 5 * 4 - 5, before.dyn_inst, "five instructions run once, not four times");
        let text = to_text(&p);
        let body = &text[text.find(".body:").unwrap()..];
        assert!(body.contains("r: int = div t m;") && !body.contains("q: int"), "{text}");
        assert!(!licm(&mut p).unwrap());
    }

    #[test]
    fn leaves_variables_read_before_their_definition_in_the_loop() {
        let src = "@main {\n  i: int = const 0;\n  x: int = const 5;\n.loop:\n  print x;\n  x: int = const 7;\n  one: int = const 1;\n  i: int = add i one;\n  c: bool = lt i one;\n  br c .loop .done;\n.done:\n}";
        let mut p = parse_text(src).unwrap();
        licm(&mut p).unwrap();
        let text = to_text(&p);
        assert!(text[text.find(".loop:").unwrap()..].contains("x: int = const 7;"), "{text}");
    }

    #[test]
    fn semantics() {
        check_pass(&|p| licm(p));
    }
}
