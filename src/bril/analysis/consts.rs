//! Compile-time values: the bits a `const` puts in its destination and the
//! folding of operations on known bits, exactly as the interpreter computes
//! them (64-bit wrapping integers, IEEE doubles, code-point chars).

use crate::bril::ir::{Instr, Literal, Op, Type};
use crate::bril::types::BaseType;

/// The bits of a `const` instruction's value.
pub fn const_bits(instr: &Instr) -> Option<u64> {
    match (instr.op, instr.value, instr.dest) {
        (Op::Const, Some(v), Some(d)) => Some(v.bits(d.ty)),
        _ => None,
    }
}

/// A literal of type `ty` holding `bits`, when one can be written in Bril
/// text and JSON that the reference tools read back as the same bits: no
/// pointers, and no NaN or infinity (text would say `1e999`, JSON
/// `"Infinity"`, and `bril2json`/`brili` reject both).
pub fn bits_literal(bits: u64, ty: Type) -> Option<Literal> {
    if ty.is_ptr() {
        return None;
    }
    match ty.base {
        BaseType::Int => Some(Literal::Int(bits as i64)),
        BaseType::Bool => Some(Literal::Bool(bits != 0)),
        BaseType::Float => Some(f64::from_bits(bits)).filter(|x| x.is_finite()).map(Literal::Float),
        BaseType::Char => u32::try_from(bits).ok().and_then(char::from_u32).map(Literal::Char),
    }
}

/// `op` applied to known argument bits; `None` when it cannot be folded
/// (an effect, a trap such as division by zero, or not a value operation).
pub fn fold(op: Op, args: &[u64]) -> Option<u64> {
    let int = |i: usize| args.get(i).map(|&b| b as i64);
    let float = |i: usize| args.get(i).map(|&b| f64::from_bits(b));
    let b = |x: bool| Some(u64::from(x));
    match op {
        Op::Id | Op::Char2Int => args.first().copied(),
        Op::Add => Some(int(0)?.wrapping_add(int(1)?) as u64),
        Op::Sub => Some(int(0)?.wrapping_sub(int(1)?) as u64),
        Op::Mul => Some(int(0)?.wrapping_mul(int(1)?) as u64),
        Op::Div => {
            let d = int(1)?;
            (d != 0).then(|| int(0).map(|n| n.wrapping_div(d) as u64)).flatten()
        }
        Op::Eq | Op::Ceq => b(int(0)? == int(1)?),
        Op::Lt | Op::Clt => b(int(0)? < int(1)?),
        Op::Gt | Op::Cgt => b(int(0)? > int(1)?),
        Op::Le | Op::Cle => b(int(0)? <= int(1)?),
        Op::Ge | Op::Cge => b(int(0)? >= int(1)?),
        Op::Not => Some(args.first()? ^ 1),
        Op::And => Some(args.first()? & args.get(1)?),
        Op::Or => Some(args.first()? | args.get(1)?),
        Op::Fadd => Some((float(0)? + float(1)?).to_bits()),
        Op::Fsub => Some((float(0)? - float(1)?).to_bits()),
        Op::Fmul => Some((float(0)? * float(1)?).to_bits()),
        Op::Fdiv => Some((float(0)? / float(1)?).to_bits()),
        Op::Feq => b(float(0)? == float(1)?),
        Op::Flt => b(float(0)? < float(1)?),
        Op::Fgt => b(float(0)? > float(1)?),
        Op::Fle => b(float(0)? <= float(1)?),
        Op::Fge => b(float(0)? >= float(1)?),
        Op::Int2Char => {
            let i = int(0)?;
            u32::try_from(i).ok().and_then(char::from_u32).map(|c| u64::from(u32::from(c)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_matches_the_interpreter() {
        assert_eq!(fold(Op::Add, &[i64::MAX as u64, 1]), Some(i64::MIN as u64), "wraps");
        assert_eq!(fold(Op::Div, &[7, 0]), None, "a trap is not folded");
        assert_eq!(fold(Op::Div, &[i64::MIN as u64, -1i64 as u64]), Some(i64::MIN as u64));
        assert_eq!(fold(Op::Div, &[-7i64 as u64, 2]), Some(-3i64 as u64), "truncates");
        assert_eq!(fold(Op::Lt, &[-1i64 as u64, 0]), Some(1));
        assert_eq!(fold(Op::Fadd, &[1.5f64.to_bits(), 2.0f64.to_bits()]), Some(3.5f64.to_bits()));
        assert_eq!(fold(Op::Int2Char, &[0xD800]), None, "a surrogate is not a char");
        assert_eq!(fold(Op::Print, &[1]), None);
        assert_eq!(Literal::Int(2).bits(Type::FLOAT), 2.0f64.to_bits());
        assert_eq!(bits_literal(f64::NAN.to_bits(), Type::FLOAT), None);
        assert_eq!(bits_literal(f64::INFINITY.to_bits(), Type::FLOAT), None);
        assert_eq!(bits_literal(f64::NEG_INFINITY.to_bits(), Type::FLOAT), None);
        assert_eq!(bits_literal(1, Type::BOOL), Some(Literal::Bool(true)));
    }
}
