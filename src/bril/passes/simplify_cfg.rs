//! `-simplify-cfg`: tidy the control-flow graph until nothing changes.
//!
//! - removes blocks the entry cannot reach;
//! - folds `br c .a .a`, and `br` on a condition set by a `const` earlier in
//!   the same block, into `jmp`;
//! - threads jumps: an edge into a block that only jumps (or is empty and
//!   falls through) goes straight to where that block leads;
//! - merges a block into its only predecessor when that predecessor only
//!   leads to it;
//! - drops a `jmp` to the very next block.
//!
//! Why it is safe: every rewrite keeps the sequence of non-jump instructions
//! each run executes; only jumps disappear. A branch's condition read is
//! dropped only when the variable is certainly assigned there (reading an
//! unassigned variable is an error that must stay one). Merges that would
//! need a new jump or return are not made, so fallthrough stays exact.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::{
    falls_through, is_jump_to_next, remove_blocks, remove_unreachable, rewrite_functions_where,
};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::bril::names::FreshNames;
use crate::error::Result;

/// `-simplify-cfg`.
pub fn simplify_cfg(program: &mut Program) -> Result<bool> {
    rewrite_functions_where(program, has_edges, |_, f| simplify_function(f))
}

/// Whether `f`'s CFG has an edge: a second block, or a `jmp` or `br` (a
/// one-block loop). Every rewrite here removes a block or an edge, or a
/// jump; a function without an edge is left alone, uncopied.
pub(crate) fn has_edges(f: &Function) -> bool {
    f.blocks.len() > 1 || f.instrs().any(|i| matches!(i.op, Op::Jmp | Op::Br))
}

pub(crate) fn simplify_function(f: &mut Function) -> Result<()> {
    // Each round removes an instruction or a block, or redirects an edge
    // closer to its end; the bound only guards against a cycle of forwarders.
    let rounds = 4 * (f.blocks.len() + f.instr_count()) + 8;
    for _ in 0..rounds {
        let mut changed = remove_unreachable(f)?;
        changed |= fold_branches(f);
        changed |= thread_jumps(f);
        changed |= merge_blocks(f)?;
        changed |= drop_jumps_to_next(f);
        if !changed {
            break;
        }
    }
    Ok(())
}

/// The condition's value when the last write to it in the block is a `const`.
fn local_constant(instrs: &[Instr], cond: crate::bril::VarId) -> Option<bool> {
    let def = instrs.iter().rev().skip(1).find(|i| i.def() == Some(cond))?;
    const_bits(def).map(|b| b != 0)
}

fn fold_branches(f: &mut Function) -> bool {
    // Definite assignment is only needed for `br c .a .a`: computed on demand.
    let mut definite: Option<(Definite, Marks)> = None;
    let mut changed = false;
    for b in f.block_ids() {
        let n = f.block(b).instrs.len();
        let Some(t) = f.block(b).terminator().filter(|t| t.op == Op::Br) else { continue };
        let (Some(&cond), Some(&then), Some(&otherwise)) =
            (t.args.first(), t.labels.first(), t.labels.get(1))
        else {
            continue;
        };
        let pos = t.pos;
        let target = if let Some(c) = local_constant(&f.block(b).instrs, cond) {
            Some(if c { then } else { otherwise })
        } else if then == otherwise {
            let (definite, scratch) = definite.get_or_insert_with(|| {
                let cfg = Cfg::new(f);
                let live = Liveness::new(f, &cfg);
                (Definite::new(f, &cfg, &live), Marks::new(f.vars.len()))
            });
            let mut assigned = false;
            definite.walk(f, b, scratch, |i, _, a| {
                if i + 1 == n {
                    assigned = a.contains(cond);
                }
            });
            assigned.then_some(then)
        } else {
            None
        };
        if let Some(target) = target {
            f.block_mut(b).instrs[n - 1] = Instr::jmp(target).with_pos(pos);
            changed = true;
        }
    }
    changed
}

/// Where a block that does nothing but pass control on leads.
fn forward_target(f: &Function, b: BlockId) -> Option<BlockId> {
    let block = f.block(b);
    match &block.instrs[..] {
        [j] if j.op == Op::Jmp => j.labels.first().copied().filter(|&t| t != b),
        [] if b.index() + 1 < f.blocks.len() => Some(BlockId::new(b.index() + 1)),
        _ => None,
    }
}

