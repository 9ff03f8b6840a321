//! `-reassociate`: reassociation of integer `add`/`mul` and boolean
//! `and`/`or` trees into one canonical order.
//!
//! In a block, a tree is a root instruction and the same-operation
//! instructions feeding it whose results nothing else reads (written once,
//! read once, by the tree); `x - k` with a constant `k` counts as `x + (-k)`.
//! Its leaves are rebuilt as a left-leaning chain at the root: variables by
//! rank, and the constants folded into one at the end. A variable's rank
//! (after LLVM's reassociation) is 1 for a parameter, the highest rank of
//! the operands of its only definition when that is a pure operation (0
//! for a constant), and otherwise 2 plus the reverse-postorder position of
//! its latest definition's block: values that only depend on what was
//! computed before a loop come before values the loop changes.
//!
//! ```text
//! t1 = add i a; t2 = add t1 one; t3 = add t2 b; x = sub t3 two
//!   =>  t1 = add a b; t2 = add t1 i; t3 = const -1; x = add t2 t3
//! ```
//!
//! So value numbering finds `a + b` wherever it is computed, `a + b`
//! becomes loop-invariant code that LICM can hoist, and chains of constant
//! additions fold.
//!
//! Why it is safe: integer `add` and `mul` wrap at 64 bits, and `and` and
//! `or` are on booleans, so each is associative and commutative and the
//! chain computes the same value; the intermediate variables were read by
//! the tree only. Leaves are read later (at the root) than before, so a
//! tree is only rebuilt when no leaf is written in between and every leaf
//! is certainly assigned where it was read (reading an unassigned variable
//! must fail where it did, before any output in between).

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::consts::{bits_literal, const_bits};
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::rewrite_drafts_where;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, Type, VarId};
use crate::error::Result;
use std::cell::OnceCell;

/// `-reassociate`. A function whose trees are all canonical already is
/// not copied.
pub fn reassociate(program: &mut Program) -> Result<bool> {
    rewrite_drafts_where(program, has_trees, |_, draft| {
        let rewrites = plan(draft.original());
        if !rewrites.is_empty() {
            apply(draft.make_mut(), rewrites);
        }
        Ok(())
    })
}

/// One tree to rebuild: its block, its inner nodes, its root and the new chain.
type Rewrite = (BlockId, Vec<usize>, usize, Vec<Instr>);

/// The associative, commutative operation a tree is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Add,
    Mul,
    And,
    Or,
}

impl Family {
    fn op(self) -> Op {
        match self {
            Family::Add => Op::Add,
            Family::Mul => Op::Mul,
            Family::And => Op::And,
            Family::Or => Op::Or,
        }
    }

    fn ty(self) -> Type {
        match self {
            Family::Add | Family::Mul => Type::INT,
            Family::And | Family::Or => Type::BOOL,
        }
    }

    /// The constant that changes nothing: x op neutral = x.
    fn neutral(self) -> u64 {
        match self {
            Family::Add | Family::Or => 0,
            Family::Mul | Family::And => 1,
        }
    }

    fn combine(self, a: u64, b: u64) -> u64 {
        match self {
            Family::Add => a.wrapping_add(b),
            Family::Mul => (a as i64).wrapping_mul(b as i64) as u64,
            Family::And => a & b,
            Family::Or => a | b,
        }
    }
}

/// A leaf of a tree.
#[derive(Clone, Copy, Debug)]
enum Leaf {
    /// `var` read by the tree's instruction at index `at`.
    Var { var: VarId, at: usize },
    /// A constant `var` read at `at`, holding `bits`; `negated` when it is
    /// subtracted (the right operand of a `sub`).
    Const { var: VarId, at: usize, bits: u64, negated: bool },
}

/// Facts about one function the trees of every block need.
struct Facts<'a> {
    defs: Vec<u32>,
    uses: Vec<u32>,
    /// Where a variable read exactly once is read.
    use_site: Vec<Option<(BlockId, usize)>>,
    /// The value of a variable whose only definition is a `const`.
    single_const: Vec<Option<u64>>,
    rank: Vec<u32>,
    /// Definite assignment, computed when a tree to rebuild first asks.
    definite: OnceCell<Definite>,
    f: &'a Function,
    cfg: &'a Cfg,
}

