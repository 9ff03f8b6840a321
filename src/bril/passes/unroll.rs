//! `-loop-unroll`: full unrolling of small counted loops.
//!
//! A loop qualifies when it has one latch, its body (header aside) has no
//! cycle, it leaves only from the header by `br c`, `c` is a comparison of
//! its counter `i` with a constant, and the counter is written in the loop
//! only by `i = add i s` (constant `s`) in a block that runs once per
//! iteration, while every definition of `i` reaching the loop from outside
//! is one constant. The trip count is then found by running the comparison
//! on the counter's values, and when the copies fit under a size budget the
//! loop becomes header, body, header, body, ..., header, with the branches
//! replaced by jumps.
//!
//! Why it is safe: every entry into the loop starts the counter at the same
//! constant and every iteration adds the same constant once, so each run
//! takes the branch the same way the same number of times; the unrolled code
//! runs exactly the instructions the loop ran, minus the branches and the
//! back jumps. Comparisons are evaluated with the interpreter's arithmetic.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::{const_bits, fold};
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::{remove_unreachable, rewrite_drafts_where};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::{find_loops, may_have_loops, Loop};
use crate::bril::analysis::reaching::{DefPoint, ReachingDefs};
use crate::bril::ir::{Block, BlockId, Function, Instr, Op, Program, VarId};
use crate::bril::names::FreshNames;
use crate::error::Result;

/// Most instructions an unrolled loop may have.
const BUDGET: usize = 160;
/// Most iterations fully unrolled.
const MAX_TRIPS: u64 = 32;

/// Sweeps at most: each unrolls every qualifying loop at once; the next
/// finds the loops that enclosed them, now without inner cycles.
const MAX_SWEEPS: usize = 16;

/// `-loop-unroll`. A function of one block (no loop, nothing unreachable
/// to drop) is not even copied.
pub fn loop_unroll(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(
        program,
        |f| f.blocks.len() > 1 || may_have_loops(f),
        |_, draft| {
            // The first sweep is planned on the original: a function with
            // every block reachable and no loop to unroll is not copied.
            let original = draft.original();
            let cfg = Cfg::new(original);
            let mut planned = None;
            if cfg.rpo.len() == original.blocks.len() {
                let chosen = chosen_loops(original, &cfg);
                if chosen.is_empty() {
                    return Ok(());
                }
                planned = Some(chosen);
            }
            let f = draft.make_mut();
            for _ in 0..MAX_SWEEPS {
                let chosen = match planned.take() {
                    Some(chosen) => chosen,
                    None => {
                        remove_unreachable(f)?;
                        chosen_loops(f, &Cfg::new(f))
                    }
                };
                if chosen.is_empty() {
                    break;
                }
                rebuild(f, &chosen);
            }
            Ok(())
        },
    )
}

/// What a qualifying loop does on every entry.
struct Counted {
    /// Iterations of the body.
    trips: u64,
    /// The header's target inside the loop.
    body_entry: BlockId,
    /// Where the loop exits to.
    exit: BlockId,
}

/// The one value every definition of `v` reaching `lp`'s header from
/// outside gives, when `lp` does not write `v` and that value is a `const`.
/// (`v` is read in the header before any write in the loop, so it is live
/// on every edge into it.)
fn constant_on_entry(f: &Function, cfg: &Cfg, rd: &ReachingDefs, lp: &Loop, v: VarId) -> Option<u64> {
    let mut value = None;
    for &p in cfg.preds[lp.header.index()].iter().filter(|&&p| !lp.contains(p)) {
        let mut any = false;
        for site in rd.at_exit(p, v) {
            any = true;
            let DefPoint::Instr { block, index } = site.point else { return None };
            if lp.contains(block) {
                return None; // the loop's own value comes around again
            }
            let bits = const_bits(&f.block(block).instrs[index])?;
            if value.is_some_and(|x| x != bits) {
                return None;
            }
            value = Some(bits);
        }
        if !any {
            return None;
        }
    }
    value
}

