//! Arguments of `@main` from strings, read as `brili` reads them.
//!
//! `brili` uses JavaScript's `parseInt` for ints (leading blanks, a sign,
//! `0x` hex, and whatever digits come first: `"12abc"` is 12) and
//! `parseFloat` for floats (the longest numeric prefix, `Infinity` included);
//! bools must be exactly `true` or `false`, chars exactly one character.

use crate::bril::types::{BaseType, Type};
use crate::error::{Error, ErrorKind, Result};

fn arg_error(message: String) -> Error {
    Error::new(ErrorKind::Value, message)
}

/// JavaScript `parseInt(s)` restricted to values that fit an `i64`.
pub fn parse_int(s: &str) -> Result<i64> {
    let t = s.trim_start_matches(|c: char| c.is_whitespace());
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (radix, t) = match t.get(..2) {
        Some("0x" | "0X") => (16, &t[2..]),
        _ => (10, t),
    };
    let digits: &str = &t[..t.find(|c: char| !c.is_digit(radix)).unwrap_or(t.len())];
    if digits.is_empty() {
        return Err(arg_error(format!("int argument to main is not a number: {s:?}")));
    }
    let magnitude = i128::from_str_radix(digits, radix)
        .ok()
        .filter(|m| *m <= 1i128 << 63)
        .ok_or_else(|| arg_error(format!("int argument to main out of range: {s:?}")))?;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).map_err(|_| arg_error(format!("int argument to main out of range: {s:?}")))
}

/// JavaScript `parseFloat(s)`; `NaN` results are an error, as in brili.
pub fn parse_float(s: &str) -> Result<f64> {
    let t = s.trim_start_matches(|c: char| c.is_whitespace());
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    if t[i..].starts_with("Infinity") {
        return Ok(if b.first() == Some(&b'-') { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let int_end = digits(i);
    let mut end = int_end;
    let mut mantissa_digits = int_end > i;
    if b.get(end) == Some(&b'.') {
        let frac_end = digits(end + 1);
        mantissa_digits |= frac_end > end + 1;
        end = frac_end;
    }
    if !mantissa_digits {
        return Err(arg_error(format!("float argument to main must not be 'NaN'; got {s}")));
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_end = digits(j);
        if exp_end > j {
            end = exp_end;
        }
    }
    let text = t[..end].trim_end_matches('.');
    let text = if text.ends_with(['+', '-']) || text.is_empty() { "0" } else { text };
    text.parse::<f64>().map_err(|_| arg_error(format!("bad float argument to main: {s:?}")))
}

pub fn parse_bool(s: &str) -> Result<bool> {
    match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(arg_error(format!("boolean argument to main must be 'true'/'false'; got {s}"))),
    }
}

pub fn parse_char(s: &str) -> Result<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(arg_error(format!("char argument to main must have one character; got {s}"))),
    }
}

/// One argument of `@main` as the 64-bit word the interpreter keeps.
pub fn parse_arg(s: &str, ty: Type) -> Result<u64> {
    if ty.is_ptr() {
        return Err(arg_error(format!("main cannot take a {ty} argument")));
    }
    Ok(match ty.base {
        BaseType::Int => parse_int(s)? as u64,
        BaseType::Float => parse_float(s)?.to_bits(),
        BaseType::Bool => u64::from(parse_bool(s)?),
        BaseType::Char => u64::from(u32::from(parse_char(s)?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_like_parse_int() {
        assert_eq!(parse_int("42").unwrap(), 42);
        assert_eq!(parse_int("  -7xyz").unwrap(), -7);
        assert_eq!(parse_int("0x1f").unwrap(), 31);
        assert_eq!(parse_int("+3.9").unwrap(), 3);
        assert_eq!(parse_int("-9223372036854775808").unwrap(), i64::MIN);
        assert!(parse_int("9223372036854775808").is_err());
        assert!(parse_int("abc").is_err());
        assert!(parse_int("").is_err());
    }

    #[test]
    fn floats_like_parse_float() {
        assert_eq!(parse_float("2.5").unwrap(), 2.5);
        assert_eq!(parse_float(" -1e3x").unwrap(), -1000.0);
        assert_eq!(parse_float(".5").unwrap(), 0.5);
        assert_eq!(parse_float("7.").unwrap(), 7.0);
        assert_eq!(parse_float("3e").unwrap(), 3.0);
        assert_eq!(parse_float("-Infinity").unwrap(), f64::NEG_INFINITY);
        assert!(parse_float("nan").is_err());
        assert!(parse_float(".").is_err());
    }

    #[test]
    fn bools_and_chars_are_exact() {
        assert!(parse_bool("true").unwrap());
        assert!(parse_bool("True").is_err());
        assert_eq!(parse_char("é").unwrap(), 'é');
        assert!(parse_char("ab").is_err());
        assert!(parse_arg("1", Type::INT.ptr_to().unwrap()).is_err());
    }
}