impl<'a> Facts<'a> {
    fn new(f: &'a Function, cfg: &'a Cfg) -> Facts<'a> {
        let n = f.vars.len();
        let (mut defs, mut uses) = (vec![0u32; n], vec![0u32; n]);
        let mut use_site = vec![None; n];
        let mut single_const = vec![None; n];
        let mut rank = vec![0u32; n];
        let mut site: Vec<Option<(BlockId, usize)>> = vec![None; n];
        for p in &f.params {
            defs[p.var.index()] += 1;
            rank[p.var.index()] = 1;
        }
        for b in f.block_ids() {
            let r = cfg.rpo_index[b.index()].map_or(u32::MAX, |i| i as u32 + 2);
            for (i, instr) in f.block(b).instrs.iter().enumerate() {
                for &u in instr.uses() {
                    uses[u.index()] += 1;
                    use_site[u.index()] = Some((b, i));
                }
                if let Some(d) = instr.def() {
                    defs[d.index()] += 1;
                    single_const[d.index()] = const_bits(instr);
                    rank[d.index()] = rank[d.index()].max(r);
                    site[d.index()] = Some((b, i));
                }
            }
        }
        for v in 0..n {
            if uses[v] != 1 {
                use_site[v] = None;
            }
            if defs[v] != 1 {
                single_const[v] = None;
            }
        }
        let rank = operand_ranks(f, &defs, &site, rank);
        Facts { defs, uses, use_site, single_const, rank, definite: OnceCell::new(), f, cfg }
    }

    fn definite(&self) -> &Definite {
        self.definite.get_or_init(|| Definite::new(self.f, self.cfg, &Liveness::new(self.f, self.cfg)))
    }
}

/// Lowers the rank of each variable defined once by a pure operation to
/// the highest rank of its operands (0 for a constant), given the ranks by
/// block in `by_block`. A cycle of such definitions keeps ranks by block.
fn operand_ranks(
    f: &Function,
    defs: &[u32],
    site: &[Option<(BlockId, usize)>],
    by_block: Vec<u32>,
) -> Vec<u32> {
    let n = by_block.len();
    let single = |v: usize| {
        let (b, i) = site[v].filter(|_| defs[v] == 1)?;
        let instr = &f.block(b).instrs[i];
        (instr.op.is_pure() && instr.dest.is_some()).then_some(instr)
    };
    // 0: not ranked yet, 1: in progress, 2: done.
    let mut state = vec![0u8; n];
    let mut rank = by_block.clone();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![root];
        while let Some(&v) = stack.last() {
            let Some(instr) = single(v) else {
                state[v] = 2;
                stack.pop();
                continue;
            };
            if state[v] == 0 {
                state[v] = 1;
                stack.extend(instr.args.iter().map(|a| a.index()).filter(|&a| state[a] == 0));
                continue;
            }
            stack.pop();
            if state[v] == 2 {
                continue;
            }
            state[v] = 2;
            // An operand still in progress closes a cycle: it keeps its rank by block.
            rank[v] = instr.args.iter().map(|a| rank[a.index()]).max().unwrap_or(0);
        }
    }
    rank
}

/// One block's view: where each variable is written in it.
struct BlockView<'a> {
    b: BlockId,
    instrs: &'a [Instr],
    facts: &'a Facts<'a>,
    /// Indices of the instructions writing each variable, ascending.
    writes: FxHashMap<VarId, Vec<usize>>,
}

