//! Counted loops: the while loops whose iterations a pass can count, shared
//! by runtime unrolling and loop deletion.
//!
//! A loop is counted when it has one latch, its blocks other than the
//! header form no cycle, and one block leaves it, the header (a while loop,
//! tested at the top) or the latch (a do-while loop, tested at the bottom),
//! by `br c .stay .out` on a comparison of a counter `i` with a bound `n`
//! made in that block (`i < n` or `i <= n`, in any of their spellings); the
//! loop never writes `n`, and it writes `i` once, by `i = add i s` in a
//! block every iteration runs (it dominates the latch), before the test
//! reads it in a bottom-tested loop and outside the header in a top-tested
//! one, where every definition of `s` is one positive `const`.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::const_bits;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::Loop;
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{BlockId, Function, Op, Type, VarId};
use std::cell::OnceCell;

/// Facts every loop of a function is judged with. Recognising a counted
/// loop needs the CFG, dominators and constants only; liveness and definite
/// assignment, the costly part, are computed the first time a loop that is
/// counted asks for them (most functions have none).
pub(super) struct LoopFacts<'a> {
    f: &'a Function,
    pub cfg: Cfg,
    pub dom: Dominators,
    live: OnceCell<Liveness>,
    definite: OnceCell<Definite>,
    /// The positive value every definition of a variable gives, when all
    /// are one integer `const` (a parameter has none).
    pub positive_const: Vec<Option<i64>>,
}

impl<'a> LoopFacts<'a> {
    pub fn new(f: &'a Function) -> LoopFacts<'a> {
        let cfg = Cfg::new(f);
        let dom = Dominators::new(&cfg);
        let n = f.vars.len();
        // None: no definition yet; Some(None): not one constant.
        let mut value: Vec<Option<Option<u64>>> = vec![None; n];
        for p in &f.params {
            value[p.var.index()] = Some(None);
        }
        for instr in f.instrs() {
            if let Some(d) = instr.def() {
                let bits = const_bits(instr).filter(|_| instr.dest.is_some_and(|d| d.ty == Type::INT));
                value[d.index()] = match value[d.index()] {
                    None => Some(bits),
                    Some(old) if old == bits => Some(old),
                    Some(_) => Some(None),
                };
            }
        }
        let positive_const =
            value.into_iter().map(|v| v.flatten().map(|b| b as i64).filter(|&s| s > 0)).collect();
        LoopFacts { f, cfg, dom, live: OnceCell::new(), definite: OnceCell::new(), positive_const }
    }

    pub fn live(&self) -> &Liveness {
        self.live.get_or_init(|| Liveness::new(self.f, &self.cfg))
    }

    /// Definite assignment, for the variables live where it is asked.
    pub fn definite(&self) -> &Definite {
        self.definite.get_or_init(|| Definite::new(self.f, &self.cfg, self.live()))
    }
}

/// Where a counted loop tests its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Test {
    /// At the top, in the header: a while loop.
    Top,
    /// At the bottom, in the latch: a do-while loop (what `-loop-rotate` makes).
    Bottom,
}

/// What a counted loop counts.
pub(super) struct CountedLoop {
    pub header: BlockId,
    pub latch: BlockId,
    pub test: Test,
    /// The loop's blocks other than the header, in layout order.
    pub body: Vec<BlockId>,
    /// Where the loop goes when the test passes (the header for a bottom
    /// test), and where it leaves to.
    pub stay: BlockId,
    pub exit: BlockId,
    /// The test's condition and the index of the comparison making it, in
    /// the header (top) or the latch (bottom).
    pub cond: VarId,
    pub cmp_index: usize,
    pub counter: VarId,
    pub bound: VarId,
    /// The loop runs while `counter <= bound` (else `counter < bound`).
    pub inclusive: bool,
    pub step: i64,
}

impl CountedLoop {
    /// The block holding the test.
    pub fn testing(&self) -> BlockId {
        match self.test {
            Test::Top => self.header,
            Test::Bottom => self.latch,
        }
    }
}

