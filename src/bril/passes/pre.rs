//! `-pre`: partial redundancy elimination by lazy code motion (Knoop,
//! Rüthing and Steffen; the four dataflow problems of the Dragon book,
//! 9.5), for expressions that always write the same variable.
//!
//! An expression is a pure operation on variables (`add a b`, `lt i n`...;
//! commutative operands in either order). It takes part when every
//! computation of it writes one variable `x` that nothing else writes (as
//! classic PRE's one temporary per expression): then `x` holds the value
//! of the last computation, and a computation whose value is already in
//! `x` on every path can simply go. Lazy code motion finds, on the CFG with
//! every edge into a join split, the latest points where inserting `x = e`
//! makes the most computations redundant without ever computing `e` more
//! often on any path; the redundant computations are deleted. A
//! computation that would be inserted at the start of its own block stays
//! where it is. An inserted split edge needs a block of its own, placed
//! where it falls into the join (so it costs no jump); an expression that
//! would need another one is left alone.
//!
//! ```text
//! .then: x = add a b; jmp .join      .then: x = add a b; jmp .join
//! .else: jmp .join             =>    .else: x = add a b; jmp .join
//! .join: x = add a b; print x        .join: print x
//! ```
//!
//! Why it is safe: lazy code motion places `x = e` only where `e` would be
//! computed next on every path, with the same operands, so `x` receives
//! the value the deleted computations would have written. Each insertion
//! point must also have `x` dead there (no read sees the earlier write) and
//! every operand certainly assigned (the new read cannot fail before output
//! the program would have printed). Only pure operations move: they cannot
//! fail and have no effect.
//!
//! The bit-vector problems are solved over at most [`MAX_EXPRESSIONS`]
//! expressions per function (the first ones computed), so the cost stays
//! linear in the size of the function.

use crate::bril::analysis::cfg::Cfg;
use crate::bril::analysis::definite::Definite;
use crate::bril::analysis::edit::rewrite_drafts_where;
use crate::bril::analysis::liveness::Liveness;
use crate::bril::analysis::loops::may_have_loops;
use crate::bril::hash::FxHashMap;
use crate::bril::ir::{Block, BlockId, Function, Instr, Op, Program, Type, VarId};
use crate::error::Result;

use crate::bril::names::FreshNames;

/// Most expressions one function's problems track (four 64-bit words).
pub const MAX_EXPRESSIONS: usize = 256;

/// `-pre`.
pub fn pre(program: &mut Program) -> Result<bool> {
    // One block without a loop has no partially redundant computation.
    let may_change = |f: &Function| f.blocks.len() >= 2 || may_have_loops(f);
    rewrite_drafts_where(program, may_change, |_, draft| {
        // The first round reads the function in place: most have nothing to move.
        let edits = plan_round(draft.get());
        if edits.is_empty() {
            return Ok(());
        }
        let f = draft.make_mut();
        apply(f, edits);
        for _ in 1..MAX_ROUNDS {
            if !pre_round(f) {
                break;
            }
        }
        Ok(())
    })
}

/// An operation and its one or two operands (sorted for commutative
/// operations), kept inline: every pure instruction makes one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    op: Op,
    operands: [VarId; 2],
    arity: u8,
    ty: Type,
}

impl Key {
    fn args(&self) -> &[VarId] {
        &self.operands[..usize::from(self.arity)]
    }
}

fn key_of(instr: &Instr) -> Option<Key> {
    let d = instr.dest?;
    let movable = instr.op.is_pure() && !matches!(instr.op, Op::Const | Op::Id);
    if !movable || instr.value.is_some() || instr.func.is_some() {
        return None;
    }
    let (a, b) = match instr.args[..] {
        [a] => (a, a),
        [a, b] if instr.op.is_commutative() && b < a => (b, a),
        [a, b] => (a, b),
        _ => return None,
    };
    Some(Key { op: instr.op, operands: [a, b], arity: instr.args.len() as u8, ty: d.ty })
}

/// An expression that takes part, and the variable its computations write.
struct Expr {
    key: Key,
    var: VarId,
}

