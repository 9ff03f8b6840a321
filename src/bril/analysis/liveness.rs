//! Live variables: a variable is live at a point when some path from there
//! reads it before writing it.
//!
//! Computed one variable at a time (path exploration): from each block that
//! reads the variable before writing it, walk back through predecessors
//! until a block that writes it. Each variable costs the blocks where it is
//! live, so the whole analysis costs the size of the function plus the size
//! of the result, with no iteration to a fixed point and no set merging;
//! and since variables are taken in order, every block's set comes out
//! sorted. Sets at block boundaries are sparse ([`SparseSet`]): in usual
//! code few variables live across any one boundary. Inside a block,
//! [`Liveness::walk_back`] hands out the live set after each instruction in
//! turn, in a reused [`Marks`], instead of one set per instruction.

use super::cfg::Cfg;
use super::sets::{BlockSets, Marks};
use crate::bril::ir::{BlockId, Function, Instr, Op, VarId};

#[derive(Clone, Debug)]
pub struct Liveness {
    pub live_in: BlockSets,
    pub live_out: BlockSets,
    /// What each block writes.
    pub writes: BlockSets,
    /// (slot, block) for each block writing each slot, sorted.
    writers: Vec<(u32, u32)>,
}

/// Buffers one liveness computation needs and the next one reuses: a
/// function of a few dozen instructions is analysed in well under a
/// microsecond, about what allocating them afresh would cost. Kept only
/// while small, so a huge function leaves no large buffers behind.
#[derive(Default)]
struct Scratch {
    live: Marks,
    touched: Vec<u32>,
    written: Vec<u32>,
    reads: Vec<(u32, u32)>,
    live_in: Vec<(u32, u32)>,
    live_out: Vec<(u32, u32)>,
    marks: Vec<u32>,
    stack: Vec<u32>,
}

/// Largest buffer (in elements) kept for the next computation.
const KEEP: usize = 1 << 12;

