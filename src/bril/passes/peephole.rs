//! `-peephole`: algebraic simplification of single instructions.
//!
//! Rewrites identities whose result does not depend on the unknown operand,
//! or equals it: `x+0`, `x-0`, `x*1`, `x/1`, `ptradd p 0` to a copy; `x*0`, `x-x` to
//! `const 0`; `x*2` to `x+x` (same cost, frees the constant); `and`/`or` with
//! a constant or twice the same operand; `not (not x)` and chains of `id` to a
//! copy of the source; integer and char comparisons of a variable with itself
//! to a constant (not floats: NaN is not equal to itself); and deletes `x = id x`.
//!
//! A constant operand is one defined earlier in the block, or a variable
//! whose single `const` definition reaches every read. Sources of `not` and
//! `id` are only looked through while neither variable is redefined. Every
//! rewrite computes the same value and none can fail, so output is unchanged;
//! an instruction reading a variable maybe undefined there stays as it is
//! (its read fails, see [`MaybeUndefinedReads`]).

use crate::bril::hash::FxHashMap;

use super::facts::global_constants_given;
use super::fold::Value;
use crate::bril::analysis::definite::MaybeUndefinedReads;
use crate::bril::ir::{BlockId, Function, Instr, Literal, Op, Program, Type, VarId};
use crate::error::Result;
use std::sync::Arc;

pub fn peephole(program: &mut Program) -> Result<bool> {
    let mut changed = false;
    for f in &mut program.functions {
        // Each sweep may expose another rewrite (a copy now chaining). A
        // function the first leaves alone is not copied.
        for _ in 0..8 {
            let Some(blocks) = sweep(f) else { break };
            for (block, instrs) in Arc::make_mut(f).blocks.iter_mut().zip(blocks) {
                block.instrs = instrs;
            }
            changed = true;
        }
    }
    Ok(changed)
}

/// What an earlier instruction of the block says about a variable.
#[derive(Clone, Copy)]
enum Local {
    Const(Value),
    Not(VarId),
    Copy(VarId),
}

/// What the block has said so far about each variable. A fact naming a
/// source holds while the source keeps the version it had: a write bumps
/// the version, so no fact needs hunting down when a variable changes.
struct Facts {
    known: FxHashMap<VarId, (Local, u32)>,
    version: Vec<u32>,
}

impl Facts {
    fn get(&self, v: &VarId) -> Option<Local> {
        let &(fact, seen) = self.known.get(v)?;
        match fact {
            Local::Not(s) | Local::Copy(s) if self.version.get(s.index()) != Some(&seen) => None,
            _ => Some(fact),
        }
    }

    /// `d` was written; `fact` (if any) is what it now holds.
    fn write(&mut self, d: VarId, fact: Option<Local>) {
        if let Some(v) = self.version.get_mut(d.index()) {
            *v = v.wrapping_add(1);
        }
        self.known.remove(&d);
        if let Some(fact) = fact {
            let seen = match fact {
                Local::Not(s) | Local::Copy(s) => self.version.get(s.index()).copied().unwrap_or(0),
                Local::Const(_) => 0,
            };
            self.known.insert(d, (fact, seen));
        }
    }
}