/// The expressions whose every computation writes one variable written by
/// nothing else (not a parameter, not an operand), all in reachable code.
fn expressions(f: &Function, cfg: &Cfg) -> Vec<Expr> {
    let mut defs = vec![0u32; f.vars.len()];
    for p in &f.params {
        defs[p.var.index()] += 1;
    }
    // key -> (variable, computations, still eligible), in order of appearance.
    let mut index: FxHashMap<Key, usize> = FxHashMap::default();
    let mut found: Vec<(Key, VarId, u32, bool)> = Vec::new();
    for b in f.block_ids() {
        for instr in &f.block(b).instrs {
            let Some(d) = instr.def() else { continue };
            defs[d.index()] += 1;
            let Some(key) = key_of(instr) else { continue };
            let reachable = cfg.is_reachable(b);
            match index.get(&key) {
                Some(&k) => {
                    let e = &mut found[k];
                    e.2 += 1;
                    e.3 &= e.1 == d && reachable;
                }
                None => {
                    let ok = reachable && !key.args().contains(&d);
                    index.insert(key, found.len());
                    found.push((key, d, 1, ok));
                }
            }
        }
    }
    found
        .into_iter()
        .filter(|(_, var, count, ok)| *ok && defs[var.index()] == *count)
        .take(MAX_EXPRESSIONS)
        .map(|(key, var, _, _)| Expr { key, var })
        .collect()
}

/// Where a node of the split CFG is.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Block(BlockId),
    /// The edge `from -> to` into a join.
    Edge(BlockId, BlockId),
    /// Before the entry block, when the entry is also a loop header.
    Entry,
}

/// The CFG with a node on every edge into a block with several
/// predecessors (the function's start counting as one for the entry).
struct Graph {
    places: Vec<Place>,
    succs: Adjacency,
    preds: Adjacency,
    /// Reachable nodes, each before its successors except along back edges.
    order: Vec<usize>,
}

/// Each node's neighbours, all in one list.
struct Adjacency {
    start: Vec<usize>,
    list: Vec<usize>,
}

impl Adjacency {
    /// From `(node, neighbour)` pairs, each node's neighbours in the pairs' order.
    fn new(nodes: usize, pairs: &[(usize, usize)]) -> Adjacency {
        let mut start = vec![0usize; nodes + 1];
        for &(n, _) in pairs {
            start[n + 1] += 1;
        }
        for n in 0..nodes {
            start[n + 1] += start[n];
        }
        let mut next = start.clone();
        let mut list = vec![0; pairs.len()];
        for &(n, m) in pairs {
            list[next[n]] = m;
            next[n] += 1;
        }
        Adjacency { start, list }
    }

    fn of(&self, n: usize) -> &[usize] {
        &self.list[self.start[n]..self.start[n + 1]]
    }
}

impl Graph {
    fn new(f: &Function, cfg: &Cfg) -> Graph {
        let nb = f.blocks.len();
        let mut places: Vec<Place> = f.block_ids().map(Place::Block).collect();
        let mut preds_count = vec![0usize; nb];
        for &b in &cfg.rpo {
            for &s in &cfg.succs[b.index()] {
                preds_count[s.index()] += 1;
            }
        }
        let entry_is_join = nb > 0 && preds_count[0] > 0;
        let joins = |s: BlockId| preds_count[s.index()] + usize::from(s.index() == 0) >= 2;
        let mut edges: Vec<(usize, usize)> = Vec::with_capacity(nb * 2);
        for &b in &cfg.rpo {
            for &s in &cfg.succs[b.index()] {
                if joins(s) {
                    places.push(Place::Edge(b, s));
                    edges.push((b.index(), places.len() - 1));
                    edges.push((places.len() - 1, s.index()));
                } else {
                    edges.push((b.index(), s.index()));
                }
            }
        }
        let mut starts = Vec::new();
        if entry_is_join {
            places.push(Place::Entry);
            edges.push((places.len() - 1, 0));
            starts.push(places.len() - 1);
        } else if nb > 0 {
            starts.push(0);
        }
        let succs = Adjacency::new(places.len(), &edges);
        let reversed: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (b, a)).collect();
        let preds = Adjacency::new(places.len(), &reversed);
        let order = reverse_postorder(&succs, &starts);
        Graph { places, succs, preds, order }
    }
}

