//! Compile-time evaluation of Bril operations, exactly as the interpreter
//! computes them: 64-bit wrapping integers, IEEE doubles, chars as code points.
//!
//! Evaluation refuses (returns `None`) whenever running the instruction could
//! fail (division by zero, `int2char` of a non-character) or when the result
//! could not be written back as a literal (NaN).

use crate::bril::ir::{BaseType, Literal, Op, Type};

/// A known run-time value. Floats are kept as bits so values can be hashed
/// and compared exactly (distinguishing `0.0` from `-0.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Value {
    Int(i64),
    Bool(bool),
    Float(u64),
    Char(char),
}

impl Value {
    /// The value a `const` of type `ty` with literal `lit` produces.
    pub fn from_literal(lit: Literal, ty: Type) -> Option<Value> {
        if ty.is_ptr() {
            return None;
        }
        Some(match (lit, ty.base) {
            (Literal::Int(i), BaseType::Int) => Value::Int(i),
            (Literal::Int(i), BaseType::Float) => Value::Float((i as f64).to_bits()),
            (Literal::Float(x), BaseType::Float) => Value::Float(x.to_bits()),
            (Literal::Bool(b), BaseType::Bool) => Value::Bool(b),
            (Literal::Char(c), BaseType::Char) => Value::Char(c),
            _ => return None,
        })
    }

