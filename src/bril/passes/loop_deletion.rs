//! `-loop-deletion`: deletion of loops that compute nothing used and
//! provably end.
//!
//! A counted loop (see `counted_loop`) testing `i < n` and stepping its
//! counter by 1 ends on every entry: the counter grows by one per
//! iteration and cannot wrap before reaching `n`, and the body has no
//! cycle of its own. Such a loop is deleted, its header becoming a jump to
//! its exit, when moreover
//! - it only computes: every instruction is pure (no call, print, store,
//!   allocation, division, load or `set`) or a jump;
//! - nothing it writes is read after it (no variable it writes is live at
//!   its exit);
//! - every variable it reads is certainly assigned there (so none of its
//!   reads could have failed).
//!
//! Why it is safe: such a loop always reaches its exit, has no effect and
//! leaves no value anyone reads, so skipping it changes nothing but the
//! instruction count. Loops that may not end are kept: deleting one would
//! turn a run that never ends into one that does. Loops nested in a deleted
//! loop's place are deleted from the inside out, a few rounds per run.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::{is_jump_to_next, remove_blocks, rewrite_drafts_where};
use crate::bril::analysis::loops::{find_loops, may_have_loops};
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::error::Result;

use super::counted_loop::{recognise, LoopFacts, Test};

/// Rounds of deletion per run (each may empty the loop enclosing the last).
const ROUNDS: usize = 4;

/// `-loop-deletion`. A function with no loop is not even looked at, and
/// one with no loop to delete is not copied.
pub fn loop_deletion(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(program, may_have_loops, |_, draft| {
        // The first round is planned on the original: most functions have
        // no loop to delete, and then nothing is copied.
        let doomed = doomed_loops(draft.original());
        if doomed.is_empty() {
            return Ok(());
        }
        let f = draft.make_mut();
        delete(f, doomed)?;
        for _ in 1..ROUNDS {
            if !delete_round(f)? {
                break;
            }
        }
        Ok(())
    })
}

/// Deletes the loops that qualify now; true if there were any.
pub(super) fn delete_round(f: &mut Function) -> Result<bool> {
    let doomed = doomed_loops(f);
    if doomed.is_empty() {
        return Ok(false);
    }
    delete(f, doomed)?;
    Ok(true)
}

/// The loops of `f` that compute nothing used after them and surely end,
/// each as its header and exit.
fn doomed_loops(f: &Function) -> Vec<(BlockId, BlockId)> {
    if f.blocks.is_empty() {
        return Vec::new();
    }
    let facts = LoopFacts::new(f);
    let mut scratch = Marks::new(f.vars.len());
    let mut doomed: Vec<(BlockId, BlockId)> = Vec::new();
    for lp in find_loops(&facts.cfg, &facts.dom) {
        let Some(counted) = recognise(f, &facts, &lp) else { continue };
        if counted.test != Test::Top || counted.inclusive || counted.step != 1 {
            continue;
        }
        let computes_only = |b: &BlockId| {
            let effect_free = |i: &Instr| i.op.is_pure() || matches!(i.op, Op::Jmp | Op::Br | Op::Nop);
            f.block(*b).instrs.iter().all(effect_free) && !facts.cfg.succs[b.index()].is_empty()
        };
        if !lp.body.iter().all(computes_only) || !reads_assigned(f, facts.definite(), &mut scratch, &lp.body)
        {
            continue;
        }
        let live_at_exit = facts.live().live_in.get(counted.exit.index());
        let mut escapes = lp.body.iter().flat_map(|&b| f.block(b).instrs.iter()).filter_map(Instr::def);
        if escapes.any(|d| live_at_exit.contains(d.index())) {
            continue;
        }
        doomed.push((counted.header, counted.exit));
    }
    doomed
}