fn reverse_postorder(succs: &Adjacency, starts: &[usize]) -> Vec<usize> {
    let nodes = succs.start.len() - 1;
    let mut seen = vec![false; nodes];
    let mut post = Vec::with_capacity(nodes);
    for &start in starts {
        let mut stack = vec![(start, 0usize)];
        seen[start] = true;
        while let Some(&mut (n, ref mut next)) = stack.last_mut() {
            if let Some(&s) = succs.of(n).get(*next) {
                *next += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(n);
                stack.pop();
            }
        }
    }
    post.reverse();
    post
}

/// One bit-vector set per node, `words` words each.
#[derive(Clone)]
struct Sets {
    words: usize,
    bits: Vec<u64>,
}

impl Sets {
    fn new(nodes: usize, words: usize, fill: u64) -> Sets {
        Sets { words, bits: vec![fill; nodes * words] }
    }
    fn get(&self, n: usize) -> &[u64] {
        &self.bits[n * self.words..(n + 1) * self.words]
    }
    fn get_mut(&mut self, n: usize) -> &mut [u64] {
        &mut self.bits[n * self.words..(n + 1) * self.words]
    }
    fn contains(&self, n: usize, e: usize) -> bool {
        self.get(n)[e / 64] >> (e % 64) & 1 == 1
    }
    fn insert(&mut self, n: usize, e: usize) {
        self.get_mut(n)[e / 64] |= 1 << (e % 64);
    }
}

/// Solves one problem: `input[n]` is the meet (intersection when `all`,
/// union otherwise) of `output` over the sources (predecessors forward,
/// successors backward), empty where there are none; `output[n] =
/// transfer(n, input[n])`. Returns (input, output).
fn solve(
    g: &Graph,
    words: usize,
    forward: bool,
    all: bool,
    transfer: impl Fn(usize, &[u64], &mut [u64]),
) -> (Sets, Sets) {
    let n = g.places.len();
    let top = if all { u64::MAX } else { 0 };
    let mut input = Sets::new(n, words, top);
    let mut output = Sets::new(n, words, top);
    let mut order = g.order.clone();
    if !forward {
        order.reverse();
    }
    let mut position = vec![usize::MAX; n];
    for (i, &x) in order.iter().enumerate() {
        position[x] = i;
    }
    // Sweeps over `order`, visiting the nodes marked to do (all at first):
    // one sweep settles everything but what loops carry back, and a sweep
    // skips 64 settled nodes a word.
    let mut to_do = vec![u64::MAX; order.len().div_ceil(64)];
    if let Some(last) = to_do.last_mut() {
        *last >>= (64 - order.len() % 64) % 64;
    }
    let mut acc = vec![0u64; words];
    let mut out = vec![0u64; words];
    let mut busy = true;
    while busy {
        busy = false;
        for w in 0..to_do.len() {
            while to_do[w] != 0 {
                let i = w * 64 + to_do[w].trailing_zeros() as usize;
                to_do[w] &= to_do[w] - 1;
                busy = true;
                let x = order[i];
                let (sources, sinks) =
                    if forward { (g.preds.of(x), g.succs.of(x)) } else { (g.succs.of(x), g.preds.of(x)) };
                acc.fill(if sources.is_empty() { 0 } else { top });
                for &s in sources {
                    for (a, b) in acc.iter_mut().zip(output.get(s)) {
                        *a = if all { *a & b } else { *a | b };
                    }
                }
                input.get_mut(x).copy_from_slice(&acc);
                transfer(x, &acc, &mut out);
                if output.get(x) != out.as_slice() {
                    output.get_mut(x).copy_from_slice(&out);
                    for &s in sinks {
                        if let Some(&p) = position.get(s).filter(|&&p| p != usize::MAX) {
                            to_do[p / 64] |= 1 << (p % 64);
                        }
                    }
                }
            }
        }
    }
    (input, output)
}

/// The computations of each block that are first in it: (expression, index).
struct Local {
    used: Sets,
    killed: Sets,
    first: Vec<Vec<(usize, usize)>>,
}

