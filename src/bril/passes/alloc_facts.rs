//! Allocations that never escape their function, and what is certain about
//! them at each access: the facts `-mem2reg` and `-dead-store` rely on.
//!
//! A candidate is a pointer variable `p` written once, by `alloc` of a known
//! constant size (1 to 64 cells), read only as the address of `load`,
//! `store`, `free` and of `ptradd p k` with a known constant in-bounds `k`,
//! whose single-definition result is read only as a `load`/`store` address.
//! Nothing else (no call, no `ret`, no stored value, no `print`, no copy) can
//! see the allocation, so its cells are reached only through these accesses.
//!
//! A forward analysis then tracks, along every path, whether the allocation
//! is unallocated, live or freed, which cells are certainly written, and
//! which derived pointers were computed from the current allocation. Every
//! allocation of a function is found, and analysed, in one go.

use std::collections::HashMap;

use super::facts::{def_counts, global_constants};
use super::fold::Value;
use crate::bril::analysis::sets::Marks;
use crate::bril::ir::{BlockId, Function, Instr, Op, Program, Type, VarId};

/// Most cells of an allocation tracked one by one.
const MAX_CELLS: i64 = 64;

/// Whether removing allocations could change what the program prints:
/// printed pointers show allocation numbers, which shift when one goes.
pub(super) fn prints_pointers(program: &Program) -> bool {
    program.functions.iter().any(|f| {
        let mut ptr = vec![false; f.vars.len()];
        for p in &f.params {
            ptr[p.var.index()] = p.ty.is_ptr();
        }
        for i in f.instrs() {
            if let Some(d) = i.dest {
                ptr[d.var.index()] = d.ty.is_ptr();
            }
        }
        f.instrs().any(|i| i.op == Op::Print && i.args.iter().any(|a| ptr.get(a.index()) == Some(&true)))
    })
}

/// Whether `f` has an `alloc`: without one there is nothing for the
/// allocation passes to do, and one scan tells.
pub(super) fn allocates(f: &Function) -> bool {
    f.instrs().any(|i| i.op == Op::Alloc)
}

/// Whether any function of `program` has an `alloc`.
pub(super) fn allocates_anywhere(program: &Program) -> bool {
    program.functions.iter().any(|f| allocates(f))
}

/// One non-escaping allocation.
pub(super) struct Candidate {
    pub base: VarId,
    /// The type of a cell.
    pub cell_type: Type,
    pub cells: usize,
    /// Pointers derived by `ptradd`, with their cell index and their bit in
    /// the analysis's `fresh` set.
    pub derived: HashMap<VarId, (usize, u64)>,
}

impl Candidate {
    /// The cell an address variable points to, when it is this allocation's.
    pub fn cell_of(&self, v: VarId) -> Option<usize> {
        if v == self.base {
            Some(0)
        } else {
            self.derived.get(&v).map(|&(k, _)| k)
        }
    }
}

/// Every non-escaping allocation of a function, and which one each
/// variable points into (a variable belongs to at most one).
pub(super) struct Allocations {
    pub list: Vec<Candidate>,
    owner: Vec<Option<u32>>,
}

