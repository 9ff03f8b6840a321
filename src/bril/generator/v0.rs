//! Random Bril programs, `generator://random-v0/SEED` or
//! `generator://random-v0/SEED?size=N`.
//!
//! Every program is well formed, terminates and runs without error: loops
//! count to small constant bounds, calls only go to functions generated later
//! (no recursion) and only where the callee's cost keeps the whole run within
//! [`WORK_BUDGET`] dynamic instructions, integer division is by nonzero
//! constants, and memory is allocated with a constant size, fully written
//! before any read, indexed in bounds and freed in the scope that made it.
//! Programs mix ints, bools, floats and chars, and `@main` prints.
//!
//! `size` (default [`DEFAULT_SIZE`], at most [`MAX_SIZE`]) is roughly the
//! number of statements across all functions, about 3.5 instructions each:
//! size 2,000 gives some 7,000 instructions, 7,000 some 20,000, and 20,000
//! between 40,000 and 60,000. The same seed and size always give the same
//! program, on every platform; sizes up to 2,000 give the programs the
//! generator's first release gave. Generation is linear in the size.

use std::fmt::Write;

use crate::bril::ir::Program;
use crate::bril::parse_text;
use crate::error::Result;
use crate::rng::Rng;

pub const URI_PREFIX: &str = "generator://random-v0/";
pub const DEFAULT_SIZE: u32 = 40;
pub const MAX_SIZE: u32 = 20_000;
/// Upper bound on the dynamic instructions of a generated program.
pub const WORK_BUDGET: u64 = 2_000_000;

/// The program a `generator://random-v0/...` URI names.
pub fn from_uri(uri: &str) -> Result<Program> {
    let (seed, size) = super::seed_and_size(uri, URI_PREFIX, DEFAULT_SIZE, MAX_SIZE)?;
    generate(seed, size)
}

/// A random program for `seed` with about `size` statements.
pub fn generate(seed: u64, size: u32) -> Result<Program> {
    parse_text(&generate_text(seed, size))
}

/// The Bril text of [`generate`].
pub fn generate_text(seed: u64, size: u32) -> String {
    let size = size.clamp(1, MAX_SIZE);
    let mut rng = Rng::seed_from_u64(seed);
    let helpers = helper_count(&mut rng, size);
    let mut funcs: Vec<FuncSig> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    // Callees first: function k may call only functions generated before it.
    let share = (size as usize / (helpers + 1)).max(1);
    for k in 0..helpers {
        let sig = FuncSig::random(&mut rng, format!("f{}", helpers - k));
        let (text, cost) = Gen::new(&mut rng, &funcs, share, spend_limit(size)).function(&sig);
        texts.push(text);
        funcs.push(FuncSig { cost, ..sig });
    }
    let arg = rng.int_inclusive(1, 20);
    let main_sig = FuncSig { name: "main".into(), params: vec![Ty::Int], ret: None, cost: 0 };
    let main_share = (size as usize).saturating_sub(share * helpers).max(1);
    let (main_text, _) = Gen::new(&mut rng, &funcs, main_share, spend_limit(size)).function(&main_sig);
    let mut out = format!("# ARGS: {arg}\n# generator://random-v0/{seed}?size={size}\n");
    out.push_str(&main_text);
    for t in texts.iter().rev() {
        out.push_str(t);
    }
    out
}

/// How many functions besides `@main`: fewer than 5 up to
/// [`FIRST_MAX_SIZE`] (as in the first release); beyond, one per 400 to 2,000
/// statements, so a large program is many functions of moderate size, as real
/// ones are, rather than one huge function.
fn helper_count(rng: &mut Rng, size: u32) -> usize {
    if size <= FIRST_MAX_SIZE {
        rng.below(u64::from(size / 15 + 1).min(5)) as usize
    } else {
        let (least, most) = (u64::from(size / 2000), u64::from(size / 400));
        (least + rng.below(most - least + 1)) as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Bool,
    Float,
    Char,
}

impl Ty {
    /// The index of the type's list in [`Scopes`].
    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Float => "float",
            Ty::Char => "char",
        }
    }
}