/// Whether the loop's blocks other than the header form no cycle.
fn body_is_acyclic(cfg: &Cfg, lp: &Loop, indegree: &mut [usize]) -> bool {
    // Kahn's algorithm on the body without the header (`indegree` is zero
    // on entry, and again on return).
    let inside = |b: BlockId| b != lp.header && lp.contains(b);
    for &b in lp.body.iter().filter(|&&b| inside(b)) {
        for &s in cfg.succs[b.index()].iter().filter(|&&s| inside(s)) {
            indegree[s.index()] += 1;
        }
    }
    let mut ready: Vec<BlockId> =
        lp.body.iter().copied().filter(|&b| inside(b) && indegree[b.index()] == 0).collect();
    let mut seen = 0;
    while let Some(b) = ready.pop() {
        seen += 1;
        for &s in cfg.succs[b.index()].iter().filter(|&&s| inside(s)) {
            indegree[s.index()] -= 1;
            if indegree[s.index()] == 0 {
                ready.push(s);
            }
        }
    }
    let acyclic = seen == lp.body.len() - 1;
    for &b in &lp.body {
        indegree[b.index()] = 0;
    }
    acyclic
}

/// Scratch reused from loop to loop: block in-degrees, and the definitions
/// each variable has in the current loop (reset through `touched`).
struct Scratch {
    indegree: Vec<usize>,
    defs_in_loop: Vec<Vec<(BlockId, usize)>>,
    touched: Vec<VarId>,
}

/// A loop of the right form, before its trip count is known: the counter,
/// the bound and the step it is compared and advanced with.
struct Form {
    body_entry: BlockId,
    exit: BlockId,
    stay_when: bool,
    cmp: Op,
    counter: VarId,
    bound: VarId,
    step: VarId,
    counter_first: bool,
}

/// Whether `lp` has the form unrolling needs (no dataflow asked yet).
fn form(f: &Function, cfg: &Cfg, dom: &Dominators, lp: &Loop, scratch: &mut Scratch) -> Option<Form> {
    let [latch] = lp.latches[..] else { return None };
    if !body_is_acyclic(cfg, lp, &mut scratch.indegree) {
        return None;
    }
    // Only the header leaves the loop, by a branch on a comparison made there.
    for &b in lp.body.iter().filter(|&&b| b != lp.header) {
        if cfg.succs[b.index()].iter().any(|&s| !lp.contains(s)) {
            return None;
        }
    }
    let header = f.block(lp.header);
    let br = header.terminator().filter(|t| t.op == Op::Br)?;
    let (&cond, &then, &otherwise) = (br.args.first()?, br.labels.first()?, br.labels.get(1)?);
    let (body_entry, exit, stay_when) = match (lp.contains(then), lp.contains(otherwise)) {
        (true, false) => (then, otherwise, true),
        (false, true) => (otherwise, then, false),
        _ => return None,
    };
    let cmp = header.instrs.iter().rev().find(|i| i.def() == Some(cond))?;
    if !matches!(cmp.op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq) {
        return None;
    }
    for v in scratch.touched.drain(..) {
        scratch.defs_in_loop[v.index()].clear();
    }
    for &b in &lp.body {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                if scratch.defs_in_loop[d.index()].is_empty() {
                    scratch.touched.push(d);
                }
                scratch.defs_in_loop[d.index()].push((b, i));
            }
        }
    }
    let defs_in_loop = &scratch.defs_in_loop;
    // One argument is the counter, the other a constant the loop keeps.
    let (&a0, &a1) = (cmp.args.first()?, cmp.args.get(1)?);
    let (counter, bound, counter_first) =
        if defs_in_loop[a1.index()].is_empty() { (a0, a1, true) } else { (a1, a0, false) };
    // The bound must not change in the loop (whichever side it is on).
    if !defs_in_loop[bound.index()].is_empty() {
        return None;
    }
    let [(inc_block, inc_index)] = defs_in_loop[counter.index()][..] else { return None };
    let inc = &f.block(inc_block).instrs[inc_index];
    if inc.op != Op::Add || inc_block == lp.header || !dom.dominates(inc_block, latch) {
        return None;
    }
    let step = match (inc.args.first(), inc.args.get(1)) {
        (Some(&x), Some(&s)) if x == counter => s,
        (Some(&s), Some(&x)) if x == counter => s,
        _ => return None,
    };
    if step == counter || !defs_in_loop[step.index()].is_empty() {
        return None;
    }
    Some(Form { body_entry, exit, stay_when, cmp: cmp.op, counter, bound, step, counter_first })
}