impl Allocations {
    /// Finds them in a few passes over `f`, whatever their number (one
    /// scan, allocating nothing, when `f` allocates nothing).
    pub fn of(f: &Function) -> Allocations {
        if !allocates(f) {
            return Allocations { list: Vec::new(), owner: Vec::new() };
        }
        let defs = def_counts(f);
        let consts = known_constants(f);
        let mut is_param = vec![false; f.vars.len()];
        for p in &f.params {
            is_param[p.var.index()] = true;
        }
        let single = |v: VarId| defs[v.index()] == 1 && !is_param[v.index()];
        let mut list: Vec<Option<Candidate>> = Vec::new();
        let mut owner: Vec<Option<u32>> = vec![None; f.vars.len()];
        for (at, instr) in f.instrs().enumerate() {
            let (Op::Alloc, Some(d)) = (instr.op, instr.dest) else { continue };
            let size = consts.get(&(at, 0)).and_then(|v| v.as_int());
            let (Some(size), Some(cell_type)) = (size, d.ty.pointee()) else { continue };
            if (1..=MAX_CELLS).contains(&size) && single(d.var) {
                owner[d.var.index()] = Some(list.len() as u32);
                let c = Candidate { base: d.var, cell_type, cells: size as usize, derived: HashMap::new() };
                list.push(Some(c));
            }
        }
        // Pointers derived with a known in-bounds offset; any other `ptradd`
        // of a base rules its allocation out.
        for (at, i) in f.instrs().enumerate() {
            let Some(&base) = i.args.first().filter(|_| i.op == Op::PtrAdd) else { continue };
            let Some(k) =
                owner[base.index()].filter(|&k| list[k as usize].as_ref().is_some_and(|c| c.base == base))
            else {
                continue;
            };
            let Some(c) = list[k as usize].as_mut() else { continue };
            let offset = consts.get(&(at, 1)).and_then(|v| v.as_int());
            match (offset, i.def()) {
                (Some(off), Some(q))
                    if (0..c.cells as i64).contains(&off) && single(q) && c.derived.len() < 64 =>
                {
                    let bit = 1u64 << c.derived.len();
                    c.derived.insert(q, (off as usize, bit));
                    owner[q.index()] = Some(k);
                }
                _ => list[k as usize] = None,
            }
        }
        // Any read of one of its pointers that is not an address rules it out.
        for i in f.instrs() {
            for (k, &u) in i.uses().iter().enumerate() {
                let Some(c) = owner[u.index()] else { continue };
                let is_base = list[c as usize].as_ref().is_some_and(|c| c.base == u);
                let as_address = k == 0 && matches!(i.op, Op::Load | Op::Store);
                let base_only = k == 0 && is_base && matches!(i.op, Op::Free | Op::PtrAdd);
                if !(as_address || base_only) {
                    list[c as usize] = None;
                }
            }
        }
        // Renumber the survivors.
        let mut renumber: Vec<Option<u32>> = Vec::with_capacity(list.len());
        let mut kept = Vec::new();
        for c in list {
            renumber.push(c.as_ref().map(|_| kept.len() as u32));
            kept.extend(c);
        }
        for o in owner.iter_mut() {
            *o = o.and_then(|k| renumber[k as usize]);
        }
        Allocations { list: kept, owner }
    }

    /// The allocation `v` points into.
    pub fn owner_of(&self, v: VarId) -> Option<usize> {
        self.owner.get(v.index()).copied().flatten().map(|k| k as usize)
    }

    /// The allocation `instr` touches (defines or reads a pointer of), if any:
    /// an instruction touches at most one.
    pub fn touched_by(&self, instr: &Instr) -> Option<usize> {
        instr
            .def()
            .and_then(|d| self.owner_of(d))
            .or_else(|| instr.uses().iter().find_map(|&u| self.owner_of(u)))
    }