impl BlockView<'_> {
    /// The last write of `v` before index `at`.
    fn last_write_before(&self, v: VarId, at: usize) -> Option<usize> {
        let w = self.writes.get(&v)?;
        let k = w.partition_point(|&i| i < at);
        k.checked_sub(1).map(|k| w[k])
    }

    /// Whether `v`, read by the instruction at `at`, is certainly assigned
    /// when it runs: written before it in the block, or else live on entry
    /// (where `definite` answers) and assigned there.
    fn assigned_at(&self, v: VarId, at: usize) -> bool {
        self.last_write_before(v, at).is_some() || self.facts.definite().at_entry(self.b, v)
    }

    /// Whether some instruction strictly between `from` and `to` writes `v`.
    fn written_between(&self, v: VarId, from: usize, to: usize) -> bool {
        self.last_write_before(v, to).is_some_and(|w| w > from)
    }

    /// The constant `v` holds when read at `at`.
    fn constant_at(&self, v: VarId, at: usize) -> Option<u64> {
        match self.last_write_before(v, at) {
            Some(w) => const_bits(&self.instrs[w]),
            None if self.assigned_at(v, at) => self.facts.single_const[v.index()],
            None => None,
        }
    }

    /// The family of the instruction at `at`, if it can be part of a tree.
    fn family(&self, at: usize) -> Option<Family> {
        let instr = &self.instrs[at];
        let ty = instr.dest?.ty;
        let family = match instr.op {
            Op::Add | Op::Mul if ty == Type::INT => {
                if instr.op == Op::Add {
                    Family::Add
                } else {
                    Family::Mul
                }
            }
            Op::Sub if ty == Type::INT && self.constant_at(*instr.args.get(1)?, at).is_some() => Family::Add,
            Op::And if ty == Type::BOOL => Family::And,
            Op::Or if ty == Type::BOOL => Family::Or,
            _ => return None,
        };
        (instr.args.len() == 2).then_some(family)
    }

    /// The instruction reading the result of the one at `at`, when that
    /// result is an inner node of a tree: written once, read once, by a
    /// later instruction of the same family in this block (not as the
    /// subtracted operand).
    fn parent(&self, at: usize) -> Option<usize> {
        let t = self.instrs[at].def()?;
        let family = self.family(at)?;
        if self.facts.defs[t.index()] != 1 || self.facts.uses[t.index()] != 1 {
            return None;
        }
        let (b, k) = self.facts.use_site[t.index()]?;
        let user = &self.instrs.get(k)?;
        let subtracted = user.op == Op::Sub && user.args.get(1) == Some(&t);
        (b == self.b && k > at && self.family(k) == Some(family) && !subtracted).then_some(k)
    }
}

/// Whether some block of `f` has two instructions that may form a tree.
fn has_trees(f: &Function) -> bool {
    let quick = |i: &&Instr| matches!(i.op, Op::Add | Op::Mul | Op::Sub | Op::And | Op::Or);
    f.blocks.iter().any(|b| b.instrs.iter().filter(quick).nth(1).is_some())
}

/// The pass on one function, in place (the tests run each pass so).
#[cfg(test)]
pub(super) fn reassociate_function(f: &mut Function) {
    let rewrites = plan(f);
    apply(f, rewrites);
}

/// The trees of `f` that are not canonical, each with its new chain.
fn plan(f: &Function) -> Vec<Rewrite> {
    if !has_trees(f) {
        return Vec::new();
    }
    let cfg = Cfg::new(f);
    let facts = Facts::new(f, &cfg);
    let mut rewrites: Vec<Rewrite> = Vec::new();
    for b in f.block_ids().filter(|&b| cfg.is_reachable(b)) {
        let instrs = &f.block(b).instrs;
        let mut writes: FxHashMap<VarId, Vec<usize>> = FxHashMap::default();
        for (i, instr) in instrs.iter().enumerate() {
            if let Some(d) = instr.def() {
                writes.entry(d).or_default().push(i);
            }
        }
        let view = BlockView { b, instrs, facts: &facts, writes };
        let parents: Vec<Option<usize>> = (0..instrs.len()).map(|i| view.parent(i)).collect();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); instrs.len()];
        for (i, p) in parents.iter().enumerate() {
            if let Some(p) = *p {
                children[p].push(i);
            }
        }
        for root in 0..instrs.len() {
            if parents[root].is_some() || children[root].is_empty() {
                continue;
            }
            let Some(family) = view.family(root) else { continue };
            if let Some((inner, new)) = rebuild(&view, &children, root, family) {
                rewrites.push((b, inner, root, new));
            }
        }
    }
    rewrites
}

