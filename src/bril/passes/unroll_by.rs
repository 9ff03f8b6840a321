//! `-loop-unroll=N`: runtime unrolling of counted while loops by a factor
//! of N (2, 4 or 8), with the original loop kept for the iterations left.
//!
//! A loop qualifies when it is innermost and simple: one latch, a body
//! without cycles that only the header leaves, a header ending in
//! `br c .body .exit` where `c` compares a counter `i` with a bound `n`
//! (`i < n` or `i <= n` in any of its spellings), `n` not written in the
//! loop, and `i` written in the loop once, by `i = add i s` in a block
//! every iteration runs, with `s` a positive constant. Then
//!
//! ```text
//! guard: K = const (N-1)*s; lim = sub n K; ok = lt lim n; br ok .main .head
//! main:  c2 = lt i lim; br c2 .copy0 .head      (le for i <= n)
//! copy0..copyN-1: N iterations (the header's code, then the body), no tests;
//!        the last jumps back to main
//! head:  the original loop, which runs the remaining iterations
//! ```
//!
//! Edges entering the loop go to the guard; the original loop stays in
//! place and only the guard and `main` lead to its header from outside.
//!
//! Why it is safe: `ok` is false exactly when `n - K` wraps around, and
//! then the original loop runs alone. Otherwise `i <= n - K` means `i +
//! K <= n` without overflow, so the N iterations starting from `i` (their
//! counters `i`, `i + s`, ..., `i + K`) would all have passed the loop's
//! test: the copies run exactly the instructions those iterations run,
//! minus the tests and the jumps. The header's comparison is left out of
//! the copies when only its branch reads it. The guard reads `n` and `i`
//! before the loop would, so both must be certainly assigned on entry.
//!
//! A loop entered from a test of its own counter (the `main` block of an
//! earlier unrolling) is not unrolled again.

use crate::bril::analysis::edit::{is_jump_to_next, rewrite_drafts_where};
use crate::bril::analysis::loops::{find_loops, may_have_loops, Loop};
use crate::bril::ir::{Block, BlockId, Function, Instr, Literal, Op, Program, Type, VarId};
use crate::error::Result;

use super::counted_loop::{recognise, CountedLoop, LoopFacts, Test};
use crate::bril::names::FreshNames;

/// Most instructions the copies of one loop may have.
pub const BUDGET: usize = 256;

/// `-loop-unroll=2`.
pub fn loop_unroll_2(program: &mut Program) -> Result<bool> {
    unroll_by(program, 2)
}

/// `-loop-unroll=4`.
pub fn loop_unroll_4(program: &mut Program) -> Result<bool> {
    unroll_by(program, 4)
}

/// `-loop-unroll=8`.
pub fn loop_unroll_8(program: &mut Program) -> Result<bool> {
    unroll_by(program, 8)
}

/// Unrolls every qualifying loop by `factor`.
pub fn unroll_by(program: &mut Program, factor: usize) -> Result<bool> {
    // Planned on the original: a function with no loop to unroll is not copied.
    rewrite_drafts_where(program, may_have_loops, |_, draft| {
        let plans = plan(draft.get(), factor);
        if !plans.is_empty() {
            unroll(draft.make_mut(), &plans, factor);
        }
        Ok(())
    })
}

/// A loop that qualifies, and what unrolling it needs.
struct Counted {
    lp: CountedLoop,
    /// (factor - 1) * step.
    span: i64,
    /// The test's comparison, when only the test's branch reads it (the
    /// copies leave it out).
    dead_compare: Option<usize>,
}

