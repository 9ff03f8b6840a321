//! `-copy-prop`: global copy propagation, then removal of the copies it
//! leaves dead.
//!
//! A copy `d = id s` is available at a point when every path from the entry
//! runs it and then writes neither `d` nor `s` (a forward must-analysis on
//! the dataflow framework). A read of `d` where such a copy is available
//! reads `s` instead, following chains of copies. A copy whose destination is
//! then dead is deleted, when its source is certainly assigned there (so no
//! read of an unassigned variable, an error, disappears).

use crate::bril::analysis::bitset::BitSet;
use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::dataflow::{solve, Dataflow, Direction};
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::rewrite_functions;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, VarId};
use crate::error::Result;

/// `-copy-prop`.
pub fn copy_prop(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        propagate(f);
        remove_dead_copies(f);
        Ok(())
    })
}

/// Every copy instruction of a function, numbered.
struct Copies {
    /// (destination, source) of each copy.
    pairs: Vec<(VarId, VarId)>,
    /// The copy number of each instruction that is one.
    at: Vec<Vec<Option<usize>>>,
    /// The copies that mention each variable (as destination or source).
    touching: Vec<Vec<usize>>,
}

impl Copies {
    fn new(f: &Function) -> Copies {
        let mut pairs = Vec::new();
        let mut at = Vec::new();
        let mut touching = vec![Vec::new(); f.vars.len()];
        for b in &f.blocks {
            let mut row = Vec::new();
            for i in &b.instrs {
                row.push(match (i.op, i.def(), i.args.first()) {
                    (Op::Id, Some(d), Some(&s)) if d != s => {
                        pairs.push((d, s));
                        let n = pairs.len() - 1;
                        touching[d.index()].push(n);
                        touching[s.index()].push(n);
                        Some(n)
                    }
                    _ => None,
                });
            }
            at.push(row);
        }
        Copies { pairs, at, touching }
    }

    /// Updates `avail` across instruction `i` of block `b`.
    fn step(&self, avail: &mut BitSet, b: usize, i: usize, instr: &Instr) {
        if let Some(d) = instr.def() {
            for &c in &self.touching[d.index()] {
                avail.remove(c);
            }
        }
        if let Some(c) = self.at[b][i] {
            avail.insert(c);
        }
    }
}

impl Dataflow for Copies {
    type Fact = BitSet;
    const DIRECTION: Direction = Direction::Forward;
    fn boundary(&self, _: &Function) -> BitSet {
        BitSet::new(self.pairs.len())
    }
    fn top(&self, _: &Function) -> BitSet {
        BitSet::full(self.pairs.len())
    }
    fn meet(&self, acc: &mut BitSet, other: &BitSet) {
        acc.intersect_with(other);
    }
    fn transfer(&self, f: &Function, block: BlockId, input: &BitSet) -> BitSet {
        let mut s = input.clone();
        for (i, instr) in f.block(block).instrs.iter().enumerate() {
            self.step(&mut s, block.index(), i, instr);
        }
        s
    }
}

fn propagate(f: &mut Function) {
    let copies = Copies::new(f);
    if copies.pairs.is_empty() {
        return;
    }
    let cfg = Cfg::new(f);
    let solution = solve(&copies, f, &cfg);
    for b in 0..f.blocks.len() {
        let mut avail = solution.before[b].clone();
        for i in 0..f.blocks[b].instrs.len() {
            let instr = &mut f.blocks[b].instrs[i];
            for u in instr.uses_mut() {
                // Follow the chain; each step is an available copy, at most one per variable.
                for _ in 0..copies.pairs.len() {
                    let Some(s) = available_source(&copies, &avail, *u) else { break };
                    *u = s;
                }
            }
            let instr = &f.blocks[b].instrs[i];
            copies.step(&mut avail, b, i, instr);
        }
    }
}

/// The source of the available copy into `v`, if there is one.
fn available_source(copies: &Copies, avail: &BitSet, v: VarId) -> Option<VarId> {
    let mut touching = copies.touching[v.index()].iter().map(|&c| (c, copies.pairs[c]));
    touching.find(|&(c, (d, _))| d == v && avail.contains(c)).map(|(_, (_, s))| s)
}

fn remove_dead_copies(f: &mut Function) {
    let cfg = Cfg::new(f);
    let live = Liveness::new(f, &cfg);
    let definite = Definite::new(f, &cfg);
    for b in f.block_ids() {
        let after = live.live_after_each(f, b);
        let defined = definite.before_each(f, b);
        let mut i = 0;
        f.block_mut(b).instrs.retain(|instr| {
            let keep = match (instr.op, instr.def(), instr.args.first()) {
                (Op::Id, Some(d), Some(&s)) => {
                    after[i].contains(d.index()) || !(s == d || defined[i].contains(s.index()))
                }
                _ => true,
            };
            i += 1;
            keep
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::global_tests::check_global_pass as check_pass;
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
    fn semantics() {
        check_pass(&|p| copy_prop(p));
    }
}
