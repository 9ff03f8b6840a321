//! Definitely-assigned variables. A variable is definitely assigned at a
//! point when every path from the entry writes it (parameters count).
//! Passes that drop or move a read use it: reading an unassigned variable is
//! an error in `brili`, and must stay one.
//!
//! Only the variables live at a point are ever asked about (a pass asks
//! about what an instruction reads), so the analysis computes the opposite,
//! sparse fact: the live variables that some path from the entry reaches
//! unassigned. That is a forward may-analysis whose sets stay within the
//! live sets; a variable that is live on entry to a block is maybe
//! unassigned there exactly when some path from the entry to that block
//! writes it nowhere (every block on such a path has it live on entry too).

use super::cfg::Cfg;
use super::dom::Dominators;
use super::liveness::Liveness;
use super::sets::{BlockSets, Marks, SparseSet};
use crate::bril::ir::{BlockId, Function, Instr, Op, VarId};

#[derive(Clone, Debug)]
pub struct Definite {
    /// The variables live on entry to each block that some path from the
    /// function's entry reaches unassigned.
    pub maybe_unassigned: Vec<SparseSet>,
    /// The variables each block writes.
    writes: BlockSets,
}

impl Definite {
    /// One variable at a time: a variable live on entry to the function (and
    /// not a parameter) is maybe unassigned on entry to every block reached
    /// from there within its live range without passing a write. Few
    /// variables are live on entry, so this costs little more than the
    /// liveness it starts from.
    pub fn new(f: &Function, cfg: &Cfg, live: &Liveness) -> Definite {
        let blocks = f.blocks.len();
        let mut maybe: Vec<Vec<u32>> = vec![Vec::new(); blocks];
        let mut is_param = vec![false; f.vars.len()];
        for p in &f.params {
            is_param[p.var.index()] = true;
        }
        let mut mark = vec![u32::MAX; blocks];
        let mut writes_it = vec![u32::MAX; blocks];
        let mut stack = Vec::new();
        if blocks > 0 {
            for v in live.live_in.get(0).iter().filter(|&v| !is_param.get(v).copied().unwrap_or(true)) {
                let v32 = v as u32;
                for b in live.writers_of(v) {
                    writes_it[b as usize] = v32;
                }
                mark[0] = v32;
                maybe[0].push(v32);
                stack.push(0usize);
                while let Some(b) = stack.pop() {
                    if writes_it[b] == v32 {
                        continue;
                    }
                    for &s in &cfg.succs[b] {
                        let s = s.index();
                        if mark[s] != v32 && live.live_in.get(s).contains(v) {
                            mark[s] = v32;
                            maybe[s].push(v32);
                            stack.push(s);
                        }
                    }
                }
            }
        }
        Definite {
            maybe_unassigned: maybe.into_iter().map(SparseSet::from_sorted).collect(),
            writes: live.writes.clone(),
        }
    }

    /// Whether `v`, live on entry to `block`, is definitely assigned there.
    pub fn at_entry(&self, block: BlockId, v: VarId) -> bool {
        !self.maybe_unassigned[block.index()].contains(v.index())
    }

    /// Whether `v`, live at the end of `block`, is definitely assigned there.
    pub fn at_exit(&self, block: BlockId, v: VarId) -> bool {
        self.writes.get(block.index()).contains(v.index()) || self.at_entry(block, v)
    }

    /// Walks `block` from its start, calling `visit(i, instr, assigned)` where
    /// `assigned` answers, for any variable live just before instruction `i`
    /// (in particular every variable it reads), whether it is definitely
    /// assigned there. `scratch` is reused from block to block.
    pub fn walk(
        &self,
        f: &Function,
        block: BlockId,
        scratch: &mut Marks,
        mut visit: impl FnMut(usize, &Instr, &Assigned),
    ) {
        scratch.clear();
        let maybe = &self.maybe_unassigned[block.index()];
        for (i, instr) in f.block(block).instrs.iter().enumerate() {
            visit(i, instr, &Assigned { here: scratch, maybe });
            if let Some(d) = instr.def() {
                scratch.insert(d.index());
            }
        }
    }
}

