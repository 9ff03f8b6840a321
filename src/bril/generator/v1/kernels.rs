//! One function body over arrays, written as a sequence of kernels: the
//! loops people write over data (reductions, in-place maps, prefix sums,
//! windows of pairs, rows of a matrix, bubble passes, histograms, searches,
//! digit and Euclid loops, a logistic map in floats), calls to helpers in
//! loops, recursive calls with data-derived depths, and calls to other
//! workers. Every kernel folds what it computed into the function's
//! checksum `acc`, so the output depends on the work.
//!
//! Safety by construction: arrays hold cells in `0..VALUE_MOD` and have at
//! least `len` cells; indices are loop counters below `len` (or below a
//! bound derived from it); divisors are nonzero constants or a cell plus
//! one; every local allocation is freed by the kernel that made it.
//! Costs: every line is charged `mult` (its executions per call, an upper
//! bound), and a kernel that takes the function over its budget is rolled
//! back and replaced by a cheaper one.

use super::body::{int_name, Body};
use super::sig::{Callees, Kind, Ret, Role, VALUE_MOD};
use crate::rng::Rng;

macro_rules! emit {
    ($f:expr, $($t:tt)*) => { $f.b.line(format_args!($($t)*)) };
}

/// Loop counters by nesting depth (sequential loops reuse them, as people do).
const COUNTERS: [&str; 4] = ["i", "j", "l", "t"];

/// Where a loop's counter starts.
enum Start<'s> {
    Zero,
    One,
    Var(&'s str),
}

/// What a loop's counter stays below.
enum Bound<'s> {
    Var(&'s str),
    /// `len - k [- extra]`: computed before the loop, or (as people write
    /// it) again in every test, where it is loop-invariant.
    Minus(&'s str, i64, Option<&'s str>),
}

/// The kernels, by template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    Reduce,
    Map,
    Prefix,
    Pairs,
    Rows,
    Bubble,
    Histogram,
    Search,
    Reverse,
    Digits,
    Euclid,
    Collatz,
    Logistic,
    TwoArrays,
    HelperLoop,
    RecursiveCall,
    WorkerCall,
    Scalar,
}

/// The kernels with their weights (how often each is tried).
const KERNELS: [(Kernel, u64); 18] = [
    (Kernel::Reduce, 14),
    (Kernel::Map, 9),
    (Kernel::Prefix, 5),
    (Kernel::Pairs, 7),
    (Kernel::Rows, 5),
    (Kernel::Bubble, 5),
    (Kernel::Histogram, 5),
    (Kernel::Search, 5),
    (Kernel::Reverse, 4),
    (Kernel::Digits, 3),
    (Kernel::Euclid, 3),
    (Kernel::Collatz, 3),
    (Kernel::Logistic, 8),
    (Kernel::TwoArrays, 8),
    (Kernel::HelperLoop, 18),
    (Kernel::RecursiveCall, 6),
    (Kernel::WorkerCall, 4),
    (Kernel::Scalar, 4),
];

/// What a function body can use.
pub(super) struct Scope {
    /// Int arrays of at least `len` cells.
    pub arrays: Vec<String>,
    /// The length variable (at least 1, at most `n_max`).
    pub len: String,
    /// Int values of any sign (parameters, the seed).
    pub ints: Vec<String>,
    /// The logistic rate, when the function has one.
    pub rate: Option<String>,
    /// The float checksum, when the function keeps one.
    pub facc: Option<String>,
}

pub(super) struct Fun<'a> {
    pub rng: &'a mut Rng,
    pub b: Body,
    /// Functions this one may call (all generated before it).
    callees: &'a Callees,
    /// The largest `len` can be: the program's array length.
    n_max: u64,
    pub scope: Scope,
    /// The int checksum.
    pub acc: String,
    depth: usize,
    /// Bound on `b.cost` at the end of the body.
    budget: u64,
    /// Cost of the calls the body must still make.
    reserve: u64,
    /// Whether this is `@main` (which prints intermediate checksums).
    is_main: bool,
    /// What the body has done so far (undone with a kernel rolled back).
    pub done: Done,
    /// Functions no body has called yet: kernels that call prefer them.
    pub uncalled: Vec<usize>,
}

/// What a body has used and called: a function must not leave a
/// parameter unread, print an untouched sum, or leave a function uncalled.
#[derive(Clone, Default)]
pub(super) struct Done {
    /// For each array of the scope, whether it has been read.
    pub arrays_used: Vec<bool>,
    pub rate_used: bool,
    pub facc_written: bool,
    /// The callees called, in order (with repeats).
    pub calls: Vec<usize>,
}

