//! `-sink`: code sinking, into the branch that needs a value.
//!
//! In a block ending with a branch, a pure instruction whose result is read
//! along only one of the branch's edges, into a successor that the block
//! alone leads to, moves to the start of that successor, and so do the
//! instructions feeding only it:
//!
//! ```text
//! x = mul a b; br c .then .else      br c .then .else
//! .then: print x                =>   .then: x = mul a b; print x
//! ```
//!
//! Runs along the other edges no longer compute it.
//!
//! Why it is safe: the instruction is pure, no instruction after it in its
//! block writes its operands or reads or writes its result, and no other
//! edge needs its result, so it computes the same value at its new place
//! for every read. The successor has no other predecessor, so the
//! instruction runs at most as often as before. Its operands are certainly
//! assigned where it was, so its reads cannot fail at the new place either.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::{rewrite_drafts_where, Draft};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::{Marks, Set};
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

/// `-sink`.
pub fn sink(program: &mut Program) -> Result<bool> {
    // Code only sinks past a branch.
    let branches = |f: &Function| f.blocks.iter().any(|b| b.terminator().is_some_and(|t| t.op == Op::Br));
    rewrite_drafts_where(program, branches, |_, draft| {
        sink_draft(draft);
        Ok(())
    })
}

/// Sinks code in `f` in place.
#[cfg(test)]
pub(super) fn sink_function(f: &mut Function) {
    let mut draft = Draft::new(f);
    sink_draft(&mut draft);
    if let Some(copy) = draft.into_copy() {
        *f = copy;
    }
}

/// Sinks code in the draft, writing to it only if some code moves.
fn sink_draft(draft: &mut Draft<'_>) {
    let f = draft.get();
    let cfg = Cfg::new(f);
    let branching = |b: BlockId| cfg.is_reachable(b) && cfg.succs[b.index()].len() >= 2;
    if !f.block_ids().any(branching) {
        return;
    }
    let live = Liveness::new(f, &cfg);
    let definite = Definite::new(f, &cfg, &live);
    // Scratch reused from block to block, so each costs its own size.
    let mut read_later = Marks::new(f.vars.len());
    let mut written_later = Marks::new(f.vars.len());
    // Code arriving at the start of each block from its only predecessor.
    // Blocks are visited in reverse postorder, so a block's arrivals are
    // known when it is visited, and may sink on in the same run. Sinking
    // changes what is live only on entry to the receiving block, which its
    // one predecessor has already accounted for.
    let mut arriving: Vec<Vec<Instr>> = vec![Vec::new(); f.blocks.len()];
    let mut rewritten: Vec<(BlockId, Vec<Instr>)> = Vec::new();
    for &b in cfg.rpo.iter().filter(|&&b| branching(b)) {
        let succs = &cfg.succs[b.index()];
        // Successors only this block leads to may receive code (not the
        // entry: the function's start leads there too).
        let own: Vec<bool> = succs
            .iter()
            .map(|&s| s != b && s.index() != 0 && cfg.reachable_preds(s).take(2).count() == 1)
            .collect();
        if !own.contains(&true) {
            continue;
        }
        let arrived = std::mem::take(&mut arriving[b.index()]);
        let instrs: Vec<&Instr> = arrived.iter().chain(&f.block(b).instrs).collect();
        let mut live_into: Vec<LiveInto> =
            succs.iter().map(|s| LiveInto::new(live.live_in.get(s.index()))).collect();
        // Where each variable is first written in the block.
        let mut first_write: FxHashMap<VarId, usize> = FxHashMap::default();
        for (i, instr) in instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                first_write.entry(d).or_insert(i);
            }
        }
        // Whether `a`, read by instruction `i`, is certainly assigned there:
        // written before it in the block; or read by code that arrived
        // (checked where it was, with nothing writing it after); or else
        // live on entry to the block (as the analysis saw it), where
        // `definite` answers.
        let assigned_at = |a: VarId, i: usize| {
            first_write.get(&a).is_some_and(|&w| w < i) || i < arrived.len() || definite.at_entry(b, a)
        };
        read_later.clear();
        written_later.clear();
        let mut moved: Vec<Vec<usize>> = vec![Vec::new(); succs.len()];
        for (i, instr) in instrs.iter().enumerate().rev() {
            let target = instr.def().filter(|_| instr.op.is_pure() && !instr.is_terminator()).and_then(|x| {
                let stays_here = read_later.contains(x.index()) || written_later.contains(x.index());
                let operands_ok =
                    instr.uses().iter().all(|&a| !written_later.contains(a.index()) && assigned_at(a, i));
                let mut needing = (0..succs.len()).filter(|&k| live_into[k].contains(x));
                match (needing.next(), needing.next()) {
                    (Some(k), None) if own[k] && !stays_here && operands_ok => Some((k, x)),
                    _ => None,
                }
            });
            match target {
                Some((k, x)) => {
                    live_into[k].set(x, false);
                    for &a in instr.uses() {
                        live_into[k].set(a, true);
                    }
                    moved[k].push(i);
                }
                None => {
                    for a in instr.uses() {
                        read_later.insert(a.index());
                    }
                    if let Some(d) = instr.def() {
                        written_later.insert(d.index());
                    }
                }
            }
        }
        let mut gone = vec![false; instrs.len()];
        for (k, list) in moved.into_iter().enumerate() {
            if !list.is_empty() {
                list.iter().for_each(|&i| gone[i] = true);
                arriving[succs[k].index()] = list.iter().rev().map(|&i| instrs[i].clone()).collect();
            }
        }
        if gone.contains(&true) || !arrived.is_empty() {
            let kept = instrs.iter().zip(&gone).filter(|(_, &g)| !g).map(|(&i, _)| i.clone()).collect();
            rewritten.push((b, kept));
        }
    }
    if rewritten.is_empty() && arriving.iter().all(Vec::is_empty) {
        return;
    }
    let f = draft.make_mut();
    for (b, code) in rewritten {
        f.block_mut(b).instrs = code;
    }
    // Code arriving at blocks that were not visited (they do not branch).
    for (b, code) in arriving.into_iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        f.block_mut(BlockId::new(b)).instrs.splice(0..0, code);
    }
}

