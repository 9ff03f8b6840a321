//! Small dtype-generic helpers over [`ArrayData`] that spaces need: building
//! arrays from exact integers or floats, numpy's casting and promotion rules,
//! and concatenation.

use crate::value::{ArrayData, DType};

/// An array of `dtype` from integers already known to fit it.
pub fn from_i128s(dtype: DType, values: impl Iterator<Item = i128>) -> ArrayData {
    match dtype {
        DType::Bool => ArrayData::Bool(values.map(|x| x != 0).collect()),
        DType::I8 => ArrayData::I8(values.map(|x| x as i8).collect()),
        DType::I16 => ArrayData::I16(values.map(|x| x as i16).collect()),
        DType::I32 => ArrayData::I32(values.map(|x| x as i32).collect()),
        DType::I64 => ArrayData::I64(values.map(|x| x as i64).collect()),
        DType::U8 => ArrayData::U8(values.map(|x| x as u8).collect()),
        DType::U16 => ArrayData::U16(values.map(|x| x as u16).collect()),
        DType::U32 => ArrayData::U32(values.map(|x| x as u32).collect()),
        DType::U64 => ArrayData::U64(values.map(|x| x as u64).collect()),
        DType::F32 => ArrayData::F32(values.map(|x| x as f32).collect()),
        DType::F64 => ArrayData::F64(values.map(|x| x as f64).collect()),
    }
}

/// An array of `dtype` from floats, converted as numpy's `astype` would
/// (integers truncate toward zero and saturate).
pub fn from_f64s(dtype: DType, values: impl Iterator<Item = f64>) -> ArrayData {
    match dtype {
        DType::Bool => ArrayData::Bool(values.map(|x| x != 0.0).collect()),
        DType::I8 => ArrayData::I8(values.map(|x| x as i8).collect()),
        DType::I16 => ArrayData::I16(values.map(|x| x as i16).collect()),
        DType::I32 => ArrayData::I32(values.map(|x| x as i32).collect()),
        DType::I64 => ArrayData::I64(values.map(|x| x as i64).collect()),
        DType::U8 => ArrayData::U8(values.map(|x| x as u8).collect()),
        DType::U16 => ArrayData::U16(values.map(|x| x as u16).collect()),
        DType::U32 => ArrayData::U32(values.map(|x| x as u32).collect()),
        DType::U64 => ArrayData::U64(values.map(|x| x as u64).collect()),
        DType::F32 => ArrayData::F32(values.map(|x| x as f32).collect()),
        DType::F64 => ArrayData::F64(values.collect()),
    }
}

/// The data converted to `dtype`; exact whenever `can_cast(from, dtype)`.
pub fn cast(data: &ArrayData, dtype: DType) -> ArrayData {
    if data.dtype() == dtype {
        return data.clone();
    }
    let n = data.len();
    if data.dtype().is_float() || dtype.is_float() {
        from_f64s(dtype, (0..n).map(|i| data.get_f64(i)))
    } else {
        // Both integral or bool: exact through i128 (wrapping like numpy if it does not fit).
        from_i128s(dtype, (0..n).map(|i| data.get_i128(i).unwrap_or(0)))
    }
}

/// Bits of precision of an integer dtype's magnitude (bool counts as 1).
fn int_bits(d: DType) -> u32 {
    match d {
        DType::Bool => 1,
        DType::I8 => 7,
        DType::U8 => 8,
        DType::I16 => 15,
        DType::U16 => 16,
        DType::I32 => 31,
        DType::U32 => 32,
        DType::I64 => 63,
        DType::U64 => 64,
        DType::F32 => 24,
        DType::F64 => 53,
    }
}