/// Definite assignment at one point of a block walk.
pub struct Assigned<'a> {
    /// Variables the block has written so far.
    here: &'a Marks,
    maybe: &'a SparseSet,
}

impl Assigned<'_> {
    /// Whether `v` is definitely assigned (`v` must be live here).
    pub fn contains(&self, v: VarId) -> bool {
        self.here.contains(v.index()) || !self.maybe.contains(v.index())
    }
}

/// A read of a variable that may not be assigned yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnassignedRead {
    pub block: BlockId,
    /// The reading instruction's index in its block.
    pub index: usize,
    pub var: VarId,
}

/// Every read of a `candidates` variable (indexed by variable) that some
/// path from the entry reaches with the variable unassigned, in blocks the
/// entry reaches, in layout order. Reads plainly preceded by a definition
/// (earlier in the block, anywhere in the entry block, or as a parameter)
/// are cleared first; the dataflow analysis runs only for the variables
/// left, and most functions have none.
pub fn unassigned_reads(f: &Function, candidates: &[bool]) -> Vec<UnassignedRead> {
    let Some(doubtful) = doubtful_reads(f, candidates) else { return Vec::new() };
    let cfg = Cfg::new(f);
    reads_of_undominated(f, &cfg, &doubtful)
}

/// The reads of `doubtful` variables that some path from the entry reaches
/// unassigned: the dominator tree clears most reads at once (see
/// [`undominated_reads`]), and liveness is computed for the variables of
/// the reads left, if any.
fn reads_of_undominated(f: &Function, cfg: &Cfg, doubtful: &[bool]) -> Vec<UnassignedRead> {
    let left = undominated_reads(f, &Dominators::new(cfg), |v| doubtful[v.index()]);
    if left.is_empty() {
        return Vec::new();
    }
    let mut tracked = vec![false; f.vars.len()];
    for &(_, v) in &left {
        tracked[v as usize] = true;
    }
    let live = Liveness::of(f, cfg, &tracked);
    reads_maybe_unassigned(f, cfg, &live, |var| tracked[var.index()])
}

/// The reads `(block, variable)` of `wanted` variables, in blocks the entry
/// reaches, that no definition plainly precedes: none earlier in the block,
/// none in a block that dominates it, and not a parameter. Every other read
/// finds its variable assigned, since every path to it passes such a
/// definition; so only these can be of an unassigned variable, and the
/// dataflow analyses that tell need to look only at their variables. One
/// walk down the dominator tree, counting the variables its blocks write.
pub fn undominated_reads(f: &Function, dom: &Dominators, wanted: impl Fn(VarId) -> bool) -> Vec<(u32, u32)> {
    let mut left = Vec::new();
    if f.blocks.is_empty() {
        return left;
    }
    // Writes seen in the blocks dominating the current one (parameters too).
    let mut above = vec![0u32; f.vars.len()];
    for p in &f.params {
        above[p.var.index()] += 1;
    }
    let mut here = Marks::new(f.vars.len());
    enum Step {
        Enter(BlockId),
        Leave(BlockId),
    }
    let mut steps = vec![Step::Enter(BlockId(0))];
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(b) => {
                here.clear();
                for instr in &f.block(b).instrs {
                    for &u in instr.uses() {
                        if !here.contains(u.index()) && above[u.index()] == 0 && wanted(u) {
                            left.push((b.0, u.0));
                        }
                    }
                    if let Some(d) = instr.def() {
                        here.insert(d.index());
                    }
                }
                for d in f.block(b).instrs.iter().filter_map(Instr::def) {
                    above[d.index()] += 1;
                }
                steps.push(Step::Leave(b));
                steps.extend(dom.children[b.index()].iter().rev().map(|&c| Step::Enter(c)));
            }
            Step::Leave(b) => {
                for d in f.block(b).instrs.iter().filter_map(Instr::def) {
                    above[d.index()] -= 1;
                }
            }
        }
    }
    left
}

