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
//! which derived pointers were computed from the current allocation.

use std::collections::HashMap;

use super::facts::{def_counts, global_constants};
use super::fold::Value;
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

/// One non-escaping allocation.
pub(super) struct Candidate {
    pub base: VarId,
    /// The type of a cell.
    pub cell_type: Type,
    pub cells: usize,
    /// Pointers derived by `ptradd`, with their cell index.
    pub derived: HashMap<VarId, usize>,
}

impl Candidate {
    /// The cell an address variable points to, when it is this allocation's.
    pub fn cell_of(&self, v: VarId) -> Option<usize> {
        if v == self.base {
            Some(0)
        } else {
            self.derived.get(&v).copied()
        }
    }

    /// Whether `instr` touches this allocation at all.
    pub fn touches(&self, instr: &Instr) -> bool {
        instr.def().is_some_and(|d| self.cell_of(d).is_some())
            || instr.uses().iter().any(|&u| self.cell_of(u).is_some())
    }
}

/// Every non-escaping allocation of `f`.
pub(super) fn candidates(f: &Function) -> Vec<Candidate> {
    let defs = def_counts(f);
    let consts = known_constants(f);
    let single = |v: VarId| defs[v.index()] == 1 && !f.params.iter().any(|p| p.var == v);
    let mut found = Vec::new();
    for (at, instr) in f.instrs().enumerate() {
        let (Op::Alloc, Some(d)) = (instr.op, instr.dest) else { continue };
        let size = consts.get(&(at, 0)).and_then(|v| v.as_int());
        let (Some(size), Some(cell_type)) = (size, d.ty.pointee()) else { continue };
        if !(1..=MAX_CELLS).contains(&size) || !single(d.var) {
            continue;
        }
        let mut c = Candidate { base: d.var, cell_type, cells: size as usize, derived: HashMap::new() };
        for (at, i) in f.instrs().enumerate() {
            if i.op == Op::PtrAdd && i.args.first() == Some(&d.var) {
                let offset = consts.get(&(at, 1)).and_then(|v| v.as_int());
                match (offset, i.def()) {
                    (Some(k), Some(q)) if (0..size).contains(&k) && single(q) => {
                        c.derived.insert(q, k as usize);
                    }
                    _ => {
                        c.derived.clear();
                        c.cells = 0;
                        break;
                    }
                }
            }
        }
        if c.cells > 0 && c.derived.len() <= 64 && !escapes(f, &c) {
            found.push(c);
        }
    }
    found
}

/// Whether any read of the allocation's pointers is not an address.
fn escapes(f: &Function, c: &Candidate) -> bool {
    f.instrs().any(|i| {
        i.uses().iter().enumerate().any(|(k, &u)| {
            let Some(_) = c.cell_of(u) else { return false };
            let is_base = u == c.base;
            let as_address = k == 0 && matches!(i.op, Op::Load | Op::Store);
            let base_only = k == 0 && is_base && matches!(i.op, Op::Free | Op::PtrAdd);
            !(as_address || base_only)
        })
    })
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

/// Runs the forward analysis of candidate `c` over `f`.
pub(super) fn lifetime(f: &Function, c: &Candidate) -> Lifetime {
    let bit: HashMap<VarId, u64> = c.derived.keys().enumerate().map(|(i, &q)| (q, 1u64 << i)).collect();
    let n = f.blocks.len();
    let mut ins: Vec<Option<State>> = vec![None; n];
    let mut work = Vec::new();
    if n > 0 {
        ins[0] = Some(State { status: UNALLOCATED, written: 0, fresh: 0 });
        work.push(0);
    }
    // Statuses only grow and the certain sets only shrink: this terminates.
    while let Some(b) = work.pop() {
        let Some(mut s) = ins[b] else { continue };
        for instr in &f.blocks[b].instrs {
            s = step(c, &bit, instr, s, None);
        }
        for &succ in f.successors(BlockId::new(b)).iter() {
            let new = ins[succ.index()].map_or(s, |old| old.join(s));
            if ins[succ.index()] != Some(new) {
                ins[succ.index()] = Some(new);
                work.push(succ.index());
            }
        }
    }
    let mut verdict = Lifetime { balanced: true, accesses_safe: true, loads_initialized: true };
    for (b, state) in ins.iter().enumerate() {
        let Some(mut s) = *state else { continue };
        for instr in &f.blocks[b].instrs {
            s = step(c, &bit, instr, s, Some(&mut verdict));
        }
        // Leaving the function with the allocation live leaks it.
        if f.successors(BlockId::new(b)).is_empty() && s.status & LIVE != 0 {
            verdict.balanced = false;
        }
    }
    verdict
}

/// The effect of one instruction on the state, noting violations in `verdict`.
fn step(
    c: &Candidate,
    bit: &HashMap<VarId, u64>,
    instr: &Instr,
    mut s: State,
    verdict: Option<&mut Lifetime>,
) -> State {
    let mut unsafe_access = false;
    let mut unbalanced = false;
    let mut uninitialized = false;
    let live = s.status == LIVE;
    let usable = |v: VarId, s: &State| live && (v == c.base || bit.get(&v).is_some_and(|b| s.fresh & b != 0));
    match instr.op {
        Op::Alloc if instr.def() == Some(c.base) => {
            unbalanced = s.status & LIVE != 0;
            s = State { status: LIVE, written: 0, fresh: 0 };
        }
        Op::PtrAdd if instr.args.first() == Some(&c.base) => {
            unsafe_access = !live;
            if let Some(b) = instr.def().and_then(|q| bit.get(&q)) {
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