/// The variables live on entry to a successor as the sinking goes: the
/// analysis's set, with the changes the moves made (few, so they are
/// kept apart instead of copying the set).
struct LiveInto<'a> {
    base: Set<'a>,
    changed: FxHashMap<VarId, bool>,
}

impl<'a> LiveInto<'a> {
    fn new(base: Set<'a>) -> LiveInto<'a> {
        LiveInto { base, changed: FxHashMap::default() }
    }

    fn contains(&self, v: VarId) -> bool {
        match self.changed.get(&v) {
            Some(&live) => live,
            None => self.base.contains(v.index()),
        }
    }

    fn set(&mut self, v: VarId, live: bool) {
        self.changed.insert(v, live);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn a_value_one_branch_needs_moves_into_it_with_what_feeds_it() {
        let src = "@main(c: bool, a: int, b: int) {\n  x: int = mul a b;\n  y: int = add x a;\n  z: int = add a b;\n  br c .then .else;\n.then:\n  print y;\n  ret;\n.else:\n  print z;\n}\n";
        let mut p = parse_text(src).unwrap();
        let args = |c: &str| vec![c.to_string(), "3".to_string(), "4".to_string()];
        let before =
            [run(&p, &args("true"), &Limits::default()), run(&p, &args("false"), &Limits::default())];
        assert!(sink(&mut p).unwrap());
        assert_eq!(
            to_text(&p),
            "@main(c: bool, a: int, b: int) {\n  br c .then .else;\n.then:\n  x: int = mul a b;\n  y: int = add x a;\n  print y;\n  ret;\n.else:\n  z: int = add a b;\n  print z;\n}\n"
        );
        let after = [run(&p, &args("true"), &Limits::default()), run(&p, &args("false"), &Limits::default())];
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.stdout, b.stdout);
        }
        assert_eq!((after[0].dyn_inst + 1, after[1].dyn_inst + 2), (before[0].dyn_inst, before[1].dyn_inst));
        assert!(!sink(&mut p).unwrap());
    }

    #[test]
    fn values_needed_on_both_sides_read_later_or_into_joins_stay() {
        let sources = [
            "@main(c: bool, a: int) {\n  x: int = add a a;\n  br c .l .r;\n.l:\n  print x;\n  ret;\n.r:\n  print x;\n}\n",
            "@main(c: bool, a: int) {\n  x: int = add a a;\n  print x;\n  br c .l .r;\n.l:\n  print x;\n  ret;\n.r:\n}\n",
            // .l has another predecessor.
            "@main(c: bool, a: int) {\n  x: int = const 1;\n  br c .pre .l;\n.pre:\n  x: int = add a a;\n  br c .l .r;\n.l:\n  print x;\n  ret;\n.r:\n  print a;\n}\n",
            // The operand is written after the instruction.
            "@main(c: bool, a: int) {\n  x: int = add a a;\n  a: int = const 0;\n  br c .l .r;\n.l:\n  print x a;\n  ret;\n.r:\n  print a;\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!sink(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| sink(p));
    }
}