/// The `candidates` variables (indexed by variable) some read of which is
/// not plainly preceded by a definition (see [`unassigned_reads`]), or
/// `None` when there is none.
fn doubtful_reads(f: &Function, candidates: &[bool]) -> Option<Vec<bool>> {
    let n = f.vars.len();
    let mut sure = vec![false; n];
    for p in &f.params {
        sure[p.var.index()] = true;
    }
    if let Some(entry) = f.blocks.first() {
        for d in entry.instrs.iter().filter_map(|i| i.def()) {
            sure[d.index()] = true;
        }
    }
    let mut doubtful = vec![false; n];
    let mut any = false;
    let mut here = Marks::new(n);
    for (b, block) in f.blocks.iter().enumerate() {
        here.clear();
        for instr in &block.instrs {
            for &u in instr.uses() {
                let plain = here.contains(u.index()) || (b != 0 && sure[u.index()]);
                if !plain && candidates.get(u.index()).copied().unwrap_or(false) {
                    doubtful[u.index()] = true;
                    any = true;
                }
            }
            if let Some(d) = instr.def() {
                here.insert(d.index());
            }
        }
    }
    any.then_some(doubtful)
}

/// Whether every read (in a block the entry reaches) finds its variable
/// assigned on every path, given liveness of all of `f`'s variables: a read
/// that a path reaches unassigned makes its variable live on entry, so this
/// holds exactly when only parameters are.
pub fn every_read_assigned(f: &Function, live: &Liveness) -> bool {
    let is_param = |v: usize| f.params.iter().any(|p| p.var.index() == v);
    f.blocks.is_empty() || live.live_in.get(0).iter().all(is_param)
}

/// The reads of `wanted` variables that some path from the entry reaches
/// unassigned, given liveness of (at least) those variables; none unless
/// some variable other than a parameter is live on entry.
fn reads_maybe_unassigned(
    f: &Function,
    cfg: &Cfg,
    live: &Liveness,
    wanted: impl Fn(VarId) -> bool,
) -> Vec<UnassignedRead> {
    let mut found = Vec::new();
    if every_read_assigned(f, live) {
        return found;
    }
    let definite = Definite::new(f, cfg, live);
    let mut scratch = Marks::new(f.vars.len());
    for b in f.block_ids().filter(|&b| cfg.is_reachable(b)) {
        definite.walk(f, b, &mut scratch, |index, instr, assigned| {
            for &var in instr.uses() {
                if wanted(var) && !assigned.contains(var) {
                    found.push(UnassignedRead { block: b, index, var });
                }
            }
        });
    }
    found
}

fn has_gets(f: &Function) -> bool {
    f.instrs().any(|i| i.op == Op::Get)
}

/// Every `get` that some path from the entry reaches with its shadow never
/// `set` (brili fails there as on an unassigned variable), as reads of the
/// `get`'s variable. Shadows are tracked where they are live, from the
/// entry; callers ask only of functions with a `get` ([`has_gets`]), and SSA
/// code rarely has a shadow live on entry.
fn unset_gets(f: &Function, cfg: &Cfg) -> Vec<UnassignedRead> {
    let mut found = Vec::new();
    let n = f.vars.len();
    let live = Liveness::with_shadows(f, cfg);
    let blocks = f.blocks.len();
    // Shadows (slot n + x) some path reaches unset on entry to each block.
    let mut maybe: Vec<Vec<usize>> = vec![Vec::new(); blocks];
    let (mut mark, mut sets_it) = (vec![usize::MAX; blocks], vec![usize::MAX; blocks]);
    let mut stack = Vec::new();
    for slot in live.live_in.get(0).iter().filter(|&s| s >= n) {
        for b in live.writers_of(slot) {
            sets_it[b as usize] = slot;
        }
        mark[0] = slot;
        maybe[0].push(slot);
        stack.push(0usize);
        while let Some(b) = stack.pop() {
            if sets_it[b] == slot {
                continue;
            }
            for &s in &cfg.succs[b] {
                let s = s.index();
                if mark[s] != slot && live.live_in.get(s).contains(slot) {
                    mark[s] = slot;
                    maybe[s].push(slot);
                    stack.push(s);
                }
            }
        }
    }
    for (b, unset) in maybe.iter_mut().enumerate().filter(|(_, m)| !m.is_empty()) {
        for (index, instr) in f.blocks[b].instrs.iter().enumerate() {
            match (instr.op, instr.def(), instr.shadow_target()) {
                (Op::Get, Some(x), _) if unset.contains(&(n + x.index())) => {
                    found.push(UnassignedRead { block: BlockId::new(b), index, var: x });
                }
                (Op::Set, _, Some(x)) => unset.retain(|&s| s != n + x.index()),
                _ => {}
            }
        }
    }
    found
}

