//! The control-flow graph of one function, computed once: successors,
//! predecessors, reachability and reverse postorder.

use crate::bril::ir::{BlockId, Function, List};

/// Successor and predecessor lists of every block, and a reverse postorder
/// of the blocks reachable from the entry. The lists are stored inline (a
/// block rarely has more than three of either), so building one allocates
/// little: passes build a CFG on every run.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub succs: Vec<List<BlockId>>,
    /// Each predecessor listed once, in block order.
    pub preds: Vec<List<BlockId>>,
    /// Reachable blocks, entry first, every block before its successors
    /// except along back edges.
    pub rpo: Vec<BlockId>,
    /// `rpo_index[b]`: the position of `b` in `rpo`, `None` if unreachable.
    pub rpo_index: Vec<Option<usize>>,
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let succs: Vec<List<BlockId>> = f.block_ids().map(|b| dedup(f.successors(b))).collect();
        let mut preds = vec![List::new(); succs.len()];
        for (b, ss) in succs.iter().enumerate() {
            for s in ss {
                // Blocks are visited in order, so a repeat can only be the last entry.
                let list: &mut List<BlockId> = &mut preds[s.index()];
                if list.last() != Some(&BlockId::new(b)) {
                    list.push(BlockId::new(b));
                }
            }
        }
        let rpo = reverse_postorder(&succs);
        let mut rpo_index = vec![None; succs.len()];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = Some(i);
        }
        Cfg { succs, preds, rpo, rpo_index }
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.succs.is_empty()
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.rpo_index.get(b.index()).is_some_and(Option::is_some)
    }

    /// Reachable predecessors of `b`.
    pub fn reachable_preds(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.preds[b.index()].iter().copied().filter(|&p| self.is_reachable(p))
    }
}

fn dedup(v: List<BlockId>) -> List<BlockId> {
    let mut out = List::new();
    for &b in &v {
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out
}

/// Depth-first reverse postorder from block 0, iterative (no recursion depth
/// limit on long chains of blocks).
fn reverse_postorder(succs: &[List<BlockId>]) -> Vec<BlockId> {
    let n = succs.len();
    if n == 0 {
        return Vec::new();
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // (block, index of the next successor to visit)
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[b].get(*next) {
            *next += 1;
            let s = s.index();
            if s < n && !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(BlockId::new(b));
            stack.pop();
        }
    }
    post.reverse();
    post
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn reverse_postorder_and_reachability() {
        let p = parse_text(
            "@main {\n  c: bool = const true;\n  br c .a .b;\n.a:\n  jmp .end;\n.dead:\n  jmp .a;\n.b:\n.end:\n  ret;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let names: Vec<String> =
            cfg.rpo.iter().map(|&b| f.block(b).label.as_deref().unwrap_or("entry").to_string()).collect();
        assert_eq!(names[0], "entry");
        assert_eq!(names.last().map(String::as_str), Some("end"));
        assert_eq!(names.len(), 4);
        assert!(!cfg.is_reachable(BlockId(2)), ".dead is unreachable");
        assert_eq!(cfg.preds[1], vec![BlockId(0), BlockId(2)]);
        assert_eq!(cfg.reachable_preds(BlockId(1)).collect::<Vec<_>>(), vec![BlockId(0)]);
    }
}