/// The trip count of a loop of the right form, when every entry starts the
/// counter, the bound and the step at the same constants.
fn count(f: &Function, cfg: &Cfg, rd: &ReachingDefs, lp: &Loop, form: &Form) -> Option<Counted> {
    let bound_value = constant_on_entry(f, cfg, rd, lp, form.bound)?;
    let step_value = constant_on_entry(f, cfg, rd, lp, form.step)?;
    let mut value = constant_on_entry(f, cfg, rd, lp, form.counter)?;
    for trips in 0..=MAX_TRIPS {
        let args = if form.counter_first { [value, bound_value] } else { [bound_value, value] };
        let stays = fold(form.cmp, &args)? != 0;
        if stays != form.stay_when {
            return Some(Counted { trips, body_entry: form.body_entry, exit: form.exit });
        }
        value = (value as i64).wrapping_add(step_value as i64) as u64;
    }
    None
}

/// The loops one sweep unrolls: those with a known trip count whose
/// unrolled code fits the budget. Such a loop has no cycle but through its
/// header, so it holds no other loop: the ones unrolled together are
/// disjoint.
fn chosen_loops(f: &Function, cfg: &Cfg) -> Vec<(Loop, Counted)> {
    let dom = Dominators::new(cfg);
    let mut chosen: Vec<(Loop, Counted)> = Vec::new();
    for (lp, counted) in counted_loops(f, cfg, &dom) {
        let Some(counted) = counted else { continue };
        if unrolled_size(f, &lp, &counted) <= BUDGET {
            chosen.push((lp, counted));
        }
    }
    chosen
}

/// Instructions a loop becomes when fully unrolled.
fn unrolled_size(f: &Function, lp: &Loop, counted: &Counted) -> usize {
    let header_len = f.block(lp.header).instrs.len();
    let body_len: usize = lp.body.iter().filter(|&&b| b != lp.header).map(|&b| f.block(b).instrs.len()).sum();
    (counted.trips as usize + 1) * header_len + counted.trips as usize * body_len
}

/// What the features see of a function's loops: each loop's trip count when
/// it is known, and whether `-loop-unroll` would unroll it.
pub(crate) fn trip_counts(f: &Function, cfg: &Cfg, dom: &Dominators) -> Vec<(Loop, Option<u64>, bool)> {
    counted_loops(f, cfg, dom)
        .into_iter()
        .map(|(lp, counted)| {
            let unrollable = counted.as_ref().is_some_and(|c| unrolled_size(f, &lp, c) <= BUDGET);
            let trips = counted.map(|c| c.trips);
            (lp, trips, unrollable)
        })
        .collect()
}

/// Every loop of `f`, with what it does on every entry when that is known.
fn counted_loops(f: &Function, cfg: &Cfg, dom: &Dominators) -> Vec<(Loop, Option<Counted>)> {
    let loops = find_loops(cfg, dom);
    if loops.is_empty() {
        return Vec::new();
    }
    let mut scratch = Scratch {
        indegree: vec![0; cfg.len()],
        defs_in_loop: vec![Vec::new(); f.vars.len()],
        touched: Vec::new(),
    };
    let forms: Vec<(Loop, Option<Form>)> = loops
        .into_iter()
        .map(|lp| {
            let form = form(f, cfg, dom, &lp, &mut scratch);
            (lp, form)
        })
        .collect();
    // Reaching definitions of the counters, bounds and steps only.
    let mut tracked = vec![false; f.vars.len()];
    for form in forms.iter().filter_map(|(_, form)| form.as_ref()) {
        for v in [form.counter, form.bound, form.step] {
            tracked[v.index()] = true;
        }
    }
    if !tracked.contains(&true) {
        return forms.into_iter().map(|(lp, _)| (lp, None)).collect();
    }
    let rd = ReachingDefs::of(f, cfg, &Liveness::of(f, cfg, &tracked), &tracked);
    forms
        .into_iter()
        .map(|(lp, form)| {
            let counted = form.and_then(|form| count(f, cfg, &rd, &lp, &form));
            (lp, counted)
        })
        .collect()
}