/// The reads passes must keep as they are, where they are: reads of a
/// variable that some path from the entry reaches unassigned, and `get`s
/// of a shadow that some path reaches never `set`.
///
/// `brili` fails on such a read ("undefined variable"), so the optimised
/// program must fail there too, after the same output: a pass never deletes
/// an instruction making one, never rewrites its operands or replaces it by
/// an equal value, and never moves it. Most functions have none, and then
/// this costs one linear scan.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MaybeUndefinedReads {
    /// In layout order, so sorted by (block, index).
    reads: Vec<UnassignedRead>,
}

impl MaybeUndefinedReads {
    pub fn of(f: &Function) -> MaybeUndefinedReads {
        let doubtful = doubtful_reads(f, &vec![true; f.vars.len()]);
        let gets = has_gets(f);
        if doubtful.is_none() && !gets {
            return MaybeUndefinedReads::default();
        }
        // One CFG for both kinds of read.
        let cfg = Cfg::new(f);
        let reads = match doubtful {
            Some(doubtful) => reads_of_undominated(f, &cfg, &doubtful),
            None => Vec::new(),
        };
        MaybeUndefinedReads::joined(reads, f, &cfg, gets)
    }

    /// The same reads, found with the caller's liveness of all of `f`'s
    /// variables (`Liveness::new(f, cfg)`) instead of a CFG and liveness of
    /// its own: a look at the variables live on entry when only parameters
    /// are (then no read can find its variable unassigned).
    pub fn given(f: &Function, cfg: &Cfg, live: &Liveness) -> MaybeUndefinedReads {
        let reads = reads_maybe_unassigned(f, cfg, live, |_| true);
        MaybeUndefinedReads::joined(reads, f, cfg, has_gets(f))
    }

    /// `reads` (in layout order) and, if `gets`, the `get`s that may find
    /// their shadow unset.
    fn joined(mut reads: Vec<UnassignedRead>, f: &Function, cfg: &Cfg, gets: bool) -> MaybeUndefinedReads {
        if gets {
            let unset = unset_gets(f, cfg);
            if !unset.is_empty() {
                reads.extend(unset);
                reads.sort_unstable_by_key(|r| (r.block, r.index, r.var));
            }
        }
        MaybeUndefinedReads { reads }
    }

    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// Whether instruction `index` of `block` makes such a read.
    pub fn at(&self, block: BlockId, index: usize) -> bool {
        self.reads.binary_search_by(|r| (r.block, r.index).cmp(&(block, index))).is_ok()
    }

