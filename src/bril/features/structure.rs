//! `Structure`: what Autophase's counts do not say about a program's shape —
//! its loops (how deep, whether their trip counts are known, how much code
//! runs inside them) and its call graph (recursion, depth, small and
//! single-use functions). These are what decide whether unrolling,
//! inlining or specialising pays, so a policy choosing those passes needs
//! them.
//!
//! One pass over each function's blocks plus its loop forest; the trip
//! counts are `-loop-unroll`'s own, so "unrollable" means what the pass
//! would do.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::dom::Dominators;
use crate::bril::ir::{FuncId, Op, Program};
use crate::bril::passes::unroll::trip_counts;

macro_rules! features {
    ($($variant:ident = $name:literal : $doc:literal,)*) => {
        /// One feature; its discriminant is its index in the vector.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Feature {
            $(#[doc = $doc] $variant,)*
        }

        /// Feature names, in vector order.
        pub const NAMES: [&str; LEN] = [$($name,)*];
        /// What each feature counts, in vector order.
        pub const DESCRIPTIONS: [&str; LEN] = [$($doc,)*];
        /// Length of the vector.
        pub const LEN: usize = [$($name,)*].len();
    };
}

features! {
    Loops = "Loops": "Natural loops, over all functions.",
    MaxLoopDepth = "MaxLoopDepth": "The deepest loop nesting (1: loops, none inside another).",
    CountedLoops = "CountedLoops": "Loops whose trip count is a known constant on every entry.",
    CountedLoopTrips = "CountedLoopTrips": "Iterations of the counted loops, summed.",
    UnrollableLoops = "UnrollableLoops": "Counted loops small enough for -loop-unroll to unroll fully.",
    InstrsInLoops = "InstrsInLoops": "Instructions inside some loop.",
    InstrsInNestedLoops = "InstrsInNestedLoops": "Instructions inside a loop inside another loop.",
    LoopWeightedInstrs = "LoopWeightedInstrs": "Instructions weighted by 8 to the power of their loop depth (at most 4): a static guess of the work.",
    CallSites = "CallSites": "`call` instructions.",
    CallSitesInLoops = "CallSitesInLoops": "`call` instructions inside some loop.",
    RecursiveFunctions = "RecursiveFunctions": "Functions on a cycle of the call graph (calling themselves, directly or not).",
    CallDepth = "CallDepth": "The longest chain of calls from @main without repeating a function.",
    SmallFunctions = "SmallFunctions": "Functions other than @main with at most 10 instructions.",
    FunctionsCalledOnce = "FunctionsCalledOnce": "Functions with exactly one call site.",
    UncalledFunctions = "UncalledFunctions": "Functions other than @main that no call names.",
    MainParams = "MainParams": "@main's parameters: what the program reads from its arguments.",
    MemoryOpsInLoops = "MemoryOpsInLoops": "`load`, `store` and `ptradd` inside some loop.",
}