/// Rebuilds the trees `rewrites` names (planned on `f` as it stands).
fn apply(f: &mut Function, rewrites: Vec<Rewrite>) {
    // Trees do not overlap: each block is rebuilt once, dropping inner nodes
    // and putting each chain at its root.
    // Per block: each tree's inner nodes, root and new chain.
    type Rebuilt = (Vec<usize>, usize, Vec<Instr>);
    let mut by_block: FxHashMap<BlockId, Vec<Rebuilt>> = FxHashMap::default();
    for (b, inner, root, new) in rewrites {
        by_block.entry(b).or_default().push((inner, root, new));
    }
    for (b, trees) in by_block {
        let block = f.block_mut(b);
        let mut gone = vec![false; block.instrs.len()];
        let mut chains: Vec<Option<Vec<Instr>>> = vec![None; block.instrs.len()];
        for (inner, root, new) in trees {
            inner.iter().for_each(|&i| gone[i] = true);
            chains[root] = Some(new);
        }
        let old = std::mem::take(&mut block.instrs);
        for ((instr, gone), chain) in old.into_iter().zip(gone).zip(chains) {
            match chain {
                Some(chain) => block.instrs.extend(chain.into_iter().map(|i| i.with_pos(instr.pos))),
                None if !gone => block.instrs.push(instr),
                None => {}
            }
        }
    }
}