    /// Of each of the function's `n` variables, whether some read of it is one.
    pub fn variables(&self, n: usize) -> Vec<bool> {
        let mut vars = vec![false; n];
        for r in &self.reads {
            if let Some(v) = vars.get_mut(r.var.index()) {
                *v = true;
            }
        }
        vars
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;

    #[test]
    fn assigned_on_every_path_only() {
        let p = parse_text(
            "@main(n: int) {\n  c: bool = const true;\n  br c .then .join;\n.then:\n  x: int = const 1;\n  y: int = const 1;\n  jmp .join;\n.join:\n  print x;\n  y: int = const 2;\n  print n y;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let d = Definite::new(f, &cfg, &Liveness::new(f, &cfg));
        let join = f.block_labeled("join").unwrap();
        let v = |name: &str| f.var_named(name).unwrap();
        assert!(d.at_entry(join, v("n")));
        assert!(!d.at_entry(join, v("x")), "only one path assigns x");
        assert!(d.at_exit(BlockId(1), v("x")));
        let mut scratch = Marks::new(f.vars.len());
        // Asked about what each instruction reads.
        let mut seen = Vec::new();
        d.walk(f, join, &mut scratch, |_, instr, assigned| {
            seen.extend(instr.uses().iter().map(|&u| (f.var_name(u).to_string(), assigned.contains(u))));
        });
        let expected = [("x", false), ("n", true), ("y", true)];
        assert_eq!(seen, expected.map(|(n, b)| (n.to_string(), b)), "y is written in the block first");
    }

    #[test]
    fn unassigned_reads_are_found_where_a_path_skips_the_write() {
        let p = parse_text(
            "@main(c: bool) {\n  k: int = const 1;\n  br c .a .b;\n.a:\n  x: int = const 2;\n.b:\n  y: int = add x k;\n  print y x;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let reads = unassigned_reads(f, &vec![true; f.vars.len()]);
        let x = f.var_named("x").unwrap();
        let b = f.block_labeled("b").unwrap();
        assert_eq!(reads, [0, 1].map(|index| UnassignedRead { block: b, index, var: x }));
        assert!(unassigned_reads(f, &vec![false; f.vars.len()]).is_empty(), "no candidates");
    }

    #[test]
    fn maybe_undefined_reads_by_instruction_and_variable() {
        // x is read at the loop's top before the body writes it: undefined
        // on the first iteration. y is written before every read.
        let p = parse_text(
            "@main {\n  i: int = const 0;\n.loop:\n  x: int = id x;\n  y: int = const 1;\n  print y;\n  x: int = const 3;\n  print x;\n  jmp .loop;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let reads = MaybeUndefinedReads::of(f);
        let body = f.block_labeled("loop").unwrap();
        assert!(reads.at(body, 0));
        assert!(!reads.at(body, 2) && !reads.at(body, 4) && !reads.at(BlockId(0), 0));
        let x = f.var_named("x").unwrap();
        let vars = reads.variables(f.vars.len());
        assert_eq!(vars.iter().filter(|&&v| v).count(), 1);
        assert!(vars[x.index()]);
        let p = parse_text("@main {\n  y: int = const 1;\n  print y;\n}").unwrap();
        assert!(MaybeUndefinedReads::of(&p.functions[0]).is_empty());
    }

    #[test]
    fn a_get_before_any_set_on_some_path_is_a_maybe_undefined_read() {
        // i's shadow is set only in the body: the first get of i fails.
        let p = parse_text(
            "@main(n: int) {\n  zero: int = const 0;\n  set s zero;\n.head:\n  i: int = get;\n  s: int = get;\n  go: bool = lt i n;\n  br go .body .exit;\n.body:\n  one: int = const 1;\n  i2: int = add i one;\n  set i i2;\n  set s i2;\n  jmp .head;\n.exit:\n  print s;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let reads = MaybeUndefinedReads::of(f);
        let head = f.block_labeled("head").unwrap();
        assert!(reads.at(head, 0), "get of i");
        assert!(!reads.at(head, 1), "s is set on every path");
        assert_eq!(reads.variables(f.vars.len()).iter().filter(|&&v| v).count(), 1);
    }

    #[test]
    fn loops_keep_what_was_assigned_before_them() {
        let p = parse_text(
            "@main {\n  i: int = const 0;\n.loop:\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        let cfg = Cfg::new(f);
        let d = Definite::new(f, &cfg, &Liveness::new(f, &cfg));
        assert!(d.maybe_unassigned.iter().all(SparseSet::is_empty));
    }
}
