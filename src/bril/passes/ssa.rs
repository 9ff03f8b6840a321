//! Into and out of SSA form, in Bril's `set`/`get` style.
//!
//! `-to-ssa` (Cytron et al., pruned by liveness): a variable live into a
//! join of its definitions' iterated dominance frontier gets `x.k: T = get`
//! at the top of that block, and every predecessor writes the shadow with
//! `set x.k v` before leaving; then every definition is renamed along the
//! dominator tree so each variable has one definition. Safe because a `get`
//! reads exactly the value the predecessor's `set` stored, which is the value
//! the original variable had on that edge. Unreachable blocks are removed
//! first (they never run). Variables already written by `get` are left alone,
//! and so are variables read somewhere they may be undefined: that read
//! fails, and would not if it read a `get` of `undef` (see
//! [`MaybeUndefinedReads`]).
//!
//! `-from-ssa`: each `get` variable `x` either absorbs its shadow (`set x v`
//! becomes `x: T = id v` and the `get` goes) when `x` is dead after every
//! `set` of it, so writing it early is unobservable, and no `get` of it may
//! find the shadow unset (that `get` fails); or gets a fresh shadow
//! variable `x.s` (`set` becomes `x.s = id v`, `get` becomes `x = id x.s`),
//! which is exactly the set/get semantics with ordinary copies.

use std::collections::HashMap;

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::{Definite, MaybeUndefinedReads};
use crate::bril::analysis::dom::Dominators;
use crate::bril::analysis::edit::{
    insert_block, remove_unreachable_given, rewrite_functions, rewrite_functions_where,
};
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::sets::{ListedSet, Marks};
use crate::bril::ir::{Block, BlockId, Function, Instr, List, Op, Program, Type, VarId};
use crate::bril::names::FreshNames;
use crate::error::{Error, Result};

/// `-to-ssa`.
pub fn to_ssa(program: &mut Program) -> Result<bool> {
    rewrite_functions(program, |_, f| {
        function_to_ssa(f)?;
        // The names renamed away, so alternating in and out of SSA form
        // does not grow the table.
        f.drop_unused_vars();
        Ok(())
    })
}

/// `-from-ssa`.
pub fn from_ssa(program: &mut Program) -> Result<bool> {
    // Nothing to leave (the common case): spare copying every function.
    if !program.functions.iter().any(|f| has_shadows(f)) {
        return Ok(false);
    }
    // Only the functions with shadows are copied: leaving SSA form changes
    // nothing else (a dropped unused name does not print).
    rewrite_functions_where(program, has_shadows, |_, f| {
        function_from_ssa(f)?;
        f.drop_unused_vars();
        Ok(())
    })
}

fn has_shadows(f: &Function) -> bool {
    f.instrs().any(|i| matches!(i.op, Op::Get | Op::Set))
}

/// The type of every variable that has one (from parameters and destinations).
pub(crate) fn var_types(f: &Function) -> Vec<Option<Type>> {
    let mut types = vec![None; f.vars.len()];
    for p in &f.params {
        if let Some(t) = types.get_mut(p.var.index()) {
            *t = Some(p.ty);
        }
    }
    for d in f.instrs().filter_map(|i| i.dest) {
        if let Some(t) = types.get_mut(d.var.index()) {
            *t = Some(d.ty);
        }
    }
    types
}

fn internal(f: &Function, what: &str) -> Error {
    Error::service(format!("@{}: to-ssa: {what}", f.name))
}