/// numpy's `can_cast(from, to, "safe")`: every value of `from` is exactly a value of `to`.
pub fn can_cast(from: DType, to: DType) -> bool {
    if from == to || from == DType::Bool {
        return true;
    }
    match (from.is_float(), to.is_float()) {
        (true, false) => false,
        (true, true) => from == DType::F32 || to == DType::F64,
        (false, true) => int_bits(from) <= int_bits(to),
        (false, false) => {
            if to == DType::Bool {
                return false;
            }
            match (from.is_signed(), to.is_signed()) {
                (true, false) => false,
                (false, true) => int_bits(from) < int_bits(to),
                _ => int_bits(from) <= int_bits(to),
            }
        }
    }
}

/// numpy's `result_type(a, b)` for arrays: the smallest dtype both cast to safely.
pub fn promote(a: DType, b: DType) -> DType {
    if can_cast(a, b) {
        return b;
    }
    if can_cast(b, a) {
        return a;
    }
    const ORDER: [DType; 9] = [
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F32,
        DType::F64,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::I8,
    ];
    ORDER.into_iter().find(|&t| can_cast(a, t) && can_cast(b, t)).unwrap_or(DType::F64)
}

/// Appends `extra` to `out`; both must have the same dtype.
pub fn extend(out: &mut ArrayData, extra: &ArrayData) {
    macro_rules! ext {
        ($($v:ident),*) => {
            match (out, extra) {
                $((ArrayData::$v(a), ArrayData::$v(b)) => a.extend_from_slice(b),)*
                (a, b) => unreachable!("extend: {} into {}", b.dtype(), a.dtype()),
            }
        };
    }
    ext!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64)
}

/// Concatenates `parts` after casting each to `dtype`.
pub fn concat(dtype: DType, parts: &[ArrayData]) -> ArrayData {
    let mut out = ArrayData::zeros(dtype, 0);
    for p in parts {
        if p.dtype() == dtype {
            extend(&mut out, p);
        } else {
            extend(&mut out, &cast(p, dtype));
        }
    }
    out
}

/// The elements `start..end` of `data`.
pub fn slice(data: &ArrayData, start: usize, end: usize) -> ArrayData {
    macro_rules! sl {
        ($($v:ident),*) => {
            match data {
                $(ArrayData::$v(x) => ArrayData::$v(x[start..end].to_vec()),)*
            }
        };
    }
    sl!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casting_rules_match_numpy() {
        assert!(can_cast(DType::I8, DType::F32));
        assert!(!can_cast(DType::I32, DType::F32));
        assert!(can_cast(DType::I32, DType::F64));
        assert!(!can_cast(DType::I64, DType::F64));
        assert!(!can_cast(DType::F32, DType::I64));
        assert!(can_cast(DType::U8, DType::I16));
        assert!(!can_cast(DType::I8, DType::U64));
        assert!(can_cast(DType::Bool, DType::U8));
        assert!(!can_cast(DType::U8, DType::Bool));
    }

    #[test]
    fn promotion_matches_numpy() {
        assert_eq!(promote(DType::I64, DType::F32), DType::F64);
        assert_eq!(promote(DType::I8, DType::F32), DType::F32);
        assert_eq!(promote(DType::U64, DType::I64), DType::F64);
        assert_eq!(promote(DType::U8, DType::I8), DType::I16);
        assert_eq!(promote(DType::Bool, DType::I8), DType::I8);
        assert_eq!(promote(DType::U32, DType::I32), DType::I64);
        assert_eq!(promote(DType::F32, DType::F32), DType::F32);
    }

    #[test]
    fn concat_and_slice() {
        let a = ArrayData::I8(vec![1, -2]);
        let b = ArrayData::F32(vec![0.5]);
        let c = concat(promote(a.dtype(), b.dtype()), &[a, b]);
        assert_eq!(c, ArrayData::F32(vec![1.0, -2.0, 0.5]));
        assert_eq!(slice(&c, 1, 3), ArrayData::F32(vec![-2.0, 0.5]));
        assert_eq!(cast(&ArrayData::F64(vec![2.9, -1.5]), DType::I32), ArrayData::I32(vec![2, -1]));
    }
}