fn analyse(f: &Function, facts: &LoopFacts, lp: &Loop, factor: usize) -> Option<Counted> {
    let counted = recognise(f, facts, lp)?;
    if lp.header.index() == 0 {
        return None;
    }
    let in_loop_block = |b: &BlockId| f.block(*b).instrs.iter().any(|i| matches!(i.op, Op::Get | Op::Phi));
    if lp.body.iter().any(in_loop_block) {
        return None;
    }
    // A latch falling into the header would lose it when the copies go between.
    let before = BlockId::new(lp.header.index() - 1);
    if lp.contains(before) && f.block(before).terminator().is_none() {
        return None;
    }
    let span = counted.step.checked_mul(factor as i64 - 1)?;
    let header = f.block(lp.header);
    let size: usize =
        header.instrs.len() + counted.body.iter().map(|&b| f.block(b).instrs.len()).sum::<usize>();
    if size * factor > BUDGET {
        return None;
    }
    // The guard reads the counter and the bound before the loop would.
    let (counter, bound) = (counted.counter, counted.bound);
    // Both are read in the loop before any write, so live on entry to the
    // header and at the end of each block entering it, where `definite` answers.
    let live_in = facts.live().live_in.get(lp.header.index());
    if !live_in.contains(counter.index()) || !live_in.contains(bound.index()) {
        return None;
    }
    for p in facts.cfg.reachable_preds(lp.header).filter(|p| !lp.contains(*p)) {
        if !facts.definite().at_exit(p, counter) || !facts.definite().at_exit(p, bound) {
            return None;
        }
        if tests_counter(f, p, counter, bound, lp.header) {
            return None;
        }
    }
    Some(Counted { lp: counted, span, dead_compare: None })
}

/// Whether `p` ends with a branch to `header` on a comparison of `counter`
/// with something else than `bound`, made in `p`: the `main` test of an
/// earlier unrolling (a rotated loop's guard compares with the bound).
fn tests_counter(f: &Function, p: BlockId, counter: VarId, bound: VarId, header: BlockId) -> bool {
    let block = f.block(p);
    let Some(t) = block.terminator().filter(|t| t.op == Op::Br && t.labels.contains(&header)) else {
        return false;
    };
    let Some(&c) = t.args.first() else { return false };
    block.instrs.iter().rev().find(|i| i.def() == Some(c)).is_some_and(|cmp| {
        matches!(cmp.op, Op::Lt | Op::Le)
            && cmp.args.first() == Some(&counter)
            && cmp.args.get(1) != Some(&bound)
    })
}

/// Unrolls `f` in place (what the pass does to one function, for tests).
#[cfg(test)]
pub(super) fn unroll_function(f: &mut Function, factor: usize) {
    let plans = plan(f, factor);
    unroll(f, &plans, factor);
}

/// The loops of `f` that unrolling by `factor` takes.
fn plan(f: &Function, factor: usize) -> Vec<Counted> {
    if f.blocks.is_empty() {
        return Vec::new();
    }
    let facts = LoopFacts::new(f);
    let loops = find_loops(&facts.cfg, &facts.dom);
    let mut plans: Vec<Counted> = loops.iter().filter_map(|lp| analyse(f, &facts, lp, factor)).collect();
    if plans.is_empty() {
        return plans;
    }
    // The copies leave out the comparison of the test when only the test's
    // branch reads it: nothing after it in its block, and not live after.
    let live = facts.live();
    for plan in &mut plans {
        let (b, at, c) = (plan.lp.testing(), plan.lp.cmp_index, plan.lp.cond);
        let code = &f.block(b).instrs;
        let read_after = code[at + 1..code.len() - 1].iter().any(|i| i.uses().contains(&c));
        if !read_after && !live.live_out.get(b.index()).contains(c.index()) {
            plan.dead_compare = Some(at);
        }
    }
    plans
}

