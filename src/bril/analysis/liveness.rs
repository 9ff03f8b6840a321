//! Live variables: a backward may-analysis on the dataflow framework.
//!
//! A `set x v` reads `v` and writes only the shadow of `x`, so it neither
//! uses nor kills the variable `x`; `x = get` defines `x`.

use super::bitset::BitSet;
use super::cfg::Cfg;
use super::dataflow::{solve, Dataflow, Direction};
use crate::bril::ir::{BlockId, Function, Instr};

/// Variables live on entry to and exit from every block.
#[derive(Clone, Debug)]
pub struct Liveness {
    pub live_in: Vec<BitSet>,
    pub live_out: Vec<BitSet>,
}

struct Live;

impl Dataflow for Live {
    type Fact = BitSet;
    const DIRECTION: Direction = Direction::Backward;
    fn boundary(&self, f: &Function) -> BitSet {
        BitSet::new(f.vars.len())
    }
    fn top(&self, f: &Function) -> BitSet {
        BitSet::new(f.vars.len())
    }
    fn meet(&self, acc: &mut BitSet, other: &BitSet) {
        acc.union_with(other);
    }
    fn transfer(&self, f: &Function, block: BlockId, out: &BitSet) -> BitSet {
        let mut live = out.clone();
        for instr in f.block(block).instrs.iter().rev() {
            step_back(&mut live, instr);
        }
        live
    }
}

/// Moves `live` from after `instr` to before it.
pub fn step_back(live: &mut BitSet, instr: &Instr) {
    if let Some(d) = instr.def() {
        live.remove(d.index());
    }
    for &u in instr.uses() {
        live.insert(u.index());
    }
}

impl Liveness {
    pub fn new(f: &Function, cfg: &Cfg) -> Liveness {
        let s = solve(&Live, f, cfg);
        Liveness { live_in: s.before, live_out: s.after }
    }

    /// The variables live just after each instruction of `block`.
    pub fn live_after_each(&self, f: &Function, block: BlockId) -> Vec<BitSet> {
        let instrs = &f.block(block).instrs;
        let mut live = self.live_out[block.index()].clone();
        let mut after = vec![BitSet::new(0); instrs.len()];
        for (i, instr) in instrs.iter().enumerate().rev() {
            after[i] = live.clone();
            step_back(&mut live, instr);
        }
        after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

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
        let after = live.live_after_each(f, BlockId(body as u32));
        assert!(after[0].contains(v("one")) && !after[1].contains(v("one")));
    }

    #[test]
    fn set_reads_its_value_not_its_target() {
        let p =
            parse_text("@main {\n  a: int = const 1;\n  set x a;\n  x: int = get;\n  print x;\n}").unwrap();
        let f = &p.functions[0];
        let live = Liveness::new(f, &Cfg::new(f));
        let after = live.live_after_each(f, BlockId(0));
        let (a, x) = (f.var_named("a").unwrap().index(), f.var_named("x").unwrap().index());
        assert!(after[0].contains(a) && !after[0].contains(x));
        assert!(!after[1].contains(a) && !after[1].contains(x));
    }
}
