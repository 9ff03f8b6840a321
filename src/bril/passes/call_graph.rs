//! The call graph of a program: who calls whom, what `@main` can reach, and
//! which functions may call themselves again.

use crate::bril::ir::{FuncId, Op, Program};

pub(super) struct CallGraph {
    /// The distinct callees of each function.
    pub callees: Vec<Vec<FuncId>>,
}

impl CallGraph {
    pub fn new(program: &Program) -> CallGraph {
        let callees: Vec<Vec<FuncId>> = program
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

    /// Whether each function may, through some chain of calls, call itself.
    pub fn recursive(&self) -> Vec<bool> {
        in_cycles(&self.callees)
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

/// Which functions lie on a cycle of calls: those calling themselves, and
/// those in a strongly connected component of more than one (Tarjan's
/// algorithm, iterative, linear in the size of the graph).
fn in_cycles(callees: &[Vec<FuncId>]) -> Vec<bool> {
    let n = callees.len();
    let mut index: Vec<Option<usize>> = vec![None; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut cyclic = vec![false; n];
    let mut next_index = 0;
    for root in 0..n {
        if index[root].is_some() {
            continue;
        }
        // (function, next callee to look at) frames of the depth-first search.
        let mut frames = vec![(root, 0usize)];
        index[root] = Some(next_index);
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = frames.last_mut() {
            if let Some(w) = callees[v].get(*next).map(|g| g.index()) {
                *next += 1;
                if w == v {
                    cyclic[v] = true;
                }
                match index[w] {
                    None => {
                        index[w] = Some(next_index);
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        frames.push((w, 0));
                    }
                    Some(iw) if on_stack[w] => low[v] = low[v].min(iw),
                    Some(_) => {}
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if Some(low[v]) == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    for w in component {
                        cyclic[w] = true;
                    }
                }
            }
        }
    }
    cyclic
}
