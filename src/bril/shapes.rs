//! Large programs of several shapes, at a given static instruction count, for
//! the scaling benchmark and the tests that guard against quadratic passes.
//!
//! - [`Shape::StraightLine`]: one `@main` block: accumulators updated in a
//!   rotation (every value is read before it is overwritten), one variable
//!   redefined from itself (`x: int = add x x`), recomputed expressions,
//!   constants and small non-escaping allocations.
//! - [`Shape::LoopHeavy`]: one `@main` of loop nests in sequence, each with
//!   its own counters and temporaries, a bound known at compile time one
//!   time in four (else computed at run time), a loop-invariant product, a
//!   product of the counter, a branch in the body and sometimes an inner loop.
//! - [`Shape::CallHeavy`]: many small functions, each called from `@main`
//!   once; they call a few shared leaves, and some recurse in tail position.
//! - [`Shape::BlockChain`]: one `@main` of a few instructions per block, in
//!   a chain of diamonds, jumps to the next block and empty blocks; the
//!   diamonds of the first half branch on a flag known at compile time, those
//!   of the second on a value computed at run time.
//! - [`Shape::CallChain`]: chains of small functions, each calling the next,
//!   up to [`CHAIN_DEPTH`] deep.
//! - [`Shape::OneVariable`]: one variable redefined from itself
//!   (`x: int = add x x`) in one block, then printed: the worst case for
//!   passes that keep a table per name (`-lvn` renames every `x` it keeps).
//!
//! Every program is well formed, reads no variable before writing it,
//! terminates within a few dynamic instructions per static one, and prints
//! values that depend on nearly all of its computation (passes cannot delete
//! the work). The same shape, size and seed give the same program everywhere.

use std::fmt::Write;

use super::ir::Program;
use super::parse_text;
use crate::error::Result;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    StraightLine,
    LoopHeavy,
    CallHeavy,
    BlockChain,
    CallChain,
    OneVariable,
}

impl Shape {
    pub const ALL: [Shape; 6] = [
        Shape::StraightLine,
        Shape::LoopHeavy,
        Shape::CallHeavy,
        Shape::BlockChain,
        Shape::CallChain,
        Shape::OneVariable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::StraightLine => "straight-line",
            Shape::LoopHeavy => "loop-heavy",
            Shape::CallHeavy => "call-heavy",
            Shape::BlockChain => "block-chain",
            Shape::CallChain => "call-chain",
            Shape::OneVariable => "one-variable",
        }
    }
}

/// A program of `shape` with about `instrs` static instructions (never fewer).
pub fn generate(shape: Shape, instrs: usize, seed: u64) -> Result<Program> {
    parse_text(&generate_text(shape, instrs, seed))
}

/// The Bril text of [`generate`].
pub fn generate_text(shape: Shape, instrs: usize, seed: u64) -> String {
    let mut w = Writer { out: String::new(), count: 0, rng: Rng::seed_from_u64(seed) };
    match shape {
        Shape::StraightLine => straight_line(&mut w, instrs),
        Shape::LoopHeavy => loop_heavy(&mut w, instrs),
        Shape::CallHeavy => call_heavy(&mut w, instrs),
        Shape::BlockChain => block_chain(&mut w, instrs),
        Shape::CallChain => call_chain(&mut w, instrs),
        Shape::OneVariable => one_variable(&mut w, instrs),
    }
    w.out
}

/// Accumulators every shape threads its work through.
const ACCS: usize = 8;

struct Writer {
    out: String,
    /// Instructions written so far.
    count: usize,
    rng: Rng,
}

impl Writer {
    fn instr(&mut self, text: std::fmt::Arguments) {
        self.out.push_str("  ");
        let _ = self.out.write_fmt(text);
        self.out.push_str(";\n");
        self.count += 1;
    }

    fn label(&mut self, name: std::fmt::Arguments) {
        self.out.push('.');
        let _ = self.out.write_fmt(name);
        self.out.push_str(":\n");
    }

    fn pick(&mut self, n: usize) -> usize {
        self.rng.index(n)
    }