/// Where control entering each block ends up after following forwarders:
/// the first block that does something, or the block itself when the
/// forwarders from it run into a cycle (an empty infinite loop stays).
fn resolve_forwarders(f: &Function) -> Vec<BlockId> {
    let n = f.blocks.len();
    // Some(Some(t)): leads to t; Some(None): runs into a cycle.
    let mut end: Vec<Option<Option<BlockId>>> = vec![None; n];
    let mut on_path = vec![false; n];
    let mut path = Vec::new();
    for start in 0..n {
        let mut x = BlockId::new(start);
        let found = loop {
            if let Some(e) = end[x.index()] {
                break e;
            }
            if on_path[x.index()] {
                break None;
            }
            on_path[x.index()] = true;
            path.push(x);
            match forward_target(f, x) {
                Some(next) => x = next,
                None => break Some(x),
            }
        };
        for b in path.drain(..) {
            on_path[b.index()] = false;
            end[b.index()] = Some(found);
        }
    }
    end.into_iter().enumerate().map(|(b, e)| e.flatten().unwrap_or(BlockId::new(b))).collect()
}

fn thread_jumps(f: &mut Function) -> bool {
    let end = resolve_forwarders(f);
    let mut labels_taken: Option<FreshNames> = None;
    let mut changed = false;
    for b in 0..f.blocks.len() {
        let Some(t) = f.blocks[b].instrs.last().filter(|i| i.is_terminator()) else { continue };
        let mut labels = t.labels.clone();
        let mut edited = false;
        for l in labels.iter_mut() {
            let target = end[l.index()];
            if target != *l {
                *l = target;
                edited = true;
            }
        }
        if edited {
            for &l in labels.iter() {
                if f.block(l).label.is_none() {
                    let names = labels_taken.get_or_insert_with(|| FreshNames::labels(f));
                    f.block_mut(l).label = Some(names.fresh("b"));
                }
            }
            if let Some(t) = f.blocks[b].instrs.last_mut() {
                t.labels = labels;
            }
            changed = true;
        }
    }
    changed
}

/// Merges every block into its only predecessor when that predecessor
/// leads only to it and no jump or return has to be added; chains merge
/// into their first block. As a chain grows, a branch it ends with on a
/// condition the chain itself set by a `const` is folded on the spot, and a
/// block the fold leaves without predecessors is dropped: a chain of
/// diamonds on one constant collapses in one sweep, not one diamond a round.
/// Block numbers stay put until the end.
fn merge_blocks(f: &mut Function) -> Result<bool> {
    let cfg = Cfg::new(f);
    let n = f.blocks.len();
    let mut sweep = Sweep::new(f, &cfg);
    let mut changed = sweep.dropped;
    for a in 0..n {
        if !sweep.keep[a] {
            continue;
        }
        // The chain's definitions are recorded once it first grows.
        let mut recorded = false;
        // `last`: the block whose end `a` now ends with.
        let mut last = a;
        loop {
            if recorded && sweep.fold_chain_branch(f, a) {
                changed = true;
            }
            let [b] = sweep.successors(f, a)[..] else { break };
            let b = b.index();
            if b == a || b == last || b == 0 || !sweep.keep[b] || sweep.preds[b] != 1 {
                break;
            }
            let jumps = matches!(f.blocks[a].terminator(), Some(t) if t.op == Op::Jmp);
            if !jumps && !falls_through(f, BlockId::new(a)) {
                break;
            }
            let adjacent = sweep.next_kept[a] == b;
            if falls_through(f, BlockId::new(b)) && !adjacent {
                break;
            }
            if !recorded {
                sweep.chain_defs.start(f.vars.len());
                sweep.chain_defs.record(&f.blocks[a].instrs);
                recorded = true;
            }
            let moved = std::mem::take(&mut f.blocks[b].instrs);
            sweep.chain_defs.record(&moved);
            let instrs = &mut f.blocks[a].instrs;
            if jumps {
                instrs.pop();
            }
            instrs.extend(moved);
            sweep.unlink(b);
            last = b;
            changed = true;
        }
    }
    if changed {
        remove_blocks(f, &sweep.keep)?;
    }
    Ok(changed)
}

