//! Definitely-assigned variables. A variable is definitely assigned at a
//! point when every path from the entry writes it (parameters count).
//! Passes that drop or move a read use it: reading an unassigned variable is
//! an error in `brili`, and must stay one.
//!
//! Only the variables live at a point are ever asked about (a pass asks
//! about what an instruction reads), so the analysis computes the opposite,
//! sparse fact: the live variables that some path from the entry reaches
//! unassigned. That is a forward may-analysis whose sets stay within the
//! live sets; a variable that is live on entry to a block is maybe
//! unassigned there exactly when some path from the entry to that block
//! writes it nowhere (every block on such a path has it live on entry too).

use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use super::liveness::{block_summaries, Liveness};
use super::sets::{Marks, SparseSet};
use crate::bril::ir::{BlockId, Function, Instr, VarId};

#[derive(Clone, Debug)]
pub struct Definite {
    /// The variables live on entry to each block that some path from the
    /// function's entry reaches unassigned.
    pub maybe_unassigned: Vec<SparseSet>,
    /// The variables each block writes.
    writes: Vec<SparseSet>,
}

struct Problem<'a> {
    live_in: &'a [SparseSet],
    writes: &'a [SparseSet],
    params: SparseSet,
}

impl Dataflow for Problem<'_> {
    type Fact = SparseSet;
    const DIRECTION: Direction = Direction::Forward;
    fn boundary(&self, _: &Function) -> SparseSet {
        self.live_in.first().map_or_else(SparseSet::new, |live| live.difference(&self.params))
    }
    fn top(&self, _: &Function) -> SparseSet {
        SparseSet::new()
    }
    fn meet(&self, acc: &mut SparseSet, other: &SparseSet) {
        acc.union_with(other);
    }
    fn transfer(&self, _: &Function, block: BlockId, input: &SparseSet) -> SparseSet {
        let b = block.index();
        input.intersection(&self.live_in[b]).difference(&self.writes[b])
    }
}

impl Definite {
    pub fn new(f: &Function, cfg: &Cfg, live: &Liveness) -> Definite {
        let (_, writes) = block_summaries(f);
        let params: SparseSet = f.params.iter().map(|p| p.var.index()).collect();
        let problem = Problem { live_in: &live.live_in, writes: &writes, params };
        let s = solve(&problem, f, cfg);
        let maybe_unassigned = s.before.iter().zip(&live.live_in).map(|(u, l)| u.intersection(l)).collect();
        Definite { maybe_unassigned, writes }
    }

    /// Whether `v`, live on entry to `block`, is definitely assigned there.
    pub fn at_entry(&self, block: BlockId, v: VarId) -> bool {
        !self.maybe_unassigned[block.index()].contains(v.index())
    }

    /// Whether `v`, live at the end of `block`, is definitely assigned there.
    pub fn at_exit(&self, block: BlockId, v: VarId) -> bool {
        self.writes[block.index()].contains(v.index()) || self.at_entry(block, v)
    }

    /// Walks `block` from its start, calling `visit(i, instr, assigned)` where
    /// `assigned` answers, for any variable live just before instruction `i`
    /// (in particular every variable it reads), whether it is definitely
    /// assigned there. `scratch` is reused from block to block.
    pub fn walk(
        &self,
        f: &Function,
        block: BlockId,
        scratch: &mut Marks,
        mut visit: impl FnMut(usize, &Instr, &Assigned),
    ) {
        scratch.clear();
        let maybe = &self.maybe_unassigned[block.index()];
        for (i, instr) in f.block(block).instrs.iter().enumerate() {
            visit(i, instr, &Assigned { here: scratch, maybe });
            if let Some(d) = instr.def() {
                scratch.insert(d.index());
            }
        }
    }
}

/// Definite assignment at one point of a block walk.
pub struct Assigned<'a> {
    /// Variables the block has written so far.
    here: &'a Marks,
    maybe: &'a SparseSet,
}

impl Assigned<'_> {
    /// Whether `v` is definitely assigned (`v` must be live here).
    pub fn contains(&self, v: VarId) -> bool {
        self.here.contains(v.index()) || !self.maybe.contains(v.index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn assigned_on_every_path_only() {
        let p = parse_text(
            "@main(n: int) {\n  c: bool = const true;\n  br c .then .join;\n.then:\n  x: int = const 1;\n  y: int = const 1;\n  jmp .join;\n.join:\n  print x;\n  y: int = const 2;\n  print n y;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let d = Definite::new(f, &cfg, &Liveness::new(f, &cfg));
        let join = f.block_labeled("join").unwrap();
        let v = |name: &str| f.var_named(name).unwrap();
        assert!(d.at_entry(join, v("n")));
        assert!(!d.at_entry(join, v("x")), "only one path assigns x");
        assert!(d.at_exit(BlockId(1), v("x")));
        let mut scratch = Marks::new(f.vars.len());
        // Asked about what each instruction reads.
        let mut seen = Vec::new();
        d.walk(f, join, &mut scratch, |_, instr, assigned| {
            seen.extend(instr.uses().iter().map(|&u| (f.var_name(u).to_string(), assigned.contains(u))));
        });
        let expected = [("x", false), ("n", true), ("y", true)];
        assert_eq!(seen, expected.map(|(n, b)| (n.to_string(), b)), "y is written in the block first");
    }

    #[test]
    fn loops_keep_what_was_assigned_before_them() {
        let p = parse_text(
            "@main {\n  i: int = const 0;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let d = Definite::new(f, &cfg, &Liveness::new(f, &cfg));
        assert!(d.maybe_unassigned.iter().all(SparseSet::is_empty));
    }
}
