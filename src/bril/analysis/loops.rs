//! Natural loops: back edges (an edge to a block that dominates its source),
//! loop bodies, nesting, exits, and preheader insertion.
//!
//! Loops sharing a header are one loop. Irreducible cycles have no back edge
//! in this sense and are not loops here.

use super::cfg::Cfg;
use super::dom::Dominators;
use super::edit::{ensure_label, falls_through, retarget};
use super::sets::Marks;
use crate::bril::ir::{Block, BlockId, Function, Instr};
use crate::bril::names::FreshNames;

#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    pub header: BlockId,
    /// Sources of the back edges into the header.
    pub latches: Vec<BlockId>,
    /// Every block of the loop, header included, in increasing order.
    pub body: Vec<BlockId>,
    /// Index (in the forest) of the closest enclosing loop.
    pub parent: Option<usize>,
    /// 1 for an outermost loop.
    pub depth: u32,
}

impl Loop {
    pub fn contains(&self, b: BlockId) -> bool {
        self.body.binary_search(&b).is_ok()
    }

    /// Edges leaving the loop, as (block inside, block outside).
    pub fn exits(&self, cfg: &Cfg) -> Vec<(BlockId, BlockId)> {
        let mut out = Vec::new();
        for &b in &self.body {
            for &s in &cfg.succs[b.index()] {
                if !self.contains(s) {
                    out.push((b, s));
                }
            }
        }
        out
    }
}

/// Whether `f` may have a loop: some jump or branch goes to its own block
/// or one laid out before it (every cycle has such an edge, whatever the
/// layout). A test in time proportional to the branches, for passes that
/// skip loop-free functions.
pub fn may_have_loops(f: &Function) -> bool {
    f.blocks
        .iter()
        .enumerate()
        .any(|(b, block)| block.terminator().is_some_and(|t| t.labels.iter().any(|l| l.index() <= b)))
}

/// Every natural loop of a function, innermost first (a loop comes before
/// every loop that encloses it).
pub fn find_loops(cfg: &Cfg, dom: &Dominators) -> Vec<Loop> {
    let mut by_header: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
    let mut slot: Vec<Option<usize>> = vec![None; cfg.len()];
    for &t in &cfg.rpo {
        for &h in &cfg.succs[t.index()] {
            if dom.dominates(h, t) {
                match slot[h.index()] {
                    Some(k) => by_header[k].1.push(t),
                    None => {
                        slot[h.index()] = Some(by_header.len());
                        by_header.push((h, vec![t]));
                    }
                }
            }
        }
    }
    let mut in_body = Marks::new(cfg.len());
    let mut loops: Vec<Loop> = by_header
        .into_iter()
        .map(|(header, latches)| {
            let body = loop_body(cfg, header, &latches, &mut in_body);
            Loop { header, latches, body, parent: None, depth: 1 }
        })
        .collect();
    loops.sort_by_key(|l| (l.body.len(), l.header));
    // The parent is the next loop (in this order) holding the header: visit
    // bodies smallest first and give each header met its first taker.
    let mut loop_at: Vec<Option<usize>> = vec![None; cfg.len()];
    for (i, l) in loops.iter().enumerate() {
        loop_at[l.header.index()] = Some(i);
    }
    for j in 0..loops.len() {
        for k in 0..loops[j].body.len() {
            let b = loops[j].body[k];
            if let Some(i) = loop_at[b.index()].filter(|&i| i < j && loops[i].parent.is_none()) {
                loops[i].parent = Some(j);
            }
        }
    }
    // Parents come later in the order: fill depths from the outside in.
    for i in (0..loops.len()).rev() {
        loops[i].depth = loops[i].parent.map_or(1, |p| loops[p].depth + 1);
    }
    loops
}

/// The blocks of the natural loop of `header` with back edges from
/// `latches`, sorted: what reaches a latch backwards without passing the header.
fn loop_body(cfg: &Cfg, header: BlockId, latches: &[BlockId], in_body: &mut Marks) -> Vec<BlockId> {
    in_body.clear();
    in_body.insert(header.index());
    let mut body = vec![header];
    let mut stack: Vec<BlockId> = Vec::new();
    for &l in latches {
        if in_body.insert(l.index()) {
            body.push(l);
            stack.push(l);
        }
    }
    while let Some(b) = stack.pop() {
        for p in cfg.reachable_preds(b) {
            if in_body.insert(p.index()) {
                body.push(p);
                stack.push(p);
            }
        }
    }
    body.sort_unstable();
    body
}

