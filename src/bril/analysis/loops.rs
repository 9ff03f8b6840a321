//! Natural loops: back edges (an edge to a block that dominates its source),
//! loop bodies, nesting, exits, and preheader insertion.
//!
//! Loops sharing a header are one loop. Irreducible cycles have no back edge
//! in this sense and are not loops here.

use super::cfg::Cfg;
use super::dom::Dominators;
use super::edit::{ensure_label, falls_through, insert_block, retarget};
use crate::bril::ir::{Block, BlockId, Function, Instr};

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

/// Every natural loop of a function, innermost first (a loop comes before
/// every loop that encloses it).
pub fn find_loops(cfg: &Cfg, dom: &Dominators) -> Vec<Loop> {
    let mut by_header: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
    for &t in &cfg.rpo {
        for &h in &cfg.succs[t.index()] {
            if dom.dominates(h, t) {
                match by_header.iter_mut().find(|(hh, _)| *hh == h) {
                    Some((_, latches)) => latches.push(t),
                    None => by_header.push((h, vec![t])),
                }
            }
        }
    }
    let mut loops: Vec<Loop> = by_header
        .into_iter()
        .map(|(header, latches)| {
            let body = loop_body(cfg, header, &latches);
            Loop { header, latches, body, parent: None, depth: 1 }
        })
        .collect();
    loops.sort_by_key(|l| (l.body.len(), l.header));
    for i in 0..loops.len() {
        let header = loops[i].header;
        loops[i].parent = (i + 1..loops.len()).find(|&j| loops[j].contains(header));
    }
    for i in 0..loops.len() {
        let mut depth = 1;
        let mut p = loops[i].parent;
        while let Some(j) = p {
            depth += 1;
            p = loops[j].parent;
        }
        loops[i].depth = depth;
    }
    loops
}

/// The header plus every block that reaches a latch without passing the header.
fn loop_body(cfg: &Cfg, header: BlockId, latches: &[BlockId]) -> Vec<BlockId> {
    let mut in_body = vec![false; cfg.len()];
    in_body[header.index()] = true;
    let mut stack: Vec<BlockId> = Vec::new();
    for &l in latches {
        if !in_body[l.index()] {
            in_body[l.index()] = true;
            stack.push(l);
        }
    }
    while let Some(b) = stack.pop() {
        for p in cfg.reachable_preds(b) {
            if !in_body[p.index()] {
                in_body[p.index()] = true;
                stack.push(p);
            }
        }
    }
    (0..cfg.len()).filter(|&i| in_body[i]).map(BlockId::new).collect()
}

/// The loop's preheader: a block outside the loop whose only successor is
/// the header and through which every entry into the loop passes. An
/// existing one is reused; otherwise an empty block is inserted and every
/// edge into the header from outside the loop is moved to it.
///
/// Returns the preheader and whether the function changed. Inserting a block
/// renumbers blocks: the loop and any analysis of `f` are stale afterwards.
/// `None` when no place for it exists (never for functions the readers make).
pub fn ensure_preheader(f: &mut Function, cfg: &Cfg, lp: &Loop) -> Option<(BlockId, bool)> {
    let header = lp.header;
    let outside: Vec<BlockId> =
        cfg.preds[header.index()].iter().copied().filter(|&p| !lp.contains(p)).collect();
    if header.index() != 0 {
        if let [p] = outside[..] {
            if cfg.succs[p.index()] == [header] {
                return Some((p, false));
            }
        }
    }
    let before = header.index().checked_sub(1).map(BlockId::new);
    let fallthrough_from_loop = before.is_some_and(|b| lp.contains(b) && falls_through(f, b));
    // Position: right before the header (so it falls into it), unless a loop
    // block falls into the header there; then after any block that ends in a
    // terminator, with an explicit jump.
    let at = if !fallthrough_from_loop {
        header.index()
    } else {
        (1..f.blocks.len()).find(|&i| !falls_through(f, BlockId::new(i - 1)))?
    };
    let mut block = Block::new(None);
    if at != header.index() {
        block.instrs.push(Instr::jmp(header));
    }
    insert_block(f, at, block);
    let pre = BlockId::new(at);
    let shift = |b: BlockId| if b.index() >= at { BlockId::new(b.index() + 1) } else { b };
    let header = shift(header);
    let labelled: Vec<BlockId> =
        outside.iter().map(|&p| shift(p)).filter(|&p| !falls_through(f, p)).collect();
    if !labelled.is_empty() {
        ensure_label(f, pre, "preheader");
        for p in labelled {
            retarget(f, p, header, pre);
        }
    }
    if let Some(t) = f.block_mut(pre).instrs.last_mut() {
        if let Some(l) = t.labels.first_mut() {
            *l = header;
        }
        ensure_label(f, header, "header");
    }
    Some((pre, true))
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
        let (pre, changed) = ensure_preheader(&mut p.functions[0], &cfg, &loops[1]).unwrap();
        assert_eq!((pre, changed), (BlockId(0), false));
        let (pre, changed) = ensure_preheader(&mut p.functions[0], &cfg, &loops[0]).unwrap();
        assert_eq!((pre, changed), (p.functions[0].block_labeled("outer").unwrap(), false));
        assert_eq!(to_text(&p), before);
    }

    #[test]
    fn preheaders_take_every_outside_edge_once() {
        let src = "@main {\n  c: bool = const false;\n  br c .a .head;\n.a:\n  x: int = const 1;\n.head:\n  br c .head .end;\n.end:\n  print c;\n}";
        let mut p = parse_text(src).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) = ensure_preheader(&mut p.functions[0], &cfg, &loops[0]).unwrap();
        assert!(changed);
        verify(&p).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let header = loops[0].header;
        assert_eq!(cfg.preds[header.index()], vec![pre, header]);
        assert_eq!(cfg.succs[pre.index()], vec![header]);
        assert_eq!(cfg.preds[pre.index()].len(), 2, "the entry's jump and a's fallthrough");
        let again = ensure_preheader(&mut p.functions[0], &cfg, &loops[0]).unwrap();
        assert_eq!(again, (pre, false));
    }

    #[test]
    fn a_loop_at_the_entry_gets_a_new_entry() {
        let mut p = parse_text("@main {\n.top:\n  x: int = const 1;\n  c: bool = const false;\n  br c .top .end;\n.end:\n  print x;\n}").unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) = ensure_preheader(&mut p.functions[0], &cfg, &loops[0]).unwrap();
        assert!(changed && pre == BlockId(0));
        verify(&p).unwrap();
        assert!(to_text(&p).starts_with("@main {\n.top:"), "the new entry is unlabeled: {}", to_text(&p));
    }

    #[test]
    fn a_latch_falling_into_the_header_gets_a_jumping_preheader() {
        let src = "@main {\n  i: int = const 0;\n  z: bool = const false;\n  br z .end .head;\n.body:\n  one: int = const 1;\n  i: int = add i one;\n.head:\n  c: bool = lt i i;\n  br c .body .end;\n.end:\n  print i;\n}";
        let mut p = parse_text(src).unwrap();
        let (cfg, _, loops) = analyse(&p);
        let (pre, changed) = ensure_preheader(&mut p.functions[0], &cfg, &loops[0]).unwrap();
        assert!(changed);
        verify(&p).unwrap();
        let (cfg, _, loops) = analyse(&p);
        assert_eq!(cfg.succs[pre.index()], vec![loops[0].header]);
        assert_eq!(cfg.preds[loops[0].header.index()].len(), 2);
        let out = crate::bril::interp::run(&p, &[], &Default::default());
        assert_eq!(out.stdout, "0\n");
    }
}