    /// `a0`..`a7` start as small distinct constants.
    fn accumulators(&mut self) {
        for k in 0..ACCS {
            self.instr(format_args!("a{k}: int = const {}", 3 + 2 * k));
        }
    }

    /// Prints every accumulator, so all the work they carry stays live.
    fn print_accumulators(&mut self) {
        let names: Vec<String> = (0..ACCS).map(|k| format!("a{k}")).collect();
        self.instr(format_args!("print {}", names.join(" ")));
    }

    /// One update of accumulator `t % 8` from the one written just before
    /// and another: the rotation reads every value before it is overwritten.
    fn rotate(&mut self, t: usize) {
        let (d, a, b) = (t % ACCS, (t + ACCS - 1) % ACCS, (t + 3) % ACCS);
        let op = ["add", "sub", "mul", "add"][self.pick(4)];
        self.instr(format_args!("a{d}: int = {op} a{a} a{b}"));
    }
}

/// Straight-line code: `@main`, one block.
fn straight_line(w: &mut Writer, instrs: usize) {
    w.out.push_str("@main {\n");
    w.accumulators();
    w.instr(format_args!("x: int = const 1"));
    w.instr(format_args!("four: int = const 4"));
    let mut t = 0;
    let mut allocs = 0;
    while w.count + 2 < instrs {
        match w.pick(10) {
            0..=3 => {
                w.rotate(t);
                t += 1;
            }
            4 => w.instr(format_args!("x: int = add x x")),
            5 => w.instr(format_args!("x: int = sub x a{}", t % ACCS)),
            6 => {
                // A recomputation local value numbering reuses.
                let (a, b) = (t % ACCS, (t + 5) % ACCS);
                w.instr(format_args!("r: int = add a{a} a{b}"));
                w.instr(format_args!("r2: int = add a{b} a{a}"));
                w.instr(format_args!("a{a}: int = sub r r2"));
                w.instr(format_args!("a{b}: int = add a{b} r"));
            }
            7 => {
                // Constants that fold.
                let k = w.pick(9) + 1;
                w.instr(format_args!("k: int = const {k}"));
                w.instr(format_args!("k2: int = mul k four"));
                w.instr(format_args!("a{}: int = add a{} k2", t % ACCS, t % ACCS));
            }
            8 => {
                // A comparison printed on the way, a copy and a double negation.
                let c = (t + 2) % ACCS;
                w.instr(format_args!("c: bool = lt a{c} x"));
                w.instr(format_args!("nc: bool = not c"));
                w.instr(format_args!("c: bool = not nc"));
                w.instr(format_args!("print c"));
                w.instr(format_args!("y: int = id a{c}"));
                w.instr(format_args!("a{c}: int = add y x"));
            }
            _ => {
                // A small allocation used at constant offsets, then freed.
                allocs += 1;
                let (a, b) = (t % ACCS, (t + 1) % ACCS);
                w.instr(format_args!("m{allocs}: ptr<int> = alloc four"));
                w.instr(format_args!("at: int = const 2"));
                w.instr(format_args!("q: ptr<int> = ptradd m{allocs} at"));
                w.instr(format_args!("store q a{a}"));
                w.instr(format_args!("v: int = load q"));
                w.instr(format_args!("a{b}: int = add a{b} v"));
                w.instr(format_args!("free m{allocs}"));
            }
        }
    }
    w.instr(format_args!("print x"));
    w.print_accumulators();
    w.out.push_str("}\n");
}

/// Loop nests in sequence in `@main`.
fn loop_heavy(w: &mut Writer, instrs: usize) {
    w.out.push_str("@main {\n");
    w.accumulators();
    w.instr(format_args!("one: int = const 1"));
    w.instr(format_args!("four: int = const 4"));
    let mut k = 0;
    while w.count + 1 < instrs {
        k += 1;
        loop_nest(w, k);
    }
    w.print_accumulators();
    w.out.push_str("}\n");
}