/// The state of one merge sweep: which blocks stay, the layout of those
/// that stay, and how many live predecessors each has.
struct Sweep {
    keep: Vec<bool>,
    /// The blocks still in the layout, as a linked list: adjacency after merges.
    next_kept: Vec<usize>,
    prev_kept: Vec<Option<usize>>,
    /// Reachable predecessors, each counted once; merges keep the counts
    /// (the chain's first block takes the place of the block merged into
    /// it), folds and dropped blocks lower them.
    preds: Vec<usize>,
    chain_defs: ChainDefs,
    /// Whether unreachable blocks were dropped.
    dropped: bool,
}

impl Sweep {
    fn new(f: &Function, cfg: &Cfg) -> Sweep {
        let n = f.blocks.len();
        let mut sweep = Sweep {
            keep: vec![true; n],
            next_kept: (1..=n).collect(),
            prev_kept: (0..n).map(|i| i.checked_sub(1)).collect(),
            preds: f.block_ids().map(|b| cfg.reachable_preds(b).count()).collect(),
            chain_defs: ChainDefs::default(),
            dropped: false,
        };
        for b in f.block_ids() {
            if !cfg.is_reachable(b) {
                sweep.unlink(b.index());
                sweep.dropped = true;
            }
        }
        sweep
    }

    /// Takes block `b` out of the layout.
    fn unlink(&mut self, b: usize) {
        self.keep[b] = false;
        let (p, q) = (self.prev_kept[b], self.next_kept[b]);
        if let Some(p) = p {
            self.next_kept[p] = q;
        }
        if q < self.keep.len() {
            self.prev_kept[q] = p;
        }
    }

    /// Where block `b` leads now (its fallthrough is the next block kept).
    fn successors(&self, f: &Function, b: usize) -> crate::bril::ir::List<BlockId> {
        match f.blocks[b].terminator() {
            Some(t) if t.op == Op::Ret => Default::default(),
            Some(t) => {
                let mut out = crate::bril::ir::List::new();
                for &l in &t.labels {
                    if !out.contains(&l) {
                        out.push(l);
                    }
                }
                out
            }
            None if self.next_kept[b] < self.keep.len() => [BlockId::new(self.next_kept[b])].into(),
            None => Default::default(),
        }
    }

    /// Folds the branch block `a` ends with when the chain set its
    /// condition by a `const`, and drops the arm left without predecessors.
    fn fold_chain_branch(&mut self, f: &mut Function, a: usize) -> bool {
        let Some(t) = f.blocks[a].terminator().filter(|t| t.op == Op::Br) else { return false };
        let (Some(&cond), Some(&then), Some(&otherwise)) =
            (t.args.first(), t.labels.first(), t.labels.get(1))
        else {
            return false;
        };
        let Some(value) = self.chain_defs.constant(cond) else { return false };
        let (taken, dropped) = if value { (then, otherwise) } else { (otherwise, then) };
        let pos = t.pos;
        if let Some(last) = f.blocks[a].instrs.last_mut() {
            *last = Instr::jmp(taken).with_pos(pos);
        }
        if taken != dropped {
            self.lose_predecessor(f, dropped.index(), a);
        }
        true
    }

    /// One edge into `b` is gone: when none is left, `b` goes too, and so
    /// on down the blocks only it led to.
    fn lose_predecessor(&mut self, f: &Function, b: usize, chain: usize) {
        let mut work = vec![b];
        while let Some(b) = work.pop() {
            self.preds[b] -= 1;
            if self.preds[b] > 0 || b == 0 || b == chain || !self.keep[b] {
                continue;
            }
            work.extend(self.successors(f, b).iter().map(|s| s.index()).filter(|&s| self.keep[s]));
            self.unlink(b);
        }
    }
}

/// The last definition of each variable in the chain being merged: a
/// `const` (its truth value) or something else. Stamped per chain, so
/// starting a chain clears nothing.
#[derive(Default)]
struct ChainDefs {
    stamp: Vec<u32>,
    value: Vec<Option<bool>>,
    now: u32,
}