/// Makes each doomed loop's header jump to its exit and removes the blocks
/// that leaves unreachable.
fn delete(f: &mut Function, doomed: Vec<(BlockId, BlockId)>) -> Result<()> {
    for &(header, exit) in &doomed {
        let block = f.block_mut(header);
        let pos = block.instrs.last().map(|t| t.pos).unwrap_or_default();
        block.instrs = vec![Instr::jmp(exit).with_pos(pos)];
    }
    // The loops' other blocks are now unreachable.
    let cfg = Cfg::new(f);
    let keep: Vec<bool> = f.block_ids().map(|b| cfg.is_reachable(b)).collect();
    let mut new_index = Vec::with_capacity(keep.len());
    let mut next = 0;
    for &k in &keep {
        new_index.push(BlockId::new(next));
        next += usize::from(k);
    }
    remove_blocks(f, &keep)?;
    for (header, _) in doomed {
        let h = new_index[header.index()];
        if keep[header.index()] && is_jump_to_next(f, h) {
            f.block_mut(h).instrs.pop();
        }
    }
    Ok(())
}

/// Whether every read in `blocks` is of a certainly assigned variable.
fn reads_assigned(f: &Function, definite: &Definite, scratch: &mut Marks, blocks: &[BlockId]) -> bool {
    blocks.iter().all(|&b| {
        let mut ok = true;
        definite.walk(f, b, scratch, |_, instr, assigned| {
            ok &= instr.uses().iter().all(|&u| assigned.contains(u));
        });
        ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    const DEAD: &str = "@main(n: int) {\n  i: int = const 0;\n  s: int = const 0;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  s: int = add s i;\n  i: int = add i one;\n  jmp .head;\n.exit:\n  print n;\n}\n";

    #[test]
    fn a_loop_computing_nothing_used_is_deleted() {
        let mut p = parse_text(DEAD).unwrap();
        let args = ["1000".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(loop_deletion(&mut p).unwrap());
        assert_eq!(
            to_text(&p),
            "@main(n: int) {\n  i: int = const 0;\n  s: int = const 0;\n  one: int = const 1;\n.head:\n.exit:\n  print n;\n}\n"
        );
        let after = run(&p, &args, &Limits::default());
        assert_eq!(after.stdout, before.stdout);
        assert_eq!(after.dyn_inst, 4);
        assert!(!loop_deletion(&mut p).unwrap());
    }

    #[test]
    fn nested_dead_loops_go_from_the_inside_out() {
        let src = "@main {\n  i: int = const 0;\n  n: int = const 3;\n  one: int = const 1;\n.outer:\n  c: bool = lt i n;\n  br c .init .done;\n.init:\n  j: int = const 0;\n.inner:\n  d: bool = lt j n;\n  br d .step .next;\n.step:\n  j: int = add j one;\n  jmp .inner;\n.next:\n  i: int = add i one;\n  jmp .outer;\n.done:\n  print n;\n}\n";
        let mut p = parse_text(src).unwrap();
        assert!(loop_deletion(&mut p).unwrap());
        let text = to_text(&p);
        assert!(!text.contains("add"), "{text}");
        assert_eq!(run(&p, &[], &Limits::default()).stdout, "3\n");
    }

    #[test]
    fn loops_that_may_not_end_have_effects_or_leave_values_stay() {
        let sources = [
            // i <= n never ends when n is the largest integer.
            DEAD.replace("c: bool = lt i n;", "c: bool = le i n;"),
            // A step of 2 can jump over n and wrap around.
            DEAD.replace("one: int = const 1;", "one: int = const 2;"),
            // The sum is printed after the loop.
            DEAD.replace("  print n;\n", "  print s;\n"),
            // The loop prints.
            DEAD.replace("  s: int = add s i;\n", "  print i;\n"),
            // A division may fail.
            DEAD.replace("  s: int = add s i;\n", "  s: int = div s i;\n"),
        ];
        for src in &sources {
            let mut p = parse_text(src).unwrap();
            assert!(!loop_deletion(&mut p).unwrap(), "{src}");
            assert_eq!(&to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| loop_deletion(p));
    }
}