    /// The verdict of the forward analysis on every allocation, all at once:
    /// at each block entry only the allocations that may be live there are
    /// kept, so the cost follows the size of the function and the number of
    /// allocations live at once, not their product.
    pub fn lifetimes(&self, f: &Function) -> Vec<Lifetime> {
        let n = f.blocks.len();
        let mut ins: Vec<Option<Vec<(u32, State)>>> = vec![None; n];
        let mut walk = Walk::new(self.list.len());
        let mut work = Vec::new();
        let mut queued = vec![false; n];
        if n > 0 {
            ins[0] = Some(Vec::new());
            work.push(0);
            queued[0] = true;
        }
        // Statuses only grow and the certain sets only shrink: this terminates.
        while let Some(b) = work.pop() {
            queued[b] = false;
            let Some(input) = &ins[b] else { continue };
            walk.start(input);
            for instr in &f.blocks[b].instrs {
                if let Some(c) = self.touched_by(instr) {
                    let s = walk.get(c);
                    walk.set(c, step(&self.list[c], instr, s, None));
                }
            }
            let out = walk.maybe_live();
            for &succ in f.successors(BlockId::new(b)).iter() {
                let new = match &ins[succ.index()] {
                    None => out.clone(),
                    Some(old) => join_lists(old, &out),
                };
                if ins[succ.index()].as_ref() != Some(&new) {
                    ins[succ.index()] = Some(new);
                    if !queued[succ.index()] {
                        queued[succ.index()] = true;
                        work.push(succ.index());
                    }
                }
            }
        }
        let mut verdicts: Vec<Lifetime> = (0..self.list.len())
            .map(|_| Lifetime { balanced: true, accesses_safe: true, loads_initialized: true })
            .collect();
        for (b, input) in ins.iter().enumerate() {
            let Some(input) = input else { continue };
            walk.start(input);
            for instr in &f.blocks[b].instrs {
                if let Some(c) = self.touched_by(instr) {
                    let s = walk.get(c);
                    walk.set(c, step(&self.list[c], instr, s, Some(&mut verdicts[c])));
                }
            }
            // Leaving the function with an allocation live leaks it.
            if f.successors(BlockId::new(b)).is_empty() {
                for (c, _) in walk.maybe_live() {
                    verdicts[c as usize].balanced = false;
                }
            }
        }
        verdicts
    }
}

/// The state of every allocation along one block walk: those not listed
/// are certainly not live (never allocated, or freed), with nothing written.
struct Walk {
    state: Vec<State>,
    listed: Marks,
    order: Vec<u32>,
}

impl Walk {
    fn new(n: usize) -> Walk {
        Walk { state: vec![NOT_LIVE_STATE; n], listed: Marks::new(n), order: Vec::new() }
    }

    fn start(&mut self, input: &[(u32, State)]) {
        self.listed.clear();
        self.order.clear();
        for &(c, s) in input {
            self.set(c as usize, s);
        }
    }

    fn get(&self, c: usize) -> State {
        if self.listed.contains(c) {
            self.state[c]
        } else {
            NOT_LIVE_STATE
        }
    }

    fn set(&mut self, c: usize, s: State) {
        if self.listed.insert(c) {
            self.order.push(c as u32);
        }
        self.state[c] = s;
    }

    /// The allocations that may be live here, sorted.
    fn maybe_live(&self) -> Vec<(u32, State)> {
        let mut out: Vec<(u32, State)> = self
            .order
            .iter()
            .map(|&c| (c, self.state[c as usize]))
            .filter(|(_, s)| s.status & LIVE != 0)
            .collect();
        out.sort_unstable_by_key(|&(c, _)| c);
        out
    }
}