impl Scratch {
    fn small(&self) -> bool {
        let pairs = [&self.reads, &self.live_in, &self.live_out].map(|v| v.capacity());
        let words = [&self.touched, &self.written, &self.marks, &self.stack].map(|v| v.capacity());
        self.live.capacity() <= KEEP && pairs.iter().chain(&words).all(|&c| c <= KEEP)
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

/// Runs `work` with the thread's scratch buffers (fresh ones if they are in
/// use), then keeps them if they stayed small.
fn with_scratch<R>(work: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(|s| s.borrow_mut().take()).unwrap_or_default();
    let result = work(&mut scratch);
    if scratch.small() {
        SCRATCH.with(|s| *s.borrow_mut() = Some(scratch));
    }
    result
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

/// The slot `instr` writes and those it reads: variables, and with
/// `shadows` also the shadow of `x` (slot `n + x`, for `n` variables) that
/// `set x v` writes and `x = get` reads.
fn slots(instr: &Instr, n: usize, shadows: bool) -> (Option<usize>, impl Iterator<Item = usize> + '_) {
    let shadow_write = instr.shadow_target().filter(|_| shadows).map(|t| n + t.index());
    let shadow_read = match (shadows, instr.op, instr.def()) {
        (true, Op::Get, Some(d)) => Some(n + d.index()),
        _ => None,
    };
    let written = shadow_write.or(instr.def().map(|d| d.index()));
    (written, instr.uses().iter().map(|u| u.index()).chain(shadow_read))
}

impl Liveness {
    pub fn new(f: &Function, cfg: &Cfg) -> Liveness {
        Liveness::compute(f, cfg, false, None)
    }

    /// Liveness of the `tracked` variables only (indexed by variable): the
    /// others are never live. For a pass that asks about a few variables.
    pub fn of(f: &Function, cfg: &Cfg, tracked: &[bool]) -> Liveness {
        Liveness::compute(f, cfg, false, Some(tracked))
    }

    /// Liveness of `vars` only (the others are never live), for a pass
    /// that asks about those variables alone.
    pub fn of_vars(f: &Function, cfg: &Cfg, vars: impl IntoIterator<Item = VarId>) -> Liveness {
        let mut tracked = vec![false; f.vars.len()];
        for v in vars {
            if let Some(t) = tracked.get_mut(v.index()) {
                *t = true;
            }
        }
        Liveness::of(f, cfg, &tracked)
    }

    /// Liveness of the variables and of the `set`/`get` shadows: slot `v` is
    /// variable `v`, slot `n + x` the shadow of `x` (for `n` variables).
    pub fn with_shadows(f: &Function, cfg: &Cfg) -> Liveness {
        Liveness::compute(f, cfg, true, None)
    }

    fn compute(f: &Function, cfg: &Cfg, shadows: bool, tracked: Option<&[bool]>) -> Liveness {
        with_scratch(|scratch| Liveness::compute_with(f, cfg, shadows, tracked, scratch))
    }

    fn compute_with(
        f: &Function,
        cfg: &Cfg,
        shadows: bool,
        tracked: Option<&[bool]>,
        scratch: &mut Scratch,
    ) -> Liveness {
        let Scratch { live, touched, written, reads, live_in, live_out, marks, stack } = scratch;
        let n = f.vars.len();
        let slots_count = if shadows { 2 * n } else { n };
        let blocks = f.blocks.len();
        let instrs = f.instr_count();
        let wanted = |slot: usize| tracked.is_none_or(|t| t.get(slot).copied().unwrap_or(false));
        // One backward pass per block: what it writes, and what it reads first.
        live.reset(slots_count);
        let mut writes = BlockSets::builder(blocks, instrs);
        // (slot, block) pairs: what each block reads first, and writes.
        reads.clear();
        let mut writers: Vec<(u32, u32)> = Vec::with_capacity(instrs);
        for (b, block) in f.blocks.iter().enumerate() {
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
                    if live.insert(r) {
                        touched.push(r as u32);
                    }
                }
            }
            written.sort_unstable();
            written.dedup();
            writes.push_block(written);
            writers.extend(written.iter().filter(|&&w| wanted(w as usize)).map(|&w| (w, b as u32)));
            // A slot read then written again before the start is dead there:
            // the marks say what is live at the block's start.
            touched.retain(|&r| live.contains(r as usize) && wanted(r as usize));
            touched.sort_unstable();
            touched.dedup();
            reads.extend(touched.iter().map(|&r| (r, b as u32)));
        }
        // By slot, then block.
        reads.sort_unstable();
        writers.sort_unstable();
        // (block, slot) pairs found live, slots in increasing order.
        live_in.clear();
        live_out.clear();
        // Per block, the last slot marked live on entry, live on exit, and
        // written there (slots go in order, so no clearing is needed).
        marks.clear();
        marks.resize(3 * blocks, u32::MAX);
        let (in_mark, rest) = marks.split_at_mut(blocks);
        let (out_mark, writes_it) = rest.split_at_mut(blocks);
        stack.clear();
        let mut w = 0;
        for group in reads.chunk_by(|x, y| x.0 == y.0) {
            let v = group[0].0;
            while writers.get(w).is_some_and(|&(s, _)| s < v) {
                w += 1;
            }
            while let Some(&(_, b)) = writers.get(w).filter(|&&(s, _)| s == v) {
                writes_it[b as usize] = v;
                w += 1;
            }
            for &(_, b) in group {
                if in_mark[b as usize] != v {
                    in_mark[b as usize] = v;
                    live_in.push((b, v));
                    stack.push(b);
                }
            }
            while let Some(b) = stack.pop() {
                for &p in &cfg.preds[b as usize] {
                    let p = p.index();
                    if out_mark[p] != v {
                        out_mark[p] = v;
                        live_out.push((p as u32, v));
                    }
                    if writes_it[p] != v && in_mark[p] != v {
                        in_mark[p] = v;
                        live_in.push((p as u32, v));
                        stack.push(p as u32);
                    }
                }
            }
        }
        Liveness {
            live_in: BlockSets::from_pairs(blocks, live_in),
            live_out: BlockSets::from_pairs(blocks, live_out),
            writes: writes.finish(),
            writers,
        }
    }

    /// The blocks writing `slot`, in order.
    pub(crate) fn writers_of(&self, slot: usize) -> impl Iterator<Item = u32> + '_ {
        let slot = slot as u32;
        let from = self.writers.partition_point(|&(s, _)| s < slot);
        self.writers[from..].iter().take_while(move |&&(s, _)| s == slot).map(|&(_, b)| b)
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
        live.reset_to(self.live_out.get(block.index()).as_slice());
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
        assert!(live.live_in.get(entry).contains(v("n")));
        assert!(!live.live_in.get(entry).contains(v("i")), "i is defined first");
        assert!(live.live_in.get(lp).contains(v("i")) && live.live_in.get(lp).contains(v("n")));
        assert!(live.live_out.get(body).contains(v("i")));
        assert!(!live.live_out.get(entry).contains(v("dead")));
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
        let f = &p.functions[0];
        let live = Liveness::new(f, &Cfg::new(f));
        assert_eq!(live.live_in.get(0).as_slice(), &[0], "a is read first; b is written first");
        assert_eq!(live.writes.get(0).as_slice(), &[0, 1]);
    }

    #[test]
    fn shadows_are_live_from_set_to_get() {
        let p = parse_text(
            "@main(c: bool) {\n  a: int = const 1;\n  set x a;\n  br c .l .r;\n.l:\n  jmp .j;\n.r:\n  set x a;\n.j:\n  x: int = get;\n  print x;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let live = Liveness::with_shadows(f, &Cfg::new(f));
        let shadow = f.vars.len() + f.var_named("x").unwrap().index();
        let (l, r, j) = (BlockId(1), BlockId(2), BlockId(3));
        assert!(live.live_in.get(l.index()).contains(shadow) && live.live_in.get(j.index()).contains(shadow));
        assert!(!live.live_in.get(r.index()).contains(shadow), "the set in .r writes it first");
        assert!(!live.live_in.get(0).contains(shadow));
    }
}