/// Preheaders given to loops by [`ensure_preheaders`].
#[derive(Clone, Debug)]
pub struct Preheaders {
    /// The preheader of each loop asked about, in the new numbering; `None`
    /// where no place for one exists (never for functions the readers make).
    pub of_loop: Vec<Option<BlockId>>,
    /// The new number of each block of the function before the call.
    pub renumbered: Vec<BlockId>,
    /// Whether any block was inserted.
    pub changed: bool,
}

/// Gives each of `loops` a preheader: a block outside the loop whose only
/// successor is the header and through which every entry into the loop
/// passes. An existing one is reused; otherwise an empty block is inserted
/// and every edge into the header from outside the loop is moved to it. All
/// insertions are made at once, so blocks are renumbered (and jump targets
/// rewritten) once, whatever the number of loops: the loops and any
/// analysis of `f` are stale afterwards.
pub fn ensure_preheaders(f: &mut Function, cfg: &Cfg, loops: &[&Loop]) -> Preheaders {
    let n = f.blocks.len();
    // What to insert before each old block: (loop, jumps to its header).
    let mut inserts: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
    let mut of_loop: Vec<Option<BlockId>> = vec![None; loops.len()];
    let mut existing: Vec<Option<BlockId>> = vec![None; loops.len()];
    let mut outside: Vec<Vec<BlockId>> = Vec::with_capacity(loops.len());
    // The first block after one that ends in a terminator: where a block
    // with an explicit jump can go without catching anyone's fallthrough.
    let after_terminator = (1..n).find(|&i| !falls_through(f, BlockId::new(i - 1)));
    for (k, lp) in loops.iter().enumerate() {
        let header = lp.header;
        let out: Vec<BlockId> =
            cfg.preds[header.index()].iter().copied().filter(|&p| !lp.contains(p)).collect();
        if let ([p], true) = (&out[..], header.index() != 0) {
            if cfg.succs[p.index()] == [header] {
                existing[k] = Some(*p);
                outside.push(out);
                continue;
            }
        }
        let before = header.index().checked_sub(1).map(BlockId::new);
        let fallthrough_from_loop = before.is_some_and(|b| lp.contains(b) && falls_through(f, b));
        // Right before the header (so it falls into it), unless a loop
        // block falls into the header there; then after a terminator, jumping.
        let at = if fallthrough_from_loop { after_terminator } else { Some(header.index()) };
        if let Some(at) = at {
            inserts[at].push((k, at != header.index()));
        }
        outside.push(out);
    }
    // The new layout: inserted blocks before their position, jumping ones
    // first so a falling-through preheader stays right before its header.
    let mut renumbered = Vec::with_capacity(n);
    let mut placed: Vec<(usize, usize, bool)> = Vec::new(); // (new index, loop, jumps)
    let mut next = 0usize;
    for here in inserts.iter_mut() {
        here.sort_by_key(|&(_, jumps)| !jumps);
        for &(k, jumps) in here.iter() {
            placed.push((next, k, jumps));
            next += 1;
        }
        renumbered.push(BlockId::new(next));
        next += 1;
    }
    let changed = !placed.is_empty();
    for (k, e) in existing.iter().enumerate() {
        of_loop[k] = e.map(|p| renumbered[p.index()]);
    }
    if !changed {
        return Preheaders { of_loop, renumbered, changed };
    }
    for instr in f.instrs_mut() {
        for l in instr.labels.iter_mut() {
            *l = renumbered[l.index()];
        }
    }
    let old_blocks = std::mem::take(&mut f.blocks);
    let mut slots: Vec<Option<Block>> = (0..next).map(|_| None).collect();
    for (old, block) in old_blocks.into_iter().enumerate() {
        slots[renumbered[old].index()] = Some(block);
    }
    for &(at, k, jumps) in &placed {
        let mut block = Block::new(None);
        if jumps {
            block.instrs.push(Instr::jmp(renumbered[loops[k].header.index()]));
        }
        slots[at] = Some(block);
        of_loop[k] = Some(BlockId::new(at));
    }
    f.blocks = slots.into_iter().flatten().collect();
    let mut labels = FreshNames::labels(f);
    for &(at, k, jumps) in &placed {
        let (pre, header) = (BlockId::new(at), renumbered[loops[k].header.index()]);
        let labelled: Vec<BlockId> =
            outside[k].iter().map(|p| renumbered[p.index()]).filter(|&p| !falls_through(f, p)).collect();
        if !labelled.is_empty() {
            ensure_label(f, pre, &mut labels, "preheader");
            for p in labelled {
                retarget(f, p, header, pre);
            }
        }
        if jumps {
            ensure_label(f, header, &mut labels, "header");
        }
    }
    Preheaders { of_loop, renumbered, changed }
}

