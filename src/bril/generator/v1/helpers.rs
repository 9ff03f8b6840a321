//! The small functions of a program: leaf helpers (modulo, hash mixing,
//! max, clamp, ...) that loops call and inlining pays off on, self-recursive
//! functions whose depth the arguments bound, and the array filler.

use super::body::Body;
use super::sig::{Kind, Ret, Role, Sig, VALUE_MOD};
use crate::rng::Rng;

macro_rules! emit {
    ($b:expr, $($t:tt)*) => { $b.line(format_args!($($t)*)) };
}

/// The leaf helpers, by template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Helper {
    Modulo,
    Mix,
    Max,
    Min,
    Abs,
    Clamp,
    Scale,
    Odd,
    Average,
    DigitSum,
    FloatMix,
}

impl Helper {
    pub const ALL: [Helper; 11] = [
        Helper::Modulo,
        Helper::Mix,
        Helper::Max,
        Helper::Min,
        Helper::Abs,
        Helper::Clamp,
        Helper::Scale,
        Helper::Odd,
        Helper::Average,
        Helper::DigitSum,
        Helper::FloatMix,
    ];

    fn base_name(self) -> &'static str {
        match self {
            Helper::Modulo => "mod",
            Helper::Mix => "mix",
            Helper::Max => "max",
            Helper::Min => "min",
            Helper::Abs => "abs",
            Helper::Clamp => "clamp",
            Helper::Scale => "scale",
            Helper::Odd => "odd",
            Helper::Average => "avg",
            Helper::DigitSum => "digit_sum",
            Helper::FloatMix => "fmix",
        }
    }

    pub fn uses_floats(self) -> bool {
        self == Helper::FloatMix
    }
}