/// One counted loop `i{k}` from 0 to a small bound (a constant one time in
/// four, so some loops unroll, else computed at run time); its body adds a
/// loop-invariant product and a product of the counter into accumulators,
/// branches on the counter, and sometimes runs an inner loop.
fn loop_nest(w: &mut Writer, k: usize) {
    let (a, b, c) = (k % ACCS, (k + 3) % ACCS, (k + 5) % ACCS);
    w.instr(format_args!("i{k}: int = const 0"));
    if w.pick(4) == 0 {
        let trips = 2 + w.pick(3);
        w.instr(format_args!("n{k}: int = const {trips}"));
    } else {
        // A bound known only at run time: an accumulator modulo 4 (-3..3).
        w.instr(format_args!("q{k}: int = div a{c} four"));
        w.instr(format_args!("r{k}: int = mul q{k} four"));
        w.instr(format_args!("n{k}: int = sub a{c} r{k}"));
    }
    let stride = 1 + w.pick(7);
    w.instr(format_args!("s{k}: int = const {stride}"));
    w.label(format_args!("head{k}"));
    w.instr(format_args!("go{k}: bool = lt i{k} n{k}"));
    w.instr(format_args!("br go{k} .body{k} .done{k}"));
    w.label(format_args!("body{k}"));
    w.instr(format_args!("inv{k}: int = mul s{k} n{k}"));
    w.instr(format_args!("step{k}: int = mul i{k} s{k}"));
    w.instr(format_args!("a{a}: int = add a{a} step{k}"));
    w.instr(format_args!("a{b}: int = add a{b} inv{k}"));
    w.instr(format_args!("odd{k}: bool = lt step{k} inv{k}"));
    w.instr(format_args!("br odd{k} .then{k} .else{k}"));
    w.label(format_args!("then{k}"));
    w.instr(format_args!("a{c}: int = sub a{c} i{k}"));
    w.instr(format_args!("jmp .join{k}"));
    w.label(format_args!("else{k}"));
    w.instr(format_args!("a{c}: int = add a{c} a{a}"));
    w.label(format_args!("join{k}"));
    if w.pick(3) == 0 {
        w.instr(format_args!("j{k}: int = const 0"));
        w.label(format_args!("inner{k}"));
        w.instr(format_args!("t{k}: int = add j{k} i{k}"));
        w.instr(format_args!("a{b}: int = mul a{b} t{k}"));
        w.instr(format_args!("j{k}: int = add j{k} one"));
        w.instr(format_args!("more{k}: bool = lt j{k} n{k}"));
        w.instr(format_args!("br more{k} .inner{k} .after{k}"));
        w.label(format_args!("after{k}"));
    }
    w.instr(format_args!("i{k}: int = add i{k} one"));
    w.instr(format_args!("jmp .head{k}"));
    w.label(format_args!("done{k}"));
}

/// Shared leaf functions: small enough to inline.
const LEAVES: usize = 4;

/// `@main` calls every function `@f{k}` once; each calls a leaf, and every
/// fourth is a tail-recursive countdown.
fn call_heavy(w: &mut Writer, instrs: usize) {
    let mut bodies = Writer { out: String::new(), count: 0, rng: w.rng.split() };
    for l in 0..LEAVES {
        leaf(&mut bodies, l);
    }
    let mut main = Writer { out: String::new(), count: 0, rng: w.rng.split() };
    main.accumulators();
    let mut k = 0;
    // Each function costs about 16 instructions, its call in main 1 or 2.
    while bodies.count + main.count + 1 < instrs {
        k += 1;
        let (a, b) = (k % ACCS, (k + 3) % ACCS);
        if k % 4 == 0 {
            countdown(&mut bodies, k);
            main.instr(format_args!("d{k}: int = const {}", 2 + k % 5));
            main.instr(format_args!("a{a}: int = call @f{k} d{k} a{b}"));
        } else {
            worker(&mut bodies, k);
            main.instr(format_args!("a{a}: int = call @f{k} a{a} a{b}"));
        }
    }
    w.out.push_str("@main {\n");
    w.out.push_str(&main.out);
    w.count = main.count + bodies.count;
    w.print_accumulators();
    w.out.push_str("}\n");
    w.out.push_str(&bodies.out);
}

fn leaf(w: &mut Writer, l: usize) {
    let _ = writeln!(w.out, "@leaf{l}(x: int, y: int): int {{");
    w.instr(format_args!("k: int = const {}", l + 2));
    w.instr(format_args!("s: int = mul x k"));
    w.instr(format_args!("r: int = add s y"));
    w.instr(format_args!("ret r"));
    w.out.push_str("}\n");
}