impl<'a> Fun<'a> {
    pub fn new(
        rng: &'a mut Rng,
        callees: &'a Callees,
        n_max: u64,
        scope: Scope,
        budget: u64,
        is_main: bool,
    ) -> Self {
        let scope_arrays = scope.arrays.len();
        Fun {
            rng,
            b: Body::new(),
            callees,
            n_max,
            scope,
            acc: String::new(),
            depth: 0,
            budget,
            reserve: 0,
            is_main,
            done: Done { arrays_used: vec![false; scope_arrays], ..Done::default() },
            uncalled: Vec::new(),
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn pick(&mut self, list: &[String]) -> String {
        list[self.rng.index(list.len())].clone()
    }

    fn array(&mut self) -> String {
        let k = self.rng.index(self.scope.arrays.len());
        self.done.arrays_used[k] = true;
        self.scope.arrays[k].clone()
    }

    /// A reduction over every array no kernel has read yet.
    pub fn use_every_array(&mut self) {
        for k in 0..self.scope.arrays.len() {
            if !self.done.arrays_used[k] {
                self.done.arrays_used[k] = true;
                let a = self.scope.arrays[k].clone();
                self.reduce_over(a);
            }
        }
    }

    /// One of `candidates`, preferring those nobody has called yet.
    fn prefer_uncalled(&mut self, candidates: &[usize]) -> usize {
        let fresh: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|c| self.uncalled.contains(c) && !self.done.calls.contains(c))
            .collect();
        if !fresh.is_empty() && self.chance(80) {
            fresh[self.rng.index(fresh.len())]
        } else {
            candidates[self.rng.index(candidates.len())]
        }
    }

    /// An int of any sign in scope: the checksum or a parameter.
    fn any_int(&mut self) -> String {
        if self.scope.ints.is_empty() || self.chance(40) {
            return self.acc.clone();
        }
        let ints = std::mem::take(&mut self.scope.ints);
        let x = self.pick(&ints);
        self.scope.ints = ints;
        x
    }

    /// The text of the whole function under `header`.
    pub fn finish(self, header: &str) -> String {
        self.b.finish(header)
    }

    /// The checksum reduced to a cell value (`0..VALUE_MOD`).
    pub fn cell_of_acc(&mut self) -> String {
        let acc = self.acc.clone();
        self.modulo_any(&acc, VALUE_MOD)
    }

    /// `for (counter = 0; counter < bound; counter += 1) body()` at most
    /// `trips` times, the body held to `budget` (for the whole function).
    pub fn rounds_loop(
        &mut self,
        counter: &str,
        bound: &str,
        trips: u64,
        budget: u64,
        body: impl FnOnce(&mut Self),
    ) {
        let saved_budget = std::mem::replace(&mut self.budget, budget);
        emit!(self, "{counter}: int = const 0");
        let head = self.b.new_label("round");
        let inside = self.b.new_label("round.body");
        let done = self.b.new_label("round.done");
        self.b.label(&head);
        let saved = self.b.mult;
        self.b.mult = saved.saturating_mul(trips + 1);
        emit!(self, "cond: bool = lt {counter} {bound}");
        emit!(self, "br cond .{inside} .{done}");
        self.b.label(&inside);
        self.b.mult = saved.saturating_mul(trips);
        body(self);
        let one = self.b.int(1);
        emit!(self, "{counter}: int = add {counter} {one}");
        emit!(self, "jmp .{head}");
        self.b.mult = saved;
        self.b.label(&done);
        self.budget = saved_budget;
    }

    fn over_budget(&self) -> bool {
        self.b.cost.saturating_add(self.reserve) > self.budget
    }

    /// The body: kernels until `target` static instructions, with the
    /// calls in `must` (indices into the callees) spread among them.
    pub fn body(&mut self, target: usize, must: &[usize]) {
        self.reserve = must.iter().map(|&c| self.callees[c].cost.saturating_add(12)).sum();
        let mut next = 0;
        while self.b.instrs < target || next < must.len() {
            let left = (must.len() - next) as u64;
            let kernels_left = (target.saturating_sub(self.b.instrs) / 14) as u64;
            if left > 0 && self.rng.below(left + kernels_left) < left {
                let callee = must[next];
                next += 1;
                self.reserve = self.reserve.saturating_sub(self.callees[callee].cost.saturating_add(12));
                match self.callees[callee].kind {
                    Kind::Helper => self.helper_loop_with(callee),
                    Kind::Recursive => self.recursive_call_with(callee),
                    _ => self.call_worker(callee),
                }
                if self.is_main && self.chance(25) {
                    emit!(self, "print {}", self.acc);
                }
            } else if self.b.instrs < target {
                self.kernel();
            }
        }
    }

    /// One kernel that fits the budget (a cheap one when none of a few tries does).
    pub fn kernel(&mut self) {
        for _ in 0..4 {
            let mark = self.b.mark();
            let done = self.done.clone();
            let kind = self.pick_kernel();
            self.write(kind);
            if !self.over_budget() {
                return;
            }
            self.b.rollback(mark);
            self.done = done;
        }
        self.scalar();
    }

    fn pick_kernel(&mut self) -> Kernel {
        let total: u64 = KERNELS.iter().map(|(_, w)| w).sum();
        let mut x = self.rng.below(total);
        for (k, w) in KERNELS {
            if x < w {
                return k;
            }
            x -= w;
        }
        Kernel::Scalar
    }

    fn write(&mut self, kind: Kernel) {
        match kind {
            Kernel::Reduce => self.reduce(),
            Kernel::Map => self.map(),
            Kernel::Prefix => self.prefix(),
            Kernel::Pairs => self.pairs(),
            Kernel::Rows => self.rows(),
            Kernel::Bubble => self.bubble(),
            Kernel::Histogram => self.histogram(),
            Kernel::Search => self.search(),
            Kernel::Reverse => self.reverse(),
            Kernel::Digits => self.digits(),
            Kernel::Euclid => self.euclid(),
            Kernel::Collatz => self.collatz(),
            Kernel::Logistic if self.scope.rate.is_some() => self.logistic(),
            Kernel::TwoArrays if self.scope.arrays.len() >= 2 => self.two_arrays(),
            Kernel::HelperLoop => self.helper_loop(),
            Kernel::RecursiveCall => self.recursive_call(),
            Kernel::WorkerCall => self.extra_worker_call(),
            _ => self.reduce(),
        }
    }

    // ----- building blocks -----

    /// `for (c = start; c < bound; c += 1) body(c)`, top-tested, with the
    /// body run at most `trips` times per entry.
    fn for_loop(
        &mut self,
        start: Start,
        bound: &str,
        trips: u64,
        body: impl FnOnce(&mut Self, &'static str),
    ) {
        self.for_loop_by(start, Bound::Var(bound), trips, 1, body);
    }

    fn for_loop_by(
        &mut self,
        start: Start,
        bound: Bound,
        trips: u64,
        step: i64,
        body: impl FnOnce(&mut Self, &'static str),
    ) {
        let (bound, in_test) = match bound {
            Bound::Var(v) => (v.to_string(), None),
            Bound::Minus(v, k, extra) => {
                let last = self.b.var("last");
                let k = self.constant(k);
                if self.chance(40) {
                    (last, Some((v, k, extra)))
                } else {
                    emit!(self, "{last}: int = sub {v} {k}");
                    if let Some(e) = extra {
                        emit!(self, "{last}: int = sub {last} {e}");
                    }
                    (last, None)
                }
            }
        };
        let c = COUNTERS[self.depth.min(COUNTERS.len() - 1)];
        match start {
            Start::Zero => emit!(self, "{c}: int = const 0"),
            Start::One => emit!(self, "{c}: int = const 1"),
            Start::Var(v) => emit!(self, "{c}: int = id {v}"),
        }
        let head = self.b.new_label("loop");
        let inside = self.b.new_label("body");
        let done = self.b.new_label("done");
        self.b.label(&head);
        let saved = self.b.mult;
        self.b.mult = saved.saturating_mul(trips + 1);
        if let Some((v, k, extra)) = in_test {
            emit!(self, "{bound}: int = sub {v} {k}");
            if let Some(e) = extra {
                emit!(self, "{bound}: int = sub {bound} {e}");
            }
        }
        emit!(self, "cond: bool = lt {c} {bound}");
        emit!(self, "br cond .{inside} .{done}");
        self.b.label(&inside);
        self.b.mult = saved.saturating_mul(trips);
        self.depth += 1;
        body(self, c);
        self.depth -= 1;
        let step = self.constant(step);
        emit!(self, "{c}: int = add {c} {step}");
        emit!(self, "jmp .{head}");
        self.b.mult = saved;
        self.b.label(&done);
    }

    /// `while (test()) body()`, at most `trips` iterations per entry;
    /// `test` writes the lines computing its condition and returns it.
    fn while_loop(
        &mut self,
        trips: u64,
        test: impl FnOnce(&mut Self) -> String,
        body: impl FnOnce(&mut Self),
    ) {
        let head = self.b.new_label("while");
        let inside = self.b.new_label("step");
        let done = self.b.new_label("end");
        self.b.label(&head);
        let saved = self.b.mult;
        self.b.mult = saved.saturating_mul(trips + 1);
        let c = test(self);
        emit!(self, "br {c} .{inside} .{done}");
        self.b.label(&inside);
        self.b.mult = saved.saturating_mul(trips);
        self.depth += 1;
        body(self);
        self.depth -= 1;
        emit!(self, "jmp .{head}");
        self.b.mult = saved;
        self.b.label(&done);
    }

    fn if_then(&mut self, cond: &str, then: impl FnOnce(&mut Self)) {
        let yes = self.b.new_label("then");
        let join = self.b.new_label("endif");
        emit!(self, "br {cond} .{yes} .{join}");
        self.b.label(&yes);
        then(self);
        self.b.label(&join);
    }

    fn if_else(&mut self, cond: &str, then: impl FnOnce(&mut Self), other: impl FnOnce(&mut Self)) {
        let yes = self.b.new_label("then");
        let no = self.b.new_label("else");
        let join = self.b.new_label("endif");
        emit!(self, "br {cond} .{yes} .{no}");
        self.b.label(&yes);
        then(self);
        emit!(self, "jmp .{join}");
        self.b.label(&no);
        other(self);
        self.b.label(&join);
    }

    /// An int constant: usually the one declared at the top of the
    /// function, sometimes (as people write) defined right where it is
    /// used: again under its usual name outside loops, under a name of its
    /// own inside them (where it is loop-invariant).
    fn constant(&mut self, value: i64) -> String {
        if self.depth > 0 && self.chance(40) {
            let name = self.b.local_int(value);
            emit!(self, "{name}: int = const {value}");
            name
        } else if self.depth == 0 && self.chance(30) {
            let name = int_name(value);
            emit!(self, "{name}: int = const {value}");
            name
        } else {
            self.b.int(value)
        }
    }

    /// `arr[idx]`, through a pointer temporary.
    fn load(&mut self, arr: &str, idx: &str) -> String {
        let v = self.b.var("v");
        emit!(self, "p: ptr<int> = ptradd {arr} {idx}");
        emit!(self, "{v}: int = load p");
        v
    }

    fn store(&mut self, arr: &str, idx: &str, value: &str) {
        emit!(self, "p: ptr<int> = ptradd {arr} {idx}");
        emit!(self, "store p {value}");
    }

    /// `x mod m` for `x >= 0` and a constant `m > 0`: inline, or through a
    /// modulo helper when there is one.
    fn modulo(&mut self, x: &str, m: i64) -> String {
        let r = self.b.var("r");
        if let Some(h) = self.callees.modulo.clone() {
            if self.chance(70) {
                let m = self.constant(m);
                emit!(self, "{r}: int = call @{h} {x} {m}");
                return r;
            }
        }
        let mc = self.constant(m);
        emit!(self, "{r}: int = div {x} {mc}");
        emit!(self, "{r}: int = mul {r} {mc}");
        emit!(self, "{r}: int = sub {x} {r}");
        r
    }

    /// `x mod m` in `0..m` for an `x` of any sign.
    fn modulo_any(&mut self, x: &str, m: i64) -> String {
        let r = self.b.var("r");
        let mc = self.constant(m);
        if let Some(h) = self.callees.modulo.clone() {
            emit!(self, "{r}: int = call @{h} {x} {mc}");
            return r;
        }
        emit!(self, "{r}: int = div {x} {mc}");
        emit!(self, "{r}: int = mul {r} {mc}");
        emit!(self, "{r}: int = sub {x} {r}");
        let zero = self.b.int(0);
        let neg = self.b.var("neg");
        emit!(self, "{neg}: bool = lt {r} {zero}");
        self.if_then(&neg, |f| emit!(f, "{r}: int = add {r} {mc}"));
        r
    }

    /// Folds `x` into the checksum.
    fn fold(&mut self, x: &str) {
        let acc = self.acc.clone();
        match self.rng.index(5) {
            0 | 1 => emit!(self, "{acc}: int = add {acc} {x}"),
            2 => {
                let p = [31, 17, 7][self.rng.index(3)];
                let p = self.constant(p);
                emit!(self, "{acc}: int = mul {acc} {p}");
                emit!(self, "{acc}: int = add {acc} {x}");
            }
            3 => emit!(self, "{acc}: int = sub {acc} {x}"),
            _ => match self.callees.mix.clone() {
                Some(h) => emit!(self, "{acc}: int = call @{h} {acc} {x}"),
                None => emit!(self, "{acc}: int = add {acc} {x}"),
            },
        }
    }

    /// A fresh int set to 0.
    fn counter_var(&mut self, hint: &'static str) -> String {
        let v = self.b.var(hint);
        emit!(self, "{v}: int = const 0");
        v
    }

    /// A value to compare cells with: a cell, a constant or a parameter.
    fn threshold(&mut self, a: &str) -> String {
        match self.rng.index(3) {
            0 => {
                let two = self.b.int(2);
                let mid = self.b.var("mid");
                emit!(self, "{mid}: int = div {} {two}", self.scope.len);
                self.load(a, &mid)
            }
            1 => self.b.int(self.rng.int_inclusive(1000, VALUE_MOD - 1000)),
            _ => self.any_int(),
        }
    }

    /// Often, `cell` passed through an int helper (`abs`, `mix`, `clamp`,
    /// `scale`...) as people call small functions inside loops; else `cell`.
    fn through_helper(&mut self, cell: &str) -> String {
        let usable = |s: &super::sig::Sig| {
            matches!(s.ret, Ret::Int | Ret::NonNeg)
                && s.params.iter().all(|(_, r)| matches!(r, Role::Any | Role::NonNeg | Role::Positive))
        };
        let helpers: Vec<usize> =
            self.callees.helpers.iter().copied().filter(|&h| usable(&self.callees[h])).collect();
        if helpers.is_empty() || !self.chance(50) {
            return cell.to_string();
        }
        let h = self.prefer_uncalled(&helpers);
        let (name, params, cost) =
            (self.callees[h].name.clone(), self.callees[h].params.clone(), self.callees[h].cost);
        let args: Vec<String> = params.iter().filter_map(|(_, role)| self.arg(*role, Some(cell))).collect();
        let w = self.b.var("w");
        emit!(self, "{w}: int = call @{name} {}", args.join(" "));
        self.done.calls.push(h);
        self.b.cost = self.b.cost.saturating_add(self.b.mult.saturating_mul(cost));
        w
    }

    /// Now and then, a value nobody reads (people leave some).
    fn maybe_dead(&mut self, x: &str) {
        if self.chance(4) {
            let t = self.b.var("unused");
            let two = self.b.int(2);
            emit!(self, "{t}: int = mul {x} {two}");
        }
    }

    // ----- kernels -----

    fn reduce(&mut self) {
        let a = self.array();
        self.reduce_over(a);
    }

    fn reduce_over(&mut self, a: String) {
        let len = self.scope.len.clone();
        let s = self.counter_var("sum");
        match self.rng.index(4) {
            0 => self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
                let v = f.load(&a, i);
                let v = f.through_helper(&v);
                emit!(f, "{s}: int = add {s} {v}");
                f.maybe_dead(&v);
            }),
            1 => self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
                let v = f.load(&a, i);
                let v = f.through_helper(&v);
                let w = f.b.var("w");
                emit!(f, "{w}: int = mul {v} {i}");
                emit!(f, "{s}: int = add {s} {w}");
            }),
            2 => {
                let t = self.threshold(&a);
                let count = self.counter_var("count");
                self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
                    let v = f.load(&a, i);
                    let v = f.through_helper(&v);
                    let big = f.b.var("big");
                    emit!(f, "{big}: bool = gt {v} {t}");
                    f.if_else(
                        &big,
                        |f| emit!(f, "{s}: int = add {s} {v}"),
                        |f| {
                            let one = f.constant(1);
                            emit!(f, "{count}: int = add {count} {one}");
                        },
                    );
                });
                self.fold(&count);
            }
            _ => {
                let best = self.b.var("best");
                emit!(self, "{best}: int = load {a}");
                self.for_loop(Start::One, &len, self.n_max, |f, i| {
                    let v = f.load(&a, i);
                    let more = f.b.var("more");
                    emit!(f, "{more}: bool = gt {v} {best}");
                    f.if_then(&more, |f| {
                        emit!(f, "{best}: int = id {v}");
                        emit!(f, "{s}: int = id {i}");
                    });
                });
                self.fold(&best);
            }
        }
        self.fold(&s);
    }

    /// `a[i] = (a[i] * c + d [+ i]) mod VALUE_MOD`, sometimes two formulas
    /// chosen by the cell.
    fn map(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let c = self.rng.int_inclusive(2, 999);
        let d = self.rng.int_inclusive(1, 9999);
        let branchy = self.chance(40);
        let with_index = self.chance(50);
        let recompute = self.chance(50);
        self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
            let v = f.load(&a, i);
            let x = f.b.var("x");
            let cc = f.constant(c);
            emit!(f, "{x}: int = mul {v} {cc}");
            let dd = f.constant(d);
            emit!(f, "{x}: int = add {x} {dd}");
            if with_index {
                emit!(f, "{x}: int = add {x} {i}");
            }
            if branchy {
                let t = f.b.int(VALUE_MOD / 2);
                let high = f.b.var("high");
                emit!(f, "{high}: bool = ge {v} {t}");
                f.if_then(&high, |f| emit!(f, "{x}: int = add {x} {v}"));
            }
            let r = f.modulo(&x, VALUE_MOD);
            if recompute {
                f.store(&a, i, &r);
            } else {
                emit!(f, "store p {r}");
            }
        });
        let last = self.b.var("last");
        let one = self.b.int(1);
        emit!(self, "{last}: int = sub {len} {one}");
        let v = self.load(&a, &last);
        self.fold(&v);
    }

    /// `a[i] = (a[i-1] op a[i]) mod VALUE_MOD` for i from 1.
    fn prefix(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let use_max = self.chance(35);
        self.for_loop(Start::One, &len, self.n_max, |f, i| {
            let one = f.constant(1);
            let before = f.b.var("before");
            emit!(f, "{before}: int = sub {i} {one}");
            let prev = f.load(&a, &before);
            let cur = f.load(&a, i);
            if use_max {
                let less = f.b.var("less");
                emit!(f, "{less}: bool = lt {cur} {prev}");
                f.if_then(&less, |f| f.store(&a, i, &prev));
            } else {
                let s = f.b.var("s");
                emit!(f, "{s}: int = add {prev} {cur}");
                let r = f.modulo(&s, VALUE_MOD);
                f.store(&a, i, &r);
            }
        });
        let v = self.b.var("v");
        emit!(self, "{v}: int = load {a}");
        self.fold(&v);
    }

    /// Each cell against the next `w` cells: count or swap out-of-order pairs.
    fn pairs(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let w = self.rng.int_inclusive(2, 8);
        let swap = self.chance(40);
        let count = self.counter_var("pairs");
        self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
            let vi = f.load(&a, i);
            let wc = f.constant(w);
            let lim = f.b.var("lim");
            emit!(f, "{lim}: int = add {i} {wc}");
            let over = f.b.var("over");
            emit!(f, "{over}: bool = gt {lim} {len}");
            f.if_then(&over, |f| emit!(f, "{lim}: int = id {len}"));
            let one = f.constant(1);
            let from = f.b.var("from");
            emit!(f, "{from}: int = add {i} {one}");
            f.for_loop(Start::Var(&from), &lim, w as u64, |f, j| {
                let vj = f.load(&a, j);
                let out = f.b.var("out");
                emit!(f, "{out}: bool = gt {vi} {vj}");
                f.if_then(&out, |f| {
                    let one = f.constant(1);
                    emit!(f, "{count}: int = add {count} {one}");
                    if swap {
                        f.store(&a, i, &vj);
                        f.store(&a, j, &vi);
                        emit!(f, "{vi}: int = id {vj}");
                    }
                });
            });
        });
        self.fold(&count);
    }

    /// The array as rows of `w` cells (a constant, or a quarter of the
    /// length plus one, so at most 3 rows): each row's sum or maximum.
    fn rows(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let (wc, w, row_count) = if self.chance(50) {
            let w = self.rng.int_inclusive(3, 8);
            (self.b.int(w), w as u64, self.n_max / w as u64)
        } else {
            let (four, one) = (self.b.int(4), self.b.int(1));
            let width = self.b.var("width");
            emit!(self, "{width}: int = div {len} {four}");
            emit!(self, "{width}: int = add {width} {one}");
            (width, self.n_max / 4 + 1, 3)
        };
        let rows = self.b.var("rows");
        emit!(self, "{rows}: int = div {len} {wc}");
        let hoisted = self.chance(40);
        let use_max = self.chance(30);
        self.for_loop(Start::Zero, &rows, row_count, |f, r| {
            let rs = f.counter_var("row");
            let base = f.b.var("base");
            if hoisted {
                emit!(f, "{base}: int = mul {r} {wc}");
            }
            f.for_loop(Start::Zero, &wc, w, |f, c| {
                if !hoisted {
                    // Recomputed in every iteration, as people write it.
                    emit!(f, "{base}: int = mul {r} {wc}");
                }
                let idx = f.b.var("idx");
                emit!(f, "{idx}: int = add {base} {c}");
                let v = f.load(&a, &idx);
                if use_max {
                    let more = f.b.var("more");
                    emit!(f, "{more}: bool = gt {v} {rs}");
                    f.if_then(&more, |f| emit!(f, "{rs}: int = id {v}"));
                } else {
                    emit!(f, "{rs}: int = add {rs} {v}");
                }
            });
            f.fold(&rs);
        });
    }

    /// A few passes of bubble sort, counting swaps.
    fn bubble(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let passes = self.rng.int_inclusive(1, 4);
        let pc = if self.chance(50) {
            self.b.int(passes)
        } else {
            let x = self.any_int();
            let r = self.modulo_any(&x, passes);
            let one = self.b.int(1);
            let pc = self.b.var("passes");
            emit!(self, "{pc}: int = add {r} {one}");
            pc
        };
        let swaps = self.counter_var("swaps");
        self.for_loop(Start::Zero, &pc, passes as u64, |f, pass| {
            f.for_loop_by(Start::Zero, Bound::Minus(&len, 1, Some(pass)), f.n_max, 1, |f, j| {
                let x = f.load(&a, j);
                let one = f.constant(1);
                let next = f.b.var("next");
                emit!(f, "{next}: int = add {j} {one}");
                let y = f.load(&a, &next);
                let out = f.b.var("out");
                emit!(f, "{out}: bool = gt {x} {y}");
                f.if_then(&out, |f| {
                    f.store(&a, j, &y);
                    f.store(&a, &next, &x);
                    emit!(f, "{swaps}: int = add {swaps} {one}");
                });
            });
        });
        self.fold(&swaps);
    }

    /// Counts cells per bucket in a local array, folds the counts, frees it.
    fn histogram(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let (nb, most) = if self.chance(50) {
            let k = self.rng.int_inclusive(4, 16);
            (self.b.int(k), k as u64)
        } else {
            // A bucket count from the data: 4 to 16.
            let x = self.any_int();
            let r = self.modulo_any(&x, 13);
            let four = self.b.int(4);
            let nb = self.b.var("buckets");
            emit!(self, "{nb}: int = add {r} {four}");
            (nb, 16)
        };
        let h = self.b.var("hist");
        emit!(self, "{h}: ptr<int> = alloc {nb}");
        self.for_loop(Start::Zero, &nb, most, |f, c| {
            let zero = f.b.int(0);
            f.store(&h, c, &zero);
        });
        self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
            let v = f.load(&a, i);
            let q = f.b.var("bucket");
            emit!(f, "{q}: int = div {v} {nb}");
            emit!(f, "{q}: int = mul {q} {nb}");
            emit!(f, "{q}: int = sub {v} {q}");
            let c = f.load(&h, &q);
            let one = f.constant(1);
            emit!(f, "{c}: int = add {c} {one}");
            emit!(f, "store p {c}");
        });
        self.for_loop(Start::Zero, &nb, most, |f, c| {
            let v = f.load(&h, c);
            let x = f.b.var("x");
            emit!(f, "{x}: int = mul {v} {c}");
            f.fold(&x);
        });
        emit!(self, "free {h}");
    }

    /// Linear search for a key, leaving at the first match.
    fn search(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let key = if self.chance(50) {
            let i = self.b.var("at");
            let three = self.b.int(3);
            emit!(self, "{i}: int = div {len} {three}");
            self.load(&a, &i)
        } else {
            let x = self.any_int();
            self.modulo_any(&x, 64)
        };
        let found = self.b.var("found");
        emit!(self, "{found}: int = const -1");
        let i = COUNTERS[self.depth.min(COUNTERS.len() - 1)];
        emit!(self, "{i}: int = const 0");
        let (head, inside, next) =
            (self.b.new_label("search"), self.b.new_label("look"), self.b.new_label("next"));
        let (hit, done) = (self.b.new_label("hit"), self.b.new_label("searched"));
        self.b.label(&head);
        let saved = self.b.mult;
        self.b.mult = saved.saturating_mul(self.n_max + 1);
        emit!(self, "cond: bool = lt {i} {len}");
        emit!(self, "br cond .{inside} .{done}");
        self.b.label(&inside);
        self.b.mult = saved.saturating_mul(self.n_max);
        self.depth += 1;
        let v = self.load(&a, i);
        let same = self.b.var("same");
        emit!(self, "{same}: bool = eq {v} {key}");
        emit!(self, "br {same} .{hit} .{next}");
        self.b.label(&next);
        let one = self.constant(1);
        emit!(self, "{i}: int = add {i} {one}");
        emit!(self, "jmp .{head}");
        self.depth -= 1;
        self.b.mult = saved;
        self.b.label(&hit);
        emit!(self, "{found}: int = id {i}");
        self.b.label(&done);
        self.fold(&found);
    }

    /// Reverses the array in place (the last index recomputed in the body,
    /// as people write it), then folds the new first cell.
    fn reverse(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let two = self.b.int(2);
        let half = self.b.var("half");
        emit!(self, "{half}: int = div {len} {two}");
        self.for_loop(Start::Zero, &half, self.n_max / 2, |f, i| {
            let one = f.constant(1);
            let last = f.b.var("last");
            emit!(f, "{last}: int = sub {len} {one}");
            let j = f.b.var("mirror");
            emit!(f, "{j}: int = sub {last} {i}");
            let x = f.load(&a, i);
            let y = f.load(&a, &j);
            emit!(f, "store p {x}");
            f.store(&a, i, &y);
        });
        let v = self.b.var("v");
        emit!(self, "{v}: int = load {a}");
        self.fold(&v);
    }

    /// The decimal digit sum of every `step`th cell (five digits at most).
    fn digits(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let step = self.rng.int_inclusive(1, 3);
        let total = self.counter_var("digits");
        self.for_loop_by(Start::Zero, Bound::Var(&len), self.n_max.div_ceil(step as u64), step, |f, i| {
            let x = f.load(&a, i);
            let zero = f.b.int(0);
            let ten = f.constant(10);
            f.while_loop(
                5,
                |f| {
                    let more = f.b.var("more");
                    emit!(f, "{more}: bool = gt {x} {zero}");
                    more
                },
                |f| {
                    let q = f.b.var("q");
                    emit!(f, "{q}: int = div {x} {ten}");
                    let d = f.b.var("d");
                    emit!(f, "{d}: int = mul {q} {ten}");
                    emit!(f, "{d}: int = sub {x} {d}");
                    emit!(f, "{total}: int = add {total} {d}");
                    emit!(f, "{x}: int = id {q}");
                },
            );
        });
        self.fold(&total);
    }

    /// Euclid's gcd of neighbouring cells.
    fn euclid(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let g = self.counter_var("gcds");
        self.for_loop_by(Start::Zero, Bound::Minus(&len, 1, None), self.n_max, 1, |f, i| {
            let x = f.load(&a, i);
            let next = f.b.var("next");
            let one = f.constant(1);
            emit!(f, "{next}: int = add {i} {one}");
            let y = f.load(&a, &next);
            let zero = f.b.int(0);
            // Numbers below 2^16: at most 23 steps.
            f.while_loop(
                24,
                |f| {
                    let more = f.b.var("more");
                    emit!(f, "{more}: bool = gt {y} {zero}");
                    more
                },
                |f| {
                    let r = f.b.var("rem");
                    emit!(f, "{r}: int = div {x} {y}");
                    emit!(f, "{r}: int = mul {r} {y}");
                    emit!(f, "{r}: int = sub {x} {r}");
                    emit!(f, "{x}: int = id {y}");
                    emit!(f, "{y}: int = id {r}");
                },
            );
            emit!(f, "{g}: int = add {g} {x}");
        });
        self.fold(&g);
    }

    /// Collatz steps of a few cells, each capped.
    fn collatz(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let cap = self.rng.int_inclusive(8, 40);
        let step = self.rng.int_inclusive(2, 5);
        let steps = self.counter_var("steps");
        self.for_loop_by(Start::Zero, Bound::Var(&len), self.n_max.div_ceil(step as u64), step, |f, i| {
            let v = f.load(&a, i);
            let one = f.b.int(1);
            let x = f.b.var("x");
            emit!(f, "{x}: int = add {v} {one}");
            let n = f.counter_var("n");
            let capc = f.b.int(cap);
            f.while_loop(
                cap as u64,
                |f| {
                    let above = f.b.var("above");
                    emit!(f, "{above}: bool = gt {x} {one}");
                    let room = f.b.var("room");
                    emit!(f, "{room}: bool = lt {n} {capc}");
                    emit!(f, "{above}: bool = and {above} {room}");
                    above
                },
                |f| {
                    let two = f.b.int(2);
                    let h = f.b.var("h");
                    emit!(f, "{h}: int = div {x} {two}");
                    let hh = f.b.var("hh");
                    emit!(f, "{hh}: int = mul {h} {two}");
                    let even = f.b.var("even");
                    emit!(f, "{even}: bool = eq {hh} {x}");
                    f.if_else(
                        &even,
                        |f| emit!(f, "{x}: int = id {h}"),
                        |f| {
                            let three = f.constant(3);
                            emit!(f, "{x}: int = mul {x} {three}");
                            emit!(f, "{x}: int = add {x} {one}");
                        },
                    );
                    emit!(f, "{n}: int = add {n} {one}");
                },
            );
            emit!(f, "{steps}: int = add {steps} {n}");
        });
        self.fold(&steps);
    }

    /// The logistic map `x = r x (1 - x)` stepped along the array, its
    /// values summed up or down by the cells and counted below a half.
    pub fn logistic(&mut self) {
        let Some(rate) = self.scope.rate.clone() else { return self.reduce() };
        self.done.rate_used = true;
        let a = self.array();
        let len = self.scope.len.clone();
        let x = self.b.var("x");
        let x0 = [0.1, 0.2, 0.25, 0.3, 0.4, 0.6, 0.7][self.rng.index(7)];
        emit!(self, "{x}: float = const {x0:?}");
        let fs = self.b.var("fsum");
        emit!(self, "{fs}: float = const 0.0");
        let low = self.counter_var("low");
        let t = self.threshold(&a);
        self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
            let fone = f.b.float(1.0);
            let y = f.b.var("y");
            emit!(f, "{y}: float = fsub {fone} {x}");
            emit!(f, "{y}: float = fmul {y} {x}");
            emit!(f, "{x}: float = fmul {rate} {y}");
            let v = f.load(&a, i);
            let big = f.b.var("big");
            emit!(f, "{big}: bool = gt {v} {t}");
            f.if_else(
                &big,
                |f| emit!(f, "{fs}: float = fadd {fs} {x}"),
                |f| emit!(f, "{fs}: float = fsub {fs} {x}"),
            );
            let half = f.b.float(0.5);
            let under = f.b.var("under");
            emit!(f, "{under}: bool = flt {x} {half}");
            f.if_then(&under, |f| {
                let one = f.constant(1);
                emit!(f, "{low}: int = add {low} {one}");
            });
        });
        self.fold(&low);
        self.fold_float(&fs);
    }

    /// Two arrays cell by cell: a dot product, or one folded into the other.
    fn two_arrays(&mut self) {
        let (a, b) = (self.scope.arrays[0].clone(), self.scope.arrays[1].clone());
        self.done.arrays_used[0] = true;
        self.done.arrays_used[1] = true;
        let (a, b) = if self.chance(50) { (a, b) } else { (b, a) };
        let len = self.scope.len.clone();
        if self.chance(50) {
            let dot = self.counter_var("dot");
            self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
                let x = f.load(&a, i);
                let y = f.load(&b, i);
                let m = f.b.var("m");
                emit!(f, "{m}: int = mul {x} {y}");
                emit!(f, "{dot}: int = add {dot} {m}");
            });
            self.fold(&dot);
        } else {
            let mixes = self.counter_var("mixed");
            self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
                let x = f.load(&a, i);
                let y = f.load(&b, i);
                let s = f.b.var("s");
                emit!(f, "{s}: int = add {x} {y}");
                let less = f.b.var("less");
                emit!(f, "{less}: bool = lt {x} {y}");
                f.if_then(&less, |f| {
                    emit!(f, "{s}: int = add {s} {y}");
                    let one = f.constant(1);
                    emit!(f, "{mixes}: int = add {mixes} {one}");
                });
                let r = f.modulo(&s, VALUE_MOD);
                f.store(&b, i, &r);
            });
            self.fold(&mixes);
        }
    }

    /// A loop calling one helper per cell (what inlining pays off on).
    fn helper_loop(&mut self) {
        let floats = self.scope.facc.is_some() || self.scope.rate.is_some();
        let helpers: Vec<usize> = (self.callees.helpers.iter().copied())
            .filter(|&c| floats || self.callees[c].ret != Ret::Float)
            .collect();
        if helpers.is_empty() {
            return self.reduce();
        }
        let h = self.prefer_uncalled(&helpers);
        self.helper_loop_with(h);
    }

    /// A loop calling helper `h` once per cell.
    fn helper_loop_with(&mut self, h: usize) {
        let a = self.array();
        let len = self.scope.len.clone();
        let s = self.counter_var("total");
        let mut fsum = None;
        if self.callees[h].ret == Ret::Float {
            let v = self.b.var("fsum");
            emit!(self, "{v}: float = const 0.0");
            fsum = Some(v);
        }
        let fs = fsum.clone();
        self.for_loop(Start::Zero, &len, self.n_max, |f, i| {
            let v = f.load(&a, i);
            f.call_with(h, Some(&v), Some(&s), fs.as_deref());
            let _ = i;
        });
        self.fold(&s);
        if let Some(fs) = fsum {
            self.fold_float(&fs);
        }
    }

    /// Folds a float into the float checksum, or (without one) its sign
    /// into the int checksum.
    fn fold_float(&mut self, x: &str) {
        match self.scope.facc.clone() {
            Some(facc) => {
                emit!(self, "{facc}: float = fadd {facc} {x}");
                self.done.facc_written = true;
            }
            None => {
                let zero = self.b.float(0.0);
                let pos = self.b.var("positive");
                emit!(self, "{pos}: bool = fgt {x} {zero}");
                let acc = self.acc.clone();
                self.if_then(&pos, |f| {
                    let one = f.constant(1);
                    emit!(f, "{acc}: int = add {acc} {one}");
                });
            }
        }
    }

    /// Calls a recursive function with arguments from the data.
    fn recursive_call(&mut self) {
        if self.callees.recursive.is_empty() {
            return self.reduce();
        }
        let r = self.prefer_uncalled(&self.callees.recursive);
        self.recursive_call_with(r);
    }

    /// Calls recursive function `r`, for a few cells or once.
    fn recursive_call_with(&mut self, r: usize) {
        if self.chance(50) {
            // From a few cells.
            let a = self.array();
            let len = self.scope.len.clone();
            let step = self.rng.int_inclusive(3, 8);
            let s = self.counter_var("rec");
            self.for_loop_by(
                Start::Zero,
                Bound::Var(&len),
                self.n_max.div_ceil(step as u64),
                step,
                |f, i| {
                    let v = f.load(&a, i);
                    f.call_with(r, Some(&v), Some(&s), None);
                },
            );
            self.fold(&s);
        } else {
            let acc = self.acc.clone();
            self.call_with(r, None, Some(&acc), None);
        }
    }

    /// An extra call to a worker of a lower level (besides the one that must call it).
    fn extra_worker_call(&mut self) {
        let workers = &self.callees.workers;
        if workers.is_empty() {
            return self.reduce();
        }
        let w = workers[self.rng.index(workers.len())];
        if !self.can_call(w) {
            return self.reduce();
        }
        self.call_worker(w);
    }

    /// A call to worker `callee` at the current point, its result folded in.
    pub fn call_worker(&mut self, callee: usize) {
        let acc = self.acc.clone();
        self.call_with(callee, None, Some(&acc), None);
    }

    /// Calls `callee` with arguments for its roles; `cell` is a cell value
    /// at hand. An int result is added to `into` (folded when that is the
    /// checksum), a bool one decides whether `into` grows, a float one is
    /// added to `fsum` (or the float checksum).
    fn call_with(&mut self, callee: usize, cell: Option<&str>, into: Option<&str>, fsum: Option<&str>) {
        let sig = &self.callees[callee];
        let (name, params, ret, cost) = (sig.name.clone(), sig.params.clone(), sig.ret, sig.cost);
        if !self.can_call(callee) {
            return self.reduce();
        }
        let args: Vec<String> = params.iter().filter_map(|(_, role)| self.arg(*role, cell)).collect();
        let call = format!("call @{name} {}", args.join(" "));
        self.done.calls.push(callee);
        let into = into.map(str::to_string);
        match ret {
            Ret::Void => {
                // The callee left its result in its first array's first cell.
                emit!(self, "{call}");
                let v = self.b.var("first");
                emit!(self, "{v}: int = load {}", args[0]);
                self.fold(&v);
            }
            Ret::Int | Ret::NonNeg => {
                let r = self.b.var("res");
                emit!(self, "{r}: int = {call}");
                match into {
                    Some(x) if x == self.acc => self.fold(&r),
                    Some(x) => emit!(self, "{x}: int = add {x} {r}"),
                    None => self.fold(&r),
                }
            }
            Ret::Bool => {
                let r = self.b.var("yes");
                emit!(self, "{r}: bool = {call}");
                let x = into.unwrap_or_else(|| self.acc.clone());
                self.if_then(&r, |f| {
                    let one = f.constant(1);
                    emit!(f, "{x}: int = add {x} {one}");
                });
            }
            Ret::Float => {
                let r = self.b.var("fres");
                emit!(self, "{r}: float = {call}");
                match fsum {
                    Some(fs) => emit!(self, "{fs}: float = fadd {fs} {r}"),
                    None => self.fold_float(&r),
                }
            }
        }
        self.b.cost = self.b.cost.saturating_add(self.b.mult.saturating_mul(cost));
    }

    /// Whether this function has an argument for every parameter of `callee`.
    fn can_call(&self, callee: usize) -> bool {
        self.callees[callee].params.iter().all(|(_, role)| match role {
            Role::Rate => self.scope.rate.is_some(),
            Role::Float => self.scope.rate.is_some() || self.scope.facc.is_some(),
            _ => true,
        })
    }

    /// An argument for `role`, or `None` when this function has none.
    fn arg(&mut self, role: Role, cell: Option<&str>) -> Option<String> {
        Some(match role {
            Role::Array => self.array(),
            Role::Len => {
                if self.chance(20) {
                    let two = self.b.int(2);
                    let one = self.b.int(1);
                    let half = self.b.var("half");
                    emit!(self, "{half}: int = div {} {two}", self.scope.len);
                    emit!(self, "{half}: int = add {half} {one}");
                    half
                } else {
                    self.scope.len.clone()
                }
            }
            Role::Zero => self.b.int(0),
            Role::Any => match cell {
                Some(c) if self.chance(70) => c.to_string(),
                _ => self.any_int(),
            },
            Role::NonNeg => self.cell(cell),
            Role::Depth(d) => {
                let c = self.cell(cell);
                self.modulo(&c, d as i64 + 1)
            }
            Role::Positive => match cell {
                Some(c) if self.chance(50) => {
                    let one = self.b.int(1);
                    let d = self.b.var("divisor");
                    emit!(self, "{d}: int = add {c} {one}");
                    d
                }
                _ => self.b.int(self.rng.int_inclusive(2, 97)),
            },
            Role::Rate => {
                self.done.rate_used = true;
                self.scope.rate.clone()?
            }
            Role::Float => match self.scope.facc.clone() {
                Some(facc) => facc,
                None => {
                    self.done.rate_used = true;
                    self.scope.rate.clone()?
                }
            },
        })
    }

    /// A cell value: `cell` when given, else the first cell of an array.
    fn cell(&mut self, cell: Option<&str>) -> String {
        match cell {
            Some(c) => c.to_string(),
            None => {
                let a = self.array();
                let v = self.b.var("first");
                emit!(self, "{v}: int = load {a}");
                v
            }
        }
    }

    /// Straight-line arithmetic on the first and last cells, with a common
    /// subexpression and a division by data (a cell plus one).
    pub fn scalar(&mut self) {
        let a = self.array();
        let len = self.scope.len.clone();
        let x = self.b.var("x");
        emit!(self, "{x}: int = load {a}");
        let one = self.b.int(1);
        let last = self.b.var("last");
        emit!(self, "{last}: int = sub {len} {one}");
        let y = self.load(&a, &last);
        let s = self.b.var("s");
        emit!(self, "{s}: int = add {x} {y}");
        let c = self.b.int(self.rng.int_inclusive(3, 99));
        let t = self.b.var("prod");
        emit!(self, "{t}: int = mul {s} {c}");
        let s2 = self.b.var("s");
        emit!(self, "{s2}: int = add {x} {y}");
        emit!(self, "{t}: int = sub {t} {s2}");
        let d = self.b.var("d");
        emit!(self, "{d}: int = add {y} {one}");
        let q = self.b.var("q");
        emit!(self, "{q}: int = div {} {d}", self.acc);
        self.fold(&t);
        self.fold(&q);
        self.maybe_dead(&s);
    }
}
