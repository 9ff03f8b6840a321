//! `-copy-prop`: global copy propagation, then removal of the copies it
//! leaves dead.
//!
//! A copy `d = id s` is available at a point when every path from the entry
//! runs it and then writes neither `d` nor `s` (a forward must-analysis). A
//! read of `d` where such a copy is available reads `s` instead, following
//! chains of copies. A copy whose destination is then dead is deleted, when
//! its source is certainly assigned there (so no read of an unassigned
//! variable, an error, disappears: see
//! [`MaybeUndefinedReads`]).
//!
//! At most one copy into a variable is available at any point (each kills
//! the others), so the facts map a variable to its available copy. At a
//! block's entry only the variables a read there may follow are kept: those
//! live there and, transitively, the sources of their available copies. The
//! facts stay as small as the live sets, whatever the size of the function.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::analysis::edit::rewrite_functions_where;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::{Marks, Set};
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

/// `-copy-prop`.
pub fn copy_prop(program: &mut Program) -> Result<bool> {
    // Both steps work on `id` instructions only: a function without one is
    // left alone, uncopied.
    rewrite_functions_where(program, has_copies, |_, f| {
        propagate(f);
        remove_dead_copies(f);
        Ok(())
    })
}

/// Whether `f` has an `id` instruction, the only kind either step touches
/// (`propagate` follows copies; `remove_dead_copies` deletes `id`s).
pub(crate) fn has_copies(f: &Function) -> bool {
    f.instrs().any(|i| i.op == Op::Id)
}

/// The copy `instr` is, as (destination, source).
fn as_copy(instr: &Instr) -> Option<(VarId, VarId)> {
    match (instr.op, instr.def(), instr.args.first()) {
        (Op::Id, Some(d), Some(&s)) if d != s => Some((d, s)),
        _ => None,
    }
}

/// Available copies as (destination, source), sorted by destination. Two
/// copies of the same source into the same destination are one fact: on
/// either path the destination holds the source's value.
type Avail = Vec<(u32, u32)>;

fn lookup(avail: &Avail, v: u32) -> Option<u32> {
    avail.binary_search_by_key(&v, |&(d, _)| d).ok().map(|k| avail[k].1)
}

/// Available copies at every block entry; `None` for blocks no path from
/// the entry reaches.
fn solve(f: &Function, cfg: &Cfg, live: &Liveness) -> Vec<Option<Avail>> {
    let n = f.blocks.len();
    let writes = &live.writes;
    // The copies each block makes that survive to its end: neither side
    // is written after them in the block.
    let mut written_after = Marks::new(f.vars.len());
    let survivors: Vec<Avail> = f
        .blocks
        .iter()
        .map(|block| {
            written_after.clear();
            let mut out: Avail = Vec::new();
            for instr in block.instrs.iter().rev() {
                if let Some((d, s)) = as_copy(instr) {
                    if !written_after.contains(d.index()) && !written_after.contains(s.index()) {
                        out.push((d.0, s.0));
                    }
                }
                if let Some(d) = instr.def() {
                    written_after.insert(d.index());
                }
            }
            out.sort_unstable();
            out
        })
        .collect();
    let mut ins: Vec<Option<Avail>> = vec![None; n];
    let mut outs: Vec<Option<Avail>> = vec![None; n];
    let mut queued = vec![false; n];
    let mut work: std::collections::VecDeque<BlockId> = cfg.rpo.iter().copied().collect();
    for &b in &cfg.rpo {
        queued[b.index()] = true;
    }
    let mut wanted = Marks::new(f.vars.len());
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        let input = if b.index() == 0 {
            Avail::new() // nothing is available before the function starts
        } else {
            meet(&cfg.preds[b.index()], &outs, live.live_in.get(b.index()), &mut wanted)
        };
        let written = writes.get(b.index());
        let mut out: Avail = input
            .iter()
            .copied()
            .filter(|&(d, s)| !written.contains(d as usize) && !written.contains(s as usize))
            .collect();
        out.extend_from_slice(&survivors[b.index()]);
        out.sort_unstable();
        ins[b.index()] = Some(input);
        if outs[b.index()].as_ref() != Some(&out) {
            outs[b.index()] = Some(out);
            for &s in &cfg.succs[b.index()] {
                if !queued[s.index()] {
                    queued[s.index()] = true;
                    work.push_back(s);
                }
            }
        }
    }
    ins
}

/// The copies available on entry to a block from its predecessors reached so
/// far (the others are still the optimistic "everything"), for the
/// variables live there and the sources of their copies, transitively.
fn meet(preds: &[BlockId], outs: &[Option<Avail>], live_in: Set, wanted: &mut Marks) -> Avail {
    let reached: Vec<&Avail> = preds.iter().filter_map(|p| outs[p.index()].as_ref()).collect();
    let mut avail = Avail::new();
    if reached.is_empty() {
        return avail;
    }
    wanted.clear();
    let mut todo: Vec<u32> = live_in.as_slice().to_vec();
    todo.iter().for_each(|&v| {
        wanted.insert(v as usize);
    });
    while let Some(v) = todo.pop() {
        let Some(s) = lookup(reached[0], v) else { continue };
        if reached[1..].iter().all(|o| lookup(o, v) == Some(s)) {
            avail.push((v, s));
            if wanted.insert(s as usize) {
                todo.push(s);
            }
        }
    }
    avail.sort_unstable();
    avail
}

