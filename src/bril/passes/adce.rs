//! `-adce`: aggressive dead code elimination, mark and sweep over the whole
//! function.
//!
//! Everything starts dead except instructions with effects (print, store,
//! free, alloc, call, ret, every jump and branch) and those that may fail
//! (div, load, int2char). Marking then follows reaching definitions: a live
//! instruction makes every definition that may reach its operands live, and
//! a live `get` makes the `set`s of its shadow live. Unmarked instructions
//! go, including cycles of computation that only feed themselves across
//! loop iterations, which local dead code elimination cannot see.
//!
//! Why it is safe: removed instructions have no effect and cannot fail, and
//! no live instruction reads a value they made. Branches are all kept (this
//! is the "no control dependence" variant): removing a loop could turn a
//! run that never ends into one that does. An instruction reading a
//! variable that is not certainly assigned is kept, so a read of an
//! unassigned variable (an error) is never removed.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::rewrite_functions;
use crate::bril::analysis::reaching::{DefPoint, ReachingDefs};
use crate::bril::ir::{BlockId, Function, Op, Program};
use crate::error::Result;

/// `-adce`.
pub fn adce(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        adce_function(f);
        Ok(())
    })
}

fn is_root(op: Op) -> bool {
    op.has_side_effects() && op != Op::Set
}

fn adce_function(f: &mut Function) {
    let cfg = Cfg::new(f);
    let reaching = ReachingDefs::new(f, &cfg);
    let definite = Definite::new(f, &cfg);
    let mut live: Vec<Vec<bool>> = f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect();
    let mut work: Vec<(usize, usize)> = Vec::new();
    for b in f.block_ids() {
        let defined = definite.before_each(f, b);
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            let unassigned_read = instr.uses().iter().any(|u| !defined[i].contains(u.index()));
            if is_root(instr.op) || unassigned_read {
                live[b.index()][i] = true;
                work.push((b.index(), i));
            }
        }
    }
    // The sets writing each get variable's shadow.
    let mut sets_of = vec![Vec::new(); f.vars.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            if let Some(t) = instr.shadow_target() {
                sets_of[t.index()].push((b, i));
            }
        }
    }
    let reaching_before: Vec<_> = f.block_ids().map(|b| reaching.before_each(b)).collect();
    while let Some((b, i)) = work.pop() {
        let instr = &f.blocks[b].instrs[i];
        let mut mark = |bb: usize, ii: usize, work: &mut Vec<(usize, usize)>| {
            if !live[bb][ii] {
                live[bb][ii] = true;
                work.push((bb, ii));
            }
        };
        for &u in instr.uses() {
            for site in reaching.of_var(&reaching_before[b][i], u) {
                if let DefPoint::Instr { block, index } = site.point {
                    mark(block.index(), index, &mut work);
                }
            }
        }
        if let (Op::Get, Some(v)) = (instr.op, instr.def()) {
            for &(bb, ii) in &sets_of[v.index()] {
                mark(bb, ii, &mut work);
            }
        }
    }
    for b in f.block_ids() {
        let flags = &live[b.index()];
        let mut i = 0;
        f.block_mut(BlockId::new(b.index())).instrs.retain(|_| {
            i += 1;
            flags[i - 1]
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::global_tests::check_global_pass as check_pass;
    use crate::bril::{parse_text, to_text};

    #[test]
    fn removes_a_dead_loop_carried_cycle_but_keeps_the_loop() {
        let src = "@main(n: int) {\n  i: int = const 0;\n  junk: int = const 0;\n  one: int = const 1;\n.loop:\n  junk: int = add junk i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .loop .end;\n.end:\n  nop;\n  print i;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(adce(&mut p).unwrap());
        let text = to_text(&p);
        assert!(!text.contains("junk") && !text.contains("nop"), "{text}");
        assert!(text.contains("br c .loop .end;") && text.contains("i: int = add i one;"), "{text}");
        assert!(!adce(&mut p).unwrap());
    }

    #[test]
    fn keeps_effects_traps_and_unassigned_reads() {
        let src = "@main(n: int) {\n  z: int = const 0;\n  q: int = div n z;\n  c: bool = lt n z;\n  br c .def .use;\n.def:\n  x: int = const 3;\n.use:\n  y: int = add x x;\n  p: ptr<int> = alloc n;\n  free p;\n}";
        let mut p = parse_text(src).unwrap();
        adce(&mut p).unwrap();
        let text = to_text(&p);
        assert!(text.contains("q: int = div n z;") && text.contains("y: int = add x x;"), "{text}");
        assert!(text.contains("x: int = const 3;") && text.contains("free p;"), "{text}");
    }

    #[test]
    fn semantics() {
        check_pass(&|p| adce(p));
    }
}
