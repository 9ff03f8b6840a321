//! A generic dataflow solver: a lattice of facts, a transfer function per
//! block, forward or backward, solved with a worklist to a fixpoint.
//!
//! Every block gets facts, reachable or not: forward problems start from
//! [`Dataflow::boundary`] at the entry and [`Dataflow::top`] elsewhere;
//! backward problems start from the boundary at blocks without successors.

use std::collections::VecDeque;

use super::cfg::Cfg;
use crate::bril::ir::{BlockId, Function};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

/// A dataflow problem.
pub trait Dataflow {
    /// A lattice element; the solver needs equality to detect the fixpoint.
    type Fact: Clone + PartialEq;
    const DIRECTION: Direction;
    /// The fact flowing in at the boundary: before the entry (forward), or
    /// after a block with no successors (backward).
    fn boundary(&self, f: &Function) -> Self::Fact;
    /// The optimistic start (the lattice's top, identity of `meet`).
    fn top(&self, f: &Function) -> Self::Fact;
    /// Combines `other` into `acc`.
    fn meet(&self, acc: &mut Self::Fact, other: &Self::Fact);
    /// Forward: the fact after `block` given the fact before it. Backward:
    /// the fact before `block` given the fact after it.
    fn transfer(&self, f: &Function, block: BlockId, input: &Self::Fact) -> Self::Fact;
}

/// Facts before and after every block, in program order (whatever the direction).
#[derive(Clone, Debug)]
pub struct Solution<F> {
    pub before: Vec<F>,
    pub after: Vec<F>,
}

/// Solves `problem` over `f` to its maximal fixpoint.
pub fn solve<D: Dataflow>(problem: &D, f: &Function, cfg: &Cfg) -> Solution<D::Fact> {
    let n = f.blocks.len();
    let top = problem.top(f);
    let boundary = problem.boundary(f);
    let mut before = vec![top.clone(); n];
    let mut after = vec![top.clone(); n];
    if n == 0 {
        return Solution { before, after };
    }
    let forward = D::DIRECTION == Direction::Forward;
    // Visit in reverse postorder (forward) or postorder (backward) first,
    // then the unreachable blocks, for quick convergence.
    let mut order: Vec<BlockId> = cfg.rpo.clone();
    order.extend(f.block_ids().filter(|&b| !cfg.is_reachable(b)));
    if !forward {
        order.reverse();
    }
    let mut queued = vec![true; n];
    let mut work: VecDeque<BlockId> = order.into_iter().collect();
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        let (sources, sinks) = if forward {
            (&cfg.preds[b.index()], &cfg.succs[b.index()])
        } else {
            (&cfg.succs[b.index()], &cfg.preds[b.index()])
        };
        let at_boundary = if forward { b.index() == 0 } else { sources.is_empty() };
        let mut input = if at_boundary { boundary.clone() } else { top.clone() };
        for &s in sources {
            let fact = if forward { &after[s.index()] } else { &before[s.index()] };
            problem.meet(&mut input, fact);
        }
        let output = problem.transfer(f, b, &input);
        let (inp, out) = if forward { (&mut before, &mut after) } else { (&mut after, &mut before) };
        inp[b.index()] = input;
        if out[b.index()] != output {
            out[b.index()] = output;
            for &s in sinks {
                if !queued[s.index()] {
                    queued[s.index()] = true;
                    work.push_back(s);
                }
            }
        }
    }
    Solution { before, after }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    /// Longest distance from the entry in blocks, capped: a forward
    /// max-problem that only converges if loops are iterated.
    struct Distance;

    impl Dataflow for Distance {
        type Fact = u32;
        const DIRECTION: Direction = Direction::Forward;
        fn boundary(&self, _: &Function) -> u32 {
            0
        }
        fn top(&self, _: &Function) -> u32 {
            0
        }
        fn meet(&self, acc: &mut u32, other: &u32) {
            *acc = (*acc).max(*other);
        }
        fn transfer(&self, _: &Function, _: BlockId, input: &u32) -> u32 {
            (input + 1).min(10)
        }
    }

    /// Number of blocks to the farthest exit, backward.
    struct ToExit;

    impl Dataflow for ToExit {
        type Fact = u32;
        const DIRECTION: Direction = Direction::Backward;
        fn boundary(&self, _: &Function) -> u32 {
            0
        }
        fn top(&self, _: &Function) -> u32 {
            0
        }
        fn meet(&self, acc: &mut u32, other: &u32) {
            *acc = (*acc).max(*other);
        }
        fn transfer(&self, _: &Function, _: BlockId, input: &u32) -> u32 {
            input + 1
        }
    }

    #[test]
    fn forward_and_backward_reach_a_fixpoint() {
        let p =
            parse_text("@main {\n  c: bool = const true;\n.loop:\n  br c .loop .exit;\n.exit:\n  ret;\n}")
                .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let s = solve(&Distance, f, &cfg);
        assert_eq!(s.before[0], 0);
        assert_eq!(s.after[1], 10, "the loop is iterated to the cap");
        assert_eq!(s.before[2], 10);
        let p = parse_text("@main {\n  jmp .b;\n.a:\n  ret;\n.b:\n  jmp .a;\n}").unwrap();
        let f = &p.functions[0];
        let s = solve(&ToExit, f, &Cfg::new(f));
        assert_eq!((s.after[1], s.before[1]), (0, 1));
        assert_eq!(s.before[2], 2);
        assert_eq!(s.before[0], 3);
    }
}