pub(crate) fn function_to_ssa(f: &mut Function) -> Result<()> {
    if f.blocks.is_empty() {
        return Ok(());
    }
    let mut cfg = Cfg::new(f);
    if remove_unreachable_given(f, &cfg)? {
        cfg = Cfg::new(f);
    }
    // The entry must have no predecessors: gets need a `set` on every edge in.
    if !cfg.preds[0].is_empty() {
        insert_block(f, 0, Block::new(None));
        cfg = Cfg::new(f);
    }
    let dom = Dominators::new(&cfg);
    let frontiers = dom.frontiers(&cfg);
    let live = Liveness::new(f, &cfg);
    let types = var_types(f);
    let n_vars = f.vars.len();
    let failing = MaybeUndefinedReads::given(f, &cfg, &live).variables(n_vars);

    // Variables left as they are: those a get writes, and those read where
    // they may be undefined.
    let mut left_alone = failing;
    let mut def_blocks: Vec<List<BlockId>> = vec![List::new(); n_vars];
    let mut def_count = vec![0usize; n_vars];
    for b in f.block_ids() {
        for instr in &f.block(b).instrs {
            if let Some(v) = instr.def() {
                if instr.op == Op::Get {
                    left_alone[v.index()] = true;
                }
                def_count[v.index()] += 1;
                if def_blocks[v.index()].last() != Some(&b) {
                    def_blocks[v.index()].push(b);
                }
            }
        }
    }
    for p in &f.params {
        def_count[p.var.index()] += 1;
        if !def_blocks[p.var.index()].contains(&BlockId(0)) {
            def_blocks[p.var.index()].push(BlockId(0));
        }
    }

    // Where each variable needs a get (the original variable, per block).
    let mut gets: Vec<Vec<VarId>> = vec![Vec::new(); f.blocks.len()];
    // `placed[b] == v + 1`: v already has a get in b (one array for all variables).
    let mut placed = vec![0usize; f.blocks.len()];
    let mut work: Vec<BlockId> = Vec::new();
    for v in 0..n_vars {
        if left_alone[v] || def_blocks[v].is_empty() {
            continue;
        }
        work.clear();
        work.extend_from_slice(&def_blocks[v]);
        while let Some(b) = work.pop() {
            for &d in &frontiers[b.index()] {
                if placed[d.index()] != v + 1 && live.live_in.get(d.index()).contains(v) {
                    placed[d.index()] = v + 1;
                    gets[d.index()].push(VarId::new(v));
                    work.push(d);
                }
            }
        }
    }
    let mut needs_rename = vec![false; n_vars];
    for v in 0..n_vars {
        needs_rename[v] = !left_alone[v] && def_count[v] > 1;
    }
    for g in gets.iter().flatten() {
        needs_rename[g.index()] = true;
    }

    let mut r = Renamer {
        stacks: vec![List::new(); n_vars],
        needs_rename,
        types,
        get_names: vec![List::new(); f.blocks.len()],
        undef: HashMap::new(),
        hint: String::new(),
        names: FreshNames::vars(f),
    };
    for p in &f.params {
        r.stacks[p.var.index()].push(p.var);
    }
    // Name every get first: predecessors need the names for their sets.
    for b in f.block_ids() {
        for &v in &gets[b.index()] {
            let name = r.fresh(f, v);
            r.get_names[b.index()].push((v, name));
        }
    }

    // Walk the dominator tree depth first, undoing each block's pushes after its subtree.
    enum Step {
        Enter(BlockId),
        Leave(List<VarId>),
    }
    let mut steps = vec![Step::Enter(BlockId(0))];
    while let Some(step) = steps.pop() {
        match step {
            Step::Leave(pushed) => {
                for &v in &pushed {
                    r.stacks[v.index()].pop();
                }
            }
            Step::Enter(b) => {
                let pushed = r.rename_block(f, b, &cfg)?;
                steps.push(Step::Leave(pushed));
                for &c in dom.children[b.index()].iter().rev() {
                    steps.push(Step::Enter(c));
                }
            }
        }
    }
    Ok(())
}

struct Renamer {
    /// Current name of each original variable, innermost last.
    stacks: Vec<List<VarId>>,
    needs_rename: Vec<bool>,
    types: Vec<Option<Type>>,
    /// (original variable, get variable) for the gets at the top of each block.
    get_names: Vec<List<(VarId, VarId)>>,
    /// An `undef` variable per type, made on demand, for paths where a
    /// variable has no value.
    undef: HashMap<Type, VarId>,
    /// Reused for the names of new variables.
    hint: String,
    names: FreshNames,
}