#[derive(Clone, Debug)]
struct FuncSig {
    name: String,
    params: Vec<Ty>,
    ret: Option<Ty>,
    /// Most dynamic instructions one call can execute.
    cost: u64,
}

impl FuncSig {
    fn random(rng: &mut Rng, name: String) -> FuncSig {
        let n = 1 + rng.index(3);
        let params = (0..n).map(|_| pick_ty(rng)).collect();
        let ret = match rng.index(4) {
            0 => None,
            1 => Some(Ty::Float),
            2 => Some(Ty::Bool),
            _ => Some(Ty::Int),
        };
        FuncSig { name, params, ret, cost: 0 }
    }
}

fn pick_ty(rng: &mut Rng) -> Ty {
    match rng.index(10) {
        0..=4 => Ty::Int,
        5 | 6 => Ty::Bool,
        7 | 8 => Ty::Float,
        _ => Ty::Char,
    }
}

/// The variables visible at the current point, in declaration order (outer
/// scopes first), with each type's variables indexed so that picking one
/// costs O(1) however many there are.
#[derive(Default)]
struct Scopes {
    visible: Vec<(String, Ty)>,
    /// Indices into `visible` of the variables of each type, by [`Ty::index`].
    by_type: [Vec<usize>; 4],
    /// For each open scope, `visible.len()` when it opened: inner scopes are
    /// closed before outer ones declare again, so a scope's variables are
    /// the tail of `visible` from its mark.
    marks: Vec<usize>,
}

impl Scopes {
    fn open(&mut self) {
        self.marks.push(self.visible.len());
    }

    fn close(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.visible.truncate(mark);
        for list in &mut self.by_type {
            while list.last().is_some_and(|&i| i >= mark) {
                list.pop();
            }
        }
    }

    fn declare(&mut self, name: &str, ty: Ty) {
        self.by_type[ty.index()].push(self.visible.len());
        self.visible.push((name.to_string(), ty));
    }

    /// How many visible variables have type `ty`.
    fn count(&self, ty: Ty) -> usize {
        self.by_type[ty.index()].len()
    }

    /// The `k`th visible variable of type `ty`.
    fn nth(&self, ty: Ty, k: usize) -> &str {
        &self.visible[self.by_type[ty.index()][k]].0
    }

    /// The variables of type `ty` declared in the innermost scope: a range of
    /// `nth` indices.
    fn innermost(&self, ty: Ty) -> std::ops::Range<usize> {
        let mark = self.marks.last().copied().unwrap_or(0);
        let list = &self.by_type[ty.index()];
        let first = list.partition_point(|&i| i < mark);
        first..list.len()
    }
}

/// Generates one function body.
struct Gen<'a> {
    rng: &'a mut Rng,
    callees: &'a [FuncSig],
    out: String,
    /// Variables visible here; inner scopes are closed at their end.
    scopes: Scopes,
    next_var: u32,
    next_label: u32,
    /// Statements left to generate.
    budget: usize,
    /// Iterations the current point runs for each call of the function.
    multiplier: u64,
    /// Dynamic instructions one call may execute, so far.
    cost: u64,
    loop_depth: u32,
    /// See [`spend_limit`].
    spend_limit: u64,
    /// Memory blocks open in enclosing scopes: (pointer, cells, type).
    arrays: Vec<(String, i64, Ty)>,
}

const MAX_LOOP_DEPTH: u32 = 2;
const MAX_TRIP: i64 = 6;
/// The largest size of the generator's first release: programs up to this
/// size are kept byte for byte, so seeds name the same programs as before.
const FIRST_MAX_SIZE: u32 = 2000;
/// Above [`FIRST_MAX_SIZE`], the cost past which a function opens no loop,
/// array or call and ends open blocks early. Past it every statement costs at
/// most 3 instructions, so the cost stays under [`WORK_BUDGET`] at any size
/// up to [`MAX_SIZE`]: half the budget, at most a quarter more for the call
/// being made when it was crossed, and 3 per statement left. (Smaller
/// programs stay well under the budget without it, as the tests check.)
const SPEND_LIMIT: u64 = WORK_BUDGET / 2;