/// A function of two ints with a branch and a call of a leaf.
fn worker(w: &mut Writer, k: usize) {
    let _ = writeln!(w.out, "@f{k}(p: int, q: int): int {{");
    let leaf = w.pick(LEAVES);
    let c = 1 + w.pick(9);
    w.instr(format_args!("c: int = const {c}"));
    w.instr(format_args!("u: int = add p c"));
    w.instr(format_args!("v: int = mul q c"));
    w.instr(format_args!("w: int = call @leaf{leaf} u v"));
    w.instr(format_args!("big: bool = gt w p"));
    w.instr(format_args!("br big .more .less"));
    w.label(format_args!("more"));
    w.instr(format_args!("w: int = sub w q"));
    w.instr(format_args!("jmp .out"));
    w.label(format_args!("less"));
    w.instr(format_args!("w: int = add w u"));
    w.instr(format_args!("w: int = add w v"));
    w.label(format_args!("out"));
    w.instr(format_args!("again: int = add u v"));
    w.instr(format_args!("w: int = add w again"));
    w.instr(format_args!("ret w"));
    w.out.push_str("}\n");
}

/// `f(n, acc)`: `acc` plus a leaf of n for each n down to 1, recursing in
/// tail position.
fn countdown(w: &mut Writer, k: usize) {
    let _ = writeln!(w.out, "@f{k}(n: int, acc: int): int {{");
    let leaf = w.pick(LEAVES);
    w.instr(format_args!("zero: int = const 0"));
    w.instr(format_args!("stop: bool = le n zero"));
    w.instr(format_args!("br stop .base .step"));
    w.label(format_args!("base"));
    w.instr(format_args!("ret acc"));
    w.label(format_args!("step"));
    w.instr(format_args!("one: int = const 1"));
    w.instr(format_args!("m: int = sub n one"));
    w.instr(format_args!("x: int = call @leaf{leaf} n acc"));
    w.instr(format_args!("r: int = call @f{k} m x"));
    w.instr(format_args!("ret r"));
    w.out.push_str("}\n");
}

/// A chain of small blocks in `@main`: each step is a diamond, a jump to
/// the next block, or an empty block falling into the next. In the first
/// half the diamonds branch on `yes` (a constant: one arm is dead, and the
/// whole half folds into one block), in the second on a comparison.
fn block_chain(w: &mut Writer, instrs: usize) {
    w.out.push_str("@main {\n");
    w.accumulators();
    w.instr(format_args!("yes: bool = const true"));
    let half = instrs / 2;
    let mut k = 0;
    while w.count + 1 < instrs {
        k += 1;
        let (a, b) = (k % ACCS, (k + 3) % ACCS);
        match w.pick(3) {
            0 => {
                let cond = if w.count < half {
                    "yes".to_string()
                } else {
                    w.instr(format_args!("c{k}: bool = lt a{a} a{b}"));
                    format!("c{k}")
                };
                w.instr(format_args!("br {cond} .t{k} .f{k}"));
                w.label(format_args!("t{k}"));
                w.instr(format_args!("a{a}: int = add a{a} a{b}"));
                w.instr(format_args!("jmp .j{k}"));
                w.label(format_args!("f{k}"));
                w.instr(format_args!("a{a}: int = sub a{a} a{b}"));
                w.label(format_args!("j{k}"));
            }
            1 => {
                w.instr(format_args!("jmp .n{k}"));
                w.label(format_args!("n{k}"));
                w.rotate(k);
            }
            _ => {
                w.label(format_args!("e{k}"));
                w.label(format_args!("n{k}"));
                w.rotate(k);
            }
        }
    }
    w.print_accumulators();
    w.out.push_str("}\n");
}

/// Deepest chain of calls [`Shape::CallChain`] makes (the interpreter's
/// default limit is 10,000 frames).
pub const CHAIN_DEPTH: usize = 5_000;
/// Instructions of each function of a chain.
const CHAIN_LINK: usize = 6;