impl Renamer {
    /// A new name for `v`: `x.1`, `x.2`, ... (from the stem of `x`).
    fn fresh(&mut self, f: &mut Function, v: VarId) -> VarId {
        self.hint.clear();
        self.hint.push_str(crate::bril::names::stem(f.var_name(v)));
        self.hint.push_str(".1");
        self.names.fresh_var(f, &self.hint)
    }

    fn current(&self, v: VarId) -> Option<VarId> {
        self.stacks.get(v.index()).and_then(|s| s.last().copied())
    }

    /// Renames `b` in place, adds its gets and its successors' sets; returns
    /// the original variables pushed (to pop when leaving the subtree).
    fn rename_block(&mut self, f: &mut Function, b: BlockId, cfg: &Cfg) -> Result<List<VarId>> {
        let mut pushed = List::new();
        let gets = self.get_names[b.index()].len();
        let mut out: Vec<Instr> = Vec::with_capacity(gets + f.block(b).instrs.len() + 2);
        for &(v, name) in &self.get_names[b.index()] {
            let ty = self.types[v.index()].ok_or_else(|| internal(f, "a variable without a type"))?;
            out.push(Instr::value(Op::Get, name, ty, &[]));
            self.stacks[v.index()].push(name);
            pushed.push(v);
        }
        let instrs = std::mem::take(&mut f.block_mut(b).instrs);
        let mut terminator = None;
        for mut instr in instrs {
            for u in instr.uses_mut() {
                if self.needs_rename[u.index()] {
                    // No current name: no definition reaches here on any path;
                    // the verifier rejects the result and the pass is dropped.
                    if let Some(c) = self.current(*u) {
                        *u = c;
                    }
                }
            }
            if let Some(d) = instr.dest.as_mut() {
                let v = d.var;
                if self.needs_rename[v.index()] {
                    let name = self.fresh(f, v);
                    d.var = name;
                    self.stacks[v.index()].push(name);
                    pushed.push(v);
                }
            }
            if instr.is_terminator() {
                terminator = Some(instr);
            } else {
                out.push(instr);
            }
        }
        for &s in &cfg.succs[b.index()] {
            for &(v, name) in &self.get_names[s.index()] {
                let value = match self.current(v) {
                    Some(c) => c,
                    None => {
                        let ty =
                            self.types[v.index()].ok_or_else(|| internal(f, "a variable without a type"))?;
                        let u = match self.undef.get(&ty) {
                            Some(&u) => u,
                            None => {
                                let u = self.names.fresh_var(f, "undef");
                                self.undef.insert(ty, u);
                                u
                            }
                        };
                        out.push(Instr::value(Op::Undef, u, ty, &[]));
                        u
                    }
                };
                out.push(Instr::effect(Op::Set, &[name, value]));
            }
        }
        out.extend(terminator);
        f.block_mut(b).instrs = out;
        Ok(pushed)
    }
}

