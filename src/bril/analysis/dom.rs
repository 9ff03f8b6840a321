//! Dominators (Cooper, Harvey and Kennedy's iterative algorithm over reverse
//! postorder), the dominator tree and dominance frontiers.
//!
//! Only blocks reachable from the entry take part: an unreachable block has
//! no immediate dominator, dominates nothing and is dominated by nothing.

use super::cfg::Cfg;
use crate::bril::ir::{BlockId, List};

#[derive(Clone, Debug)]
pub struct Dominators {
    /// `idom[b]`: the immediate dominator of `b`; the entry's is itself;
    /// `None` for unreachable blocks.
    pub idom: Vec<Option<BlockId>>,
    /// Children of each block in the dominator tree, in reverse postorder.
    pub children: Vec<Vec<BlockId>>,
    /// Position of each reachable block in a preorder of the dominator
    /// tree, and the number of blocks in its subtree: `a` dominates `b`
    /// exactly when `b`'s position falls in `a`'s subtree (an O(1) test).
    pre: Vec<u32>,
    size: Vec<u32>,
}

impl Dominators {
    pub fn new(cfg: &Cfg) -> Dominators {
        let n = cfg.len();
        let mut idom: Vec<Option<BlockId>> = vec![None; n];
        if let Some(&entry) = cfg.rpo.first() {
            idom[entry.index()] = Some(entry);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in cfg.rpo.iter().skip(1) {
                let mut new: Option<BlockId> = None;
                for p in cfg.reachable_preds(b) {
                    if idom[p.index()].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => intersect(cfg, &idom, p, cur),
                    });
                }
                if new.is_some() && idom[b.index()] != new {
                    idom[b.index()] = new;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); n];
        for &b in cfg.rpo.iter().skip(1) {
            if let Some(d) = idom[b.index()] {
                children[d.index()].push(b);
            }
        }
        let mut dom = Dominators { idom, children, pre: vec![0; n], size: vec![0; n] };
        if let Some(&entry) = cfg.rpo.first() {
            let order = dom.preorder(entry);
            for (i, &b) in order.iter().enumerate() {
                dom.pre[b.index()] = i as u32;
            }
            // Children come after their parent in preorder: sum sizes backwards.
            for &b in order.iter().rev() {
                dom.size[b.index()] += 1;
                if let Some(d) = dom.immediate(b) {
                    dom.size[d.index()] += dom.size[b.index()];
                }
            }
        }
        dom
    }

    /// The immediate dominator of `b`, `None` for the entry and unreachable blocks.
    pub fn immediate(&self, b: BlockId) -> Option<BlockId> {
        self.idom.get(b.index()).copied().flatten().filter(|&d| d != b)
    }

    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.idom.get(b.index()).is_some_and(Option::is_some)
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let (pa, pb) = (self.pre[a.index()], self.pre[b.index()]);
        pa <= pb && pb < pa + self.size[a.index()]
    }

    /// Reachable blocks in dominator-tree preorder (parents before children).
    pub fn preorder(&self, entry: BlockId) -> Vec<BlockId> {
        let mut order = Vec::new();
        if !self.is_reachable(entry) {
            return order;
        }
        let mut stack = vec![entry];
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(self.children[b.index()].iter().rev());
        }
        order
    }

    /// The dominance frontier of every block: where its dominance ends.
    pub fn frontiers(&self, cfg: &Cfg) -> Vec<List<BlockId>> {
        let mut df: Vec<List<BlockId>> = vec![List::new(); cfg.len()];
        for &b in &cfg.rpo {
            if cfg.reachable_preds(b).nth(1).is_none() {
                continue;
            }
            let preds = cfg.reachable_preds(b);
            let Some(stop) = self.immediate(b) else {
                // The entry as a join point: every predecessor's dominator
                // chain up to the root sees it.
                for p in preds {
                    let mut runner = Some(p);
                    while let Some(r) = runner {
                        push_unique(&mut df[r.index()], b);
                        runner = self.immediate(r);
                    }
                }
                continue;
            };
            for p in preds {
                let mut runner = p;
                while runner != stop {
                    push_unique(&mut df[runner.index()], b);
                    match self.immediate(runner) {
                        Some(d) => runner = d,
                        None => break,
                    }
                }
            }
        }
        df
    }
}

