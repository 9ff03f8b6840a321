//! `-adce`: aggressive dead code elimination over the whole function.
//!
//! Everything starts dead except instructions with effects (print, store,
//! free, alloc, call, ret, every jump and branch) and those that may fail
//! (div, load, int2char). An instruction is then useful when a useful
//! instruction may read what it writes: a definition of `x` is useful when
//! `x` is *strongly live* after it (some path reaches a useful read of `x`
//! before another write), and a `set x v` when a useful `x = get` may read
//! the shadow it writes. Strong liveness is a backward dataflow problem
//! over the variables and their shadows, solved once to its least fixed
//! point, so the cost follows the size of the function and of the live
//! sets (a mark-and-sweep along reaching definitions would cost as much as
//! the def-use chains, quadratic in loop-heavy code). Useless instructions
//! go, including cycles of computation that only feed themselves across
//! loop iterations, which local dead code elimination cannot see.
//!
//! Why it is safe: removed instructions have no effect and cannot fail, and
//! no useful instruction reads a value they made. Branches are all kept
//! (this is the "no control dependence" variant): removing a loop could turn
//! a run that never ends into one that does. An instruction reading a
//! variable that is not certainly assigned, or a `get` of a shadow that may
//! be unset, is kept, so a read that fails is never removed (see
//! [`MaybeUndefinedReads`]).

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::dataflow::{solve, Dataflow, Direction};
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::analysis::edit::{rewrite_drafts, Draft};
use crate::bril::analysis::sets::{ListedSet, SparseSet};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::error::Result;
use std::cell::RefCell;

/// `-adce`.
pub fn adce(program: &mut Program) -> Result<bool> {
    rewrite_drafts(program, |_, draft| {
        adce_function(draft);
        Ok(())
    })
}

fn is_root(op: Op) -> bool {
    op.has_side_effects() && op != Op::Set
}

/// Strong liveness. Slot `v` is variable `v`; slot `n + x` is the shadow of
/// `x` (written by `set x`, read by `x = get`).
struct Strong {
    n: usize,
    /// Instructions that are useful whatever is live, by block.
    roots: Vec<Vec<bool>>,
    scratch: RefCell<ListedSet>,
}

impl Strong {
    /// The slot `instr` writes.
    fn writes(&self, instr: &Instr) -> Option<usize> {
        match instr.shadow_target() {
            Some(t) => Some(self.n + t.index()),
            None => instr.def().map(|d| d.index()),
        }
    }

    /// The slots `instr` reads when it is useful.
    fn reads<'a>(&self, instr: &'a Instr) -> impl Iterator<Item = usize> + 'a {
        let shadow = match (instr.op, instr.def()) {
            (Op::Get, Some(d)) => Some(self.n + d.index()),
            _ => None,
        };
        instr.uses().iter().map(|u| u.index()).chain(shadow)
    }

    /// Walks `block` backward from `live` (strongly live slots after it),
    /// calling `useful(i)` for each useful instruction; leaves in `live` the
    /// slots strongly live before the block.
    fn walk(&self, f: &Function, block: BlockId, live: &mut ListedSet, mut useful: impl FnMut(usize)) {
        let roots = &self.roots[block.index()];
        for (i, instr) in f.block(block).instrs.iter().enumerate().rev() {
            let written = self.writes(instr);
            let needed = roots[i] || written.is_some_and(|w| live.contains(w));
            if let Some(w) = written {
                live.remove(w);
            }
            if needed {
                useful(i);
                for r in self.reads(instr) {
                    live.insert(r);
                }
            }
        }
    }
}

impl Dataflow for Strong {
    type Fact = SparseSet;
    const DIRECTION: Direction = Direction::Backward;
    fn boundary(&self, _: &Function) -> SparseSet {
        SparseSet::new()
    }
    fn top(&self, _: &Function) -> SparseSet {
        SparseSet::new()
    }
    fn meet(&self, acc: &mut SparseSet, other: &SparseSet) {
        acc.union_with(other);
    }
    fn transfer(&self, f: &Function, block: BlockId, out: &SparseSet) -> SparseSet {
        let mut live = self.scratch.borrow_mut();
        live.clear();
        for s in out.iter() {
            live.insert(s);
        }
        self.walk(f, block, &mut live, |_| {});
        SparseSet::from_unsorted(live.members().to_vec())
    }
}

/// Removes the useless instructions of the draft; copies it only if there is one.
fn adce_function(draft: &mut Draft<'_>) {
    let f = draft.get();
    let cfg = Cfg::new(f);
    // Reads that may fail are roots too, but finding them is a dataflow
    // analysis of its own. More roots only make more code useful, so when
    // the effects alone make everything useful, nothing goes either way.
    let effects = |b: BlockId, i: usize| is_root(f.block(b).instrs[i].op);
    let mut useful = useful_code(f, &cfg, effects);
    if all_useful(&useful) {
        return;
    }
    let failing = MaybeUndefinedReads::of(f);
    if !failing.is_empty() {
        useful = useful_code(f, &cfg, |b, i| effects(b, i) || failing.at(b, i));
        if all_useful(&useful) {
            return;
        }
    }
    draft.write_kept(&useful);
}

fn all_useful(useful: &[Vec<bool>]) -> bool {
    useful.iter().all(|flags| flags.iter().all(|&u| u))
}

/// Per block and instruction, whether it is useful: a `root` or computing
/// something a useful instruction or branch needs.
fn useful_code(f: &Function, cfg: &Cfg, root: impl Fn(BlockId, usize) -> bool) -> Vec<Vec<bool>> {
    let roots: Vec<Vec<bool>> =
        f.block_ids().map(|b| (0..f.block(b).instrs.len()).map(|i| root(b, i)).collect()).collect();
    let n = f.vars.len();
    let strong = Strong { n, roots, scratch: RefCell::new(ListedSet::new(2 * n)) };
    let solution = solve(&strong, f, cfg);
    let mut useful: Vec<Vec<bool>> = f.blocks.iter().map(|b| vec![false; b.instrs.len()]).collect();
    let mut live = ListedSet::new(2 * n);
    for b in f.block_ids() {
        live.clear();
        for s in solution.after[b.index()].iter() {
            live.insert(s);
        }
        strong.walk(f, b, &mut live, |i| useful[b.index()][i] = true);
    }
    useful
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
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

    /// `s = get` before any `set s` on the first iteration fails, unused or not.
    #[test]
    fn keeps_a_get_whose_shadow_may_be_unset() {
        let src = "@main(n: int) {\n  zero: int = const 0;\n  set i zero;\n  jmp .head;\n.head:\n  i: int = get;\n  s: int = get;\n  go: bool = lt i n;\n  br go .body .exit;\n.body:\n  one: int = const 1;\n  i2: int = add i one;\n  set i i2;\n  set s i2;\n  jmp .head;\n.exit:\n  print n;\n}";
        let mut p = parse_text(src).unwrap();
        adce(&mut p).unwrap();
        assert!(to_text(&p).contains("s: int = get;"), "{}", to_text(&p));
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
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| adce(p));
    }
}