pub(crate) fn function_from_ssa(f: &mut Function) -> Result<()> {
    if !has_shadows(f) {
        return Ok(());
    }
    let cfg = Cfg::new(f);
    let live = Liveness::new(f, &cfg);
    let n_vars = f.vars.len();
    // A get variable may absorb its shadow unless it is live after some set of it.
    let mut absorb = vec![true; n_vars];
    let mut is_get = vec![false; n_vars];
    for i in f.instrs() {
        if let (Op::Get, Some(v)) = (i.op, i.def()) {
            is_get[v.index()] = true;
        }
    }
    // A get that may find its shadow unset fails: as `x = id x.s` it still does.
    let failing = MaybeUndefinedReads::given(f, &cfg, &live);
    for b in f.block_ids() {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let (Op::Get, Some(v), true) = (instr.op, instr.def(), failing.at(b, i)) {
                absorb[v.index()] = false;
            }
        }
    }
    let mut scratch = Marks::new(n_vars);
    for b in f.block_ids() {
        live.walk_back(f, b, &mut scratch, |_, instr, live_after| {
            if let Some(t) = instr.shadow_target() {
                if live_after.contains(t.index()) {
                    absorb[t.index()] = false;
                }
            }
        });
    }
    let types = var_types(f);
    let mut shadow: Vec<Option<VarId>> = vec![None; n_vars];
    let mut names = FreshNames::vars(f);
    for v in 0..n_vars {
        if is_get[v] && !absorb[v] {
            let hint = format!("{}.s", crate::bril::names::stem(f.var_name(VarId::new(v))));
            shadow[v] = Some(names.fresh_var(f, &hint));
        }
    }
    for b in 0..f.blocks.len() {
        let instrs = std::mem::take(&mut f.blocks[b].instrs);
        let mut out = Vec::with_capacity(instrs.len());
        for instr in instrs {
            match instr.op {
                Op::Set => {
                    let (Some(&t), Some(&v)) = (instr.args.first(), instr.args.get(1)) else {
                        return Err(Error::service(format!("@{}: from-ssa: a set without operands", f.name)));
                    };
                    let ty = types
                        .get(t.index())
                        .copied()
                        .flatten()
                        .or_else(|| types.get(v.index()).copied().flatten());
                    let Some(ty) = ty else {
                        return Err(Error::service(format!("@{}: from-ssa: a set of unknown type", f.name)));
                    };
                    match shadow.get(t.index()).copied().flatten() {
                        Some(s) => out.push(Instr::value(Op::Id, s, ty, &[v]).with_pos(instr.pos)),
                        None if t == v => {}
                        None => out.push(Instr::value(Op::Id, t, ty, &[v]).with_pos(instr.pos)),
                    }
                }
                Op::Get => {
                    let Some(d) = instr.dest else {
                        return Err(Error::service(format!(
                            "@{}: from-ssa: a get without destination",
                            f.name
                        )));
                    };
                    if let Some(s) = shadow.get(d.var.index()).copied().flatten() {
                        out.push(Instr::value(Op::Id, d.var, d.ty, &[s]).with_pos(instr.pos));
                    }
                }
                _ => out.push(instr),
            }
        }
        f.blocks[b].instrs = out;
    }
    coalesce_copies(f);
    Ok(())
}

/// Coalesces copy-related variables that never hold different values at
/// once (Chaitin's test: neither is live where the other is written, except
/// by a copy between them): the copy disappears and one name serves both.
/// Both must be certainly assigned wherever they are read, so no read of an
/// unassigned variable can start seeing a value.
///
/// Copies are taken in program order; merged variables form a class (a
/// union-find) whose liveness is the union of its members' (a superset of
/// the truth, so interference is only ever overestimated). The names are
/// rewritten once, at the end.
pub(crate) fn coalesce_copies(f: &mut Function) {
    let copies: Vec<(BlockId, usize)> = f
        .block_ids()
        .flat_map(|b| {
            let instrs = &f.block(b).instrs;
            (0..instrs.len()).filter(move |&i| instrs[i].op == Op::Id).map(move |i| (b, i))
        })
        .collect();
    if copies.is_empty() {
        return;
    }
    let mut classes = Classes::new(f);
    let mut merged = false;
    for (b, i) in copies {
        let instr = &f.block(b).instrs[i];
        let (Some(x), Some(&y)) = (instr.def(), instr.args.first()) else { continue };
        let (cx, cy) = (classes.find(x.index()), classes.find(y.index()));
        if cx == cy
            || classes.types[x.index()] != classes.types[y.index()]
            || !classes.always_assigned[cx]
            || !classes.always_assigned[cy]
            || classes.interfere(f, cx, cy)
        {
            continue;
        }
        // The copy's destination names the class, unless the source holds a
        // parameter (a parameter keeps its name).
        let keep_source = classes.has_param[cy];
        classes.union(cx, cy, keep_source);
        merged = true;
    }
    if merged {
        // A self-copy that was there before (`x = id x` where x may be
        // undefined) is a read that fails: it stays.
        let failing = std::mem::take(&mut classes.failing_copies);
        for instr in f.instrs_mut() {
            for u in instr.uses_mut() {
                *u = classes.name_of(*u);
            }
            if let Some(d) = instr.dest.as_mut() {
                d.var = classes.name_of(d.var);
            }
        }
        for (b, block) in f.blocks.iter_mut().enumerate() {
            let mut k = 0;
            block.instrs.retain(|i| {
                k += 1;
                let self_copy = i.op == Op::Id && i.def().is_some() && i.args.first().copied() == i.def();
                !self_copy || failing.binary_search(&(BlockId::new(b), k - 1)).is_ok()
            });
        }
    }
}