fn push_unique(v: &mut List<BlockId>, b: BlockId) {
    if !v.contains(&b) {
        v.push(b);
    }
}

/// The closest common dominator of `a` and `b`, walking up by RPO number.
fn intersect(cfg: &Cfg, idom: &[Option<BlockId>], mut a: BlockId, mut b: BlockId) -> BlockId {
    let num = |x: BlockId| cfg.rpo_index[x.index()].unwrap_or(0);
    while a != b {
        while num(a) > num(b) {
            match idom[a.index()] {
                Some(d) if d != a => a = d,
                _ => return a,
            }
        }
        while num(b) > num(a) {
            match idom[b.index()] {
                Some(d) if d != b => b = d,
                _ => return b,
            }
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::{parse_text, Function};

    fn function(src: &str) -> Function {
        (*parse_text(src).unwrap().functions.remove(0)).clone()
    }

    fn id(f: &Function, label: &str) -> BlockId {
        f.block_labeled(label).unwrap()
    }

    const LOOP_WITH_DIAMOND: &str = "@main {\n.entry:\n  c: bool = const true;\n.head:\n  br c .l .r;\n.l:\n  jmp .join;\n.r:\n  jmp .join;\n.join:\n  br c .head .exit;\n.exit:\n  ret;\n}";

    #[test]
    fn immediate_dominators_and_dominance() {
        let f = function(LOOP_WITH_DIAMOND);
        let cfg = Cfg::new(&f);
        let dom = Dominators::new(&cfg);
        let (entry, head, l, r, join, exit) =
            (id(&f, "entry"), id(&f, "head"), id(&f, "l"), id(&f, "r"), id(&f, "join"), id(&f, "exit"));
        assert_eq!(dom.immediate(head), Some(entry));
        assert_eq!(dom.immediate(l), Some(head));
        assert_eq!(dom.immediate(join), Some(head), "neither arm dominates the join");
        assert_eq!(dom.immediate(exit), Some(join));
        assert_eq!(dom.immediate(entry), None);
        assert!(dom.dominates(head, exit) && dom.dominates(join, join));
        assert!(!dom.dominates(l, join) && !dom.dominates(r, exit));
        let pre = dom.preorder(entry);
        assert_eq!(pre.len(), 6);
        assert_eq!(pre[0], entry);
    }

    #[test]
    fn dominance_frontiers() {
        let f = function(LOOP_WITH_DIAMOND);
        let cfg = Cfg::new(&f);
        let dom = Dominators::new(&cfg);
        let df = dom.frontiers(&cfg);
        let (head, l, r, join) = (id(&f, "head"), id(&f, "l"), id(&f, "r"), id(&f, "join"));
        assert_eq!(df[l.index()], vec![join]);
        assert_eq!(df[r.index()], vec![join]);
        assert_eq!(df[join.index()], vec![head], "the back edge");
        assert_eq!(df[head.index()], vec![head]);
    }

    #[test]
    fn unreachable_blocks_take_no_part() {
        let f = function("@main {\n  jmp .end;\n.dead:\n  jmp .end;\n.end:\n  ret;\n}");
        let cfg = Cfg::new(&f);
        let dom = Dominators::new(&cfg);
        let (dead, end) = (id(&f, "dead"), id(&f, "end"));
        assert!(!dom.is_reachable(dead));
        assert_eq!(dom.immediate(end), Some(BlockId(0)));
        assert!(!dom.dominates(dead, end));
        assert!(dom.frontiers(&cfg).iter().all(|df| df.is_empty()));
    }
}