/// Unrolls the loops `plans` found in `f`.
fn unroll(f: &mut Function, plans: &[Counted], factor: usize) {
    if plans.is_empty() {
        return;
    }
    // Innermost loops with acyclic bodies share no block.
    let n = f.blocks.len();
    let mut loop_of: Vec<Option<usize>> = vec![None; n];
    let mut headed: Vec<Option<usize>> = vec![None; n];
    for (k, plan) in plans.iter().enumerate() {
        headed[plan.lp.header.index()] = Some(k);
        loop_of[plan.lp.header.index()] = Some(k);
        for &b in &plan.lp.body {
            loop_of[b.index()] = Some(k);
        }
    }
    // Layout: each loop's new blocks (guard, main, copies) right before its header.
    let mut new_index = Vec::with_capacity(n);
    let mut first_new = vec![0usize; plans.len()];
    let mut next = 0;
    for &heads in &headed {
        if let Some(k) = heads {
            first_new[k] = next;
            next += added(&plans[k], factor);
        }
        new_index.push(BlockId::new(next));
        next += 1;
    }
    let (mut vars, mut labels) = (FreshNames::vars(f), FreshNames::labels(f));
    let mut new_blocks: Vec<Option<Vec<Block>>> = Vec::with_capacity(plans.len());
    for (k, plan) in plans.iter().enumerate() {
        new_blocks.push(Some(build(f, (&mut vars, &mut labels), plan, factor, first_new[k], &new_index)));
    }
    let old = std::mem::take(&mut f.blocks);
    for (b, mut block) in old.into_iter().enumerate() {
        for l in block.instrs.iter_mut().flat_map(|i| i.labels.iter_mut()) {
            // Entering a loop from outside now means entering its guard.
            *l = match headed[l.index()] {
                Some(k) if loop_of[b] != Some(k) => BlockId::new(first_new[k]),
                _ => new_index[l.index()],
            };
        }
        if let Some(k) = headed[b] {
            f.blocks.extend(new_blocks[k].take().unwrap_or_default());
        }
        f.blocks.push(block);
    }
    for (k, plan) in plans.iter().enumerate() {
        for i in first_new[k]..first_new[k] + added(plan, factor) {
            if is_jump_to_next(f, BlockId::new(i)) {
                f.block_mut(BlockId::new(i)).instrs.pop();
            }
        }
    }
}

/// How many blocks unrolling `plan` adds: the guard, `main`, the copies,
/// and for a bottom-tested loop the test that sends what is left to it.
fn added(plan: &Counted, factor: usize) -> usize {
    let extra = usize::from(plan.lp.test == Test::Bottom);
    2 + factor * (1 + plan.lp.body.len()) + extra
}