/// The classes of merged variables and what the interference test needs.
struct Classes {
    parent: Vec<usize>,
    /// Of each class (at its root): members, the name it goes by, whether
    /// it holds a parameter, is live on entry, and is read only where assigned.
    members: Vec<Vec<u32>>,
    name: Vec<VarId>,
    has_param: Vec<bool>,
    live_at_entry: Vec<bool>,
    always_assigned: Vec<bool>,
    /// The copies that read a variable some path reaches unassigned (their
    /// reads fail, so they stay), as (block, index) in layout order.
    failing_copies: Vec<(BlockId, usize)>,
    types: Vec<Option<Type>>,
    /// Each definition of a copy-related variable, as (block, index, variable):
    /// the copy-related variables live just after it are `live_after[k]`.
    defs: Vec<(BlockId, usize, VarId)>,
    live_after: Vec<Vec<u32>>,
    /// Of each variable: the definitions it writes, and those it is live after.
    defs_of: Vec<Vec<u32>>,
    live_across: Vec<Vec<u32>>,
}

impl Classes {
    fn new(f: &Function) -> Classes {
        let n = f.vars.len();
        let mut related = vec![false; n];
        for i in f.instrs().filter(|i| i.op == Op::Id) {
            for v in i.def().into_iter().chain(i.args.first().copied()) {
                related[v.index()] = true;
            }
        }
        let cfg = Cfg::new(f);
        let live = Liveness::new(f, &cfg);
        let definite = Definite::new(f, &cfg, &live);
        let mut always_assigned = vec![true; n];
        let mut failing_copies = Vec::new();
        let mut scratch = Marks::new(n);
        for b in f.block_ids() {
            definite.walk(f, b, &mut scratch, |i, instr, assigned| {
                for &u in instr.uses() {
                    if !assigned.contains(u) {
                        always_assigned[u.index()] = false;
                        if instr.op == Op::Id {
                            failing_copies.push((b, i));
                        }
                    }
                }
            });
        }
        let mut defs = Vec::new();
        let mut live_after = Vec::new();
        let mut defs_of = vec![Vec::new(); n];
        let mut live_across = vec![Vec::new(); n];
        let mut now = ListedSet::new(n);
        for b in f.block_ids() {
            now.clear();
            for v in live.live_out.get(b.index()).iter() {
                now.insert(v);
            }
            for (i, instr) in f.block(b).instrs.iter().enumerate().rev() {
                if let Some(d) = instr.def().filter(|d| related[d.index()]) {
                    let k = defs.len() as u32;
                    let after: Vec<u32> =
                        now.members().iter().copied().filter(|&v| related[v as usize]).collect();
                    for &v in &after {
                        live_across[v as usize].push(k);
                    }
                    defs_of[d.index()].push(k);
                    defs.push((b, i, d));
                    live_after.push(after);
                }
                if let Some(d) = instr.def() {
                    now.remove(d.index());
                }
                for &u in instr.uses() {
                    now.insert(u.index());
                }
            }
        }
        let mut has_param = vec![false; n];
        for p in &f.params {
            has_param[p.var.index()] = true;
        }
        let mut live_at_entry = vec![false; n];
        if !f.blocks.is_empty() {
            for v in live.live_in.get(0).iter() {
                live_at_entry[v] = true;
            }
        }
        Classes {
            parent: (0..n).collect(),
            members: (0..n as u32).map(|v| vec![v]).collect(),
            name: (0..n).map(VarId::new).collect(),
            has_param,
            live_at_entry,
            always_assigned,
            failing_copies,
            types: var_types(f),
            defs,
            live_after,
            defs_of,
            live_across,
        }
    }

