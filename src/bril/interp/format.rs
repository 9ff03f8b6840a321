//! Printing values the way `brili` does.
//!
//! Floats: 17 digits after the point, switching to exponent form (`e+N`,
//! `e-N`) when |x| reaches 1e10 or falls to 1e-10; `Infinity`, `-Infinity`,
//! `NaN`. JavaScript's `toFixed`/`toExponential` round exact ties away from
//! zero where Rust's formatter rounds them to even, so the rounding here is
//! done by hand on a longer exact expansion.

use std::fmt::Write;

/// Digits kept beyond the 17 printed: the exact binary value is expanded to
/// this many places, then rounded half-up at 17.
const EXTRA: usize = 40;

pub fn write_float(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
    } else if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.00000000000000000" } else { "0.00000000000000000" });
    } else {
        let magnitude = x.abs().log10();
        if magnitude >= 10.0 || magnitude <= -10.0 {
            write_exponential(out, x);
        } else {
            write_fixed(out, x);
        }
    }
}

pub fn format_float(x: f64) -> String {
    let mut s = String::new();
    write_float(&mut s, x);
    s
}

/// Adds one unit in the last place to a string of ASCII digits; returns
/// whether the carry ran out of the front (all nines).
fn increment(digits: &mut [u8]) -> bool {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    true
}

/// `x.toFixed(17)` for 1e-10 < |x| < 1e10.
fn write_fixed(out: &mut String, x: f64) {
    let long = format!("{:.*}", 17 + EXTRA, x.abs());
    let (int_part, frac) = long.split_once('.').unwrap_or((&long, ""));
    let mut digits: Vec<u8> = int_part.bytes().chain(frac.bytes().take(17)).collect();
    let int_len = int_part.len();
    let round_up = frac.as_bytes().get(17).is_some_and(|&d| d >= b'5');
    let mut int_len_out = int_len;
    if round_up && increment(&mut digits) {
        digits.insert(0, b'1');
        int_len_out += 1;
    }
    if x < 0.0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&digits[..int_len_out]).unwrap_or(""));
    out.push('.');
    out.push_str(std::str::from_utf8(&digits[int_len_out..]).unwrap_or(""));
}

/// `x.toExponential(17)`: one digit, point, 17 digits, `e+N` or `e-N`.
fn write_exponential(out: &mut String, x: f64) {
    let long = format!("{:.*e}", 17 + EXTRA, x.abs());
    let (mantissa, exp) = long.split_once('e').unwrap_or((&long, "0"));
    let mut exp: i32 = exp.parse().unwrap_or(0);
    let all: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let mut digits: Vec<u8> = all.iter().copied().take(18).collect();
    if all.get(18).is_some_and(|&d| d >= b'5') && increment(&mut digits) {
        digits.insert(0, b'1');
        digits.truncate(18);
        exp += 1;
    }
    if x < 0.0 {
        out.push('-');
    }
    out.push(digits[0] as char);
    out.push('.');
    out.push_str(std::str::from_utf8(&digits[1..]).unwrap_or(""));
    let _ = write!(out, "e{}{}", if exp < 0 { '-' } else { '+' }, exp.abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_brili_float_printing() {
        let cases: [(f64, &str); 14] = [
            (5.0, "5.00000000000000000"),
            (2.0 / 3.0 + 5.0 / 3.0, "2.33333333333333348"),
            (-0.75, "-0.75000000000000000"),
            (-0.0, "-0.00000000000000000"),
            (0.0, "0.00000000000000000"),
            (3.083945934529577e53, "3.08394593452957709e+53"),
            (1e-11, "9.99999999999999939e-12"),
            (-2.5e-12, "-2.49999999999999985e-12"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
            (9999999999.5, "9999999999.50000000000000000"),
            (1e10, "1.00000000000000000e+10"),
            (0.1, "0.10000000000000001"),
        ];
        for (x, want) in cases {
            assert_eq!(format_float(x), want, "{x:e}");
        }
    }

    #[test]
    fn exact_ties_round_away_from_zero_like_javascript() {
        // 2^-18 = 0.000003814697265625 exactly: the 18th decimal is a tie.
        let x = 1.0 / 262144.0;
        assert_eq!(format_float(x), "0.00000381469726563");
        assert_eq!(format_float(-x), "-0.00000381469726563");
        // 12345678901 + 3/256 has 19 significant digits ending in 5.
        let y = 12345678901.0 + 3.0 / 256.0;
        assert_eq!(format_float(y), "1.23456789010117188e+10");
        // The largest double below one rounds up in its last printed digit.
        assert_eq!(format_float(1.0 - f64::EPSILON / 2.0), "0.99999999999999989");
    }
}
