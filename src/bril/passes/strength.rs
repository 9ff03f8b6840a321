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
use crate::bril::analysis::edit::rewrite_drafts_where;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::{ensure_preheaders, find_loops, may_have_loops, Loop};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::error::Result;

/// `-strength-reduce`. A function with no loop is not even looked at, and
/// one with no product to reduce is not copied.
pub fn strength_reduce(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(program, may_have_loops, |_, draft| {
        draft.sweep(MAX_SWEEPS, plan, apply);
        Ok(())
    })
}

/// A product to rewrite: the induction variable's update and the factors,
/// and every multiplication of those factors in the loop.
struct Candidate {
    update: (BlockId, usize),
    iv: VarId,
    step: VarId,
    factor: VarId,
    products: Vec<(BlockId, usize)>,
}

/// Sweeps at most: each reduces every candidate of every loop; the next
/// finds what the first exposed (almost never anything).
const MAX_SWEEPS: usize = 8;

/// Scratch shared by the loops of one sweep: the definitions each variable
/// has in the current loop (reset through `touched`), and the products an
/// inner loop already took.
struct Scratch {
    defs: Vec<Vec<(BlockId, usize)>>,
    touched: Vec<VarId>,
    taken: Vec<Vec<bool>>,
}

/// Definite assignment, computed the first time a candidate needs it.
struct Lazy<'a> {
    f: &'a Function,
    cfg: &'a Cfg,
    cell: std::cell::OnceCell<Definite>,
}

impl Lazy<'_> {
    fn get(&self) -> &Definite {
        self.cell.get_or_init(|| Definite::new(self.f, self.cfg, &Liveness::new(self.f, self.cfg)))
    }
}

/// Every candidate of `lp`, in body order, one per pair of factors.
fn candidates(f: &Function, cfg: &Cfg, definite: &Lazy, lp: &Loop, s: &mut Scratch) -> Vec<Candidate> {
    for v in s.touched.drain(..) {
        s.defs[v.index()].clear();
    }
    for &b in &lp.body {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                if s.defs[d.index()].is_empty() {
                    s.touched.push(d);
                }
                s.defs[d.index()].push((b, i));
            }
        }
    }
    let defs = &s.defs;
    let outside: Vec<BlockId> =
        cfg.preds[lp.header.index()].iter().copied().filter(|&p| !lp.contains(p)).collect();
    // Certainly assigned on every edge into the header from outside (each
    // variable asked about is read in the loop before any write there).
    let assigned_on_entry = |v: VarId| outside.iter().all(|&p| definite.get().at_exit(p, v));
    let unwritten = |v: VarId| defs[v.index()].is_empty();
    // The update `i = add i c` of a basic induction variable `i`, if `v` is
    // one, by the loop's code alone (the costly definite assignment is
    // asked last, of a pair that passes every other test).
    let basic = |v: VarId| -> Option<((BlockId, usize), VarId)> {
        let [(b, i)] = defs[v.index()][..] else { return None };
        let instr = &f.block(b).instrs[i];
        let step = match (instr.op, instr.args.first(), instr.args.get(1)) {
            (Op::Add, Some(&x), Some(&c)) if x == v => c,
            (Op::Add, Some(&c), Some(&x)) if x == v => c,
            _ => return None,
        };
        (step != v && unwritten(step)).then_some(((b, i), step))
    };
    let mut found: Vec<Candidate> = Vec::new();
    for &b in &lp.body {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if instr.op != Op::Mul || instr.dest.map(|d| d.ty) != Some(Type::INT) || s.taken[b.index()][i] {
                continue;
            }
            let (Some(&x), Some(&y)) = (instr.args.first(), instr.args.get(1)) else { continue };
            // Multiplications by the same pair share one candidate.
            if let Some(c) =
                found.iter_mut().find(|c| (c.iv, c.factor) == (x, y) || (c.iv, c.factor) == (y, x))
            {
                c.products.push((b, i));
                continue;
            }
            for (iv, factor) in [(x, y), (y, x)] {
                let Some((update, step)) = basic(iv).filter(|_| unwritten(factor)) else { continue };
                if [step, iv, factor].into_iter().all(assigned_on_entry) {
                    found.push(Candidate { update, iv, step, factor, products: vec![(b, i)] });
                    break;
                }
            }
        }
    }
    for c in &found {
        for &(b, i) in &c.products {
            s.taken[b.index()][i] = true;
        }
    }
    found
}

