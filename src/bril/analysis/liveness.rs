//! Live variables: a backward may-analysis. A variable is live at a point
//! when some path from there reads it before writing it.
//!
//! Sets at block boundaries are sparse ([`SparseSet`]): in usual code few
//! variables live across any one block boundary, so the analysis costs about
//! the size of the function times the loop nesting depth, not the number of
//! blocks times the number of variables. Inside a block, [`Liveness::walk_back`]
//! hands out the live set after each instruction in turn, in a reused
//! [`Marks`], instead of one set per instruction.

use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use super::sets::{Marks, SparseSet};
use crate::bril::ir::{BlockId, Function, Instr};

#[derive(Clone, Debug)]
pub struct Liveness {
    pub live_in: Vec<SparseSet>,
    pub live_out: Vec<SparseSet>,
}

/// The problem, with each block's summary: the variables it reads before
/// writing (`reads`) and those it writes (`writes`).
struct Live {
    reads: Vec<SparseSet>,
    writes: Vec<SparseSet>,
}

impl Dataflow for Live {
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
    fn transfer(&self, _: &Function, block: BlockId, out: &SparseSet) -> SparseSet {
        let mut live = out.difference(&self.writes[block.index()]);
        live.union_with(&self.reads[block.index()]);
        live
    }
}

/// Moves the live set from after `instr` to before it.
pub fn step_back(live: &mut Marks, instr: &Instr) {
    if let Some(d) = instr.def() {
        live.remove(d.index());
    }
    for &u in instr.uses() {
        live.insert(u.index());
    }
}

/// What each block reads before writing and what it writes, sorted.
pub(crate) fn block_summaries(f: &Function) -> (Vec<SparseSet>, Vec<SparseSet>) {
    summaries(f, false)
}

/// The slot `instr` writes and those it reads: variables, and with
/// `shadows` also the shadow of `x` (slot `n + x`, for `n` variables) that
/// `set x v` writes and `x = get` reads.
fn slots(instr: &Instr, n: usize, shadows: bool) -> (Option<usize>, impl Iterator<Item = usize> + '_) {
    let shadow_write = instr.shadow_target().filter(|_| shadows).map(|t| n + t.index());
    let shadow_read = match (shadows, instr.op, instr.def()) {
        (true, crate::bril::ir::Op::Get, Some(d)) => Some(n + d.index()),
        _ => None,
    };
    let written = shadow_write.or(instr.def().map(|d| d.index()));
    (written, instr.uses().iter().map(|u| u.index()).chain(shadow_read))
}

fn summaries(f: &Function, shadows: bool) -> (Vec<SparseSet>, Vec<SparseSet>) {
    let n = f.vars.len();
    let mut live = Marks::new(if shadows { 2 * n } else { n });
    let mut reads = Vec::with_capacity(f.blocks.len());
    let mut writes = Vec::with_capacity(f.blocks.len());
    let mut touched: Vec<u32> = Vec::new();
    let mut written: Vec<u32> = Vec::new();
    for block in &f.blocks {
        live.clear();
        touched.clear();
        written.clear();
        for instr in block.instrs.iter().rev() {
            let (w, r) = slots(instr, n, shadows);
            if let Some(w) = w {
                written.push(w as u32);
                live.remove(w);
            }
            for r in r {
                live.insert(r);
                touched.push(r as u32);
            }
        }
        touched.retain(|&u| live.contains(u as usize));
        reads.push(SparseSet::from_unsorted(std::mem::take(&mut touched)));
        writes.push(SparseSet::from_unsorted(std::mem::take(&mut written)));
    }
    (reads, writes)
}

impl Liveness {
    pub fn new(f: &Function, cfg: &Cfg) -> Liveness {
        let (reads, writes) = block_summaries(f);
        let s = solve(&Live { reads, writes }, f, cfg);
        Liveness { live_in: s.before, live_out: s.after }
    }

    /// Liveness of the variables and of the `set`/`get` shadows: slot `v` is
    /// variable `v`, slot `n + x` the shadow of `x` (for `n` variables).
    pub fn with_shadows(f: &Function, cfg: &Cfg) -> Liveness {
        let (reads, writes) = summaries(f, true);
        let s = solve(&Live { reads, writes }, f, cfg);
        Liveness { live_in: s.before, live_out: s.after }
    }

    /// Walks `block` from its end, calling `visit(i, instr, live)` with the
    /// variables live just after each instruction `i`. `live` is scratch
    /// over the function's variables, reused from block to block.
    pub fn walk_back(
        &self,
        f: &Function,
        block: BlockId,
        live: &mut Marks,
        mut visit: impl FnMut(usize, &Instr, &Marks),
    ) {
        live.reset_to(&self.live_out[block.index()]);
        for (i, instr) in f.block(block).instrs.iter().enumerate().rev() {
            visit(i, instr, live);
            step_back(live, instr);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    /// The live sets after each instruction of `block`, as lists.
    fn live_after_each(f: &Function, live: &Liveness, block: BlockId) -> Vec<Vec<usize>> {
        let mut marks = Marks::new(f.vars.len());
        let mut out = vec![Vec::new(); f.block(block).instrs.len()];
        live.walk_back(f, block, &mut marks, |i, _, m| {
            out[i] = (0..f.vars.len()).filter(|&v| m.contains(v)).collect();
        });
        out
    }

    #[test]
    fn loop_carried_and_dead_variables() {
        let p = parse_text(
            "@main(n: int) {\n  i: int = const 0;\n  dead: int = const 5;\n.loop:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n.exit:\n  print i;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let live = Liveness::new(f, &Cfg::new(f));
        let v = |name: &str| f.var_named(name).unwrap().index();
        let (entry, lp, body) = (0, 1, 2);
        assert!(live.live_in[entry].contains(v("n")));
        assert!(!live.live_in[entry].contains(v("i")), "i is defined first");
        assert!(live.live_in[lp].contains(v("i")) && live.live_in[lp].contains(v("n")));
        assert!(live.live_out[body].contains(v("i")));
        assert!(!live.live_out[entry].contains(v("dead")));
        let after = live_after_each(f, &live, BlockId(body as u32));
        assert!(after[0].contains(&v("one")) && !after[1].contains(&v("one")));
    }

    #[test]
    fn set_reads_its_value_not_its_target() {
        let p =
            parse_text("@main {\n  a: int = const 1;\n  set x a;\n  x: int = get;\n  print x;\n}").unwrap();
        let f = &p.functions[0];
        let live = Liveness::new(f, &Cfg::new(f));
        let after = live_after_each(f, &live, BlockId(0));
        let (a, x) = (f.var_named("a").unwrap().index(), f.var_named("x").unwrap().index());
        assert!(after[0].contains(&a) && !after[0].contains(&x));
        assert!(!after[1].contains(&a) && !after[1].contains(&x));
    }

    #[test]
    fn block_summaries_read_before_write() {
        let p =
            parse_text("@main(a: int) {\n  b: int = add a a;\n  a: int = add b b;\n  print a;\n}").unwrap();
        let (reads, writes) = block_summaries(&p.functions[0]);
        assert_eq!(reads[0].as_slice(), &[0], "a is read first; b and the second a are written first");
        assert_eq!(writes[0].as_slice(), &[0, 1]);
    }
}
