//! Reaching definitions: a forward may-analysis on the dataflow framework.
//! A definition is a parameter or an instruction with a destination.
//!
//! Only definitions of variables that are live are kept at block
//! boundaries (passes ask which definitions reach a read), so the sets stay
//! as small as the live sets. Definitions are numbered grouped by variable,
//! which makes "the definitions of `v` in this set" a range lookup.

use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use super::liveness::Liveness;
use super::sets::{BlockSets, Marks, SparseSet};
use crate::bril::ir::{BlockId, Function, Instr, VarId};

/// Where a variable gets a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefPoint {
    /// The function's parameter.
    Param,
    /// The instruction at `index` of `block`.
    Instr { block: BlockId, index: usize },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefSite {
    pub var: VarId,
    pub point: DefPoint,
}

#[derive(Clone, Debug)]
pub struct ReachingDefs {
    /// Every definition; those of variable `v` are `sites[first[v]..first[v + 1]]`,
    /// parameter first, then in program order.
    pub sites: Vec<DefSite>,
    first: Vec<u32>,
    /// The site each instruction writing a tracked variable is, by block.
    site_at: Vec<Vec<u32>>,
    tracked: Vec<bool>,
    /// Definitions reaching the start and the end of each block, of the
    /// variables live there (and at the end, all the block's last ones).
    before: Vec<SparseSet>,
    after: Vec<SparseSet>,
}

struct Problem<'a> {
    sites: &'a [DefSite],
    live_in: &'a BlockSets,
    writes: &'a BlockSets,
    /// The last definition of each variable a block writes.
    last: &'a [SparseSet],
    params: SparseSet,
}

impl Dataflow for Problem<'_> {
    type Fact = SparseSet;
    const DIRECTION: Direction = Direction::Forward;
    fn boundary(&self, _: &Function) -> SparseSet {
        self.params.clone()
    }
    fn top(&self, _: &Function) -> SparseSet {
        SparseSet::new()
    }
    fn meet(&self, acc: &mut SparseSet, other: &SparseSet) {
        acc.union_with(other);
    }
    fn transfer(&self, _: &Function, block: BlockId, input: &SparseSet) -> SparseSet {
        let (live, writes) = (self.live_in.get(block.index()), self.writes.get(block.index()));
        let passing: SparseSet = input
            .iter()
            .filter(|&s| {
                let v = self.sites[s].var.index();
                live.contains(v) && !writes.contains(v)
            })
            .collect();
        let mut out = passing;
        out.union_with(&self.last[block.index()]);
        out
    }
}

impl ReachingDefs {
    pub fn new(f: &Function, cfg: &Cfg, live: &Liveness) -> ReachingDefs {
        ReachingDefs::of(f, cfg, live, &vec![true; f.vars.len()])
    }

    /// The definitions of the `tracked` variables only (indexed by variable):
    /// a variable written in many places and live across much of the
    /// function (an accumulator updated in every loop) has as many reaching
    /// definitions at each point as there are writes before it, so a pass
    /// asks about the few variables it needs.
    pub fn of(f: &Function, cfg: &Cfg, live: &Liveness, tracked: &[bool]) -> ReachingDefs {
        let is_tracked = |v: VarId| tracked.get(v.index()).copied().unwrap_or(false);
        // Count the definitions of each variable, then number them grouped.
        let n = f.vars.len();
        let mut first = vec![0u32; n + 1];
        for v in
            f.params.iter().map(|p| p.var).chain(f.instrs().filter_map(Instr::def)).filter(|&v| is_tracked(v))
        {
            if let Some(c) = first.get_mut(v.index() + 1) {
                *c += 1;
            }
        }
        for v in 0..n {
            first[v + 1] += first[v];
        }
        let mut next: Vec<u32> = first[..n].to_vec();
        let mut sites = vec![DefSite { var: VarId(0), point: DefPoint::Param }; first[n] as usize];
        let mut place = |sites: &mut Vec<DefSite>, var: VarId, point: DefPoint| -> u32 {
            let s = next[var.index()];
            next[var.index()] += 1;
            sites[s as usize] = DefSite { var, point };
            s
        };
        let params: SparseSet = f
            .params
            .iter()
            .filter(|p| is_tracked(p.var))
            .map(|p| place(&mut sites, p.var, DefPoint::Param) as usize)
            .collect();
        let mut site_at = Vec::with_capacity(f.blocks.len());
        let mut last = Vec::with_capacity(f.blocks.len());
        let mut latest = Marks::new(n);
        for b in f.block_ids() {
            let mut row = Vec::new();
            for (index, instr) in f.block(b).instrs.iter().enumerate() {
                if let Some(v) = instr.def().filter(|&v| is_tracked(v)) {
                    row.push(place(&mut sites, v, DefPoint::Instr { block: b, index }));
                }
            }
            // The last site of each variable: sites of one variable grow
            // along the block, so walk back and keep the first seen.
            latest.clear();
            let block_last: Vec<u32> =
                row.iter().rev().copied().filter(|&s| latest.insert(sites[s as usize].var.index())).collect();
            last.push(SparseSet::from_unsorted(block_last));
            site_at.push(row);
        }
        let problem =
            Problem { sites: &sites, live_in: &live.live_in, writes: &live.writes, last: &last, params };
        let s = solve(&problem, f, cfg);
        ReachingDefs { sites, first, site_at, tracked: tracked.to_vec(), before: s.before, after: s.after }
    }