/// One sweep's code, block by block; `None` if it rewrites nothing. The code
/// is copied only from the first rewrite on, so a sweep that finds nothing
/// allocates nothing the size of the function.
fn sweep(f: &Function) -> Option<Vec<Vec<Instr>>> {
    let failing = MaybeUndefinedReads::of(f);
    let globals = global_constants_given(f, &failing);
    // The blocks so far, once something was rewritten.
    let mut blocks: Option<Vec<Vec<Instr>>> = None;
    // Versions only ever grow, so one table serves every block.
    let mut facts = Facts { known: FxHashMap::default(), version: vec![0; f.vars.len()] };
    for (b, block) in f.blocks.iter().enumerate() {
        facts.known = FxHashMap::default();
        let mut out = blocks.as_ref().map(|_| Vec::with_capacity(block.instrs.len()));
        for (i, instr) in block.instrs.iter().enumerate() {
            let rewritten = match failing.at(BlockId::new(b), i) {
                true => Rewrite::Keep,
                false => rewrite(instr, &facts, &globals),
            };
            if out.is_none() && !matches!(rewritten, Rewrite::Keep) {
                blocks = Some(f.blocks[..b].iter().map(|block| block.instrs.clone()).collect());
                out = Some(block.instrs[..i].to_vec());
            }
            let new = match rewritten {
                Rewrite::Keep => None,
                Rewrite::Delete => continue,
                Rewrite::To(new) => Some(new.with_pos(instr.pos)),
            };
            let kept = new.as_ref().unwrap_or(instr);
            if let Some(d) = kept.def() {
                // Facts about d, or reading d, no longer hold.
                let fact = match kept.op {
                    Op::Const => kept
                        .value
                        .zip(kept.dest)
                        .and_then(|(l, t)| Value::from_literal(l, t.ty))
                        .map(Local::Const),
                    Op::Not => kept.args.first().map(|&a| Local::Not(a)),
                    Op::Id => kept.args.first().map(|&a| Local::Copy(a)),
                    _ => None,
                };
                facts
                    .write(d, fact.filter(|fact| !matches!(fact, Local::Not(s) | Local::Copy(s) if *s == d)));
            }
            if let Some(out) = out.as_mut() {
                out.push(new.unwrap_or_else(|| instr.clone()));
            }
        }
        if let (Some(blocks), Some(out)) = (blocks.as_mut(), out) {
            blocks.push(out);
        }
    }
    blocks
}

enum Rewrite {
    Keep,
    Delete,
    To(Instr),
}

fn rewrite(instr: &Instr, facts: &Facts, globals: &[Option<Value>]) -> Rewrite {
    let Some(dest) = instr.dest else { return Rewrite::Keep };
    let constant = |v: VarId| match facts.get(&v) {
        Some(Local::Const(c)) => Some(c),
        _ => globals.get(v.index()).copied().flatten(),
    };
    let int = |v: VarId| constant(v).and_then(Value::as_int);
    let boolean = |v: VarId| constant(v).and_then(Value::as_bool);
    let copy = |src: VarId| Rewrite::To(Instr::value(Op::Id, dest.var, dest.ty, &[src]));
    let int_const = |i: i64| Rewrite::To(Instr::constant(dest.var, Type::INT, Literal::Int(i)));
    let bool_const = |b: bool| Rewrite::To(Instr::constant(dest.var, Type::BOOL, Literal::Bool(b)));
    let (a, b) = (instr.args.first().copied(), instr.args.get(1).copied());
    match (instr.op, a, b) {
        (Op::Add, Some(x), Some(y)) if int(y) == Some(0) => copy(x),
        (Op::Add, Some(x), Some(y)) if int(x) == Some(0) => copy(y),
        (Op::Sub, Some(x), Some(y)) if int(y) == Some(0) => copy(x),
        (Op::PtrAdd, Some(p), Some(k)) if int(k) == Some(0) => copy(p),
        (Op::Sub, Some(x), Some(y)) if x == y => int_const(0),
        (Op::Mul, Some(x), Some(y)) if int(x) == Some(0) || int(y) == Some(0) => int_const(0),
        (Op::Mul, Some(x), Some(y)) if int(y) == Some(1) => copy(x),
        (Op::Mul, Some(x), Some(y)) if int(x) == Some(1) => copy(y),
        (Op::Mul, Some(x), Some(y)) if int(y) == Some(2) => double(dest.var, x),
        (Op::Mul, Some(x), Some(y)) if int(x) == Some(2) => double(dest.var, y),
        (Op::Div, Some(x), Some(y)) if int(y) == Some(1) => copy(x),
        (Op::Eq | Op::Le | Op::Ge | Op::Ceq | Op::Cle | Op::Cge, Some(x), Some(y)) if x == y => {
            bool_const(true)
        }
        (Op::Lt | Op::Gt | Op::Clt | Op::Cgt, Some(x), Some(y)) if x == y => bool_const(false),
        (Op::And, Some(x), Some(y)) if boolean(x) == Some(false) || boolean(y) == Some(false) => {
            bool_const(false)
        }
        (Op::Or, Some(x), Some(y)) if boolean(x) == Some(true) || boolean(y) == Some(true) => {
            bool_const(true)
        }
        (Op::And, Some(x), Some(y)) if boolean(y) == Some(true) || x == y => copy(x),
        (Op::And, Some(x), Some(y)) if boolean(x) == Some(true) => copy(y),
        (Op::Or, Some(x), Some(y)) if boolean(y) == Some(false) || x == y => copy(x),
        (Op::Or, Some(x), Some(y)) if boolean(x) == Some(false) => copy(y),
        (Op::Not, Some(x), None) => match facts.get(&x) {
            Some(Local::Not(src)) => copy(src),
            _ => Rewrite::Keep,
        },
        (Op::Id, Some(x), None) if x == dest.var => Rewrite::Delete,
        (Op::Id, Some(x), None) => match facts.get(&x) {
            Some(Local::Copy(src)) if src == dest.var => Rewrite::Delete,
            Some(Local::Copy(src)) => copy(src),
            _ => Rewrite::Keep,
        },
        _ => Rewrite::Keep,
    }
}