/// The join of two block-entry lists (an allocation missing from one is
/// certainly not live on its paths).
fn join_lists(a: &[(u32, State)], b: &[(u32, State)]) -> Vec<(u32, State)> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(&(x, s)), Some(&(y, t))) if x == y => {
                out.push((x, s.join(t)));
                i += 1;
                j += 1;
            }
            (Some(&(x, s)), Some(&(y, _))) if x < y => {
                out.push((x, s.join(NOT_LIVE_STATE)));
                i += 1;
            }
            (Some(&(x, s)), None) => {
                out.push((x, s.join(NOT_LIVE_STATE)));
                i += 1;
            }
            (_, Some(&(y, t))) => {
                out.push((y, t.join(NOT_LIVE_STATE)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// The known constant operands of every instruction, keyed by (position in
/// layout order, operand index): constants defined earlier in the same block,
/// or everywhere-constant variables.
fn known_constants(f: &Function) -> HashMap<(usize, usize), Value> {
    let globals = global_constants(f);
    let mut known = HashMap::new();
    let mut at = 0;
    for block in &f.blocks {
        let mut local: HashMap<VarId, Value> = HashMap::new();
        for instr in &block.instrs {
            if matches!(instr.op, Op::Alloc | Op::PtrAdd) {
                for (k, &u) in instr.uses().iter().enumerate() {
                    if let Some(v) = local.get(&u).copied().or(globals[u.index()]) {
                        known.insert((at, k), v);
                    }
                }
            }
            if let Some(d) = instr.dest {
                match instr.value.filter(|_| instr.op == Op::Const) {
                    Some(lit) => match Value::from_literal(lit, d.ty) {
                        Some(v) => local.insert(d.var, v),
                        None => local.remove(&d.var),
                    },
                    None => local.remove(&d.var),
                };
            }
            at += 1;
        }
    }
    known
}

const UNALLOCATED: u8 = 1;
const LIVE: u8 = 2;
const FREED: u8 = 4;
/// Not allocated, or freed: what the analysis needs not tell apart.
const NOT_LIVE_STATE: State = State { status: UNALLOCATED | FREED, written: 0, fresh: 0 };

/// What holds on every path to a point.
#[derive(Clone, Copy, PartialEq, Debug)]
struct State {
    /// The states the allocation may be in (a set of the bits above).
    status: u8,
    /// Cells certainly written since the allocation (when live).
    written: u64,
    /// Derived pointers (by bit index) certainly computed from the live allocation.
    fresh: u64,
}

impl State {
    fn join(self, other: State) -> State {
        State {
            status: self.status | other.status,
            written: self.written & other.written,
            fresh: self.fresh & other.fresh,
        }
    }
}

/// The verdict of the analysis on one candidate.
pub(super) struct Lifetime {
    /// Every `alloc` finds the previous allocation freed, and every exit of
    /// the function finds it freed or never made: removing the `alloc` and
    /// `free` cannot change whether memory leaks or is freed twice.
    pub balanced: bool,
    /// Every access, `ptradd` and `free` happens while the allocation is live
    /// through a pointer computed from it: none of them can fail.
    pub accesses_safe: bool,
    /// Every `load` reads a cell certainly written before.
    pub loads_initialized: bool,
}

/// The effect of one instruction on the state, noting violations in `verdict`.
fn step(c: &Candidate, instr: &Instr, mut s: State, verdict: Option<&mut Lifetime>) -> State {
    let bit = |v: &VarId| c.derived.get(v).map(|&(_, b)| b);
    let mut unsafe_access = false;
    let mut unbalanced = false;
    let mut uninitialized = false;
    let live = s.status == LIVE;
    let usable = |v: VarId, s: &State| live && (v == c.base || bit(&v).is_some_and(|b| s.fresh & b != 0));
    match instr.op {
        Op::Alloc if instr.def() == Some(c.base) => {
            unbalanced = s.status & LIVE != 0;
            s = State { status: LIVE, written: 0, fresh: 0 };
        }
        Op::PtrAdd if instr.args.first() == Some(&c.base) => {
            unsafe_access = !live;
            if let Some(b) = instr.def().and_then(|q| bit(&q)) {
                s.fresh |= b;
            }
        }
        Op::Free if instr.args.first() == Some(&c.base) => {
            unsafe_access = !live;
            s = State { status: FREED, written: 0, fresh: 0 };
        }
        Op::Store | Op::Load => {
            if let Some(cell) = instr.args.first().and_then(|&a| c.cell_of(a).map(|k| (a, k))) {
                let (a, k) = cell;
                unsafe_access = !usable(a, &s);
                if instr.op == Op::Store {
                    s.written |= 1 << k;
                } else {
                    uninitialized = s.written >> k & 1 == 0;
                }
            }
        }
        _ => {}
    }
    if let Some(v) = verdict {
        v.accesses_safe &= !unsafe_access;
        v.balanced &= !unbalanced;
        v.loads_initialized &= !uninitialized;
    }
    s
}