/// `@main` calls the first function of each chain; `@c{j}_{i}` calls
/// `@c{j}_{i+1}` and combines its result with its own arguments.
fn call_chain(w: &mut Writer, instrs: usize) {
    let functions = instrs.saturating_sub(ACCS + 1).div_ceil(CHAIN_LINK).max(1);
    let chains = functions.div_ceil(CHAIN_DEPTH);
    let mut bodies = Writer { out: String::new(), count: 0, rng: w.rng.split() };
    w.out.push_str("@main {\n");
    w.accumulators();
    for j in 0..chains {
        let depth = (functions - j * CHAIN_DEPTH).min(CHAIN_DEPTH);
        let (a, b) = (j % ACCS, (j + 3) % ACCS);
        w.instr(format_args!("a{a}: int = call @c{j}_0 a{a} a{b}"));
        for i in 0..depth {
            chain_link(&mut bodies, j, i, i + 1 < depth);
        }
    }
    w.print_accumulators();
    w.out.push_str("}\n");
    w.out.push_str(&bodies.out);
    w.count += bodies.count;
}

/// `x: int = add x x` over and over from a constant the seed picks.
fn one_variable(w: &mut Writer, instrs: usize) {
    w.out.push_str("@main {\n");
    let start = 1 + w.pick(1 << 20);
    w.instr(format_args!("x: int = const {start}"));
    while w.count + 1 < instrs {
        w.instr(format_args!("x: int = add x x"));
    }
    w.instr(format_args!("print x"));
    w.out.push_str("}\n");
}

fn chain_link(w: &mut Writer, j: usize, i: usize, calls_next: bool) {
    let _ = writeln!(w.out, "@c{j}_{i}(p: int, q: int): int {{");
    let c = 1 + w.pick(9);
    let op = ["add", "sub", "mul"][w.pick(3)];
    w.instr(format_args!("k: int = const {c}"));
    w.instr(format_args!("u: int = {op} p k"));
    w.instr(format_args!("v: int = add q k"));
    if calls_next {
        w.instr(format_args!("r: int = call @c{j}_{} u v", i + 1));
    } else {
        w.instr(format_args!("r: int = mul u v"));
    }
    w.instr(format_args!("s: int = sub r p"));
    w.instr(format_args!("ret s"));
    w.out.push_str("}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};

    #[test]
    fn every_shape_verifies_runs_and_has_its_size() {
        for shape in Shape::ALL {
            for n in [50, 1000, 5000] {
                let p = generate(shape, n, 1).unwrap();
                crate::bril::verify(&p).unwrap_or_else(|e| panic!("{} {n}: {e}", shape.name()));
                let count = p.instr_count();
                assert!(count >= n && count < n + 40, "{} {n}: {count} instructions", shape.name());
                let o = run(&p, &[], &Limits::default());
                assert!(o.result.is_ok(), "{} {n}: {:?}", shape.name(), o.result);
                assert!(o.dyn_inst < 40 * count as u64, "{} {n}: {} dynamic", shape.name(), o.dyn_inst);
                assert!(!o.stdout.is_empty());
            }
        }
    }

    #[test]
    fn long_call_chains_stop_at_the_depth_limit_and_run() {
        let p = generate(Shape::CallChain, 40_000, 1).unwrap();
        let firsts = p.functions.iter().filter(|f| f.name.ends_with("_0")).count();
        assert_eq!(firsts, 2, "two chains, the first {CHAIN_DEPTH} deep");
        assert!(p.functions.iter().any(|f| *f.name == *format!("c0_{}", CHAIN_DEPTH - 1)));
        assert!(run(&p, &[], &Limits::default()).result.is_ok());
    }

    #[test]
    fn a_block_chain_is_mostly_blocks() {
        let p = generate(Shape::BlockChain, 10_000, 1).unwrap();
        assert!(p.functions[0].blocks.len() > 3_000, "{} blocks", p.functions[0].blocks.len());
    }

    #[test]
    fn deterministic_and_seed_dependent() {
        for shape in Shape::ALL {
            assert_eq!(generate_text(shape, 500, 3), generate_text(shape, 500, 3));
            assert_ne!(generate_text(shape, 500, 3), generate_text(shape, 500, 4));
        }
    }
}
