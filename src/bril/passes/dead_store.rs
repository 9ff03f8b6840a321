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

use super::alloc_facts::{candidates, lifetime, prints_pointers, Candidate};
use crate::bril::ir::{BlockId, Function, Op, Program};
use crate::error::Result;

pub fn dead_store(program: &mut Program) -> Result<bool> {
    let may_remove_allocations = !prints_pointers(program);
    let mut changed = false;
    for f in &mut program.functions {
        for c in candidates(f) {
            let l = lifetime(f, &c);
            if !l.accesses_safe {
                continue;
            }
            let loaded =
                f.instrs().any(|i| i.op == Op::Load && i.args.first().and_then(|&a| c.cell_of(a)).is_some());
            let dead = if loaded {
                dead_stores(f, &c)
            } else {
                let whole = l.balanced && may_remove_allocations;
                f.blocks
                    .iter()
                    .map(|b| {
                        b.instrs
                            .iter()
                            .map(|i| c.touches(i) && (whole || !matches!(i.op, Op::Alloc | Op::Free)))
                            .collect()
                    })
                    .collect()
            };
            for (block, dead) in f.blocks.iter_mut().zip(&dead) {
                if dead.iter().any(|&d| d) {
                    changed = true;
                    let mut k = 0;
                    block.instrs.retain(|_| {
                        k += 1;
                        !dead[k - 1]
                    });
                }
            }
        }
    }
    Ok(changed)
}

/// Per block and instruction: the stores of `c` whose cell no load reads
/// before it is overwritten or the allocation ends.
fn dead_stores(f: &Function, c: &Candidate) -> Vec<Vec<bool>> {
    let n = f.blocks.len();
    // Cells that may be loaded later, at the start of each block.
    let mut live_in = vec![0u64; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut live = live_out(f, b, &live_in);
            for instr in f.blocks[b].instrs.iter().rev() {
                live = transfer(c, instr, live).0;
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|b| {
            let mut live = live_out(f, b, &live_in);
            let mut dead: Vec<bool> = f.blocks[b]
                .instrs
                .iter()
                .rev()
                .map(|instr| {
                    let (next, is_dead) = transfer(c, instr, live);
                    live = next;
                    is_dead
                })
                .collect();
            dead.reverse();
            dead
        })
        .collect()
}

fn live_out(f: &Function, b: usize, live_in: &[u64]) -> u64 {
    f.successors(BlockId::new(b)).iter().fold(0, |acc, s| acc | live_in[s.index()])
}

/// Live cells before `instr` given those after, and whether it is a dead store.
fn transfer(c: &Candidate, instr: &crate::bril::ir::Instr, live: u64) -> (u64, bool) {
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

    #[test]
    fn a_second_run_changes_nothing_on_the_suite() {
        for b in crate::bril::suite::all() {
            let mut p = b.program().unwrap();
            dead_store(&mut p).unwrap();
            assert!(!dead_store(&mut p).unwrap(), "{}", b.name);
        }
    }
}
