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
use crate::bril::ir::{BlockId, Function, Op, Program, VarId};
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

/// The first instruction of `lp` that may move to its preheader.
fn hoistable(f: &Function, cfg: &Cfg, lp: &Loop) -> Option<(BlockId, usize)> {
    let mut defs_in_loop = vec![0u32; f.vars.len()];
    for &b in &lp.body {
        for d in f.block(b).instrs.iter().filter_map(|i| i.def()) {
            defs_in_loop[d.index()] += 1;
        }
    }
    let live = Liveness::new(f, cfg);
    let definite = Definite::new(f, cfg);
    for &b in &lp.body {
        let defined = definite.before_each(f, b);
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            let Some(d) = instr.def() else { continue };
            let movable = match instr.op {
                Op::Div => instr.args.get(1).is_some_and(|&v| nonzero_constant(f, v)),
                op => op.is_pure(),
            };
            if movable
                && defs_in_loop[d.index()] == 1
                && !live.live_in[lp.header.index()].contains(d.index())
                && instr.args.iter().all(|a| defs_in_loop[a.index()] == 0 && defined[i].contains(a.index()))
            {
                return Some((b, i));
            }
        }
    }
    None
}

fn licm_function(f: &mut Function) {
    // Each round moves one instruction out of one loop (or makes one
    // preheader), so the count of rounds is bounded by the code's size.
    let rounds = 2 * f.instr_count() + 2 * f.blocks.len() + 4;
    for _ in 0..rounds {
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let loops = find_loops(&cfg, &dom);
        let Some((lp, (b, i))) = loops.iter().find_map(|lp| hoistable(f, &cfg, lp).map(|at| (lp, at))) else {
            return;
        };
        let Some((pre, inserted)) = ensure_preheader(f, &cfg, lp) else { return };
        if inserted {
            continue; // block numbers moved: analyse again
        }
        let instr = f.block_mut(b).instrs.remove(i);
        let block = f.block_mut(pre);
        let at = block.instrs.len() - usize::from(block.terminator().is_some());
        block.instrs.insert(at, instr);
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