/// Whether the loop's blocks other than the header form no cycle (Kahn's
/// algorithm, in time proportional to the loop).
fn body_is_acyclic(cfg: &Cfg, lp: &Loop) -> bool {
    let inside = |b: BlockId| b != lp.header && lp.contains(b);
    let mut indegree: FxHashMap<BlockId, usize> = FxHashMap::default();
    for &b in lp.body.iter().filter(|&&b| inside(b)) {
        indegree.entry(b).or_insert(0);
        for &s in cfg.succs[b.index()].iter().filter(|&&s| inside(s)) {
            *indegree.entry(s).or_insert(0) += 1;
        }
    }
    let mut ready: Vec<BlockId> = indegree.iter().filter(|(_, &d)| d == 0).map(|(&b, _)| b).collect();
    let mut seen = 0;
    while let Some(b) = ready.pop() {
        seen += 1;
        for &s in cfg.succs[b.index()].iter().filter(|&&s| inside(s)) {
            if let Some(d) = indegree.get_mut(&s) {
                *d -= 1;
                if *d == 0 {
                    ready.push(s);
                }
            }
        }
    }
    seen + 1 == lp.body.len()
}

/// Normalises a test to `counter < bound` or `counter <= bound` (returns
/// whether it is `<=`), given the comparison, whether the counter is its
/// first operand and whether the loop continues when it is true.
fn normalise(op: Op, counter_first: bool, stay_when_true: bool) -> Option<bool> {
    match (op, counter_first, stay_when_true) {
        (Op::Lt, true, true) | (Op::Ge, true, false) | (Op::Gt, false, true) | (Op::Le, false, false) => {
            Some(false)
        }
        (Op::Le, true, true) | (Op::Gt, true, false) | (Op::Ge, false, true) | (Op::Lt, false, false) => {
            Some(true)
        }
        _ => None,
    }
}

/// The counted loop `lp` is, if it is one: tested at the top, or at the
/// bottom when the header does not leave the loop (or is the latch).
pub(super) fn recognise(f: &Function, facts: &LoopFacts, lp: &Loop) -> Option<CountedLoop> {
    let cfg = &facts.cfg;
    let [latch] = lp.latches[..] else { return None };
    if !body_is_acyclic(cfg, lp) {
        return None;
    }
    let leaves = |b: BlockId| cfg.succs[b.index()].iter().any(|&s| !lp.contains(s));
    let test = if latch != lp.header && leaves(lp.header) { Test::Top } else { Test::Bottom };
    let testing = if test == Test::Top { lp.header } else { latch };
    if lp.body.iter().any(|&b| b != testing && leaves(b)) {
        return None;
    }
    let block = f.block(testing);
    let br = block.terminator().filter(|t| t.op == Op::Br)?;
    let (&cond, &then, &otherwise) = (br.args.first()?, br.labels.first()?, br.labels.get(1)?);
    let (stay, exit, stay_when_true) = match (lp.contains(then), lp.contains(otherwise)) {
        (true, false) => (then, otherwise, true),
        (false, true) => (otherwise, then, false),
        _ => return None,
    };
    if test == Test::Bottom && stay != lp.header {
        return None;
    }
    let cmp_index = block.instrs.iter().rposition(|i| i.def() == Some(cond))?;
    let cmp = &block.instrs[cmp_index];
    let (&a0, &a1) = (cmp.args.first()?, cmp.args.get(1)?);
    let mut writes: Vec<(BlockId, usize)> = Vec::new();
    let mut written = [false, false];
    for &b in &lp.body {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            match instr.def() {
                Some(d) if d == a0 || d == a1 => {
                    written[usize::from(d == a1)] = true;
                    writes.push((b, i));
                }
                _ => {}
            }
        }
    }
    let counter_first = match written {
        [true, false] => true,
        [false, true] => false,
        _ => return None,
    };
    let inclusive = normalise(cmp.op, counter_first, stay_when_true)?;
    let (counter, bound) = if counter_first { (a0, a1) } else { (a1, a0) };
    // One increment per iteration: where every iteration passes, and where
    // the test sees its result only in the next iteration (top) or right
    // away (bottom).
    let [(inc_block, inc_index)] = writes[..] else { return None };
    let inc = &f.block(inc_block).instrs[inc_index];
    let placed = match test {
        Test::Top => inc_block != lp.header,
        Test::Bottom => inc_block != latch || inc_index < cmp_index,
    };
    if inc.op != Op::Add || !placed || !facts.dom.dominates(inc_block, latch) {
        return None;
    }
    let step = match (inc.args.first(), inc.args.get(1)) {
        (Some(&x), Some(&s)) | (Some(&s), Some(&x)) if x == counter && s != counter => s,
        _ => return None,
    };
    let step = facts.positive_const[step.index()]?;
    let mut body: Vec<BlockId> = lp.body.iter().copied().filter(|&b| b != lp.header).collect();
    body.sort_unstable();
    Some(CountedLoop {
        header: lp.header,
        latch,
        test,
        body,
        stay,
        exit,
        cond,
        cmp_index,
        counter,
        bound,
        inclusive,
        step,
    })
}
