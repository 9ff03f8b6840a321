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
    ensure_label, falls_through, is_jump_to_next, remove_blocks, remove_unreachable, rewrite_functions,
};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
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
        changed |= merge_one(f)?;
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
    let cfg = Cfg::new(f);
    let definite = Definite::new(f, &cfg);
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
        } else if then == otherwise && definite.before_each(f, b)[n - 1].contains(cond.index()) {
            Some(then)
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

fn thread_jumps(f: &mut Function) -> bool {
    let n = f.blocks.len();
    let mut changed = false;
    for b in 0..n {
        let Some(t) = f.blocks[b].instrs.last().filter(|i| i.is_terminator()) else { continue };
        let mut labels = t.labels.clone();
        let mut edited = false;
        for l in labels.iter_mut() {
            // Follow forwarders; a cycle of them (an empty infinite loop) is left as it is.
            let mut target = *l;
            let mut seen = vec![target];
            while let Some(next) = forward_target(f, target) {
                if seen.contains(&next) {
                    target = *l;
                    break;
                }
                seen.push(next);
                target = next;
            }
            if target != *l {
                *l = target;
                edited = true;
            }
        }
        if edited {
            for &l in labels.iter() {
                ensure_label(f, l, "b");
            }
            if let Some(t) = f.blocks[b].instrs.last_mut() {
                t.labels = labels;
            }
            changed = true;
        }
    }
    changed
}

/// Merges one block into its only predecessor, when that predecessor leads
/// only to it and no jump or return has to be added.
fn merge_one(f: &mut Function) -> Result<bool> {
    let cfg = Cfg::new(f);
    for a in f.block_ids() {
        let [b] = cfg.succs[a.index()][..] else { continue };
        if b == a || b.index() == 0 || cfg.preds[b.index()] != [a] {
            continue;
        }
        let jumps = matches!(f.block(a).terminator(), Some(t) if t.op == Op::Jmp);
        if !jumps && !falls_through(f, a) {
            continue;
        }
        let adjacent = a.index() + 1 == b.index();
        if falls_through(f, b) && !adjacent {
            continue;
        }
        let moved = std::mem::take(&mut f.block_mut(b).instrs);
        let instrs = &mut f.block_mut(a).instrs;
        if jumps {
            instrs.pop();
        }
        instrs.extend(moved);
        let keep: Vec<bool> = f.block_ids().map(|x| x != b).collect();
        remove_blocks(f, &keep)?;
        return Ok(true);
    }
    Ok(false)
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
    use crate::bril::passes::global_tests::check_global_pass as check_pass;
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
    fn semantics() {
        check_pass(&|p| simplify_cfg(p));
    }
}