fn local_facts(f: &Function, g: &Graph, exprs: &[Expr], words: usize) -> Local {
    let mut by_key: FxHashMap<&Key, usize> = FxHashMap::default();
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); f.vars.len()];
    for (e, expr) in exprs.iter().enumerate() {
        by_key.insert(&expr.key, e);
        for (k, a) in expr.key.args().iter().enumerate() {
            if !expr.key.args()[..k].contains(a) {
                readers[a.index()].push(e);
            }
        }
    }
    let n = g.places.len();
    let mut used = Sets::new(n, words, 0);
    let mut killed = Sets::new(n, words, 0);
    let mut first = vec![Vec::new(); f.blocks.len()];
    for b in f.block_ids() {
        for (i, instr) in f.block(b).instrs.iter().enumerate() {
            if let Some(&e) = key_of(instr).as_ref().and_then(|k| by_key.get(k)) {
                if !killed.contains(b.index(), e) && !used.contains(b.index(), e) {
                    used.insert(b.index(), e);
                    first[b.index()].push((e, i));
                }
            }
            if let Some(d) = instr.def() {
                for &e in &readers[d.index()] {
                    killed.insert(b.index(), e);
                }
            }
        }
    }
    Local { used, killed, first }
}

/// Per expression: where `x = e` is inserted and which computations go.
struct Plan {
    insert: Sets,
    delete: Sets,
}

fn lazy_code_motion(g: &Graph, local: &Local, words: usize) -> Plan {
    let (used, killed) = (&local.used, &local.killed);
    let (_, ant_in) = solve(g, words, false, true, |n, out, inn| {
        for k in 0..words {
            inn[k] = used.get(n)[k] | (out[k] & !killed.get(n)[k]);
        }
    });
    let (av_in, _) = solve(g, words, true, true, |n, inn, out| {
        for k in 0..words {
            out[k] = (ant_in.get(n)[k] | inn[k]) & !killed.get(n)[k];
        }
    });
    let nodes = g.places.len();
    let mut earliest = Sets::new(nodes, words, 0);
    for n in 0..nodes {
        for k in 0..words {
            earliest.get_mut(n)[k] = ant_in.get(n)[k] & !av_in.get(n)[k];
        }
    }
    let (post_in, _) = solve(g, words, true, true, |n, inn, out| {
        for k in 0..words {
            out[k] = (earliest.get(n)[k] | inn[k]) & !used.get(n)[k];
        }
    });
    let mut latest = Sets::new(nodes, words, 0);
    for n in 0..nodes {
        for k in 0..words {
            let here = earliest.get(n)[k] | post_in.get(n)[k];
            let later =
                g.succs.of(n).iter().fold(u64::MAX, |acc, &s| acc & (earliest.get(s)[k] | post_in.get(s)[k]));
            latest.get_mut(n)[k] = here & (used.get(n)[k] | !later);
        }
    }
    let (used_out, _) = solve(g, words, false, false, |n, out, inn| {
        for k in 0..words {
            inn[k] = (used.get(n)[k] | out[k]) & !latest.get(n)[k];
        }
    });
    let mut insert = Sets::new(nodes, words, 0);
    let mut delete = Sets::new(nodes, words, 0);
    for n in 0..nodes {
        for k in 0..words {
            insert.get_mut(n)[k] = latest.get(n)[k] & used_out.get(n)[k];
            delete.get_mut(n)[k] = used.get(n)[k] & !latest.get(n)[k];
        }
    }
    Plan { insert, delete }
}

/// The edits for one function: instructions to add at block starts and
/// ends, computations to delete, and blocks to add on edges or at the entry.
#[derive(Default)]
struct Edits {
    at_start: FxHashMap<BlockId, Vec<Instr>>,
    at_end: FxHashMap<BlockId, Vec<Instr>>,
    deleted: Vec<(BlockId, usize)>,
    /// Blocks placed right before a join, each for one edge into it.
    edge_blocks: FxHashMap<BlockId, (BlockId, Vec<Instr>)>,
    entry: Vec<Instr>,
}

impl Edits {
    fn is_empty(&self) -> bool {
        self.at_start.is_empty()
            && self.at_end.is_empty()
            && self.deleted.is_empty()
            && self.edge_blocks.is_empty()
            && self.entry.is_empty()
    }
}

/// Rounds of lazy code motion per function, at most. Moving an expression
/// can make one that reads its result movable in turn (with `last = n - 1`
/// out of a loop, `lim = last - i` can follow), which only the next round
/// sees; real chains are short, and each round is near-linear.
const MAX_ROUNDS: usize = 8;

#[cfg(test)]
pub(super) fn pre_function(f: &mut Function) {
    for _ in 0..MAX_ROUNDS {
        if !pre_round(f) {
            break;
        }
    }
}

