//! Definitely-assigned variables: a forward must-analysis. A variable is
//! definitely assigned at a point when every path from the entry writes it
//! (parameters count). Passes that drop or move a read use it: reading an
//! unassigned variable is an error in `brili`, and must stay one.

use super::bitset::BitSet;
use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use crate::bril::ir::{BlockId, Function};

#[derive(Clone, Debug)]
pub struct Definite {
    pub before: Vec<BitSet>,
    pub after: Vec<BitSet>,
}

struct Problem;

impl Dataflow for Problem {
    type Fact = BitSet;
    const DIRECTION: Direction = Direction::Forward;
    fn boundary(&self, f: &Function) -> BitSet {
        let mut s = BitSet::new(f.vars.len());
        for p in &f.params {
            s.insert(p.var.index());
        }
        s
    }
    fn top(&self, f: &Function) -> BitSet {
        BitSet::full(f.vars.len())
    }
    fn meet(&self, acc: &mut BitSet, other: &BitSet) {
        acc.intersect_with(other);
    }
    fn transfer(&self, f: &Function, block: BlockId, input: &BitSet) -> BitSet {
        let mut s = input.clone();
        for d in f.block(block).instrs.iter().filter_map(|i| i.def()) {
            s.insert(d.index());
        }
        s
    }
}

impl Definite {
    pub fn new(f: &Function, cfg: &Cfg) -> Definite {
        let s = solve(&Problem, f, cfg);
        Definite { before: s.before, after: s.after }
    }

    /// Definitely-assigned variables just before each instruction of `block`.
    pub fn before_each(&self, f: &Function, block: BlockId) -> Vec<BitSet> {
        let mut s = self.before[block.index()].clone();
        let instrs = &f.block(block).instrs;
        let mut out = Vec::with_capacity(instrs.len());
        for instr in instrs {
            out.push(s.clone());
            if let Some(d) = instr.def() {
                s.insert(d.index());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn assigned_on_every_path_only() {
        let p = parse_text(
            "@main(n: int) {\n  c: bool = const true;\n  br c .then .join;\n.then:\n  x: int = const 1;\n  y: int = const 1;\n  jmp .join;\n.join:\n  y: int = const 2;\n  print n y;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let d = Definite::new(f, &Cfg::new(f));
        let join = f.block_labeled("join").unwrap().index();
        let v = |name: &str| f.var_named(name).unwrap().index();
        assert!(d.before[join].contains(v("n")) && d.before[join].contains(v("c")));
        assert!(!d.before[join].contains(v("x")), "only one path assigns x");
        assert!(!d.before[join].contains(v("y")) && d.after[join].contains(v("y")));
        let each = d.before_each(f, BlockId(join as u32));
        assert!(!each[0].contains(v("y")) && each[1].contains(v("y")));
    }
}