fn spend_limit(size: u32) -> u64 {
    if size <= FIRST_MAX_SIZE {
        u64::MAX
    } else {
        SPEND_LIMIT
    }
}

impl<'a> Gen<'a> {
    fn new(rng: &'a mut Rng, callees: &'a [FuncSig], budget: usize, spend_limit: u64) -> Self {
        Gen {
            rng,
            callees,
            out: String::new(),
            scopes: Scopes { marks: vec![0], ..Scopes::default() },
            next_var: 0,
            next_label: 0,
            budget,
            multiplier: 1,
            cost: 0,
            loop_depth: 0,
            spend_limit,
            arrays: Vec::new(),
        }
    }

    fn over_budget(&self) -> bool {
        self.cost >= self.spend_limit
    }

    fn line(&mut self, text: &str) {
        self.out.push_str("  ");
        self.out.push_str(text);
        self.out.push_str(";\n");
        self.cost = self.cost.saturating_add(self.multiplier);
    }

    fn label(&mut self, name: &str) {
        let _ = writeln!(self.out, ".{name}:");
    }

    fn fresh_label(&mut self, hint: &str) -> String {
        self.next_label += 1;
        format!("{hint}{}", self.next_label)
    }

    fn fresh_var(&mut self, ty: Ty) -> String {
        self.next_var += 1;
        let prefix = match ty {
            Ty::Int => "i",
            Ty::Bool => "b",
            Ty::Float => "x",
            Ty::Char => "c",
        };
        format!("{prefix}{}", self.next_var)
    }

    fn declare(&mut self, name: &str, ty: Ty) {
        self.scopes.declare(name, ty);
    }