/// Copies available at the current point of a block walk. A copy recorded
/// while its destination and source had versions (vd, vs) holds as long as
/// neither has been written since; writes bump versions, so nothing needs
/// to be removed when a variable changes.
struct Walk {
    version: Vec<u32>,
    recorded: Marks,
    copy: Vec<(u32, u32, u32)>,
}

impl Walk {
    fn new(f: &Function) -> Walk {
        let n = f.vars.len();
        Walk { version: vec![0; n], recorded: Marks::new(n), copy: vec![(0, 0, 0); n] }
    }

    fn start(&mut self, avail: &Avail) {
        self.recorded.clear();
        for &(d, s) in avail {
            self.record(d, s);
        }
    }

    fn record(&mut self, d: u32, s: u32) {
        let (vd, vs) = (self.version[d as usize], self.version[s as usize]);
        self.recorded.insert(d as usize);
        self.copy[d as usize] = (s, vd, vs);
    }

    /// The source of the copy into `v` available here.
    fn source(&self, v: VarId) -> Option<VarId> {
        if !self.recorded.contains(v.index()) {
            return None;
        }
        let (s, vd, vs) = self.copy[v.index()];
        (self.version[v.index()] == vd && self.version[s as usize] == vs).then_some(VarId(s))
    }

    /// Moves past `instr`.
    fn step(&mut self, instr: &Instr) {
        if let Some(d) = instr.def() {
            self.version[d.index()] = self.version[d.index()].wrapping_add(1);
        }
        if let Some((d, s)) = as_copy(instr) {
            self.record(d.0, s.0);
        }
    }
}

fn propagate(f: &mut Function) {
    if !f.instrs().any(|i| as_copy(i).is_some()) {
        return;
    }
    let cfg = Cfg::new(f);
    let live = Liveness::new(f, &cfg);
    let ins = solve(f, &cfg, &live);
    let mut walk = Walk::new(f);
    let limit = f.vars.len();
    for (b, input) in ins.iter().enumerate() {
        // Blocks no path reaches keep their reads.
        let Some(input) = input else { continue };
        walk.start(input);
        for instr in &mut f.blocks[b].instrs {
            for u in instr.uses_mut() {
                // Follow the chain; each step is an available copy, one per variable.
                for _ in 0..limit {
                    let Some(s) = walk.source(*u) else { break };
                    *u = s;
                }
            }
            walk.step(instr);
        }
    }
}

fn remove_dead_copies(f: &mut Function) {
    let cfg = Cfg::new(f);
    // Only the copies' destinations are asked about.
    let copies = f.instrs().filter(|i| i.op == Op::Id).filter_map(Instr::def);
    let live = Liveness::of_vars(f, &cfg, copies);
    // Which reads may fail is a dataflow analysis of its own: made only
    // once some copy is dead (removing dead copies changes no other read).
    let mut failing: Option<MaybeUndefinedReads> = None;
    let mut scratch = Marks::new(f.vars.len());
    for b in f.block_ids() {
        // A copy may go when its destination is dead after it and its read
        // of the source cannot fail.
        let mut remove = vec![false; f.block(b).instrs.len()];
        live.walk_back(f, b, &mut scratch, |i, instr, live| {
            if let (Op::Id, Some(d)) = (instr.op, instr.def()) {
                remove[i] = !live.contains(d.index());
            }
        });
        if !remove.contains(&true) {
            continue;
        }
        let failing = failing.get_or_insert_with(|| MaybeUndefinedReads::of(f));
        for (i, remove) in remove.iter_mut().enumerate() {
            *remove &= !failing.at(b, i);
        }
        let mut i = 0;
        f.block_mut(b).instrs.retain(|_| {
            i += 1;
            !remove[i - 1]
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::{check_corpus, check_skipped_functions_unchanged, Rerun};
    use crate::bril::{parse_text, to_text};

    #[test]
    fn propagates_across_blocks_and_chains_and_drops_dead_copies() {
        let mut p = parse_text("@main(a: int) {\n  b: int = id a;\n  c: int = id b;\n  jmp .next;\n.next:\n  d: int = add c b;\n  print d;\n}").unwrap();
        assert!(copy_prop(&mut p).unwrap());
        let text = to_text(&p);
        assert!(text.contains("d: int = add a a;"), "{text}");
        assert!(!text.contains("id"), "{text}");
        assert!(!copy_prop(&mut p).unwrap());
    }

    #[test]
    fn stops_where_a_path_redefines_the_source() {
        let mut p = parse_text("@main(a: int, c: bool) {\n  b: int = id a;\n  br c .redef .join;\n.redef:\n  a: int = const 7;\n.join:\n  print b;\n}").unwrap();
        copy_prop(&mut p).unwrap();
        let text = to_text(&p);
        assert!(text.contains("print b;") && text.contains("b: int = id a;"), "{text}");
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        // Deleting a dead copy can make available a copy it used to kill
        // (`v = id t; t = id v`), which a second run then follows.
        check_corpus(&|p| copy_prop(p), Rerun::MayChange);
    }

    #[test]
    fn functions_without_copies_are_left_alone() {
        check_skipped_functions_unchanged(&has_copies, &|f| {
            propagate(f);
            remove_dead_copies(f);
            Ok(())
        });
    }
}