/// [`ensure_preheaders`] for one loop: its preheader and whether `f` changed.
pub fn ensure_preheader(f: &mut Function, cfg: &Cfg, lp: &Loop) -> Option<(BlockId, bool)> {
    let made = ensure_preheaders(f, cfg, &[lp]);
    made.of_loop[0].map(|pre| (pre, made.changed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::{parse_text, to_text, verify, Program};

    fn analyse(p: &Program) -> (Cfg, Dominators, Vec<Loop>) {
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let loops = find_loops(&cfg, &dom);
        (cfg, dom, loops)
    }

    const NESTED: &str = "@main {\n  i: int = const 0;\n.outer:\n  j: int = const 0;\n.inner:\n  j: int = add j i;\n  c: bool = lt j i;\n  br c .inner .next;\n.next:\n  i: int = add i j;\n  d: bool = lt i j;\n  br d .outer .exit;\n.exit:\n  ret;\n}";

    #[test]
    fn nested_loops_innermost_first() {
        let p = parse_text(NESTED).unwrap();
        let f = &p.functions[0];
        let (cfg, _, loops) = analyse(&p);
        let (outer, inner, next, exit) = (
            f.block_labeled("outer").unwrap(),
            f.block_labeled("inner").unwrap(),
            f.block_labeled("next").unwrap(),
            f.block_labeled("exit").unwrap(),
        );
        assert_eq!(loops.len(), 2);
        assert_eq!(loops[0].header, inner);
        assert_eq!(loops[0].body, vec![inner]);
        assert_eq!((loops[0].parent, loops[0].depth), (Some(1), 2));
        assert_eq!(loops[1].header, outer);
        assert_eq!(loops[1].body, vec![outer, inner, next]);
        assert_eq!(loops[1].latches, vec![next]);
        assert_eq!(loops[1].exits(&cfg), vec![(next, exit)]);
    }

    #[test]
    fn an_existing_preheader_is_reused() {
        let mut p = parse_text(NESTED).unwrap();
        let (cfg, _, loops) = analyse(&p);
        // Each header is entered from outside by one block that only flows into it.
        let before = to_text(&p);
        let (pre, changed) =
            ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[1]).unwrap();
        assert_eq!((pre, changed), (BlockId(0), false));
        let (pre, changed) =
            ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[0]).unwrap();
        assert_eq!((pre, changed), (p.functions[0].block_labeled("outer").unwrap(), false));
        assert_eq!(to_text(&p), before);
    }

    #[test]
    fn preheaders_take_every_outside_edge_once() {
        let src = "@main {\n  c: bool = const false;\n  br c .a .head;\n.a:\n  x: int = const 1;\n.head:\n  br c .head .end;\n.end:\n  print c;\n}";
        let mut p = parse_text(src).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) =
            ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[0]).unwrap();
        assert!(changed);
        verify(&p).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let header = loops[0].header;
        assert_eq!(cfg.preds[header.index()], vec![pre, header]);
        assert_eq!(cfg.succs[pre.index()], vec![header]);
        assert_eq!(cfg.preds[pre.index()].len(), 2, "the entry's jump and a's fallthrough");
        let again = ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[0]).unwrap();
        assert_eq!(again, (pre, false));
    }

    #[test]
    fn a_loop_at_the_entry_gets_a_new_entry() {
        let mut p = parse_text("@main {\n.top:\n  x: int = const 1;\n  c: bool = const false;\n  br c .top .end;\n.end:\n  print x;\n}").unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) =
            ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[0]).unwrap();
        assert!(changed && pre == BlockId(0));
        verify(&p).unwrap();
        assert!(to_text(&p).starts_with("@main {\n.top:"), "the new entry is unlabeled: {}", to_text(&p));
    }

    #[test]
    fn a_latch_falling_into_the_header_gets_a_jumping_preheader() {
        let src = "@main {\n  i: int = const 0;\n  z: bool = const false;\n  br z .end .head;\n.body:\n  one: int = const 1;\n  i: int = add i one;\n.head:\n  c: bool = lt i i;\n  br c .body .end;\n.end:\n  print i;\n}";
        let mut p = parse_text(src).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) =
            ensure_preheader(std::sync::Arc::make_mut(&mut p.functions[0]), &cfg, &loops[0]).unwrap();
        assert!(changed);
        verify(&p).unwrap();
        let (cfg, _, loops) = analyse(&p);
        assert_eq!(cfg.succs[pre.index()], vec![loops[0].header]);
        assert_eq!(cfg.preds[loops[0].header.index()].len(), 2);
        let out = crate::bril::interp::run(&p, &[], &Default::default());
        assert_eq!(out.stdout, "0\n");
    }
}