/// The `copy`th helper of template `h` (copies differ in their constants).
pub(super) fn helper(rng: &mut Rng, h: Helper, copy: usize) -> (Sig, String) {
    let name = if copy == 0 { h.base_name().to_string() } else { format!("{}{}", h.base_name(), copy + 1) };
    let mut b = Body::new();
    let (params, ret): (Vec<(&'static str, Role)>, Ret) = match h {
        Helper::Modulo => {
            // x mod m in 0..m for any x and m > 0.
            let zero = b.int(0);
            emit!(b, "q: int = div x m");
            emit!(b, "qm: int = mul q m");
            emit!(b, "r: int = sub x qm");
            emit!(b, "neg: bool = lt r {zero}");
            emit!(b, "br neg .fix .done");
            b.label("fix");
            emit!(b, "r: int = add r m");
            b.label("done");
            emit!(b, "ret r");
            (vec![("x", Role::Any), ("m", Role::Positive)], Ret::Int)
        }
        Helper::Mix => {
            let prime = b.int([31, 33, 37, 131, 257][rng.index(5)]);
            emit!(b, "h: int = mul h {prime}");
            emit!(b, "h: int = add h v");
            if rng.index(2) == 0 {
                let shift = b.int([16, 64, 1024][rng.index(3)]);
                emit!(b, "high: int = div h {shift}");
                emit!(b, "h: int = add h high");
            }
            emit!(b, "ret h");
            (vec![("h", Role::Any), ("v", Role::Any)], Ret::Int)
        }
        Helper::Max | Helper::Min => {
            let op = if h == Helper::Max { "gt" } else { "lt" };
            emit!(b, "first: bool = {op} x y");
            emit!(b, "br first .x .y");
            b.label("x");
            emit!(b, "ret x");
            b.label("y");
            emit!(b, "ret y");
            (vec![("x", Role::Any), ("y", Role::Any)], Ret::Int)
        }
        Helper::Abs => {
            let zero = b.int(0);
            emit!(b, "neg: bool = lt x {zero}");
            emit!(b, "br neg .flip .keep");
            b.label("flip");
            emit!(b, "x: int = sub {zero} x");
            b.label("keep");
            emit!(b, "ret x");
            (vec![("x", Role::Any)], Ret::Int)
        }
        Helper::Clamp => {
            let lo = rng.int_inclusive(0, 999);
            let hi = lo + rng.int_inclusive(1000, 40_000);
            let (lo, hi) = (b.int(lo), b.int(hi));
            emit!(b, "low: bool = lt x {lo}");
            emit!(b, "br low .low .check");
            b.label("low");
            emit!(b, "ret {lo}");
            b.label("check");
            emit!(b, "high: bool = gt x {hi}");
            emit!(b, "br high .high .keep");
            b.label("high");
            emit!(b, "ret {hi}");
            b.label("keep");
            emit!(b, "ret x");
            (vec![("x", Role::Any)], Ret::Int)
        }
        Helper::Scale => {
            // (v * c + d) mod VALUE_MOD: a cell to a cell.
            let c = b.int(rng.int_inclusive(3, 999) | 1);
            let d = b.int(rng.int_inclusive(1, 9999));
            let m = b.int(VALUE_MOD);
            emit!(b, "y: int = mul v {c}");
            emit!(b, "y: int = add y {d}");
            emit!(b, "q: int = div y {m}");
            emit!(b, "q: int = mul q {m}");
            emit!(b, "y: int = sub y q");
            emit!(b, "ret y");
            (vec![("v", Role::NonNeg)], Ret::NonNeg)
        }
        Helper::Odd => {
            let two = b.int(2);
            emit!(b, "half: int = div x {two}");
            emit!(b, "twice: int = mul half {two}");
            emit!(b, "even: bool = eq twice x");
            emit!(b, "odd: bool = not even");
            emit!(b, "ret odd");
            (vec![("x", Role::Any)], Ret::Bool)
        }
        Helper::Average => {
            let two = b.int(2);
            emit!(b, "s: int = add x y");
            emit!(b, "s: int = div s {two}");
            emit!(b, "ret s");
            (vec![("x", Role::Any), ("y", Role::Any)], Ret::Int)
        }
        Helper::DigitSum => {
            // A cell has at most five decimal digits.
            let (zero, ten) = (b.int(0), b.int(10));
            emit!(b, "s: int = const 0");
            b.label("loop");
            b.mult = 6;
            emit!(b, "more: bool = gt x {zero}");
            emit!(b, "br more .digit .done");
            b.label("digit");
            b.mult = 5;
            emit!(b, "q: int = div x {ten}");
            emit!(b, "low: int = mul q {ten}");
            emit!(b, "low: int = sub x low");
            emit!(b, "s: int = add s low");
            emit!(b, "x: int = id q");
            emit!(b, "jmp .loop");
            b.label("done");
            b.mult = 1;
            emit!(b, "ret s");
            (vec![("x", Role::NonNeg)], Ret::Int)
        }
        Helper::FloatMix => {
            let w = [0.25, 0.5, 0.75, 0.125][rng.index(4)];
            let (w, rest) = (b.float(w), b.float(1.0 - w));
            emit!(b, "a: float = fmul x {w}");
            emit!(b, "c: float = fmul y {rest}");
            emit!(b, "s: float = fadd a c");
            emit!(b, "ret s");
            (vec![("x", Role::Float), ("y", Role::Float)], Ret::Float)
        }
    };
    finish(b, name, params, ret, Kind::Helper, 1)
}

fn finish(
    b: Body,
    name: String,
    params: Vec<(&'static str, Role)>,
    ret: Ret,
    kind: Kind,
    activations: u64,
) -> (Sig, String) {
    let mut sig = Sig { name, params, ret, kind, cost: 0 };
    sig.cost = b.cost.saturating_mul(activations);
    let text = b.finish(&sig.header());
    (sig, text)
}

/// The recursive functions, by template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Recursive {
    /// Divide and conquer over an index range of an array.
    SumRange,
    /// A hash chain `d` calls deep.
    Chain,
    /// Exponentiation by squaring (wrapping).
    Power,
    /// Euclid's algorithm, tail recursive.
    Gcd,
    /// The doubly recursive Fibonacci numbers.
    Fib,
    /// Follows an array's cells as indices, `d` calls deep.
    Chase,
}

impl Recursive {
    pub const ALL: [Recursive; 6] = [
        Recursive::SumRange,
        Recursive::Chain,
        Recursive::Power,
        Recursive::Gcd,
        Recursive::Fib,
        Recursive::Chase,
    ];

    fn base_name(self) -> &'static str {
        match self {
            Recursive::SumRange => "sum_range",
            Recursive::Chain => "chain",
            Recursive::Power => "power",
            Recursive::Gcd => "gcd",
            Recursive::Fib => "fib",
            Recursive::Chase => "chase",
        }
    }
}