    /// The literal and type of a `const` producing this value, when the text
    /// formats can write it (every finite value).
    pub fn to_const(self) -> Option<(Literal, Type)> {
        Some(match self {
            Value::Int(i) => (Literal::Int(i), Type::INT),
            Value::Bool(b) => (Literal::Bool(b), Type::BOOL),
            Value::Float(bits) => {
                let x = f64::from_bits(bits);
                if !x.is_finite() {
                    return None;
                }
                (Literal::Float(x), Type::FLOAT)
            }
            Value::Char(c) => (Literal::Char(c), Type::CHAR),
        })
    }

    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// Whether [`cannot_fail`] looks at the operands of `op` (for every other
/// operation, the answer is the same whatever they are).
pub(super) fn safety_reads_operands(op: Op) -> bool {
    matches!(op, Op::Div | Op::Int2Char)
}

/// Whether an instruction `op` whose operands are known to be `args` (None:
/// unknown) can never fail at run time. Pure operations never fail; `div`
/// is safe by a non-zero constant and `int2char` of a valid code point.
pub(super) fn cannot_fail(op: Op, args: &[Option<Value>]) -> bool {
    match op {
        Op::Div => args.get(1).copied().flatten().and_then(Value::as_int).is_some_and(|d| d != 0),
        Op::Int2Char => {
            args.first().copied().flatten().and_then(Value::as_int).is_some_and(|i| int_to_char(i).is_some())
        }
        _ => op.is_pure(),
    }
}

fn int_to_char(i: i64) -> Option<char> {
    u32::try_from(i).ok().and_then(char::from_u32)
}

/// The result of `op` on constant operands, when it is defined and
/// representable. `id` returns its operand.
pub(super) fn eval(op: Op, args: &[Value]) -> Option<Value> {
    use Value::*;
    let v = match (op, args) {
        (Op::Id, &[a]) => a,
        (Op::Add, &[Int(a), Int(b)]) => Int(a.wrapping_add(b)),
        (Op::Sub, &[Int(a), Int(b)]) => Int(a.wrapping_sub(b)),
        (Op::Mul, &[Int(a), Int(b)]) => Int(a.wrapping_mul(b)),
        (Op::Div, &[Int(a), Int(b)]) if b != 0 => Int(a.wrapping_div(b)),
        (Op::Eq, &[Int(a), Int(b)]) => Bool(a == b),
        (Op::Lt, &[Int(a), Int(b)]) => Bool(a < b),
        (Op::Gt, &[Int(a), Int(b)]) => Bool(a > b),
        (Op::Le, &[Int(a), Int(b)]) => Bool(a <= b),
        (Op::Ge, &[Int(a), Int(b)]) => Bool(a >= b),
        (Op::Not, &[Bool(a)]) => Bool(!a),
        (Op::And, &[Bool(a), Bool(b)]) => Bool(a && b),
        (Op::Or, &[Bool(a), Bool(b)]) => Bool(a || b),
        (Op::Fadd, &[Float(a), Float(b)]) => float(f(a) + f(b))?,
        (Op::Fsub, &[Float(a), Float(b)]) => float(f(a) - f(b))?,
        (Op::Fmul, &[Float(a), Float(b)]) => float(f(a) * f(b))?,
        (Op::Fdiv, &[Float(a), Float(b)]) => float(f(a) / f(b))?,
        (Op::Feq, &[Float(a), Float(b)]) => Bool(f(a) == f(b)),
        (Op::Flt, &[Float(a), Float(b)]) => Bool(f(a) < f(b)),
        (Op::Fgt, &[Float(a), Float(b)]) => Bool(f(a) > f(b)),
        (Op::Fle, &[Float(a), Float(b)]) => Bool(f(a) <= f(b)),
        (Op::Fge, &[Float(a), Float(b)]) => Bool(f(a) >= f(b)),
        (Op::Ceq, &[Char(a), Char(b)]) => Bool(a == b),
        (Op::Clt, &[Char(a), Char(b)]) => Bool(a < b),
        (Op::Cgt, &[Char(a), Char(b)]) => Bool(a > b),
        (Op::Cle, &[Char(a), Char(b)]) => Bool(a <= b),
        (Op::Cge, &[Char(a), Char(b)]) => Bool(a >= b),
        (Op::Char2Int, &[Char(c)]) => Int(i64::from(u32::from(c))),
        (Op::Int2Char, &[Int(i)]) => Char(int_to_char(i)?),
        _ => return None,
    };
    Some(v)
}

fn f(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// A float result, when finite: no literal writes NaN, and JSON has no
/// infinities (they would come back as null).
fn float(x: f64) -> Option<Value> {
    x.is_finite().then(|| Value::Float(x.to_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    #[test]
    fn integers_wrap_and_division_by_zero_is_not_folded() {
        assert_eq!(eval(Op::Add, &[Int(i64::MAX), Int(1)]), Some(Int(i64::MIN)));
        assert_eq!(eval(Op::Div, &[Int(i64::MIN), Int(-1)]), Some(Int(i64::MIN)));
        assert_eq!(eval(Op::Div, &[Int(-7), Int(2)]), Some(Int(-3)), "truncates toward zero");
        assert_eq!(eval(Op::Div, &[Int(1), Int(0)]), None);
        assert!(!cannot_fail(Op::Div, &[None, Some(Int(0))]));
        assert!(cannot_fail(Op::Div, &[None, Some(Int(-1))]));
        assert!(!cannot_fail(Op::Div, &[Some(Int(3)), None]));
    }

    #[test]
    fn floats_are_bit_exact_and_nan_is_refused() {
        let x = |v: f64| Float(v.to_bits());
        assert_eq!(eval(Op::Fadd, &[x(0.1), x(0.2)]), Some(x(0.1 + 0.2)));
        assert_eq!(eval(Op::Fmul, &[x(-0.0), x(1.0)]), Some(x(-0.0)));
        assert_eq!(eval(Op::Fdiv, &[x(1.0), x(0.0)]), None, "infinity has no JSON literal");
        assert_eq!(eval(Op::Fmul, &[x(1e300), x(1e300)]), None);
        assert_eq!(eval(Op::Fdiv, &[x(0.0), x(0.0)]), None);
        assert_eq!(eval(Op::Feq, &[x(0.0), x(-0.0)]), Some(Bool(true)));
        assert_eq!(Value::from_literal(Literal::Int(3), Type::FLOAT), Some(x(3.0)));
    }

    #[test]
    fn chars_and_conversions() {
        assert_eq!(eval(Op::Clt, &[Char('a'), Char('b')]), Some(Bool(true)));
        assert_eq!(eval(Op::Char2Int, &[Char('A')]), Some(Int(65)));
        assert_eq!(eval(Op::Int2Char, &[Int(0xD800)]), None, "a surrogate is not a char");
        assert!(!cannot_fail(Op::Int2Char, &[Some(Int(-1))]));
        assert_eq!(eval(Op::Add, &[Int(1), Bool(true)]), None, "ill-typed");
    }
}