    /// A variable of type `ty`, defining a constant when there is none (or by chance).
    fn operand(&mut self, ty: Ty) -> String {
        let n = self.scopes.count(ty);
        if n == 0 || self.rng.index(5) == 0 {
            let v = self.fresh_var(ty);
            let lit = self.literal(ty);
            self.line(&format!("{v}: {} = const {lit}", ty.name()));
            self.declare(&v, ty);
            return v;
        }
        let k = self.rng.index(n);
        self.scopes.nth(ty, k).to_string()
    }

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => self.rng.int_inclusive(-20, 40).to_string(),
            Ty::Bool => (self.rng.index(2) == 0).to_string(),
            Ty::Float => {
                let x = self.rng.int_inclusive(-400, 400) as f64 / 8.0;
                format!("{x:?}")
            }
            Ty::Char => format!("'{}'", (b'a' + self.rng.index(26) as u8) as char),
        }
    }

    /// A destination: a new variable, or (sometimes) reassigning one in the
    /// innermost scope, which keeps the program out of SSA form.
    fn dest(&mut self, ty: Ty) -> String {
        let reuse = self.scopes.innermost(ty);
        if !reuse.is_empty() && self.rng.index(4) == 0 {
            let k = reuse.start + self.rng.index(reuse.len());
            return self.scopes.nth(ty, k).to_string();
        }
        let v = self.fresh_var(ty);
        self.declare(&v, ty);
        v
    }

    fn function(mut self, sig: &FuncSig) -> (String, u64) {
        let mut header = format!("@{}", sig.name);
        if !sig.params.is_empty() {
            header.push('(');
            for (i, &t) in sig.params.iter().enumerate() {
                let name = format!("p{i}");
                if i > 0 {
                    header.push_str(", ");
                }
                let _ = write!(header, "{name}: {}", t.name());
                self.declare(&name, t);
            }
            header.push(')');
        }
        if let Some(r) = sig.ret {
            let _ = write!(header, ": {}", r.name());
        }
        header.push_str(" {\n");
        while self.budget > 0 {
            self.statement();
        }
        if sig.name == "main" {
            self.print_some(3);
        }
        if let Some(r) = sig.ret {
            let v = self.operand(r);
            self.line(&format!("ret {v}"));
        }
        self.out.push_str("}\n");
        (header + &self.out, self.cost)
    }

    fn print_some(&mut self, most: usize) {
        if self.scopes.visible.is_empty() {
            self.operand(Ty::Int);
        }
        let n = self.scopes.visible.len();
        let k = 1 + self.rng.index(most.min(n));
        let mut line = String::from("print");
        for _ in 0..k {
            let at = self.rng.index(n);
            line.push(' ');
            line.push_str(&self.scopes.visible[at].0);
        }
        self.line(&line);
    }

    fn statement(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        match self.rng.index(20) {
            0..=5 => self.int_op(),
            6 | 7 => self.compare(),
            8 => self.bool_op(),
            9 | 10 => self.float_op(),
            11 => self.char_op(),
            12 => self.print_some(3),
            13 | 14 => self.if_else(),
            15 | 16 => self.counted_loop(),
            17 => self.call(),
            _ => self.memory(),
        }
    }

    fn int_op(&mut self) {
        let a = self.operand(Ty::Int);
        let (op, b) = match self.rng.index(5) {
            0 => ("add", self.operand(Ty::Int)),
            1 => ("sub", self.operand(Ty::Int)),
            2 => ("mul", self.operand(Ty::Int)),
            3 => {
                // Division only by a nonzero constant.
                let k = self.fresh_var(Ty::Int);
                let mut n = self.rng.int_inclusive(1, 9);
                if self.rng.index(3) == 0 {
                    n = -n;
                }
                self.line(&format!("{k}: int = const {n}"));
                ("div", k)
            }
            _ => ("id", String::new()),
        };
        let d = self.dest(Ty::Int);
        if op == "id" {
            self.line(&format!("{d}: int = id {a}"));
        } else {
            self.line(&format!("{d}: int = {op} {a} {b}"));
        }
    }

    fn compare(&mut self) {
        let ops = ["eq", "lt", "gt", "le", "ge"];
        let op = ops[self.rng.index(ops.len())];
        let (a, b) = (self.operand(Ty::Int), self.operand(Ty::Int));
        let d = self.dest(Ty::Bool);
        self.line(&format!("{d}: bool = {op} {a} {b}"));
    }

    fn bool_op(&mut self) {
        let a = self.operand(Ty::Bool);
        let d;
        match self.rng.index(3) {
            0 => {
                d = self.dest(Ty::Bool);
                self.line(&format!("{d}: bool = not {a}"));
            }
            k => {
                let b = self.operand(Ty::Bool);
                d = self.dest(Ty::Bool);
                let op = if k == 1 { "and" } else { "or" };
                self.line(&format!("{d}: bool = {op} {a} {b}"));
            }
        }
    }

    fn float_op(&mut self) {
        let a = self.operand(Ty::Float);
        let b = self.operand(Ty::Float);
        if self.rng.index(4) == 0 {
            let ops = ["feq", "flt", "fgt", "fle", "fge"];
            let op = ops[self.rng.index(ops.len())];
            let d = self.dest(Ty::Bool);
            self.line(&format!("{d}: bool = {op} {a} {b}"));
        } else {
            let ops = ["fadd", "fsub", "fmul", "fdiv"];
            let op = ops[self.rng.index(ops.len())];
            let d = self.dest(Ty::Float);
            self.line(&format!("{d}: float = {op} {a} {b}"));
        }
    }

    fn char_op(&mut self) {
        let a = self.operand(Ty::Char);
        if self.rng.index(2) == 0 {
            let d = self.dest(Ty::Int);
            self.line(&format!("{d}: int = char2int {a}"));
        } else {
            let b = self.operand(Ty::Char);
            let ops = ["ceq", "clt", "cgt", "cle", "cge"];
            let op = ops[self.rng.index(ops.len())];
            let d = self.dest(Ty::Bool);
            self.line(&format!("{d}: bool = {op} {a} {b}"));
        }
    }

    /// Generates statements in a new scope (its variables die at its end).
    fn block(&mut self, statements: usize) {
        self.scopes.open();
        for _ in 0..statements {
            if self.budget == 0 || self.over_budget() {
                break;
            }
            self.statement();
        }
        self.scopes.close();
    }

    fn if_else(&mut self) {
        let c = self.operand(Ty::Bool);
        let then = self.fresh_label("then");
        let other = self.fresh_label("else");
        let join = self.fresh_label("join");
        self.line(&format!("br {c} .{then} .{other}"));
        self.label(&then);
        let n = 1 + self.rng.index(4);
        self.block(n);
        self.line(&format!("jmp .{join}"));
        self.label(&other);
        let n = self.rng.index(4);
        self.block(n);
        self.label(&join);
    }

    fn counted_loop(&mut self) {
        if self.loop_depth >= MAX_LOOP_DEPTH || self.over_budget() {
            return self.int_op();
        }
        let trips = self.rng.int_inclusive(1, MAX_TRIP);
        let i = self.fresh_var(Ty::Int);
        let n = self.fresh_var(Ty::Int);
        let one = self.fresh_var(Ty::Int);
        let go = self.fresh_var(Ty::Bool);
        let head = self.fresh_label("loop");
        let body = self.fresh_label("body");
        let done = self.fresh_label("done");
        self.line(&format!("{i}: int = const 0"));
        self.line(&format!("{n}: int = const {trips}"));
        self.line(&format!("{one}: int = const 1"));
        self.label(&head);
        let saved = self.multiplier;
        self.multiplier = self.multiplier.saturating_mul(trips as u64 + 1);
        self.line(&format!("{go}: bool = lt {i} {n}"));
        self.line(&format!("br {go} .{body} .{done}"));
        self.label(&body);
        self.loop_depth += 1;
        // The counter is readable in the body but, kept out of the innermost
        // scope, never chosen as a destination.
        self.scopes.open();
        self.declare(&i, Ty::Int);
        let k = 1 + self.rng.index(5);
        self.block(k);
        self.scopes.close();
        self.loop_depth -= 1;
        self.line(&format!("{i}: int = add {i} {one}"));
        self.line(&format!("jmp .{head}"));
        self.multiplier = saved;
        self.label(&done);
    }

    fn call(&mut self) {
        if self.over_budget() {
            return self.int_op();
        }
        let budget_left = WORK_BUDGET.saturating_sub(self.cost);
        let multiplier = self.multiplier;
        let affordable =
            |f: &&FuncSig| f.cost.saturating_add(4).saturating_mul(multiplier) <= budget_left / 4;
        let count = self.callees.iter().filter(affordable).count();
        if count == 0 {
            return self.int_op();
        }
        let k = self.rng.index(count);
        let callees = self.callees;
        let Some(f) = callees.iter().filter(affordable).nth(k) else {
            return self.int_op();
        };
        let args: Vec<String> = f.params.iter().map(|&t| self.operand(t)).collect();
        let call = format!("call @{} {}", f.name, args.join(" "));
        match f.ret {
            Some(t) => {
                let d = self.dest(t);
                self.line(&format!("{d}: {} = {call}", t.name()));
            }
            None => self.line(&call),
        }
        self.cost = self.cost.saturating_add(f.cost.saturating_mul(self.multiplier));
    }

    /// Allocates a small array, fills it, works on it, frees it.
    fn memory(&mut self) {
        if self.over_budget() {
            return self.int_op();
        }
        let ty = if self.rng.index(3) == 0 { Ty::Float } else { Ty::Int };
        let len = self.rng.int_inclusive(1, 8);
        self.next_var += 1;
        let p = format!("m{}", self.next_var);
        let n = self.fresh_var(Ty::Int);
        let one = self.fresh_var(Ty::Int);
        let k = self.fresh_var(Ty::Int);
        let go = self.fresh_var(Ty::Bool);
        let q = format!("{p}q");
        let tn = ty.name();
        self.line(&format!("{n}: int = const {len}"));
        self.line(&format!("{one}: int = const 1"));
        self.line(&format!("{p}: ptr<{tn}> = alloc {n}"));
        // Write every cell before anything reads one.
        let head = self.fresh_label("fill");
        let body = self.fresh_label("put");
        let done = self.fresh_label("filled");
        let v = self.operand(ty);
        self.line(&format!("{k}: int = const 0"));
        self.label(&head);
        self.line(&format!("{go}: bool = lt {k} {n}"));
        self.line(&format!("br {go} .{body} .{done}"));
        self.label(&body);
        self.line(&format!("{q}: ptr<{tn}> = ptradd {p} {k}"));
        self.line(&format!("store {q} {v}"));
        self.line(&format!("{k}: int = add {k} {one}"));
        self.line(&format!("jmp .{head}"));
        self.label(&done);
        self.cost = self.cost.saturating_add(self.multiplier * 5 * len as u64);
        // A few accesses at constant in-bounds offsets.
        for _ in 0..1 + self.rng.index(3) {
            let at = self.fresh_var(Ty::Int);
            let offset = self.rng.int_inclusive(0, len - 1);
            let r = format!("{p}r{}", self.next_var);
            self.line(&format!("{at}: int = const {offset}"));
            self.line(&format!("{r}: ptr<{tn}> = ptradd {p} {at}"));
            if self.rng.index(2) == 0 {
                let x = self.dest(ty);
                self.line(&format!("{x}: {tn} = load {r}"));
            } else {
                let x = self.operand(ty);
                self.line(&format!("store {r} {x}"));
            }
        }
        self.arrays.push((p.clone(), len, ty));
        let n_inner = self.rng.index(3);
        self.block(n_inner);
        self.arrays.pop();
        self.line(&format!("free {p}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};

    #[test]
    fn programs_verify_run_and_print() {
        let limits = Limits { fuel: 5 * WORK_BUDGET, ..Limits::default() };
        for seed in 0..2000u64 {
            let size = [5, 20, 40, 120][(seed % 4) as usize];
            let p = generate(seed, size)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", generate_text(seed, size)));
            crate::bril::verify(&p)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", generate_text(seed, size)));
            let o = run(&p, &p.main_args(), &limits);
            assert!(o.result.is_ok(), "seed {seed}: {:?}\n{}", o.result, generate_text(seed, size));
            assert!(!o.stdout.is_empty(), "seed {seed} printed nothing");
            assert!(o.dyn_inst <= WORK_BUDGET, "seed {seed}: {} instructions", o.dyn_inst);
        }
    }

    /// Sizes past the first release's limit, up to [`MAX_SIZE`]: many
    /// functions, and the spending limit keeps every run within budget.
    #[test]
    fn large_programs_verify_run_and_stay_in_budget() {
        let limits = Limits { fuel: 5 * WORK_BUDGET, ..Limits::default() };
        let mut largest = 0;
        for (k, size) in [2001, 5000, 10_000, MAX_SIZE].into_iter().enumerate() {
            for seed in 0..12u64 {
                let seed = seed * 7919 + k as u64;
                let p = generate(seed, size).unwrap_or_else(|e| panic!("seed {seed} size {size}: {e}"));
                crate::bril::verify(&p).unwrap_or_else(|e| panic!("seed {seed} size {size}: {e}"));
                let o = run(&p, &p.main_args(), &limits);
                assert!(o.result.is_ok(), "seed {seed} size {size}: {:?}", o.result);
                assert!(!o.stdout.is_empty(), "seed {seed} size {size} printed nothing");
                assert!(o.dyn_inst <= WORK_BUDGET, "seed {seed} size {size}: {} instructions", o.dyn_inst);
                largest = largest.max(p.instr_count());
            }
        }
        assert!(largest >= 20_000, "the largest program has only {largest} instructions");
    }

    /// The first release's programs are kept: a seed and size name the same
    /// program as before (FNV-1a of the text).
    #[test]
    fn first_release_programs_are_unchanged() {
        fn fnv1a(text: &str) -> u64 {
            text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        }
        let pinned = [
            (1, 40, 0x999f_d5a7_1dcc_80f3),
            (2, 40, 0xe143_623b_39f4_b02a),
            (3, 40, 0x8dbe_9ac0_6ea8_1fd5),
            (7, 5, 0x5302_8d90_d2ea_5ec1),
            (1999, 120, 0x0e35_ffd6_259c_54da),
            (0, 400, 0x05d0_97cb_8057_9594),
            (299, 1000, 0x3f8e_96e3_e36e_a719),
            (54, 2000, 0xc183_1f6b_3f74_3c10),
        ];
        for (seed, size, digest) in pinned {
            assert_eq!(fnv1a(&generate_text(seed, size)), digest, "seed {seed} size {size}");
        }
    }

    #[test]
    fn scopes_close_back_to_their_mark() {
        let mut s = Scopes { marks: vec![0], ..Scopes::default() };
        s.declare("a", Ty::Int);
        s.declare("b", Ty::Bool);
        s.open();
        s.declare("c", Ty::Int);
        assert_eq!((s.count(Ty::Int), s.nth(Ty::Int, 1)), (2, "c"));
        assert_eq!(s.innermost(Ty::Int), 1..2);
        assert!(s.innermost(Ty::Bool).is_empty());
        s.close();
        assert_eq!((s.count(Ty::Int), s.count(Ty::Bool), s.visible.len()), (1, 1, 2));
        assert_eq!(s.innermost(Ty::Int), 0..1);
        s.declare("d", Ty::Int);
        assert_eq!(s.nth(Ty::Int, 1), "d");
    }

    /// Generation time (text, then parsed and verified) up to the largest
    /// size, best of 10 seeds; run with
    /// `cargo test --release --lib generator -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn time_up_to_the_largest_size() {
        use std::time::{Duration, Instant};
        for size in [40, 2000, 7000, MAX_SIZE] {
            let (mut text_time, mut program_time) = (Duration::MAX, Duration::MAX);
            let mut instrs = Vec::new();
            for seed in 0..10 {
                let start = Instant::now();
                let text = generate_text(seed, size);
                let middle = Instant::now();
                let p = parse_text(&text).unwrap();
                crate::bril::verify(&p).unwrap();
                program_time = program_time.min(middle.elapsed());
                text_time = text_time.min(middle - start);
                instrs.push(p.instr_count());
            }
            instrs.sort_unstable();
            println!(
                "size {size}: {}..{} instructions; text {text_time:?}, parse and verify {program_time:?}",
                instrs[0], instrs[9]
            );
        }
    }

    #[test]
    fn deterministic_and_seed_dependent() {
        assert_eq!(generate_text(7, 40), generate_text(7, 40));
        assert_ne!(generate_text(7, 40), generate_text(8, 40));
        let p = from_uri("generator://random-v0/7?size=40").unwrap();
        assert_eq!(p, generate(7, 40).unwrap());
        assert_eq!(from_uri("generator://random-v0/7").unwrap(), generate(7, DEFAULT_SIZE).unwrap());
    }

    #[test]
    fn bad_uris_are_errors() {
        for uri in [
            "generator://random-v1/7",
            "generator://random-v0/x",
            "generator://random-v0/7?size=0",
            "generator://random-v0/7?size=99999",
            "generator://random-v0/7?size=20001",
            "generator://random-v0/7?depth=3",
        ] {
            assert!(from_uri(uri).is_err(), "{uri}");
        }
    }

    #[test]
    fn size_scales_the_program() {
        let small = generate(3, 10).unwrap().instr_count();
        let large = generate(3, 400).unwrap().instr_count();
        assert!(large > 4 * small, "{small} vs {large}");
    }
}