/// `dest = add x x`, the cost of the `mul` it replaces.
fn double(dest: VarId, x: VarId) -> Rewrite {
    Rewrite::To(Instr::value(Op::Add, dest, Type::INT, &[x, x]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::passes::testing::check_pass;
    use crate::bril::{parse_text, to_text};

    fn body(src: &str) -> (bool, Vec<String>) {
        let mut p = parse_text(src).unwrap();
        let changed = peephole(&mut p).unwrap();
        let lines =
            to_text(&p).lines().filter(|l| l.starts_with("  ")).map(|l| l.trim().to_string()).collect();
        (changed, lines)
    }

    #[test]
    fn a_pointer_moved_by_zero_is_the_pointer() {
        let (changed, lines) = body(
            "@main {\n  n: int = const 2;\n  zero: int = const 0;\n  p: ptr<int> = alloc n;\n  q: ptr<int> = ptradd p zero;\n  store q n;\n  v: int = load p;\n  print v;\n  free p;\n}",
        );
        assert!(changed);
        assert_eq!(lines[3], "q: ptr<int> = id p;");
    }

    #[test]
    fn arithmetic_identities() {
        let (changed, lines) = body(
            "@main(x: int) {\n  zero: int = const 0;\n  one: int = const 1;\n  two: int = const 2;\n.l:\n  a: int = add x zero;\n  b: int = mul one x;\n  c: int = mul x zero;\n  d: int = sub x x;\n  e: int = mul x two;\n  f: int = div x one;\n  print a b c d e f;\n}",
        );
        assert!(changed);
        assert_eq!(
            &lines[3..9],
            [
                "a: int = id x;",
                "b: int = id x;",
                "c: int = const 0;",
                "d: int = const 0;",
                "e: int = add x x;",
                "f: int = id x;"
            ]
        );
    }

    #[test]
    fn boolean_and_comparison_identities_but_not_float_self_comparison() {
        let (_, lines) = body(
            "@main(x: int, p: bool, y: float) {\n  t: bool = const true;\n  a: bool = and p t;\n  b: bool = or p t;\n  c: bool = le x x;\n  d: bool = lt x x;\n  n: bool = not p;\n  m: bool = not n;\n  e: bool = feq y y;\n  print a b c d m e;\n}",
        );
        assert_eq!(
            &lines[1..8],
            [
                "a: bool = id p;",
                "b: bool = const true;",
                "c: bool = const true;",
                "d: bool = const false;",
                "n: bool = not p;",
                "m: bool = id p;",
                "e: bool = feq y y;"
            ]
        );
    }

    #[test]
    fn copy_chains_collapse_and_self_copies_go() {
        let (_, lines) =
            body("@main(x: int) {\n  a: int = id x;\n  b: int = id a;\n  x: int = id x;\n  print b;\n}");
        assert_eq!(lines, ["a: int = id x;", "b: int = id x;", "print b;"]);
    }

    #[test]
    fn a_redefined_source_stops_the_chain_and_a_maybe_undefined_constant_is_not_used() {
        let src = "@main(x: int, c: bool) {\n  a: int = id x;\n  x: int = const 3;\n  b: int = id a;\n  br c .s .j;\n.s:\n  one: int = const 1;\n.j:\n  m: int = mul x one;\n  print b m;\n}\n";
        assert_eq!(
            body(src),
            (false, src.lines().filter(|l| l.starts_with("  ")).map(|l| l.trim().to_string()).collect())
        );
    }

    #[test]
    fn keeps_behaviour_on_the_corpus() {
        check_pass(&|p| peephole(p));
    }
}
