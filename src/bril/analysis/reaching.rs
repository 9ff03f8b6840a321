//! Reaching definitions: a forward may-analysis on the dataflow framework.
//! A definition is a parameter or an instruction with a destination.

use super::bitset::BitSet;
use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use crate::bril::ir::{BlockId, Function, VarId};

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

/// Definitions reaching the start and end of every block (as sets of
/// indices into `sites`).
#[derive(Clone, Debug)]
pub struct ReachingDefs {
    pub sites: Vec<DefSite>,
    pub before: Vec<BitSet>,
    pub after: Vec<BitSet>,
    /// The site indices of each variable.
    by_var: Vec<Vec<usize>>,
    /// The site index of each instruction with a destination, per block.
    site_of: Vec<Vec<Option<usize>>>,
}

struct Problem<'a> {
    sites: &'a [DefSite],
    by_var: &'a [Vec<usize>],
    site_of: &'a [Vec<Option<usize>>],
}

impl Dataflow for Problem<'_> {
    type Fact = BitSet;
    const DIRECTION: Direction = Direction::Forward;
    fn boundary(&self, _: &Function) -> BitSet {
        let mut s = BitSet::new(self.sites.len());
        for (i, site) in self.sites.iter().enumerate() {
            if site.point == DefPoint::Param {
                s.insert(i);
            }
        }
        s
    }
    fn top(&self, _: &Function) -> BitSet {
        BitSet::new(self.sites.len())
    }
    fn meet(&self, acc: &mut BitSet, other: &BitSet) {
        acc.union_with(other);
    }
    fn transfer(&self, _: &Function, block: BlockId, input: &BitSet) -> BitSet {
        let mut s = input.clone();
        for &site in self.site_of[block.index()].iter().flatten() {
            kill_and_gen(&mut s, self.by_var, self.sites, site);
        }
        s
    }
}

fn kill_and_gen(s: &mut BitSet, by_var: &[Vec<usize>], sites: &[DefSite], site: usize) {
    if let Some(others) = by_var.get(sites[site].var.index()) {
        for &o in others {
            s.remove(o);
        }
    }
    s.insert(site);
}

impl ReachingDefs {
    pub fn new(f: &Function, cfg: &Cfg) -> ReachingDefs {
        let mut sites = Vec::new();
        for p in &f.params {
            sites.push(DefSite { var: p.var, point: DefPoint::Param });
        }
        let mut site_of = Vec::with_capacity(f.blocks.len());
        for b in f.block_ids() {
            let mut row = Vec::with_capacity(f.block(b).instrs.len());
            for (index, instr) in f.block(b).instrs.iter().enumerate() {
                row.push(instr.def().map(|var| {
                    sites.push(DefSite { var, point: DefPoint::Instr { block: b, index } });
                    sites.len() - 1
                }));
            }
            site_of.push(row);
        }
        let mut by_var = vec![Vec::new(); f.vars.len()];
        for (i, s) in sites.iter().enumerate() {
            if let Some(list) = by_var.get_mut(s.var.index()) {
                list.push(i);
            }
        }
        let solution = solve(&Problem { sites: &sites, by_var: &by_var, site_of: &site_of }, f, cfg);
        ReachingDefs { sites, before: solution.before, after: solution.after, by_var, site_of }
    }

    /// The definitions reaching all instructions of `block`: element `i` is
    /// the set just before instruction `i`.
    pub fn before_each(&self, block: BlockId) -> Vec<BitSet> {
        let mut s = self.before[block.index()].clone();
        let row = &self.site_of[block.index()];
        let mut out = Vec::with_capacity(row.len());
        for site in row {
            out.push(s.clone());
            if let Some(site) = *site {
                kill_and_gen(&mut s, &self.by_var, &self.sites, site);
            }
        }
        out
    }

    /// The definitions of `var` in the set `reaching`.
    pub fn of_var<'a>(&'a self, reaching: &'a BitSet, var: VarId) -> impl Iterator<Item = &'a DefSite> + 'a {
        self.by_var
            .get(var.index())
            .into_iter()
            .flatten()
            .filter(move |&&i| reaching.contains(i))
            .map(move |&i| &self.sites[i])
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
        let rd = ReachingDefs::new(f, &Cfg::new(f));
        let x = f.var_named("x").unwrap();
        let join = f.block_labeled("join").unwrap();
        let before = rd.before_each(join);
        let points: Vec<DefPoint> = rd.of_var(&before[0], x).map(|s| s.point).collect();
        assert_eq!(points.len(), 3, "param, then-block and loop definitions: {points:?}");
        assert!(points.contains(&DefPoint::Param));
        let after_def: Vec<DefPoint> = rd.of_var(&rd.after[join.index()], x).map(|s| s.point).collect();
        assert_eq!(after_def, vec![DefPoint::Instr { block: join, index: 1 }]);
    }
}