    /// The members of `set` that define `v`.
    fn of_var_in<'a>(&self, set: &'a SparseSet, v: VarId) -> &'a [u32] {
        match (self.first.get(v.index()), self.first.get(v.index() + 1)) {
            (Some(&lo), Some(&hi)) => set.range(lo as usize, hi as usize),
            _ => &[],
        }
    }

    /// The definitions of `v` reaching the end of `block` (`v` must be
    /// tracked, and live there or written by the block).
    pub fn at_exit(&self, block: BlockId, v: VarId) -> impl Iterator<Item = &DefSite> + '_ {
        self.of_var_in(&self.after[block.index()], v).iter().map(|&s| &self.sites[s as usize])
    }

    /// Walks `block` from its start, calling `visit(i, instr, reaching)`
    /// where `reaching.of_var(v)` lists the definitions of `v` reaching
    /// instruction `i`, for any `v` live just before it (in particular what
    /// it reads). `scratch` is reused from block to block.
    pub fn walk(
        &self,
        f: &Function,
        block: BlockId,
        scratch: &mut LocalDefs,
        mut visit: impl FnMut(usize, &Instr, &Reaching),
    ) {
        scratch.written.clear();
        let mut row = self.site_at[block.index()].iter();
        for (i, instr) in f.block(block).instrs.iter().enumerate() {
            visit(i, instr, &Reaching { defs: self, here: scratch, before: &self.before[block.index()] });
            let Some(v) = instr.def().filter(|v| self.tracked.get(v.index()) == Some(&true)) else {
                continue;
            };
            if let Some(&s) = row.next() {
                scratch.written.insert(v.index());
                if let Some(slot) = scratch.site.get_mut(v.index()) {
                    *slot = s;
                }
            }
        }
    }
}

/// Scratch for [`ReachingDefs::walk`]: the block's latest definition of
/// each variable it has written so far.
pub struct LocalDefs {
    written: Marks,
    site: Vec<u32>,
}

impl LocalDefs {
    pub fn new(f: &Function) -> LocalDefs {
        LocalDefs { written: Marks::new(f.vars.len()), site: vec![0; f.vars.len()] }
    }
}

/// Reaching definitions at one point of a block walk.
pub struct Reaching<'a> {
    defs: &'a ReachingDefs,
    here: &'a LocalDefs,
    before: &'a SparseSet,
}

impl<'a> Reaching<'a> {
    /// The definitions of `v` reaching this point (`v` must be tracked and live here).
    pub fn of_var(&self, v: VarId) -> impl Iterator<Item = &'a DefSite> + 'a {
        let (local, outside): (Option<u32>, &[u32]) = if self.here.written.contains(v.index()) {
            (self.here.site.get(v.index()).copied(), &[])
        } else {
            (None, self.defs.of_var_in(self.before, v))
        };
        let sites = &self.defs.sites;
        local.into_iter().chain(outside.iter().copied()).filter_map(move |s| sites.get(s as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn definitions_reach_through_branches_and_loops() {
        let p = parse_text(
            "@main(x: int) {\n  c: bool = const true;\n  br c .then .join;\n.then:\n  x: int = const 1;\n.join:\n  print x;\n  x: int = const 2;\n  jmp .join;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let rd = ReachingDefs::new(f, &cfg, &Liveness::new(f, &cfg));
        let x = f.var_named("x").unwrap();
        let join = f.block_labeled("join").unwrap();
        let mut scratch = LocalDefs::new(f);
        let mut points: Vec<DefPoint> = Vec::new();
        rd.walk(f, join, &mut scratch, |i, _, reaching| {
            if i == 0 {
                points = reaching.of_var(x).map(|s| s.point).collect();
            }
        });
        assert_eq!(points.len(), 3, "param, then-block and loop definitions: {points:?}");
        assert_eq!(points[0], DefPoint::Param);
        let after_def: Vec<DefPoint> = rd.at_exit(join, x).map(|s| s.point).collect();
        assert_eq!(after_def, vec![DefPoint::Instr { block: join, index: 1 }]);
    }

    #[test]
    fn a_definition_in_the_block_hides_the_others() {
        let p = parse_text(
            "@main(x: int) {\n  x: int = add x x;\n  print x;\n  x: int = add x x;\n  print x;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let rd = ReachingDefs::new(f, &cfg, &Liveness::new(f, &cfg));
        let x = f.var_named("x").unwrap();
        let mut scratch = LocalDefs::new(f);
        let mut seen = Vec::new();
        rd.walk(f, BlockId(0), &mut scratch, |_, _, r| {
            seen.push(r.of_var(x).map(|s| s.point).collect::<Vec<_>>())
        });
        assert_eq!(seen[0], vec![DefPoint::Param]);
        assert_eq!(seen[1], vec![DefPoint::Instr { block: BlockId(0), index: 0 }]);
        assert_eq!(seen[2], vec![DefPoint::Instr { block: BlockId(0), index: 0 }], "print defines nothing");
        assert_eq!(seen[3], vec![DefPoint::Instr { block: BlockId(0), index: 2 }]);
    }
}