/// One round of lazy code motion; whether it moved or deleted anything.
fn pre_round(f: &mut Function) -> bool {
    let edits = plan_round(f);
    let changed = !edits.is_empty();
    apply(f, edits);
    changed
}

/// What one round of lazy code motion would move and delete (nothing: no edit).
fn plan_round(f: &Function) -> Edits {
    if f.blocks.is_empty() {
        return Edits::default();
    }
    let cfg = Cfg::new(f);
    let exprs = expressions(f, &cfg);
    if exprs.is_empty() {
        return Edits::default();
    }
    let words = exprs.len().div_ceil(64);
    let g = Graph::new(f, &cfg);
    let local = local_facts(f, &g, &exprs, words);
    let plan = lazy_code_motion(&g, &local, words);
    // Where each expression is inserted (away from its own computations)
    // and which of its computations go.
    let mut insert_at: Vec<Vec<usize>> = vec![Vec::new(); exprs.len()];
    for n in 0..g.places.len() {
        for (k, (&ins, &used)) in plan.insert.get(n).iter().zip(local.used.get(n)).enumerate() {
            let mut bits = ins & !used;
            while bits != 0 {
                insert_at[k * 64 + bits.trailing_zeros() as usize].push(n);
                bits &= bits - 1;
            }
        }
    }
    let mut delete_at: Vec<Vec<(BlockId, usize)>> = vec![Vec::new(); exprs.len()];
    for b in f.block_ids() {
        for &(e, i) in &local.first[b.index()] {
            if plan.delete.contains(b.index(), e) {
                delete_at[e].push((b, i));
            }
        }
    }
    // Only the variables and operands of expressions with something to do
    // are asked about (most have nothing).
    let mut tracked = vec![false; f.vars.len()];
    let mut any = false;
    let busy = |e: usize| !insert_at[e].is_empty() || !delete_at[e].is_empty();
    for expr in exprs.iter().enumerate().filter(|&(e, _)| busy(e)).map(|(_, expr)| expr) {
        any = true;
        tracked[expr.var.index()] = true;
        expr.key.args().iter().for_each(|a| tracked[a.index()] = true);
    }
    if !any {
        return Edits::default();
    }
    let live = Liveness::of(f, &cfg, &tracked);
    let definite = Definite::new(f, &cfg, &live);
    let mut edits = Edits::default();
    for (e, expr) in exprs.iter().enumerate() {
        let compute = || Instr::value(expr.key.op, expr.var, expr.key.ty, expr.key.args());
        let x = expr.var.index();
        // The operands are read at the new place: each must be live there
        // (as it is where the expression is anticipated on a path that
        // goes on to compute it; `definite` answers for live variables
        // only) and certainly assigned.
        let args = expr.key.args();
        let at_entry = |b: BlockId| {
            args.iter().all(|&a| live.live_in.get(b.index()).contains(a.index()) && definite.at_entry(b, a))
        };
        let on_edge = |p: BlockId, s: BlockId| {
            args.iter().all(|&a| live.live_in.get(s.index()).contains(a.index()) && definite.at_exit(p, a))
        };
        // Check every point first: an expression moves entirely or not at all.
        let mut points = Vec::new();
        let mut ok = true;
        // The edge each join's new block serves, claimed by this expression.
        let mut claims: FxHashMap<BlockId, BlockId> = FxHashMap::default();
        for &n in &insert_at[e] {
            let place = g.places[n];
            ok &= match place {
                Place::Block(b) => !live.live_in.get(b.index()).contains(x) && at_entry(b),
                Place::Edge(p, s) => {
                    let term_reads = f.block(p).terminator().is_some_and(|t| t.uses().contains(&expr.var));
                    let single = cfg.succs[p.index()].len() == 1;
                    let free = single || {
                        let owner = edits.edge_blocks.get(&s).map(|(from, _)| *from);
                        let owner = *claims.entry(s).or_insert(owner.unwrap_or(p));
                        s.index() > 0
                            && f.block(BlockId::new(s.index() - 1)).terminator().is_some()
                            && owner == p
                    };
                    // Inserted before the terminator, `x` must not be what it reads.
                    let read_after = live.live_in.get(s.index()).contains(x) || single && term_reads;
                    !read_after && on_edge(p, s) && free
                }
                Place::Entry => {
                    !live.live_in.get(0).contains(x)
                        && expr.key.args().iter().all(|a| f.params.iter().any(|p| p.var == *a))
                }
            };
            points.push(place);
        }
        let deletions = &delete_at[e];
        if !ok || (points.is_empty() && deletions.is_empty()) {
            continue;
        }
        for place in points {
            match place {
                Place::Block(b) => edits.at_start.entry(b).or_default().push(compute()),
                Place::Edge(p, _) if cfg.succs[p.index()].len() == 1 => {
                    edits.at_end.entry(p).or_default().push(compute())
                }
                Place::Edge(p, s) => edits.edge_blocks.entry(s).or_insert((p, Vec::new())).1.push(compute()),
                Place::Entry => edits.entry.push(compute()),
            }
        }
        edits.deleted.extend(deletions.iter().copied());
    }
    edits
}