/// What one sweep rewrites: the candidates of every loop that has some
/// (by index in `loops`), innermost first.
struct Plan {
    cfg: Cfg,
    loops: Vec<Loop>,
    candidates: Vec<(usize, Vec<Candidate>)>,
}

/// The sweep `f` calls for, or `None` when no loop has a product to reduce.
fn plan(f: &Function) -> Option<Plan> {
    if f.blocks.is_empty() {
        return None;
    }
    let cfg = Cfg::new(f);
    let dom = Dominators::new(&cfg);
    let loops = find_loops(&cfg, &dom);
    if loops.is_empty() {
        return None;
    }
    let definite = Lazy { f, cfg: &cfg, cell: std::cell::OnceCell::new() };
    let mut scratch = Scratch {
        defs: vec![Vec::new(); f.vars.len()],
        touched: Vec::new(),
        taken: f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect(),
    };
    let mut plans: Vec<(usize, Vec<Candidate>)> = Vec::new();
    for (k, lp) in loops.iter().enumerate() {
        let found = candidates(f, &cfg, &definite, lp, &mut scratch);
        if !found.is_empty() {
            plans.push((k, found));
        }
    }
    if plans.is_empty() {
        return None;
    }
    Some(Plan { cfg, loops, candidates: plans })
}

/// Carries out `plan` (made on `f` as it stands): makes the preheaders and
/// rewrites the products. Whether `f` changed.
fn apply(f: &mut Function, plan: Plan) -> bool {
    let Plan { cfg, loops, candidates: plans } = plan;
    let wanted: Vec<&Loop> = plans.iter().map(|(k, _)| &loops[*k]).collect();
    let made = ensure_preheaders(f, &cfg, &wanted);
    let at = |(b, i): (BlockId, usize)| (made.renumbered[b.index()], i);
    let mut names = FreshNames::vars(f);
    // Additions to make right after each update, by block.
    let mut after_update: Vec<Vec<(usize, Instr)>> = vec![Vec::new(); f.blocks.len()];
    let mut changed = made.changed;
    for ((_, found), pre) in plans.into_iter().zip(&made.of_loop) {
        let Some(pre) = *pre else { continue };
        for c in found {
            let hint = format!("{}.x.{}", f.var_name(c.iv), f.var_name(c.factor));
            let s = names.fresh_var(f, &hint);
            let st = names.fresh_var(f, &format!("{hint}.step"));
            for &p in &c.products {
                let (b, i) = at(p);
                let instr = &mut f.block_mut(b).instrs[i];
                if let Some(d) = instr.dest {
                    *instr = Instr::value(Op::Id, d.var, d.ty, &[s]).with_pos(instr.pos);
                }
            }
            let (ub, ui) = at(c.update);
            after_update[ub.index()].push((ui, Instr::value(Op::Add, s, Type::INT, &[s, st])));
            let block = f.block_mut(pre);
            let end = block.instrs.len() - usize::from(block.terminator().is_some());
            block.instrs.splice(
                end..end,
                [
                    Instr::value(Op::Mul, s, Type::INT, &[c.iv, c.factor]),
                    Instr::value(Op::Mul, st, Type::INT, &[c.step, c.factor]),
                ],
            );
            changed = true;
        }
    }
    for (b, mut adds) in after_update.into_iter().enumerate() {
        if adds.is_empty() {
            continue;
        }
        adds.sort_by_key(|&(ui, _)| ui);
        let old = std::mem::take(&mut f.blocks[b].instrs);
        let mut adds = adds.into_iter().peekable();
        let mut out = Vec::with_capacity(old.len() + adds.len());
        for (i, instr) in old.into_iter().enumerate() {
            out.push(instr);
            while let Some((_, add)) = adds.next_if(|&(ui, _)| ui == i) {
                out.push(add);
            }
        }
        f.blocks[b].instrs = out;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
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
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| strength_reduce(p));
    }
}