impl ChainDefs {
    fn start(&mut self, vars: usize) {
        if self.stamp.len() < vars {
            self.stamp.resize(vars, 0);
            self.value.resize(vars, None);
        }
        self.now += 1;
    }

    fn record(&mut self, instrs: &[Instr]) {
        for i in instrs {
            if let Some(d) = i.def() {
                self.stamp[d.index()] = self.now;
                self.value[d.index()] = const_bits(i).map(|b| b != 0);
            }
        }
    }

    fn constant(&self, v: crate::bril::VarId) -> Option<bool> {
        (self.stamp.get(v.index()) == Some(&self.now)).then(|| self.value[v.index()]).flatten()
    }
}

fn drop_jumps_to_next(f: &mut Function) -> bool {
    let mut changed = false;
    for b in f.block_ids() {
        if is_jump_to_next(f, b) {
            f.block_mut(b).instrs.pop();
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::{check_pass, check_skipped_functions_unchanged};
    use crate::bril::{parse_text, to_text};

    #[test]
    fn functions_without_edges_are_left_alone() {
        check_skipped_functions_unchanged(&has_edges, &simplify_function);
    }

    fn simplify(src: &str) -> String {
        let mut p = parse_text(src).unwrap();
        let before = run(&p, &[], &Limits::default());
        simplify_cfg(&mut p).unwrap();
        let after = run(&p, &[], &Limits::default());
        assert_eq!(before.stdout, after.stdout);
        assert!(after.dyn_inst <= before.dyn_inst);
        assert!(!simplify_cfg(&mut p).unwrap(), "idempotent");
        to_text(&p)
    }

    #[test]
    fn folds_a_constant_branch_and_merges_the_straight_line() {
        let text = simplify("@main {\n  c: bool = const true;\n  br c .a .b;\n.a:\n  print c;\n  jmp .end;\n.b:\n  print c;\n.end:\n  ret;\n}");
        assert_eq!(text, "@main {\n  c: bool = const true;\n  print c;\n  ret;\n}\n");
    }

    #[test]
    fn threads_jumps_through_empty_blocks() {
        let text = simplify("@main {\n  c: bool = const false;\n  x: int = const 0;\n.top:\n  print x;\n  br c .hop .top2;\n.hop:\n  jmp .end;\n.top2:\n  jmp .skip;\n.skip:\n.end:\n  print c;\n}");
        assert!(!text.contains(".hop") && !text.contains(".skip"), "{text}");
        assert!(text.contains("jmp .end;") || !text.contains("jmp"), "{text}");
    }

    #[test]
    fn a_loop_without_exit_is_kept() {
        let src = "@main {\n  x: int = const 1;\n.spin:\n  jmp .spin;\n}";
        let mut p = parse_text(src).unwrap();
        simplify_cfg(&mut p).unwrap();
        assert!(to_text(&p).contains("jmp .spin;"));
        let src = "@main {\n  jmp .a;\n.a:\n  jmp .b;\n.b:\n  jmp .a;\n}";
        let mut p = parse_text(src).unwrap();
        simplify_cfg(&mut p).unwrap();
        assert!(!simplify_cfg(&mut p).unwrap(), "a cycle of forwarders settles: {}", to_text(&p));
    }

    #[test]
    fn a_chain_of_constant_diamonds_folds_in_one_merge_sweep() {
        let diamond = |k: usize| {
            format!("  br c .t{k} .f{k};\n.t{k}:\n  x: int = add x x;\n  jmp .j{k};\n.f{k}:\n  x: int = mul x x;\n.j{k}:\n")
        };
        let src = format!(
            "@main {{\n  c: bool = const true;\n  x: int = const 1;\n{}{}{}  print x;\n}}",
            diamond(0),
            diamond(1),
            diamond(2)
        );
        let mut p = parse_text(&src).unwrap();
        let f = std::sync::Arc::make_mut(&mut p.functions[0]);
        assert!(fold_branches(f), "the first branch folds on its own");
        assert!(merge_blocks(f).unwrap());
        assert_eq!(
            to_text(&p),
            "@main {\n  c: bool = const true;\n  x: int = const 1;\n  x: int = add x x;\n  x: int = add x x;\n  x: int = add x x;\n  print x;\n}\n"
        );
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| simplify_cfg(p));
    }
}