    fn find(&mut self, v: usize) -> usize {
        let mut root = v;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        let mut x = v;
        while self.parent[x] != root {
            let next = self.parent[x];
            self.parent[x] = root;
            x = next;
        }
        root
    }

    fn name_of(&mut self, v: VarId) -> VarId {
        let root = self.find(v.index());
        self.name[root]
    }

    /// Merges two classes (smaller into larger), named after `x`'s class
    /// unless `keep_y`.
    fn union(&mut self, x: usize, y: usize, keep_y: bool) {
        let name = if keep_y { self.name[y] } else { self.name[x] };
        let (big, small) = if self.members[x].len() >= self.members[y].len() { (x, y) } else { (y, x) };
        self.parent[small] = big;
        let moved = std::mem::take(&mut self.members[small]);
        self.members[big].extend(moved);
        self.name[big] = name;
        self.has_param[big] |= self.has_param[small];
        self.live_at_entry[big] |= self.live_at_entry[small];
        self.always_assigned[big] &= self.always_assigned[small];
    }

    /// Whether some member of class `x` is written (other than by a copy from
    /// class `y`) where some member of `y` is live, or the other way round;
    /// or both hold values on entry.
    fn interfere(&mut self, f: &Function, x: usize, y: usize) -> bool {
        if (self.has_param[x] && (self.has_param[y] || self.live_at_entry[y]))
            || (self.has_param[y] && self.live_at_entry[x])
        {
            return true;
        }
        self.written_where_live(f, x, y) || self.written_where_live(f, y, x)
    }

    /// Whether a member of `w` is written, not by a copy from `o`, where a
    /// member of `o` is live: by whichever side has less to look through.
    fn written_where_live(&mut self, f: &Function, w: usize, o: usize) -> bool {
        let cost_defs: usize = self.members[w]
            .iter()
            .flat_map(|&v| &self.defs_of[v as usize])
            .map(|&k| self.live_after[k as usize].len())
            .sum();
        let cost_live: usize = self.members[o].iter().map(|&v| self.live_across[v as usize].len()).sum();
        let candidates: Vec<u32> = if cost_defs <= cost_live {
            let mut found = Vec::new();
            for &v in &self.members[w] {
                for &k in &self.defs_of[v as usize] {
                    found.push(k);
                }
            }
            found.retain(|&k| self.live_after[k as usize].iter().any(|&l| self.parent_is(l as usize, o)));
            found
        } else {
            let mut found = Vec::new();
            for &v in &self.members[o] {
                found.extend_from_slice(&self.live_across[v as usize]);
            }
            found.retain(|&k| self.parent_is(self.defs[k as usize].2.index(), w));
            found
        };
        candidates.into_iter().any(|k| {
            let (b, i, _) = self.defs[k as usize];
            let instr = &f.block(b).instrs[i];
            let copy_of_other =
                instr.op == Op::Id && instr.args.first().is_some_and(|&a| self.parent_is(a.index(), o));
            !copy_of_other
        })
    }