/// The canonical chain for the tree rooted at `root`, and the indices of its
/// inner nodes; `None` when it cannot be rebuilt or is canonical already.
fn rebuild(
    view: &BlockView,
    children: &[Vec<usize>],
    root: usize,
    family: Family,
) -> Option<(Vec<usize>, Vec<Instr>)> {
    let instrs = view.instrs;
    let mut inner = Vec::new();
    let mut leaves = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let instr = &instrs[node];
        if node != root {
            inner.push(node);
        }
        for (pos, &a) in instr.args.iter().enumerate() {
            if let Some(&child) = children[node].iter().find(|&&c| instrs[c].def() == Some(a)) {
                stack.push(child);
                continue;
            }
            let negated = instr.op == Op::Sub && pos == 1;
            leaves.push(match view.constant_at(a, node) {
                Some(bits) => Leaf::Const { var: a, at: node, bits, negated },
                None => Leaf::Var { var: a, at: node },
            });
        }
    }
    inner.sort_unstable();
    let mut vars: Vec<VarId> = leaves
        .iter()
        .filter_map(|l| match *l {
            Leaf::Var { var, .. } => Some(var),
            Leaf::Const { .. } => None,
        })
        .collect();
    vars.sort_by_key(|v| (view.facts.rank[v.index()], v.index()));
    let consts: Vec<(VarId, u64, bool)> = leaves
        .iter()
        .filter_map(|l| match *l {
            Leaf::Const { var, bits, negated, .. } => Some((var, bits, negated)),
            Leaf::Var { .. } => None,
        })
        .collect();
    let dest = instrs[root].def()?;
    let ty = family.ty();
    // The inner nodes' variables, in order, become the chain's.
    let mut pool: Vec<VarId> = inner.iter().filter_map(|&i| instrs[i].def()).collect();
    pool.reverse();
    let mut chain: Vec<Instr> = Vec::new();
    let mut items: Vec<(VarId, bool)> = vars.iter().map(|&v| (v, false)).collect();
    match consts[..] {
        [] => {}
        [(var, _, negated)] => items.push((var, negated)),
        _ => {
            let k = consts.iter().fold(family.neutral(), |acc, &(_, bits, negated)| {
                family.combine(acc, if negated { bits.wrapping_neg() } else { bits })
            });
            let literal = bits_literal(k, ty)?;
            if items.is_empty() {
                chain.push(Instr::constant(dest, ty, literal));
            } else if k != family.neutral() {
                // The chain needs one variable fewer than there are inner nodes.
                let spare = *pool.first()?;
                pool.remove(0);
                chain.push(Instr::constant(spare, ty, literal));
                items.push((spare, false));
            }
        }
    }
    if let [(only, _)] = items[..] {
        chain.push(Instr::value(Op::Id, dest, ty, &[only]));
    } else if let Some(&(first, _)) = items.first() {
        let mut acc = first;
        for (k, &(v, negated)) in items.iter().enumerate().skip(1) {
            let to = if k + 1 == items.len() { dest } else { pool.pop()? };
            let op = if negated { Op::Sub } else { family.op() };
            chain.push(Instr::value(op, to, ty, &[acc, v]));
            acc = to;
        }
    }
    let old: Vec<&Instr> = inner.iter().chain(std::iter::once(&root)).map(|&i| &instrs[i]).collect();
    let same = old.len() == chain.len()
        && old
            .iter()
            .zip(&chain)
            .all(|(a, b)| a.op == b.op && a.dest == b.dest && a.args == b.args && a.value == b.value);
    if same {
        return None;
    }
    // Every leaf is read at the root instead: it must hold the same value
    // there, and reading it where it was read must not have failed. (Asked
    // last: a tree already canonical needs no definite assignment.)
    for leaf in &leaves {
        let (Leaf::Var { var, at } | Leaf::Const { var, at, .. }) = *leaf;
        if !view.assigned_at(var, at) || view.written_between(var, at, root) {
            return None;
        }
    }
    Some((inner, chain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn reassociated(src: &str, args: &[&str]) -> String {
        let mut p = parse_text(src).unwrap();
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let before = run(&p, &args, &Limits::default());
        assert!(reassociate(&mut p).unwrap(), "{src}");
        assert_eq!(run(&p, &args, &Limits::default()).stdout, before.stdout);
        assert!(!reassociate(&mut p).unwrap(), "canonical already:\n{}", to_text(&p));
        to_text(&p)
    }

    #[test]
    fn constants_fold_and_variables_sort_by_rank() {
        let src = "@main(a: int, b: int) {\n  one: int = const 1;\n  two: int = const 2;\n  i: int = add a b;\n  t1: int = add i a;\n  t2: int = add t1 one;\n  t3: int = add t2 b;\n  x: int = sub t3 two;\n  print x i;\n}\n";
        assert_eq!(
            reassociated(src, &["3", "4"]),
            "@main(a: int, b: int) {\n  one: int = const 1;\n  two: int = const 2;\n  i: int = add a b;\n  t3: int = const -1;\n  t1: int = add a b;\n  t2: int = add t1 i;\n  x: int = add t2 t3;\n  print x i;\n}\n"
        );
    }

    #[test]
    fn loop_invariant_operands_come_first() {
        let src = "@main(a: int, b: int) {\n  i: int = const 0;\n  n: int = const 3;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  t: int = mul i a;\n  x: int = mul t b;\n  print x;\n  c: bool = lt i n;\n  br c .loop .done;\n.done:\n}\n";
        let text = reassociated(src, &["2", "5"]);
        assert!(text.contains("  t: int = mul a b;\n  x: int = mul t i;\n"), "{text}");
    }

    #[test]
    fn values_computed_from_invariants_rank_as_invariants() {
        let src = "@main(a: int, b: int) {\n  i: int = const 0;\n  n: int = const 3;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  ab: int = add a b;\n  t: int = mul i ab;\n  x: int = mul t b;\n  print x;\n  c: bool = lt i n;\n  br c .loop .done;\n.done:\n}\n";
        let text = reassociated(src, &["2", "5"]);
        assert!(text.contains("  t: int = mul b ab;\n  x: int = mul t i;\n"), "{text}");
    }

    #[test]
    fn a_single_constant_stays_last_and_subtraction_is_kept() {
        let src = "@main(a: int, b: int) {\n  k: int = const 5;\n  t: int = sub b k;\n  x: int = add t a;\n  print x;\n}\n";
        let text = reassociated(src, &["1", "2"]);
        assert!(text.contains("  t: int = add a b;\n  x: int = sub t k;\n"), "{text}");
    }

    #[test]
    fn shared_values_written_leaves_and_floats_stay() {
        let sources = [
            // t is read twice: not an inner node.
            "@main(a: int, b: int, c: int) {\n  t: int = add c b;\n  x: int = add t a;\n  print x t;\n}\n",
            // b is written between its read and the root.
            "@main(a: int, b: int, c: int) {\n  t: int = add c b;\n  b: int = const 1;\n  x: int = add t a;\n  print x b;\n}\n",
            "@main(a: float, b: float, c: float) {\n  t: float = fadd c b;\n  x: float = fadd t a;\n  print x;\n}\n",
            // Already canonical.
            "@main(a: int, b: int, c: int) {\n  t: int = add a b;\n  x: int = add t c;\n  print x;\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!reassociate(&mut p).unwrap(), "{src}");
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| reassociate(p));
    }
}