fn apply(f: &mut Function, edits: Edits) {
    let mut deleted: FxHashMap<BlockId, Vec<usize>> = FxHashMap::default();
    for (b, i) in edits.deleted {
        deleted.entry(b).or_default().push(i);
    }
    for b in f.block_ids() {
        let start = edits.at_start.get(&b);
        let end = edits.at_end.get(&b);
        let gone = deleted.get(&b);
        if start.is_none() && end.is_none() && gone.is_none() {
            continue;
        }
        let old = std::mem::take(&mut f.block_mut(b).instrs);
        let mut deleted = vec![false; old.len()];
        gone.into_iter().flatten().for_each(|&i| deleted[i] = true);
        let mut new: Vec<Instr> = start.cloned().unwrap_or_default();
        let last = old.len();
        let has_term = old.last().is_some_and(Instr::is_terminator);
        for (i, instr) in old.into_iter().enumerate() {
            if has_term && i + 1 == last {
                new.extend(end.cloned().unwrap_or_default());
            }
            if !deleted[i] {
                new.push(instr);
            }
        }
        if !has_term {
            new.extend(end.cloned().unwrap_or_default());
        }
        f.block_mut(b).instrs = new;
    }
    if edits.edge_blocks.is_empty() && edits.entry.is_empty() {
        return;
    }
    // New blocks: one before each join with an edge block, and a new entry.
    let mut labels = FreshNames::labels(f);
    let front = usize::from(!edits.entry.is_empty());
    let mut new_index = Vec::with_capacity(f.blocks.len());
    let mut edge_index: FxHashMap<BlockId, BlockId> = FxHashMap::default();
    let mut next = front;
    for b in f.block_ids() {
        if edits.edge_blocks.contains_key(&b) {
            edge_index.insert(b, BlockId::new(next));
            next += 1;
        }
        new_index.push(BlockId::new(next));
        next += 1;
    }
    let old = std::mem::take(&mut f.blocks);
    if front == 1 {
        let mut entry = Block::new(None);
        entry.instrs = edits.entry;
        f.blocks.push(entry);
    }
    for (b, mut block) in old.into_iter().enumerate() {
        let b = BlockId::new(b);
        for l in block.instrs.iter_mut().flat_map(|i| i.labels.iter_mut()) {
            *l = new_index[l.index()];
        }
        if let Some((_, code)) = edits.edge_blocks.get(&b) {
            let hint = format!("{}.pre", block.label.as_deref().unwrap_or("b"));
            let mut edge = Block::new(Some(labels.fresh(&hint)));
            edge.instrs = code.clone();
            f.blocks.push(edge);
        }
        f.blocks.push(block);
    }
    for (s, (p, _)) in &edits.edge_blocks {
        let target = new_index[s.index()];
        if let Some(t) = f.block_mut(new_index[p.index()]).instrs.last_mut() {
            for l in t.labels.iter_mut().filter(|l| **l == target) {
                *l = edge_index[s];
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

    fn moved(src: &str, args: &[&str]) -> (String, Vec<(u64, u64)>) {
        let mut p = parse_text(src).unwrap();
        let runs: Vec<Vec<String>> = if args.is_empty() {
            vec![vec![]]
        } else {
            args.iter().map(|a| a.split_whitespace().map(String::from).collect()).collect()
        };
        let before: Vec<_> = runs.iter().map(|a| run(&p, a, &Limits::default())).collect();
        assert!(pre(&mut p).unwrap(), "{src}");
        crate::bril::verify(&p).unwrap();
        let after: Vec<_> = runs.iter().map(|a| run(&p, a, &Limits::default())).collect();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(a.stdout, b.stdout);
        }
        assert!(!pre(&mut p).unwrap(), "a fixpoint:\n{}", to_text(&p));
        (to_text(&p), before.iter().zip(&after).map(|(b, a)| (b.dyn_inst, a.dyn_inst)).collect())
    }

    #[test]
    fn a_computation_redundant_on_one_path_moves_to_the_other() {
        let src = "@main(c: bool, a: int, b: int) {\n  br c .then .else;\n.then:\n  x: int = add a b;\n  print x;\n  jmp .join;\n.else:\n  print a;\n  jmp .join;\n.join:\n  x: int = add b a;\n  print x;\n}\n";
        let (text, counts) = moved(src, &["true 1 2", "false 1 2"]);
        assert_eq!(
            text,
            "@main(c: bool, a: int, b: int) {\n  br c .then .else;\n.then:\n  x: int = add a b;\n  print x;\n  jmp .join;\n.else:\n  print a;\n  x: int = add a b;\n  jmp .join;\n.join:\n  print x;\n}\n"
        );
        assert_eq!(
            counts,
            vec![(6, 5), (5, 5)],
            "one addition less on the first path, none more on the other"
        );
    }

    #[test]
    fn a_loop_invariant_of_a_rotated_loop_moves_to_the_guard_edge() {
        let src = "@main(n: int, a: int) {\n  i: int = const 0;\n  one: int = const 1;\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  k: int = mul a a;\n  print k;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .body .exit;\n.exit:\n}\n";
        let (text, counts) = moved(src, &["4 3", "0 3"]);
        assert!(
            text.contains("  br c .body.pre .exit;\n.body.pre:\n  k: int = mul a a;\n.body:\n  print k;"),
            "{text}"
        );
        assert_eq!(counts, vec![(24, 21), (4, 4)]);
    }

    /// Once `last = n - 1` leaves the inner loop, `lim = last - i` (invariant
    /// there too) can follow: one run of the pass moves both.
    #[test]
    fn an_invariant_reading_a_moved_one_follows_it_in_the_same_run() {
        let src = "@main(n: int) {\n  one: int = const 1;\n  s: int = const 0;\n  i: int = const 0;\n.outer:\n  c: bool = lt i n;\n  br c .body .done;\n.body:\n  j: int = const 0;\n.inner:\n  last: int = sub n one;\n  lim: int = sub last i;\n  ok: bool = lt j lim;\n  br ok .step .next;\n.step:\n  s: int = add s j;\n  j: int = add j one;\n  jmp .inner;\n.next:\n  i: int = add i one;\n  jmp .outer;\n.done:\n  print s;\n}\n";
        let (text, counts) = moved(src, &["6", "0"]);
        let inner = &text[text.find(".inner:").unwrap()..];
        assert!(!inner[..inner.find(".step:").unwrap()].contains("sub"), "both left the loop test:\n{text}");
        assert!(counts[0].1 < counts[0].0 && counts[1].1 == counts[1].0, "{counts:?}");
    }

    #[test]
    fn expressions_written_to_several_variables_or_live_variables_stay() {
        let sources = [
            // Two variables hold the expression.
            "@main(c: bool, a: int, b: int) {\n  br c .then .join;\n.then:\n  x: int = add a b;\n  print x;\n.join:\n  y: int = add a b;\n  print y;\n}\n",
            // x is read on the other path before the join computes it.
            "@main(c: bool, a: int, b: int) {\n  x: int = const 0;\n  br c .then .else;\n.then:\n  x: int = add a b;\n  jmp .join;\n.else:\n  print x;\n.join:\n  x: int = add a b;\n  print x;\n}\n",
            // A while loop: the body may not run, so nothing is anticipated before it.
            "@main(n: int, a: int) {\n  i: int = const 0;\n  one: int = const 1;\n.head:\n  c: bool = lt i n;\n  br c .body .exit;\n.body:\n  k: int = mul a a;\n  print k;\n  i: int = add i one;\n  jmp .head;\n.exit:\n}\n",
        ];
        for src in sources {
            let mut p = parse_text(src).unwrap();
            assert!(!pre(&mut p).unwrap(), "{src}\n{}", to_text(&p));
            assert_eq!(to_text(&p), src);
        }
    }

    #[test]
    fn semantics() {
        check_pass(&|p| pre(p));
    }
}