    /// Whether `v` is in the class rooted at `root` (no path compression:
    /// usable while borrowing).
    fn parent_is(&self, v: usize, root: usize) -> bool {
        let mut x = v;
        while self.parent[x] != x {
            x = self.parent[x];
        }
        x == root
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::passes::testing::{check_corpus, check_pass, check_skipped_functions_unchanged, Rerun};
    use crate::bril::{parse_text, to_text, verify};

    #[test]
    fn functions_without_shadows_are_left_alone() {
        check_skipped_functions_unchanged(&has_shadows, &|f| {
            function_from_ssa(f)?;
            f.drop_unused_vars();
            Ok(())
        });
    }

    const LOOP: &str = "@main(n: int) {\n  i: int = const 0;\n  s: int = const 0;\n.loop:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  s: int = add s i;\n  one: int = const 1;\n  i: int = add i one;\n  jmp .loop;\n.done:\n  print s;\n}";

    fn single_assignment(p: &Program) -> bool {
        p.functions.iter().all(|f| {
            let mut seen = vec![false; f.vars.len()];
            f.params.iter().for_each(|p| seen[p.var.index()] = true);
            f.instrs().filter_map(Instr::def).all(|v| !std::mem::replace(&mut seen[v.index()], true))
        })
    }

    #[test]
    fn to_ssa_gives_one_definition_per_variable() {
        let mut p = parse_text(LOOP).unwrap();
        assert!(to_ssa(&mut p).unwrap());
        verify(&p).unwrap();
        assert!(single_assignment(&p), "{}", to_text(&p));
        let text = to_text(&p);
        assert_eq!(text.matches("= get").count(), 2, "i and s join at the loop head: {text}");
        assert!(!text.contains("c.1") && !text.contains("one.1"), "single definitions keep their names");
        let args = ["5".to_string()];
        assert_eq!(run(&p, &args, &Limits::default()).stdout, "10\n");
        assert!(!to_ssa(&mut p).unwrap(), "SSA input stays as it is");
    }

    #[test]
    fn from_ssa_removes_set_and_get_and_costs_no_more_than_the_original() {
        let original = parse_text(LOOP).unwrap();
        let mut p = original.clone();
        to_ssa(&mut p).unwrap();
        assert!(from_ssa(&mut p).unwrap());
        verify(&p).unwrap();
        assert!(!p.functions[0].instrs().any(|i| matches!(i.op, Op::Set | Op::Get)));
        let args = ["5".to_string()];
        let (a, b) = (run(&original, &args, &Limits::default()), run(&p, &args, &Limits::default()));
        assert_eq!(a.stdout, b.stdout);
        assert!(
            b.dyn_inst <= a.dyn_inst + 2,
            "only the copies into the loop remain: {} vs {}\n{}",
            b.dyn_inst,
            a.dyn_inst,
            to_text(&p)
        );
        assert!(!from_ssa(&mut p).unwrap());
    }

    #[test]
    fn a_swap_keeps_its_shadow() {
        // x and y swap every iteration: the parallel copy must not be serialised.
        let src = "@main {\n  x: int = const 1;\n  y: int = const 2;\n  k: int = const 0;\n  three: int = const 3;\n  one: int = const 1;\n.loop:\n  t: int = id x;\n  x: int = id y;\n  y: int = id t;\n  k: int = add k one;\n  c: bool = lt k three;\n  br c .loop .done;\n.done:\n  print x y;\n}";
        let original = parse_text(src).unwrap();
        let mut p = original.clone();
        to_ssa(&mut p).unwrap();
        from_ssa(&mut p).unwrap();
        verify(&p).unwrap();
        assert_eq!(run(&p, &[], &Limits::default()).stdout, "2 1\n");
    }

    #[test]
    fn every_corpus_program_reaches_single_assignment() {
        let all_defined = |p: &Program| p.functions.iter().all(|f| MaybeUndefinedReads::of(f).is_empty());
        for case in crate::bril::passes::testing::corpus(100) {
            if !all_defined(&case.program) {
                continue; // see the next test
            }
            let mut p = case.program.clone();
            to_ssa(&mut p).unwrap();
            assert!(single_assignment(&p), "{}: to-ssa was dropped", case.name);
        }
    }

    /// `x = id x` at a loop's top fails on the first iteration; as
    /// `x.1 = get` of `undef` it would copy `undef` and go on.
    #[test]
    fn a_variable_read_where_it_may_be_undefined_keeps_its_name_and_its_failure() {
        let src = "@main {\n  i: int = const 0;\n  n: int = const 2;\n.loop:\n  x: int = id x;\n  x: int = const 3;\n  print x;\n  one: int = const 1;\n  i: int = add i one;\n  go: bool = lt i n;\n  br go .loop .done;\n.done:\n}";
        let mut p = parse_text(src).unwrap();
        assert!(to_ssa(&mut p).unwrap(), "i is renamed");
        let text = to_text(&p);
        assert!(text.contains("x: int = id x;") && !text.contains("undef"), "{text}");
        assert!(text.contains("i.1: int = get;"), "{text}");
        let run = run(&p, &[], &Limits::default());
        assert_eq!(run.result.unwrap_err().message(), "undefined variable x");
    }

    /// A `get` whose shadow no `set` wrote yet fails; leaving SSA keeps that
    /// failure where it was (as a read of the unassigned shadow copy).
    #[test]
    fn a_get_that_may_find_its_shadow_unset_still_fails_first() {
        let src = "@main(n: int) {\n  zero: int = const 0;\n  set s zero;\n  jmp .head;\n.head:\n  i: int = get;\n  s: int = get;\n  print s;\n  go: bool = lt i n;\n  br go .body .exit;\n.body:\n  one: int = const 1;\n  i2: int = add i one;\n  set i i2;\n  set s i2;\n  jmp .head;\n.exit:\n  set i zero;\n}";
        let mut p = parse_text(src).unwrap();
        let args = ["3".to_string()];
        let before = run(&p, &args, &Limits::default());
        assert!(before.result.is_err() && before.stdout.is_empty());
        assert!(from_ssa(&mut p).unwrap());
        verify(&p).unwrap();
        let after = run(&p, &args, &Limits::default());
        assert_eq!(after.stdout, "", "{}", to_text(&p));
        assert_eq!(after.result.unwrap_err().kind(), crate::error::ErrorKind::Runtime);
    }

    /// Into and out of SSA form, again and again: names come from a counter
    /// on the original name, not a suffix per round, and the names renamed
    /// away leave the table, so a long episode costs the same per step.
    #[test]
    fn two_thousand_round_trips_keep_names_short_and_the_table_small() {
        let src = "@main(n: int) {\n  i: int = const 1;\n  one: int = const 1;\n  three: int = const 3;\n  five: int = const 5;\n  zero: int = const 0;\n.loop:\n  go: bool = le i n;\n  br go .body .done;\n.body:\n  q: int = div i three;\n  q: int = mul q three;\n  r: int = sub i q;\n  fizz: bool = eq r zero;\n  q: int = div i five;\n  q: int = mul q five;\n  r: int = sub i q;\n  buzz: bool = eq r zero;\n  both: bool = and fizz buzz;\n  out: int = id i;\n  br fizz .f .next;\n.f:\n  out: int = const -1;\n.next:\n  br buzz .b .print;\n.b:\n  out: int = const -2;\n.print:\n  br both .fb .show;\n.fb:\n  out: int = const -3;\n.show:\n  print out;\n  i: int = add i one;\n  jmp .loop;\n.done:\n}";
        let original = parse_text(src).unwrap();
        let args = ["15".to_string()];
        let expected = run(&original, &args, &Limits::default()).stdout;
        let mut p = original.clone();
        let (mut longest, mut most_vars) = (0, 0);
        for round in 0..2000 {
            to_ssa(&mut p).unwrap();
            from_ssa(&mut p).unwrap();
            let f = &p.functions[0];
            longest = longest.max(f.vars.iter().map(|v| v.len()).max().unwrap_or(0));
            most_vars = most_vars.max(f.vars.len());
            assert!(longest <= 8, "round {round}: a name of {longest} characters\n{}", to_text(&p));
        }
        assert!(most_vars <= 3 * original.functions[0].vars.len(), "{most_vars} variables");
        verify(&p).unwrap();
        assert_eq!(run(&p, &args, &Limits::default()).stdout, expected);
    }

    #[test]
    fn round_trips_keep_semantics() {
        check_pass(&|p| to_ssa(p));
        // Out of SSA and back in renames again.
        check_corpus(
            &|p| {
                let a = to_ssa(p)?;
                let b = from_ssa(p)?;
                Ok(a | b)
            },
            Rerun::MayChange,
        );
    }
}