/// Where one unrolled loop goes: its blocks other than the header, and the
/// new index of its first copy.
struct Placed<'a> {
    lp: &'a Loop,
    counted: &'a Counted,
    body: Vec<BlockId>,
    start: usize,
}

impl Placed<'_> {
    /// Blocks of the copies: header, then body blocks, per iteration.
    fn span(&self) -> usize {
        let trips = self.counted.trips as usize;
        (trips + 1) + trips * self.body.len()
    }

    /// Copy k's header occupies start + k * (1 + body.len()), its body blocks follow.
    fn copy_header(&self, k: usize) -> BlockId {
        BlockId::new(self.start + k * (1 + self.body.len()))
    }

    fn copy_block(&self, k: usize, b: BlockId) -> BlockId {
        let pos = self.body.binary_search(&b).unwrap_or(0);
        BlockId::new(self.start + k * (1 + self.body.len()) + 1 + pos)
    }
}

/// Replaces each chosen loop's blocks by its unrolled copies, at its
/// header's place, renumbering every block once.
fn rebuild(f: &mut Function, chosen: &[(Loop, Counted)]) {
    let old_len = f.blocks.len();
    // The loop each block belongs to, and whether it is that loop's header.
    let mut owner: Vec<Option<usize>> = vec![None; old_len];
    for (k, (lp, _)) in chosen.iter().enumerate() {
        for &b in &lp.body {
            owner[b.index()] = Some(k);
        }
    }
    let mut placed: Vec<Placed> = chosen
        .iter()
        .map(|(lp, counted)| Placed {
            lp,
            counted,
            body: lp.body.iter().copied().filter(|&b| b != lp.header).collect(),
            start: 0,
        })
        .collect();
    // New layout: the copies take the header's place; other loop blocks go.
    let mut new_index: Vec<Option<usize>> = vec![None; old_len];
    let mut next = 0;
    for (b, slot) in new_index.iter_mut().enumerate() {
        match owner[b] {
            Some(k) if placed[k].lp.header.index() == b => {
                placed[k].start = next;
                *slot = Some(next);
                next += placed[k].span();
            }
            Some(_) => {}
            None => {
                *slot = Some(next);
                next += 1;
            }
        }
    }
    let remap_outside = |b: BlockId| BlockId::new(new_index[b.index()].unwrap_or(0));
    let mut labels = FreshNames::labels(f);
    let mut copies_of: Vec<Vec<Block>> = Vec::with_capacity(placed.len());
    for p in &placed {
        let (lp, trips) = (p.lp, p.counted.trips as usize);
        let mut copies: Vec<Block> = Vec::with_capacity(p.span());
        for k in 0..=trips {
            let h = f.block(lp.header);
            let label = if k == 0 {
                h.label.clone()
            } else {
                Some(labels.fresh(&format!("{}.u{k}", h.label.as_deref().unwrap_or("h"))))
            };
            let mut block =
                Block { label, label_pos: h.label_pos, instrs: h.instrs[..h.instrs.len() - 1].to_vec() };
            let pos = h.instrs.last().map_or_else(Default::default, |t| t.pos);
            let target =
                if k < trips { p.copy_block(k, p.counted.body_entry) } else { remap_outside(p.counted.exit) };
            block.instrs.push(Instr::jmp(target).with_pos(pos));
            copies.push(block);
            if k == trips {
                break;
            }
            for &b in &p.body {
                let orig = f.block(b);
                let hint = format!("{}.u{k}", orig.label.as_deref().unwrap_or("b"));
                let mut block = Block {
                    label: Some(labels.fresh(&hint)),
                    label_pos: orig.label_pos,
                    instrs: orig.instrs.clone(),
                };
                let map = |t: BlockId| if t == lp.header { p.copy_header(k + 1) } else { p.copy_block(k, t) };
                match block.instrs.last_mut().filter(|i| i.is_terminator()) {
                    Some(t) => {
                        for l in t.labels.iter_mut() {
                            *l = map(*l);
                        }
                    }
                    None => {
                        let succ = f.successors(b).first().copied().unwrap_or(lp.header);
                        block.instrs.push(Instr::jmp(map(succ)));
                    }
                }
                copies.push(block);
            }
        }
        copies_of.push(copies);
    }
    let old = std::mem::take(&mut f.blocks);
    let mut blocks = Vec::with_capacity(next);
    let mut copies_of: Vec<Option<Vec<Block>>> = copies_of.into_iter().map(Some).collect();
    for (b, mut block) in old.into_iter().enumerate() {
        match owner[b] {
            Some(k) if placed[k].lp.header.index() == b => {
                blocks.extend(copies_of[k].take().unwrap_or_default())
            }
            Some(_) => {}
            None => {
                if let Some(t) = block.instrs.last_mut().filter(|i| i.is_terminator()) {
                    for l in t.labels.iter_mut() {
                        *l = remap_outside(*l);
                    }
                }
                blocks.push(block);
            }
        }
    }
    f.blocks = blocks;
    // The copies' jumps to the very next block are fallthroughs.
    for p in &placed {
        for i in p.start..p.start + p.span() {
            let b = BlockId::new(i);
            if i < f.blocks.len() && crate::bril::analysis::edit::is_jump_to_next(f, b) {
                f.block_mut(b).instrs.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    const COUNTED: &str = "@main {\n  i: int = const 0;\n  n: int = const 3;\n  one: int = const 1;\n  s: int = const 0;\n.loop:\n  go: bool = lt i n;\n  br go .body .done;\n.body:\n  s: int = add s i;\n  odd: bool = eq s one;\n  br odd .yes .no;\n.yes:\n  print s;\n.no:\n  i: int = add i one;\n  jmp .loop;\n.done:\n  print s i;\n}";

    #[test]
    fn a_counted_loop_is_fully_unrolled() {
        let mut p = parse_text(COUNTED).unwrap();
        let before = run(&p, &[], &Limits::default());
        assert!(loop_unroll(&mut p).unwrap());
        let after = run(&p, &[], &Limits::default());
        assert_eq!(before.stdout, after.stdout);
        let text = to_text(&p);
        assert!(!text.contains("br go"), "{text}");
        assert!(after.dyn_inst < before.dyn_inst, "{} -> {}", before.dyn_inst, after.dyn_inst);
        assert!(!loop_unroll(&mut p).unwrap());
    }

    #[test]
    fn loops_with_unknown_bounds_or_second_entries_stay() {
        let src = COUNTED.replace(
            "@main {\n  i: int = const 0;\n  n: int = const 3;",
            "@main(n: int) {\n  i: int = const 0;",
        );
        let mut p = parse_text(&src).unwrap();
        assert!(!loop_unroll(&mut p).unwrap());
        // The counter is not reset when an outer loop comes around again.
        let src = "@main {\n  i: int = const 0;\n  n: int = const 2;\n  one: int = const 1;\n  k: int = const 0;\n.outer:\n  j: int = const 0;\n.loop:\n  go: bool = lt i n;\n  br go .body .done;\n.body:\n  i: int = add i one;\n  jmp .loop;\n.done:\n  k: int = add k one;\n  again: bool = lt k n;\n  br again .outer .end;\n.end:\n  print i k;\n}";
        let mut p = parse_text(src).unwrap();
        assert!(!loop_unroll(&mut p).unwrap(), "{}", to_text(&p));
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| loop_unroll(p));
    }
}