/// The feature vector, in [`NAMES`] order.
pub fn features(program: &Program) -> [i64; LEN] {
    let mut v = [0i64; LEN];
    let n = program.functions.len();
    // Call graph: callees per function and call sites per callee.
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut sites = vec![0i64; n];
    for (caller, f) in program.functions.iter().enumerate() {
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let loops = trip_counts(f, &cfg, &dom);
        let mut depth = vec![0u32; f.blocks.len()];
        for (lp, trips, unrollable) in &loops {
            v[Feature::Loops as usize] += 1;
            v[Feature::MaxLoopDepth as usize] = v[Feature::MaxLoopDepth as usize].max(i64::from(lp.depth));
            if let Some(t) = trips {
                v[Feature::CountedLoops as usize] += 1;
                v[Feature::CountedLoopTrips as usize] += *t as i64;
            }
            v[Feature::UnrollableLoops as usize] += i64::from(*unrollable);
            for b in &lp.body {
                if let Some(d) = depth.get_mut(b.index()) {
                    *d = (*d).max(lp.depth);
                }
            }
        }
        for (block, &d) in f.blocks.iter().zip(&depth) {
            let len = block.instrs.len() as i64;
            if d >= 1 {
                v[Feature::InstrsInLoops as usize] += len;
            }
            if d >= 2 {
                v[Feature::InstrsInNestedLoops as usize] += len;
            }
            v[Feature::LoopWeightedInstrs as usize] += len << (3 * d.min(4));
            for instr in &block.instrs {
                match instr.op {
                    Op::Call => {
                        v[Feature::CallSites as usize] += 1;
                        v[Feature::CallSitesInLoops as usize] += i64::from(d >= 1);
                        if let Some(callee) = instr.func.map(FuncId::index).filter(|&c| c < n) {
                            callees[caller].push(callee);
                            sites[callee] += 1;
                        }
                    }
                    Op::Load | Op::Store | Op::PtrAdd if d >= 1 => v[Feature::MemoryOpsInLoops as usize] += 1,
                    _ => {}
                }
            }
        }
    }
    let main = program.main().map(FuncId::index);
    for (i, f) in program.functions.iter().enumerate() {
        let is_main = Some(i) == main;
        v[Feature::SmallFunctions as usize] += i64::from(!is_main && f.instr_count() <= 10);
        v[Feature::FunctionsCalledOnce as usize] += i64::from(sites[i] == 1);
        v[Feature::UncalledFunctions as usize] += i64::from(!is_main && sites[i] == 0);
    }
    let graph = CallGraph::new(&callees);
    v[Feature::RecursiveFunctions as usize] = graph.recursive.iter().filter(|&&r| r).count() as i64;
    if let Some(main) = main {
        v[Feature::CallDepth as usize] = graph.longest_chain_from(main);
        v[Feature::MainParams as usize] = program.functions[main].params.len() as i64;
    }
    v
}

/// The call graph's strongly connected components (Tarjan's, iterative),
/// condensed to a DAG for the longest chain.
struct CallGraph<'a> {
    callees: &'a [Vec<usize>],
    component: Vec<usize>,
    recursive: Vec<bool>,
}