/// The `copy`th recursive function of template `r` for arrays of up to
/// `n_max` cells; `mix` is a helper `(int, int): int` it may call.
pub(super) fn recursive(
    rng: &mut Rng,
    r: Recursive,
    copy: usize,
    n_max: u64,
    mix: Option<&Sig>,
) -> (Sig, String) {
    let name = if copy == 0 { r.base_name().to_string() } else { format!("{}{}", r.base_name(), copy + 1) };
    let mut b = Body::new();
    // The activations one call makes at most, and the helper calls each does.
    let (params, activations, helper_calls): (Vec<(&'static str, Role)>, u64, u64) = match r {
        Recursive::SumRange => {
            let (one, two) = (b.int(1), b.int(2));
            emit!(b, "span: int = sub hi lo");
            emit!(b, "small: bool = le span {two}");
            emit!(b, "br small .leaf .split");
            b.label("leaf");
            emit!(b, "s: int = const 0");
            emit!(b, "i: int = id lo");
            b.label("loop");
            b.mult = 3;
            emit!(b, "go: bool = lt i hi");
            emit!(b, "br go .body .done");
            b.label("body");
            b.mult = 2;
            emit!(b, "p: ptr<int> = ptradd a i");
            emit!(b, "v: int = load p");
            emit!(b, "s: int = add s v");
            emit!(b, "i: int = add i {one}");
            emit!(b, "jmp .loop");
            b.label("done");
            b.mult = 1;
            emit!(b, "ret s");
            b.label("split");
            emit!(b, "mid: int = add lo hi");
            emit!(b, "mid: int = div mid {two}");
            emit!(b, "left: int = call @{name} a lo mid");
            emit!(b, "right: int = call @{name} a mid hi");
            let k = b.int([3, 5, 7][rng.index(3)]);
            emit!(b, "left: int = mul left {k}");
            emit!(b, "s: int = add left right");
            emit!(b, "ret s");
            // Every activation splits a range of 3 or more cells in two
            // nonempty ones, or is a leaf: at most 2 len - 1 of them.
            (vec![("a", Role::Array), ("lo", Role::Zero), ("hi", Role::Len)], 2 * n_max.max(1), 0)
        }
        Recursive::Chain => {
            let depth = rng.int_inclusive(4, 12) as u64;
            let (zero, one) = (b.int(0), b.int(1));
            emit!(b, "stop: bool = le d {zero}");
            emit!(b, "br stop .base .step");
            b.label("base");
            emit!(b, "ret x");
            b.label("step");
            let calls = match mix {
                Some(m) if rng.index(2) == 0 => {
                    emit!(b, "y: int = call @{} x d", m.name);
                    1
                }
                _ => {
                    let k = b.int([3, 7, 11, 13][rng.index(4)]);
                    emit!(b, "y: int = mul x {k}");
                    emit!(b, "y: int = add y d");
                    0
                }
            };
            emit!(b, "e: int = sub d {one}");
            emit!(b, "r: int = call @{name} y e");
            emit!(b, "r: int = sub r x");
            emit!(b, "ret r");
            (vec![("x", Role::Any), ("d", Role::Depth(depth))], depth + 1, calls)
        }
        Recursive::Power => {
            let (zero, one, two) = (b.int(0), b.int(1), b.int(2));
            emit!(b, "done: bool = eq e {zero}");
            emit!(b, "br done .base .step");
            b.label("base");
            emit!(b, "ret {one}");
            b.label("step");
            emit!(b, "h: int = div e {two}");
            emit!(b, "r: int = call @{name} x h");
            emit!(b, "r: int = mul r r");
            emit!(b, "hh: int = mul h {two}");
            emit!(b, "even: bool = eq hh e");
            emit!(b, "br even .out .odd");
            b.label("odd");
            emit!(b, "r: int = mul r x");
            b.label("out");
            emit!(b, "ret r");
            // e < 2^16 halves to 0 in at most 16 steps.
            (vec![("x", Role::Any), ("e", Role::NonNeg)], 18, 0)
        }
        Recursive::Gcd => {
            let zero = b.int(0);
            emit!(b, "done: bool = eq y {zero}");
            emit!(b, "br done .base .step");
            b.label("base");
            emit!(b, "ret x");
            b.label("step");
            emit!(b, "q: int = div x y");
            emit!(b, "q: int = mul q y");
            emit!(b, "r: int = sub x q");
            emit!(b, "g: int = call @{name} y r");
            emit!(b, "ret g");
            // Euclid on numbers below 2^16 takes at most 23 steps.
            (vec![("x", Role::NonNeg), ("y", Role::NonNeg)], 26, 0)
        }
        Recursive::Fib => {
            let depth = rng.int_inclusive(5, 9) as u64;
            let (one, two) = (b.int(1), b.int(2));
            emit!(b, "small: bool = lt k {two}");
            emit!(b, "br small .base .step");
            b.label("base");
            emit!(b, "ret k");
            b.label("step");
            emit!(b, "k1: int = sub k {one}");
            emit!(b, "k2: int = sub k {two}");
            emit!(b, "f1: int = call @{name} k1");
            emit!(b, "f2: int = call @{name} k2");
            emit!(b, "f: int = add f1 f2");
            emit!(b, "ret f");
            let (mut a, mut c) = (1u64, 1u64);
            for _ in 0..depth {
                (a, c) = (c, a + c + 1);
            }
            // Calls of fib(k) for k <= depth: c(k) = c(k-1) + c(k-2) + 1.
            (vec![("k", Role::Depth(depth))], c.max(a), 0)
        }
        Recursive::Chase => {
            let depth = rng.int_inclusive(4, 14) as u64;
            let (zero, one) = (b.int(0), b.int(1));
            emit!(b, "stop: bool = le d {zero}");
            emit!(b, "br stop .base .step");
            b.label("base");
            emit!(b, "ret {zero}");
            b.label("step");
            emit!(b, "p: ptr<int> = ptradd a i");
            emit!(b, "v: int = load p");
            emit!(b, "next: int = add v i");
            emit!(b, "q: int = div next n");
            emit!(b, "q: int = mul q n");
            emit!(b, "next: int = sub next q");
            emit!(b, "e: int = sub d {one}");
            emit!(b, "r: int = call @{name} a n next e");
            emit!(b, "r: int = add r v");
            emit!(b, "ret r");
            (
                vec![("a", Role::Array), ("n", Role::Len), ("i", Role::Zero), ("d", Role::Depth(depth))],
                depth + 1,
                0,
            )
        }
    };
    let ret = Ret::Int;
    let extra = helper_calls * mix.map_or(0, |m| m.cost);
    let (mut sig, text) = finish(b, name, params, ret, Kind::Recursive, activations);
    sig.cost = sig.cost.saturating_add(activations.saturating_mul(extra));
    (sig, text)
}

/// The LCG step constants (multiplier, increment) a filler may use; the
/// state stays in `0..2^31`, so no product overflows.
const LCGS: [(i64, i64); 4] =
    [(1_103_515_245, 12345), (69069, 1), (1_664_525, 1_013_904_223), (214_013, 2_531_011)];

/// Writes the LCG loop filling `a[0..n]` from `state` into `b` (shared by
/// the `@fill` function and `@main`'s inline fill). Cells get the state's
/// high bits, in `0..VALUE_MOD`.
pub(super) fn fill_loop(
    rng: &mut Rng,
    b: &mut Body,
    a: &str,
    n: &str,
    state: &str,
    counter: &str,
    trips: u64,
) {
    let (mul, inc) = LCGS[rng.index(LCGS.len())];
    let (mul, inc, modulus, shift) = (b.int(mul), b.int(inc), b.int(1 << 31), b.int(1 << 15));
    let one = b.int(1);
    let (head, body, done) = (b.new_label("fill"), b.new_label("fill.body"), b.new_label("fill.done"));
    emit!(b, "{counter}: int = const 0");
    b.label(&head);
    let saved = b.mult;
    b.mult = saved.saturating_mul(trips + 1);
    emit!(b, "cond: bool = lt {counter} {n}");
    emit!(b, "br cond .{body} .{done}");
    b.label(&body);
    b.mult = saved.saturating_mul(trips);
    emit!(b, "{state}: int = mul {state} {mul}");
    emit!(b, "{state}: int = add {state} {inc}");
    emit!(b, "wrap: int = div {state} {modulus}");
    emit!(b, "wrap: int = mul wrap {modulus}");
    emit!(b, "{state}: int = sub {state} wrap");
    emit!(b, "cell: int = div {state} {shift}");
    emit!(b, "p: ptr<int> = ptradd {a} {counter}");
    emit!(b, "store p cell");
    emit!(b, "{counter}: int = add {counter} {one}");
    emit!(b, "jmp .{head}");
    b.mult = saved;
    b.label(&done);
}

/// `@fill(a, n, seed)`: fills `a[0..n]`; with `state`, it returns the LCG
/// state (to fill a second array from).
pub(super) fn fill(rng: &mut Rng, n_max: u64, state: bool) -> (Sig, String) {
    let mut b = Body::new();
    emit!(b, "state: int = id seed");
    fill_loop(rng, &mut b, "a", "n", "state", "i", n_max);
    let ret = if state {
        emit!(b, "ret state");
        Ret::NonNeg
    } else {
        Ret::Void
    };
    // `seed` must keep the state in 0..2^31, as `@main`'s seed argument does.
    let params = vec![("a", Role::Array), ("n", Role::Len), ("seed", Role::NonNeg)];
    finish(b, "fill".into(), params, ret, Kind::Fill, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::interp::{run, Limits};
    use crate::bril::parse_text;

    /// Every template, called from a small `@main` on extreme arguments of
    /// its roles, verifies, runs, and stays within its stated cost.
    #[test]
    fn templates_run_within_their_cost() {
        let mut rng = Rng::seed_from_u64(1);
        let mut fns: Vec<(Sig, String)> = Helper::ALL.iter().map(|&h| helper(&mut rng, h, 0)).collect();
        let mix = fns[1].0.clone();
        for r in Recursive::ALL {
            fns.push(recursive(&mut rng, r, 0, 40, Some(&mix)));
        }
        fns.push(fill(&mut rng, 40, true));
        for (sig, text) in &fns {
            for extreme in [0, VALUE_MOD - 1] {
                let mut main = String::from("@main {\n  n: int = const 40;\n  a: ptr<int> = alloc n;\n");
                main.push_str(&format!("  seed: int = const {extreme};\n  s: int = call @fill a n seed;\n"));
                let args: Vec<String> = sig
                    .params
                    .iter()
                    .map(|(_, role)| match role {
                        Role::Array => "a".to_string(),
                        Role::Len => "n".to_string(),
                        Role::Zero => "zero".to_string(),
                        Role::Any | Role::NonNeg => "big".to_string(),
                        Role::Depth(d) => format!("d{d}"),
                        Role::Positive => "seven".to_string(),
                        Role::Rate | Role::Float => "rate".to_string(),
                    })
                    .collect();
                for (_, role) in &sig.params {
                    if let Role::Depth(d) = role {
                        main.push_str(&format!("  d{d}: int = const {d};\n"));
                    }
                }
                main.push_str(&format!(
                    "  zero: int = const 0;\n  seven: int = const 7;\n  big: int = const {extreme};\n  \
                     rate: float = const 3.99;\n"
                ));
                match sig.ret.ty() {
                    Some(t) => main.push_str(&format!(
                        "  res: {t} = call @{} {};\n  print res;\n",
                        sig.name,
                        args.join(" ")
                    )),
                    None => main.push_str(&format!("  call @{} {};\n", sig.name, args.join(" "))),
                }
                main.push_str("  free a;\n}\n");
                let fill_text = &fns.last().unwrap().1;
                let program =
                    if sig.name == "fill" { main.clone() + text } else { main.clone() + text + fill_text };
                let p = parse_text(&program).unwrap_or_else(|e| panic!("{e}\n{program}"));
                crate::bril::verify(&p).unwrap_or_else(|e| panic!("{e}\n{program}"));
                let o = run(&p, &[], &Limits::default());
                assert!(o.result.is_ok(), "{}: {:?}\n{program}", sig.name, o.result);
                let fill_cost = fns.last().unwrap().0.cost;
                assert!(
                    o.dyn_inst <= sig.cost + fill_cost + 20,
                    "{}: {} > {}",
                    sig.name,
                    o.dyn_inst,
                    sig.cost
                );
            }
        }
    }
}
