//! The scalar rules of the protocol's JSON form (proto3's JSON mapping):
//! 64-bit integers, non-finite floats and bytes.
//!
//! * int64 is written as a JSON number when JavaScript can hold it exactly
//!   (|x| < 2^53) and as a decimal string otherwise, so nothing is rounded;
//!   both forms are read, as proto3 parsers do.
//! * Non-finite floats are the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
//! * Bytes are base64 (standard alphabet, padded); reading also accepts the
//!   URL-safe alphabet and missing padding.

use crate::error::{Error, Result};
use serde_json::Value as Json;

/// The largest integer magnitude a JavaScript number holds exactly.
const SAFE_INT: i64 = (1 << 53) - 1;

pub fn int_to_json(x: i64) -> Json {
    if (-SAFE_INT..=SAFE_INT).contains(&x) {
        Json::from(x)
    } else {
        Json::from(x.to_string())
    }
}

pub fn uint_to_json(x: u64) -> Json {
    match i64::try_from(x) {
        Ok(i) => int_to_json(i),
        Err(_) => Json::from(x.to_string()),
    }
}

/// An int64 from a JSON number (integral) or a decimal string.
pub fn json_to_int(j: &Json, what: &str) -> Result<i64> {
    match j {
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(i);
            }
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Ok(f as i64),
                _ => Err(Error::value(format!("{what}: {n} is not an int64"))),
            }
        }
        Json::String(s) => {
            s.trim().parse::<i64>().map_err(|_| Error::value(format!("{what}: {s:?} is not an int64")))
        }
        other => Err(Error::type_error(format!("{what}: expected an integer, got {other}"))),
    }
}

/// A non-negative integer that fits `u64`.
pub fn json_to_uint(j: &Json, what: &str) -> Result<u64> {
    match j {
        Json::Number(n) if n.is_u64() => Ok(n.as_u64().unwrap_or(0)),
        Json::String(s) => {
            s.trim().parse::<u64>().map_err(|_| Error::value(format!("{what}: {s:?} is not a uint64")))
        }
        _ => {
            u64::try_from(json_to_int(j, what)?).map_err(|_| Error::value(format!("{what}: {j} is negative")))
        }
    }
}

pub fn json_to_index(j: &Json, what: &str) -> Result<usize> {
    let i = json_to_uint(j, what)?;
    usize::try_from(i).map_err(|_| Error::value(format!("{what}: {i} is too large")))
}

pub fn float_to_json(x: f64) -> Json {
    if x.is_finite() {
        Json::from(x)
    } else if x.is_nan() {
        Json::from("NaN")
    } else if x > 0.0 {
        Json::from("Infinity")
    } else {
        Json::from("-Infinity")
    }
}

pub fn json_to_float(j: &Json, what: &str) -> Result<f64> {
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| Error::value(format!("{what}: {n} is not a number"))),
        Json::String(s) => match s.as_str() {
            "NaN" | "nan" => Ok(f64::NAN),
            "Infinity" | "inf" => Ok(f64::INFINITY),
            "-Infinity" | "-inf" => Ok(f64::NEG_INFINITY),
            other => other
                .trim()
                .parse::<f64>()
                .map_err(|_| Error::value(format!("{what}: {s:?} is not a number"))),
        },
        other => Err(Error::type_error(format!("{what}: expected a number, got {other}"))),
    }
}

pub fn json_to_bool(j: &Json, what: &str) -> Result<bool> {
    j.as_bool().ok_or_else(|| Error::type_error(format!("{what}: expected a boolean, got {j}")))
}

pub fn json_to_str<'a>(j: &'a Json, what: &str) -> Result<&'a str> {
    j.as_str().ok_or_else(|| Error::type_error(format!("{what}: expected a string, got {j}")))
}

pub fn json_to_list<'a>(j: &'a Json, what: &str) -> Result<&'a [Json]> {
    j.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| Error::type_error(format!("{what}: expected a list, got {j}")))
}

pub fn json_to_object<'a>(j: &'a Json, what: &str) -> Result<&'a serde_json::Map<String, Json>> {
    j.as_object().ok_or_else(|| Error::type_error(format!("{what}: expected an object, got {j}")))
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    } as u32)
}

pub fn base64_decode(text: &str, what: &str) -> Result<Vec<u8>> {
    let bad = || Error::value(format!("{what}: not valid base64"));
    let digits = text.trim_end_matches('=').as_bytes();
    if digits.len() % 4 == 1 {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= sextet(c).ok_or_else(bad)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn base64_matches_the_rfc_vectors_and_round_trips() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
        ];
        for (plain, coded) in vectors {
            assert_eq!(base64_encode(plain.as_bytes()), coded);
            assert_eq!(base64_decode(coded, "x").unwrap(), plain.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(base64_decode(&base64_encode(&all), "x").unwrap(), all);
        assert_eq!(base64_decode("_-8", "x").unwrap(), vec![0xff, 0xef]);
        assert_eq!(base64_decode("Zm9v!", "x").unwrap_err().name(), "ValueError");
        assert!(base64_decode("Z", "x").is_err());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn big_ints_travel_as_strings() {
        assert_eq!(int_to_json(42), Json::from(42));
        assert_eq!(int_to_json(i64::MAX), Json::from(i64::MAX.to_string()));
        assert_eq!(json_to_int(&int_to_json(i64::MIN), "x").unwrap(), i64::MIN);
        assert_eq!(json_to_int(&Json::from("7"), "x").unwrap(), 7);
        assert_eq!(json_to_int(&Json::from(2.5), "x").unwrap_err().name(), "ValueError");
        assert_eq!(json_to_uint(&Json::from(-1), "x").unwrap_err().name(), "ValueError");
        assert_eq!(uint_to_json(u64::MAX), Json::from(u64::MAX.to_string()));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn non_finite_floats_are_named() {
        for x in [f64::INFINITY, f64::NEG_INFINITY, 1.5] {
            assert_eq!(json_to_float(&float_to_json(x), "x").unwrap(), x);
        }
        assert!(json_to_float(&float_to_json(f64::NAN), "x").unwrap().is_nan());
        assert_eq!(json_to_float(&Json::Null, "x").unwrap_err().name(), "TypeError");
    }
}