/// The guard, `main`, the copies (and for a bottom-tested loop the last
/// test) of one loop, numbered from `first`.
fn build(
    f: &mut Function,
    (vars, labels): (&mut FreshNames, &mut FreshNames),
    plan: &Counted,
    factor: usize,
    first: usize,
    new_index: &[BlockId],
) -> Vec<Block> {
    let lp = &plan.lp;
    let header_label = f.block(lp.header).label.clone().unwrap_or_else(|| "loop".into());
    let span = vars.fresh_var(f, "unroll.span");
    let lim = vars.fresh_var(f, "unroll.lim");
    let ok = vars.fresh_var(f, "unroll.ok");
    let go = vars.fresh_var(f, "unroll.go");
    let main_id = BlockId::new(first + 1);
    let header = new_index[lp.header.index()];
    let per_copy = 1 + lp.body.len();
    let copy_header = |j: usize| BlockId::new(first + 2 + j * per_copy);
    let copy_block = |j: usize, b: BlockId| match lp.body.iter().position(|&x| x == b) {
        Some(at) => BlockId::new(first + 2 + j * per_copy + 1 + at),
        None => copy_header(j),
    };
    let last_test = BlockId::new(first + 2 + factor * per_copy);
    let test = if lp.inclusive { Op::Le } else { Op::Lt };
    let go_test = Instr::value(test, go, Type::BOOL, &[lp.counter, lim]);

    let mut guard = Block::new(Some(labels.fresh(&format!("{header_label}.guard"))));
    guard.instrs = vec![
        Instr::constant(span, Type::INT, Literal::Int(plan.span)),
        Instr::value(Op::Sub, lim, Type::INT, &[lp.bound, span]),
        Instr::value(Op::Lt, ok, Type::BOOL, &[lim, lp.bound]),
        Instr::br(ok, main_id, header),
    ];
    let mut main = Block::new(Some(labels.fresh(&format!("{header_label}.main"))));
    main.instrs = vec![go_test.clone(), Instr::br(go, copy_header(0), header)];
    let mut blocks = vec![guard, main];
    let testing = lp.testing();
    let copied = |b: BlockId, with_test: bool| -> Vec<Instr> {
        let instrs = &f.block(b).instrs;
        let code = &instrs[..instrs.len() - usize::from(b == testing && !with_test)];
        let dead = |i: usize| b == testing && !with_test && Some(i) == plan.dead_compare;
        code.iter().enumerate().filter(|&(i, _)| !dead(i)).map(|(_, instr)| instr.clone()).collect()
    };
    for j in 0..factor {
        let last = j + 1 == factor;
        // Where an iteration of this copy goes on: the next copy, or back
        // to `main` (top) or to the test of a whole round (bottom).
        let next = if !last { copy_header(j + 1) } else { main_id };
        for b in std::iter::once(lp.header).chain(lp.body.iter().copied()) {
            let orig_label = f.block(b).label.clone();
            let hint = format!("{}.u{j}", orig_label.as_deref().unwrap_or("b"));
            let mut block = Block::new(Some(labels.fresh(&hint)));
            block.instrs = copied(b, false);
            if b == testing {
                match (lp.test, last) {
                    (Test::Top, _) => block.instrs.push(Instr::jmp(copy_block(j, lp.stay))),
                    (Test::Bottom, false) => block.instrs.push(Instr::jmp(next)),
                    (Test::Bottom, true) => {
                        block.instrs.push(go_test.clone());
                        block.instrs.push(Instr::br(go, copy_header(0), last_test));
                    }
                }
            } else {
                let map = |t: BlockId| if t == lp.header { next } else { copy_block(j, t) };
                match block.instrs.last_mut().filter(|i| i.is_terminator()) {
                    Some(t) => t.labels.iter_mut().for_each(|l| *l = map(*l)),
                    None => {
                        let succ = f.successors(b).first().copied().unwrap_or(lp.header);
                        block.instrs.push(Instr::jmp(map(succ)));
                    }
                }
            }
            blocks.push(block);
        }
    }
    if lp.test == Test::Bottom {
        // What is left after a whole round: the loop's own test, into the loop.
        let latch = f.block(lp.latch);
        let mut rest = Block::new(Some(labels.fresh(&format!("{header_label}.rest"))));
        rest.instrs.push(latch.instrs[plan.lp.cmp_index].clone());
        let mut br = latch.instrs[latch.instrs.len() - 1].clone();
        br.labels.iter_mut().for_each(|l| *l = new_index[l.index()]);
        rest.instrs.push(br);
        blocks.push(rest);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    const SUM: &str = "@main(n: int) {\n  i: int = const 0;\n  s: int = const 0;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  s: int = add s i;\n  i: int = add i one;\n  jmp .head;\n.exit:\n  print s;\n}\n";

    fn counts(p: &Program, n: &str) -> (String, u64) {
        let out = run(p, &[n.to_string()], &Limits::default());
        assert!(out.result.is_ok(), "{:?}", out.result);
        (out.stdout, out.dyn_inst)
    }

    #[test]
    fn a_counted_loop_runs_four_iterations_per_test() {
        let mut p = parse_text(SUM).unwrap();
        let before: Vec<_> = ["0", "1", "3", "4", "7", "100"].iter().map(|n| counts(&p, n)).collect();
        assert!(loop_unroll_4(&mut p).unwrap());
        crate::bril::verify(&p).unwrap();
        let text = to_text(&p);
        assert!(text.contains(".head.guard:\n  unroll.span: int = const 3;\n  unroll.lim: int = sub n unroll.span;\n  unroll.ok: bool = lt unroll.lim n;\n  br unroll.ok .head.main .head;\n.head.main:\n  unroll.go: bool = lt i unroll.lim;\n  br unroll.go .head.u0 .head;\n"), "{text}");
        assert!(!text.contains(".head.u1:\n  c: bool"), "the copies do not test: {text}");
        let after: Vec<_> = ["0", "1", "3", "4", "7", "100"].iter().map(|n| counts(&p, n)).collect();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.0, b.0);
        }
        // 100 iterations of 5 instructions: now 25 rounds of 4 copies (2
        // instructions each) and a test (2) and a jump, plus the guard.
        assert_eq!(before[5].1, 3 + 100 * 5 + 2 + 1);
        assert_eq!(after[5].1, 3 + 4 + 25 * (8 + 3) + 2 + 2 + 1);
        assert!(
            !loop_unroll_4(&mut p).unwrap(),
            "the remainder loop is not unrolled again:\n{}",
            to_text(&p)
        );
    }

    #[test]
    fn a_rotated_loop_runs_four_iterations_per_test() {
        let mut p = parse_text(SUM).unwrap();
        crate::bril::passes::loop_rotate::loop_rotate(&mut p).unwrap();
        let before: Vec<_> = ["0", "1", "3", "4", "5", "7", "100"].iter().map(|n| counts(&p, n)).collect();
        assert!(loop_unroll_4(&mut p).unwrap());
        crate::bril::verify(&p).unwrap();
        let text = to_text(&p);
        assert!(
            text.contains(
                "br unroll.go .body.u0 .body.rest;\n.body.rest:\n  c: bool = lt i n;\n  br c .body .exit;"
            ),
            "{text}"
        );
        let after: Vec<_> = ["0", "1", "3", "4", "5", "7", "100"].iter().map(|n| counts(&p, n)).collect();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.0, b.0);
        }
        // 100 iterations of 4 instructions (the jump is gone): now 25 rounds
        // of 4 copies of 2 and one test of 2, plus the guard and main.
        assert_eq!(before[6].1, 3 + 2 + 100 * 4 + 1);
        assert_eq!(after[6].1, 3 + 2 + 4 + 2 + 25 * (4 * 2 + 2) + 2 + 1);
        assert!(
            !loop_unroll_4(&mut p).unwrap(),
            "the remainder loop is not unrolled again:\n{}",
            to_text(&p)
        );
    }

    #[test]
    fn consecutive_and_nested_loops_each_get_their_copies() {
        let src = "@main(n: int) {\n  i: int = const 0;\n  one: int = const 1;\n.a:\n  c: bool = lt i n;\n  br c .a.body .b.init;\n.a.body:\n  print i;\n  i: int = add i one;\n  jmp .a;\n.b.init:\n  j: int = const 0;\n.b:\n  d: bool = le j i;\n  br d .b.body .end;\n.b.body:\n  k: int = const 0;\n.inner:\n  e: bool = lt k j;\n  br e .inner.body .b.next;\n.inner.body:\n  print k;\n  k: int = add k one;\n  jmp .inner;\n.b.next:\n  j: int = add j one;\n  jmp .b;\n.end:\n}\n";
        let mut p = parse_text(src).unwrap();
        let before: Vec<_> = ["0", "3", "6"].iter().map(|n| counts(&p, n)).collect();
        assert!(loop_unroll_2(&mut p).unwrap());
        crate::bril::verify(&p).unwrap();
        let text = to_text(&p);
        assert!(
            text.contains(".a.guard:") && text.contains(".inner.guard:") && !text.contains(".b.guard:"),
            "{text}"
        );
        let after: Vec<_> = ["0", "3", "6"].iter().map(|n| counts(&p, n)).collect();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.0, b.0);
        }
    }

    #[test]
    fn the_bound_near_the_smallest_integer_skips_the_copies() {
        let src = "@main {\n  i: int = const -9223372036854775808;\n  n: int = const -9223372036854775807;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  print i;\n  i: int = add i one;\n  jmp .head;\n.exit:\n}\n";
        let mut p = parse_text(src).unwrap();
        let before = run(&p, &[], &Limits::default()).stdout;
        assert!(loop_unroll_8(&mut p).unwrap());
        assert_eq!(run(&p, &[], &Limits::default()).stdout, before);
    }

    #[test]
    fn loops_that_do_not_count_stay() {
        let sources = [
            // The bound changes in the loop.
            SUM.replace("  i: int = add i one;\n", "  i: int = add i one;\n  n: int = sub n one;\n"),
            // The step is not a positive constant.
            SUM.replace("  one: int = const 1;\n", "  one: int = const -1;\n"),
            // The body leaves the loop.
            SUM.replace(
                "  s: int = add s i;\n",
                "  s: int = add s i;\n  big: bool = lt n s;\n  br big .exit .more;\n.more:\n",
            ),
            // A decreasing test.
            SUM.replace("c: bool = lt i n;", "c: bool = gt i n;"),
        ];
        for src in &sources {
            let mut p = parse_text(src).unwrap();
            assert!(!loop_unroll_2(&mut p).unwrap(), "{src}");
            assert_eq!(&to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        for pass in [loop_unroll_2, loop_unroll_4, loop_unroll_8] {
            check_pass(&pass);
        }
    }
}