impl<'a> CallGraph<'a> {
    fn new(callees: &'a [Vec<usize>]) -> CallGraph<'a> {
        let n = callees.len();
        const UNSEEN: usize = usize::MAX;
        let (mut index, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
        let (mut stack, mut component, mut next, mut components) = (Vec::new(), vec![0; n], 0, 0);
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // (node, next callee to look at)
            let mut work = vec![(root, 0usize)];
            while let Some(&mut (node, ref mut edge)) = work.last_mut() {
                if *edge == 0 && index[node] == UNSEEN {
                    index[node] = next;
                    low[node] = next;
                    next += 1;
                    stack.push(node);
                    on_stack[node] = true;
                }
                if let Some(&callee) = callees[node].get(*edge) {
                    *edge += 1;
                    if index[callee] == UNSEEN {
                        work.push((callee, 0));
                    } else if on_stack[callee] {
                        low[node] = low[node].min(index[callee]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component[member] = components;
                        if member == node {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
        let mut size = vec![0usize; components];
        component.iter().for_each(|&c| size[c] += 1);
        let recursive = (0..n).map(|f| size[component[f]] > 1 || callees[f].contains(&f)).collect();
        CallGraph { callees, component, recursive }
    }

    /// Calls on the longest chain from `from`, each cycle counted once.
    fn longest_chain_from(&self, from: usize) -> i64 {
        // Tarjan numbers components in reverse topological order: a
        // component's callees have smaller numbers, so one sweep upwards
        // finds every component's longest chain.
        let components = self.component.iter().max().map_or(0, |&c| c + 1);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); components];
        for (f, &c) in self.component.iter().enumerate() {
            members[c].push(f);
        }
        let mut longest = vec![0i64; components];
        for c in 0..components {
            for &f in &members[c] {
                for &callee in &self.callees[f] {
                    let d = self.component[callee];
                    if d != c {
                        longest[c] = longest[c].max(longest[d] + 1);
                    }
                }
            }
        }
        longest[self.component[from]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    fn of(text: &str) -> [i64; LEN] {
        features(&parse_text(text).unwrap())
    }

    #[test]
    fn loops_their_depth_and_known_trip_counts() {
        let v = of("@main(n: int) {
              i: int = const 0; one: int = const 1; ten: int = const 10;
            .outer:
              c: bool = lt i ten; br c .body .done;
            .body:
              j: int = const 0;
            .inner:
              d: bool = lt j n; br d .ibody .next;
            .ibody:
              j: int = add j one; jmp .inner;
            .next:
              i: int = add i one; jmp .outer;
            .done:
              print i;
            }");
        assert_eq!(v[Feature::Loops as usize], 2);
        assert_eq!(v[Feature::MaxLoopDepth as usize], 2);
        // The outer loop counts to ten; the inner one to an argument.
        assert_eq!(v[Feature::CountedLoops as usize], 0, "the outer loop holds a cycle: not counted");
        assert_eq!(v[Feature::MainParams as usize], 1);
        assert!(v[Feature::InstrsInNestedLoops as usize] >= 3);
        assert!(v[Feature::LoopWeightedInstrs as usize] > 64 * 3);
        let counted = of("@main {
              i: int = const 0; one: int = const 1; ten: int = const 10;
            .h: c: bool = lt i ten; br c .b .x;
            .b: i: int = add i one; jmp .h;
            .x: print i; }");
        assert_eq!(counted[Feature::CountedLoops as usize], 1);
        assert_eq!(counted[Feature::CountedLoopTrips as usize], 10);
        assert_eq!(counted[Feature::UnrollableLoops as usize], 1);
    }

    #[test]
    fn the_call_graph_recursion_depth_and_use() {
        let v = of("@main { x: int = const 3; y: int = call @a x; z: int = call @fact y; print z; }
            @a(x: int): int { y: int = call @b x; ret y; }
            @b(x: int): int { ret x; }
            @fact(n: int): int {
              one: int = const 1; c: bool = le n one; br c .base .rec;
            .base: ret one;
            .rec: m: int = sub n one; r: int = call @fact m; p: int = mul n r; ret p; }
            @unused { nop; }");
        assert_eq!(v[Feature::CallSites as usize], 4);
        assert_eq!(v[Feature::RecursiveFunctions as usize], 1);
        assert_eq!(v[Feature::CallDepth as usize], 2, "main -> a -> b");
        assert_eq!(v[Feature::UncalledFunctions as usize], 1);
        assert_eq!(v[Feature::FunctionsCalledOnce as usize], 2, "a and b; fact has two call sites");
        assert_eq!(v[Feature::SmallFunctions as usize], 4);
        assert_eq!(v[Feature::MainParams as usize], 0);
    }

    #[test]
    fn mutual_recursion_is_one_cycle() {
        let v = of("@main { x: int = const 3; y: int = call @even x; print y; }
            @even(n: int): int { z: int = const 0; c: bool = eq n z; br c .y .n; .y: ret z;
              .n: one: int = const 1; m: int = sub n one; r: int = call @odd m; ret r; }
            @odd(n: int): int { z: int = const 0; c: bool = eq n z; br c .y .n; .y: ret z;
              .n: one: int = const 1; m: int = sub n one; r: int = call @even m; ret r; }");
        assert_eq!(v[Feature::RecursiveFunctions as usize], 2);
        assert_eq!(v[Feature::CallDepth as usize], 1, "main -> {{even, odd}}");
    }

    #[test]
    fn features_of_every_suite_program_are_finite_and_stable() {
        for b in crate::bril::suite::all() {
            let p = b.program().unwrap();
            let (a, c) = (features(&p), features(&p.clone()));
            assert_eq!(a, c, "{}", b.name);
            assert!(a.iter().all(|&x| x >= 0), "{}: {a:?}", b.name);
        }
    }
}
