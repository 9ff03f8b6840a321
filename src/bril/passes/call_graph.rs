//! The call graph of a program: who calls whom, what `@main` can reach, and
//! which functions may call themselves again.

use crate::bril::ir::{FuncId, Op, Program};

pub(super) struct CallGraph {
    /// The distinct callees of each function.
    pub callees: Vec<Vec<FuncId>>,
}

impl CallGraph {
    pub fn new(program: &Program) -> CallGraph {
        let callees = program
            .functions
            .iter()
            .map(|f| {
                let mut list: Vec<FuncId> = f
                    .instrs()
                    .filter(|i| i.op == Op::Call)
                    .filter_map(|i| i.func)
                    .filter(|g| g.index() < program.functions.len())
                    .collect();
                list.sort_unstable();
                list.dedup();
                list
            })
            .collect();
        CallGraph { callees }
    }

    /// Functions reachable from `roots` through calls, roots included.
    pub fn reachable(&self, roots: &[FuncId]) -> Vec<bool> {
        let mut seen = vec![false; self.callees.len()];
        let mut stack: Vec<FuncId> = roots.to_vec();
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut seen[f.index()], true) {
                continue;
            }
            stack.extend(self.callees[f.index()].iter().copied().filter(|g| !seen[g.index()]));
        }
        seen
    }

    /// Whether `f` may, through some chain of calls, call itself.
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.reachable(&self.callees[f.index()])[f.index()]
    }

    /// Functions ordered callees first (a post-order from every function);
    /// within a cycle the order is arbitrary.
    pub fn bottom_up(&self) -> Vec<FuncId> {
        let n = self.callees.len();
        let mut done = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for root in 0..n {
            if done[root] {
                continue;
            }
            done[root] = true;
            // (function, next callee index) frames of an iterative DFS.
            let mut stack = vec![(FuncId::new(root), 0usize)];
            while let Some((f, next)) = stack.pop() {
                match self.callees[f.index()].get(next) {
                    Some(&g) => {
                        stack.push((f, next + 1));
                        if !done[g.index()] {
                            done[g.index()] = true;
                            stack.push((g, 0));
                        }
                    }
                    None => order.push(f),
                }
            }
        }
        order
    }
}
