//! `-dead-store`: removes stores into non-escaping allocations that no load
//! can read, and allocations never loaded from at all.
//!
//! Works on the allocations of [`super::alloc_facts`], and only when every
//! access to the allocation certainly happens while it is live through a
//! pointer computed from it, so no removed store could have failed. A store
//! is dead when, on every path after it, its cell is overwritten, or the
//! allocation freed or allocated anew, or the function left, before any
//! load of that cell. An allocation never loaded from loses all its stores
//! and `ptradd`s, and also its `alloc` and `free` when the analysis proves
//! they balance (freed before reallocation and before returning), so no leak
//! or double free is hidden. Allocations stay when the program prints
//! pointers (removing one renumbers the others).

use super::alloc_facts::{allocates_anywhere, prints_pointers, Allocations, Candidate};
use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program};
use crate::error::Result;

pub fn dead_store(program: &mut Program) -> Result<bool> {
    if !allocates_anywhere(program) {
        return Ok(false);
    }
    let may_remove_allocations = !prints_pointers(program);
    let mut changed = false;
    for f in &mut program.functions {
        let allocations = Allocations::of(f);
        if allocations.list.is_empty() {
            continue;
        }
        let lifetimes = allocations.lifetimes(f);
        let mut loaded = vec![false; allocations.list.len()];
        for i in f.instrs().filter(|i| i.op == Op::Load) {
            if let Some(c) = i.args.first().and_then(|&a| allocations.owner_of(a)) {
                loaded[c] = true;
            }
        }
        // What to do with each allocation: nothing (None), drop its dead
        // stores (Some(false)), or drop everything (Some(true)) or all but
        // its alloc and free.
        let plan: Vec<Plan> = lifetimes
            .iter()
            .zip(&loaded)
            .map(|(l, &loaded)| match (l.accesses_safe, loaded) {
                (false, _) => Plan::Keep,
                (true, true) => Plan::DeadStores,
                (true, false) => Plan::Unused { whole: l.balanced && may_remove_allocations },
            })
            .collect();
        if plan.iter().all(|&p| p == Plan::Keep) {
            continue;
        }
        let dead_stores = dead_stores(f, &allocations, &plan);
        let dead: Vec<Vec<bool>> = f
            .blocks
            .iter()
            .enumerate()
            .map(|(b, block)| {
                let dead = |(k, instr): (usize, &Instr)| match allocations.touched_by(instr).map(|c| plan[c])
                {
                    Some(Plan::DeadStores) => dead_stores[b][k],
                    Some(Plan::Unused { whole }) => whole || !matches!(instr.op, Op::Alloc | Op::Free),
                    Some(Plan::Keep) | None => false,
                };
                block.instrs.iter().enumerate().map(dead).collect()
            })
            .collect();
        // A function with nothing to drop is not written to (and so not copied).
        if !dead.iter().flatten().any(|&d| d) {
            continue;
        }
        for (block, dead) in std::sync::Arc::make_mut(f).blocks.iter_mut().zip(&dead) {
            let mut k = 0;
            block.instrs.retain(|_| {
                k += 1;
                !dead[k - 1]
            });
        }
        changed = true;
    }
    Ok(changed)
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Plan {
    Keep,
    DeadStores,
    Unused { whole: bool },
}

/// Per block and instruction: the stores of the allocations planned for it
/// whose cell no load reads before it is overwritten or the allocation
/// ends. A backward analysis of all of them at once: at each block entry,
/// the cells of each allocation that may still be loaded (only allocations
/// with some are listed).
fn dead_stores(f: &Function, allocations: &Allocations, plan: &[Plan]) -> Vec<Vec<bool>> {
    let n = f.blocks.len();
    let tracked = |instr: &Instr| allocations.touched_by(instr).filter(|&c| plan[c] == Plan::DeadStores);
    let mut live_in: Vec<Vec<(u32, u64)>> = vec![Vec::new(); n];
    let mut cells = Cells::new(allocations.list.len());
    let cfg = Cfg::new(f);
    let mut queued = vec![true; n];
    let mut work: Vec<usize> = (0..n).collect();
    while let Some(b) = work.pop() {
        queued[b] = false;
        cells.start(f, b, &live_in);
        for instr in f.blocks[b].instrs.iter().rev() {
            if let Some(c) = tracked(instr) {
                let live = cells.get(c);
                cells.set(c, transfer(&allocations.list[c], instr, live).0);
            }
        }
        let new = cells.listed();
        if new != live_in[b] {
            live_in[b] = new;
            for &p in &cfg.preds[b] {
                if !queued[p.index()] {
                    queued[p.index()] = true;
                    work.push(p.index());
                }
            }
        }
    }
    (0..n)
        .map(|b| {
            cells.start(f, b, &live_in);
            let mut dead: Vec<bool> = f.blocks[b]
                .instrs
                .iter()
                .rev()
                .map(|instr| {
                    let Some(c) = tracked(instr) else { return false };
                    let (next, is_dead) = transfer(&allocations.list[c], instr, cells.get(c));
                    cells.set(c, next);
                    is_dead
                })
                .collect();
            dead.reverse();
            dead
        })
        .collect()
}

/// The cells of each allocation that may be loaded later, along a walk
/// back through a block (allocations not listed have none).
struct Cells {
    mask: Vec<u64>,
    listed: Marks,
    order: Vec<u32>,
}

impl Cells {
    fn new(n: usize) -> Cells {
        Cells { mask: vec![0; n], listed: Marks::new(n), order: Vec::new() }
    }

    /// Starts at the end of block `b`: what its successors may load.
    fn start(&mut self, f: &Function, b: usize, live_in: &[Vec<(u32, u64)>]) {
        self.listed.clear();
        self.order.clear();
        for s in f.successors(BlockId::new(b)).iter() {
            for &(c, m) in &live_in[s.index()] {
                let now = self.get(c as usize);
                self.set(c as usize, now | m);
            }
        }
    }

    fn get(&self, c: usize) -> u64 {
        if self.listed.contains(c) {
            self.mask[c]
        } else {
            0
        }
    }

    fn set(&mut self, c: usize, m: u64) {
        if self.listed.insert(c) {
            self.order.push(c as u32);
        }
        self.mask[c] = m;
    }

    fn listed(&self) -> Vec<(u32, u64)> {
        let mut out: Vec<(u32, u64)> =
            self.order.iter().map(|&c| (c, self.mask[c as usize])).filter(|&(_, m)| m != 0).collect();
        out.sort_unstable();
        out
    }
}

/// Live cells before `instr` given those after, and whether it is a dead store.
fn transfer(c: &Candidate, instr: &Instr, live: u64) -> (u64, bool) {
    let cell = instr.args.first().and_then(|&a| c.cell_of(a));
    match (instr.op, cell) {
        (Op::Load, Some(k)) => (live | 1 << k, false),
        (Op::Store, Some(k)) => (live & !(1 << k), live >> k & 1 == 0),
        (Op::Free, Some(_)) => (0, false),
        (Op::Alloc, _) if instr.def() == Some(c.base) => (0, false),
        _ => (live, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn run(src: &str) -> (bool, String) {
        let mut p = parse_text(src).unwrap();
        let changed = dead_store(&mut p).unwrap();
        (changed, to_text(&p))
    }

    #[test]
    fn an_allocation_never_loaded_goes_with_its_stores() {
        let (changed, text) = run(
            "@main {\n  two: int = const 2;\n  one: int = const 1;\n  p: ptr<int> = alloc two;\n  q: ptr<int> = ptradd p one;\n  store p one;\n  store q two;\n  free p;\n  print one;\n}",
        );
        assert!(changed);
        assert_eq!(text, "@main {\n  two: int = const 2;\n  one: int = const 1;\n  print one;\n}\n");
    }

    #[test]
    fn an_unfreed_allocation_keeps_its_alloc_but_loses_its_stores() {
        let (_, text) = run(
            "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  store p one;\n  print one;\n}",
        );
        assert_eq!(text, "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  print one;\n}\n");
    }

    #[test]
    fn overwritten_stores_go_and_read_ones_stay() {
        let (_, text) = run(
            "@main {\n  one: int = const 1;\n  two: int = const 2;\n  p: ptr<int> = alloc one;\n  store p one;\n  store p two;\n  x: int = load p;\n  store p x;\n  free p;\n  print x;\n}",
        );
        let stores: Vec<&str> = text.lines().filter(|l| l.contains("store")).map(str::trim).collect();
        assert_eq!(stores, ["store p two;"]);
    }

    #[test]
    fn a_store_that_may_be_out_of_bounds_or_after_free_stays() {
        let unknown_offset = "@main(n: int) {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  q: ptr<int> = ptradd p n;\n  store q one;\n  free p;\n}\n";
        assert_eq!(run(unknown_offset), (false, unknown_offset.to_string()));
        let after_free = "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  store p one;\n  free p;\n  store p one;\n}\n";
        assert_eq!(run(after_free), (false, after_free.to_string()));
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| dead_store(p));
    }
}
