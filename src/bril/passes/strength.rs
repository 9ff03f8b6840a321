//! `-strength-reduce`: induction-variable strength reduction.
//!
//! In a loop where `i` is a basic induction variable (written in the loop
//! only by `i = add i c`, `c` invariant), a product `x = mul i k` with `k`
//! invariant becomes `x = id s`, where `s` is a new variable kept equal to
//! `i * k`: `s = mul i k` and `st = mul c k` in the preheader, and
//! `s = add s st` right after the update of `i`. `-copy-prop` and `-adce`
//! then remove the copies. Multiplications by the same `(i, k)` share `s`.
//!
//! Why it is safe: with 64-bit wrapping arithmetic `(i + c) * k` is exactly
//! `i * k + c * k`, so `s` equals `i * k` everywhere in the loop: it is set
//! on every entry (the preheader) and follows every change of `i`. Products
//! cannot fail, and the preheader reads only variables certainly assigned.
//!
//! Cost model note: `mul` and `add` cost one instruction each here, so the
//! dynamic count does not drop by itself (it can rise by the two preheader
//! instructions per loop entry); the gain is on machines where a multiply
//! costs more, and in exposing `s` to further rewrites.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::rewrite_functions;
use crate::bril::analysis::loops::{ensure_preheader, find_loops, Loop};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, Type, VarId};
use crate::error::Result;

/// `-strength-reduce`.
pub fn strength_reduce(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        reduce_function(f);
        Ok(())
    })
}

/// A product to rewrite: the induction variable's update and the factors.
struct Candidate {
    update: (BlockId, usize),
    iv: VarId,
    step: VarId,
    factor: VarId,
}

fn find_candidate(f: &Function, cfg: &Cfg, lp: &Loop) -> Option<Candidate> {
    let mut defs: Vec<Vec<(BlockId, usize)>> = vec![Vec::new(); f.vars.len()];
    for &b in &lp.body {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                defs[d.index()].push((b, i));
            }
        }
    }
    let definite = Definite::new(f, cfg);
    // Certainly assigned on every edge into the header from outside.
    let assigned_on_entry = |v: VarId| {
        cfg.preds[lp.header.index()]
            .iter()
            .filter(|&&p| !lp.contains(p))
            .all(|p| definite.after[p.index()].contains(v.index()))
    };
    let invariant = |v: VarId| defs[v.index()].is_empty() && assigned_on_entry(v);
    // The update `i = add i c` of a basic induction variable `i`, if `v` is one.
    let basic = |v: VarId| -> Option<((BlockId, usize), VarId)> {
        let [(b, i)] = defs[v.index()][..] else { return None };
        let instr = &f.block(b).instrs[i];
        let step = match (instr.op, instr.args.first(), instr.args.get(1)) {
            (Op::Add, Some(&x), Some(&c)) if x == v => c,
            (Op::Add, Some(&c), Some(&x)) if x == v => c,
            _ => return None,
        };
        (step != v && invariant(step) && assigned_on_entry(v)).then_some(((b, i), step))
    };
    for &b in &lp.body {
        for instr in &f.block(b).instrs {
            if instr.op != Op::Mul || instr.dest.map(|d| d.ty) != Some(Type::INT) {
                continue;
            }
            let (Some(&x), Some(&y)) = (instr.args.first(), instr.args.get(1)) else { continue };
            for (iv, factor) in [(x, y), (y, x)] {
                if let (Some((update, step)), true) = (basic(iv), invariant(factor)) {
                    return Some(Candidate { update, iv, step, factor });
                }
            }
        }
    }
    None
}

fn reduce_function(f: &mut Function) {
    let rounds = f.instr_count() + f.blocks.len() + 4;
    for _ in 0..rounds {
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let loops = find_loops(&cfg, &dom);
        let Some((lp, c)) = loops.iter().find_map(|lp| find_candidate(f, &cfg, lp).map(|c| (lp, c))) else {
            return;
        };
        let Some((pre, inserted)) = ensure_preheader(f, &cfg, lp) else { return };
        if inserted {
            continue;
        }
        let hint = format!("{}.x.{}", f.var_name(c.iv), f.var_name(c.factor));
        let s = f.fresh_var(&hint);
        let st = f.fresh_var(&format!("{hint}.step"));
        // Every product of the same two factors in the loop reads `s`.
        for &b in &lp.body {
            for instr in &mut f.block_mut(b).instrs {
                let same = instr.op == Op::Mul
                    && instr.dest.map(|d| d.ty) == Some(Type::INT)
                    && (instr.args[..] == [c.iv, c.factor] || instr.args[..] == [c.factor, c.iv]);
                if let (true, Some(d)) = (same, instr.dest) {
                    *instr = Instr::value(Op::Id, d.var, d.ty, &[s]).with_pos(instr.pos);
                }
            }
        }
        let (ub, ui) = c.update;
        f.block_mut(ub).instrs.insert(ui + 1, Instr::value(Op::Add, s, Type::INT, &[s, st]));
        let block = f.block_mut(pre);
        let at = block.instrs.len() - usize::from(block.terminator().is_some());
        block.instrs.insert(at, Instr::value(Op::Mul, st, Type::INT, &[c.step, c.factor]));
        block.instrs.insert(at, Instr::value(Op::Mul, s, Type::INT, &[c.iv, c.factor]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::global_tests::check_global_pass as check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn products_of_the_counter_become_additions() {
        let src = "@main(n: int) {\n  one: int = const 1;\n  five: int = const 5;\n  i: int = const 0;\n  s: int = const 0;\n.loop:\n  go: bool = lt i n;\n  br go .body .end;\n.body:\n  a: int = mul i five;\n  b: int = mul five i;\n  s: int = add s a;\n  s: int = add s b;\n  i: int = add i one;\n  jmp .loop;\n.end:\n  print s;\n}";
        let mut p = parse_text(src).unwrap();
        let args = ["7".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(strength_reduce(&mut p).unwrap());
        let text = to_text(&p);
        let body = &text[text.find(".body:").unwrap()..];
        assert!(!body.contains("mul"), "{text}");
        assert_eq!(run(&p, &args, &Limits::default()).stdout, before.stdout);
        assert!(!strength_reduce(&mut p).unwrap(), "{}", to_text(&p));
    }

    #[test]
    fn semantics() {
        check_pass(&|p| strength_reduce(p));
    }
}
