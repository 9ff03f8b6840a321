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
    falls_through, is_jump_to_next, remove_blocks, remove_unreachable, rewrite_functions,
};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::bril::names::FreshNames;
use crate::error::Result;

/// `-simplify-cfg`.
pub fn simplify_cfg(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| simplify_function(f))
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
/// into their first block. Block numbers stay put until the end.
fn merge_blocks(f: &mut Function) -> Result<bool> {
    let cfg = Cfg::new(f);
    let n = f.blocks.len();
    let mut keep = vec![true; n];
    // The blocks still in the layout, as a linked list: adjacency after merges.
    let mut next_kept: Vec<usize> = (1..=n).collect();
    let mut prev_kept: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
    let mut changed = false;
    for a in 0..n {
        if !keep[a] {
            continue;
        }
        // `last`: the block whose end `a` now ends with (its successors are `a`'s).
        let mut last = a;
        loop {
            let [b] = cfg.succs[last][..] else { break };
            let b = b.index();
            if b == a || b == last || b == 0 || !keep[b] || cfg.preds[b] != [BlockId::new(last)] {
                break;
            }
            let jumps = matches!(f.blocks[a].terminator(), Some(t) if t.op == Op::Jmp);
            if !jumps && !falls_through(f, BlockId::new(a)) {
                break;
            }
            let adjacent = next_kept[a] == b;
            if falls_through(f, BlockId::new(b)) && !adjacent {
                break;
            }
            let moved = std::mem::take(&mut f.blocks[b].instrs);
            let instrs = &mut f.blocks[a].instrs;
            if jumps {
                instrs.pop();
            }
            instrs.extend(moved);
            keep[b] = false;
            let (p, q) = (prev_kept[b], next_kept[b]);
            if let Some(p) = p {
                next_kept[p] = q;
            }
            if q < n {
                prev_kept[q] = p;
            }
            last = b;
            changed = true;
        }
    }
    if changed {
        remove_blocks(f, &keep)?;
    }
    Ok(changed)
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
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

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
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| simplify_cfg(p));
    }
}
