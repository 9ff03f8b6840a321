//! Reading and writing the fields of JSON space descriptions, with errors
//! that name the field at fault.
//!
//! Non-finite floats, which JSON cannot hold, are written as the strings
//! `"inf"`, `"-inf"` and `"nan"` and read back from them. Integers are read
//! from decimal strings too: JSON text made by JavaScript holds an integer
//! past 2^53 exactly only as a string.

use crate::error::{Error, Result};
use crate::limits;
use crate::value::DType;
use serde_json::{Map, Value as Json};

pub type JsonMap = Map<String, Json>;

/// A float as JSON: a number when finite, else `"inf"`, `"-inf"` or `"nan"`.
pub fn f64_to_json(x: f64) -> Json {
    if x.is_finite() {
        Json::from(x)
    } else if x.is_nan() {
        Json::from("nan")
    } else if x > 0.0 {
        Json::from("inf")
    } else {
        Json::from("-inf")
    }
}

/// An exact integer as JSON (i128 covers both i64 and u64 values).
pub fn i128_to_json(x: i128) -> Json {
    if let Ok(i) = i64::try_from(x) {
        Json::from(i)
    } else if let Ok(u) = u64::try_from(x) {
        Json::from(u)
    } else {
        // Out of every dtype's range; only reachable through a bug.
        Json::from(x as f64)
    }
}

/// A float from a JSON number or one of the non-finite strings.
pub fn json_to_f64(j: &Json, what: &str) -> Result<f64> {
    match j {
        Json::Number(n) => {
            n.as_f64().ok_or_else(|| Error::type_error(format!("{what}: {n} is not a number")))
        }
        Json::String(s) => match s.as_str() {
            "inf" | "Infinity" | "+inf" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
            "nan" | "NaN" => Ok(f64::NAN),
            _ => decimal_integer(s)
                .map(|i| i as f64)
                .ok_or_else(|| Error::type_error(format!("{what}: expected a number, got {s:?}"))),
        },
        other => Err(Error::type_error(format!("{what}: expected a number, got {other}"))),
    }
}

/// An integer written as a decimal string (`"-12"`, `"9223372036854775807"`),
/// of at most 39 digits (the most an i128 holds).
pub fn decimal_integer(s: &str) -> Option<i128> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || digits.len() > 39 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// An exact integer from a JSON integer or decimal string (floats with an
/// integral value are accepted).
pub fn json_to_i128(j: &Json, what: &str) -> Result<i128> {
    if let Json::String(s) = j {
        if let Some(i) = decimal_integer(s) {
            return Ok(i);
        }
    }
    if let Json::Number(n) = j {
        if let Some(i) = n.as_i64() {
            return Ok(i as i128);
        }
        if let Some(u) = n.as_u64() {
            return Ok(u as i128);
        }
        if let Some(f) = n.as_f64() {
            if f.fract() == 0.0 && f.abs() < 2f64.powi(64) {
                return Ok(f as i128);
            }
        }
    }
    Err(Error::type_error(format!("{what}: expected an integer, got {j}")))
}

/// The object inside a description.
pub fn as_object<'a>(j: &'a Json, what: &str) -> Result<&'a JsonMap> {
    j.as_object().ok_or_else(|| Error::type_error(format!("{what}: expected a JSON object, got {j}")))
}

/// A required field.
pub fn field<'a>(m: &'a JsonMap, key: &str) -> Result<&'a Json> {
    m.get(key).ok_or_else(|| Error::value(format!("missing field {key:?}")))
}

/// An optional field: absent and `null` both read as `None`.
pub fn opt_field<'a>(m: &'a JsonMap, key: &str) -> Option<&'a Json> {
    m.get(key).filter(|j| !j.is_null())
}

pub fn get_str<'a>(m: &'a JsonMap, key: &str) -> Result<&'a str> {
    field(m, key)?.as_str().ok_or_else(|| Error::type_error(format!("{key}: expected a string")))
}

pub fn get_bool_or(m: &JsonMap, key: &str, default: bool) -> Result<bool> {
    match opt_field(m, key) {
        None => Ok(default),
        Some(j) => {
            j.as_bool().ok_or_else(|| Error::type_error(format!("{key}: expected a boolean, got {j}")))
        }
    }
}

pub fn get_u64(m: &JsonMap, key: &str) -> Result<u64> {
    let j = field(m, key)?;
    let i = json_to_i128(j, key)?;
    u64::try_from(i).map_err(|_| Error::value(format!("{key}: expected a non-negative integer, got {i}")))
}

pub fn get_usize(m: &JsonMap, key: &str) -> Result<usize> {
    let u = get_u64(m, key)?;
    usize::try_from(u).map_err(|_| Error::value(format!("{key}: {u} is too large")))
}

pub fn opt_usize(m: &JsonMap, key: &str) -> Result<Option<usize>> {
    if opt_field(m, key).is_none() {
        return Ok(None);
    }
    get_usize(m, key).map(Some)
}

pub fn opt_f64(m: &JsonMap, key: &str) -> Result<Option<f64>> {
    opt_field(m, key).map(|j| json_to_f64(j, key)).transpose()
}

pub fn opt_string(m: &JsonMap, key: &str) -> Result<Option<String>> {
    match opt_field(m, key) {
        None => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(j) => Err(Error::type_error(format!("{key}: expected a string, got {j}"))),
    }
}

/// An array of strings.
pub fn get_strings(m: &JsonMap, key: &str) -> Result<Vec<String>> {
    let arr = get_array(m, key)?;
    arr.iter()
        .map(|j| {
            j.as_str()
                .map(str::to_string)
                .ok_or_else(|| Error::type_error(format!("{key}: expected strings, got {j}")))
        })
        .collect()
}

pub fn get_array<'a>(m: &'a JsonMap, key: &str) -> Result<&'a Vec<Json>> {
    field(m, key)?.as_array().ok_or_else(|| Error::type_error(format!("{key}: expected an array")))
}

/// A shape: an array of non-negative integers (a bare integer `n` means `[n]`).
pub fn shape_from_json(j: &Json, what: &str) -> Result<Vec<usize>> {
    let items: Vec<&Json> = match j {
        Json::Array(a) => a.iter().collect(),
        Json::Number(_) => vec![j],
        _ => return Err(Error::type_error(format!("{what}: expected a shape, got {j}"))),
    };
    if items.len() > limits::MAX_DIMS {
        return Err(Error::limit(format!(
            "{what} has {} dimensions, more than the limit of {}",
            items.len(),
            limits::MAX_DIMS
        )));
    }
    items
        .into_iter()
        .map(|d| {
            let i = json_to_i128(d, what)?;
            usize::try_from(i).map_err(|_| Error::value(format!("{what}: bad dimension {i}")))
        })
        .collect()
}

pub fn shape_to_json(shape: &[usize]) -> Json {
    Json::from(shape.to_vec())
}

pub fn get_dtype(m: &JsonMap, key: &str) -> Result<DType> {
    DType::parse(get_str(m, key)?).map_err(|e| e.context(key))
}

/// A scalar or (nested) list of numbers, flattened in row-major order,
/// with the nested shape found along the way (`[]` for a scalar).
pub fn flatten_numbers<'a>(j: &'a Json, what: &str) -> Result<(Vec<usize>, Vec<&'a Json>)> {
    fn walk<'a>(
        j: &'a Json,
        depth: usize,
        shape: &mut Vec<usize>,
        out: &mut Vec<&'a Json>,
        what: &str,
    ) -> Result<()> {
        match j {
            Json::Array(items) => {
                if depth >= limits::MAX_DIMS {
                    return Err(limits::too_deep(format_args!("{what}: a nested list"), limits::MAX_DIMS));
                }
                if shape.len() == depth {
                    shape.push(items.len());
                } else if shape.len() < depth || shape[depth] != items.len() {
                    return Err(Error::value(format!("{what}: ragged nested list")));
                }
                for item in items {
                    walk(item, depth + 1, shape, out, what)?;
                }
                Ok(())
            }
            _ => {
                if shape.len() != depth {
                    return Err(Error::value(format!("{what}: ragged nested list")));
                }
                out.push(j);
                Ok(())
            }
        }
    }
    let mut shape = Vec::new();
    let mut out = Vec::new();
    walk(j, 0, &mut shape, &mut out, what)?;
    Ok((shape, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn non_finite_floats_round_trip() {
        for x in [1.5, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(json_to_f64(&f64_to_json(x), "x").unwrap(), x);
        }
        assert!(json_to_f64(&f64_to_json(f64::NAN), "x").unwrap().is_nan());
        assert_eq!(json_to_f64(&json!("bad"), "low").unwrap_err().name(), "TypeError");
    }

    #[test]
    fn integers_keep_all_bits() {
        for x in [i64::MIN as i128, u64::MAX as i128, 0] {
            assert_eq!(json_to_i128(&i128_to_json(x), "x").unwrap(), x);
        }
        assert!(json_to_i128(&json!(1.5), "n").is_err());
    }

    #[test]
    fn integers_read_from_decimal_strings_exactly() {
        for x in [i64::MAX as i128, i64::MIN as i128, u64::MAX as i128, (1 << 53) + 1, -7] {
            assert_eq!(json_to_i128(&json!(x.to_string()), "n").unwrap(), x);
        }
        assert_eq!(json_to_f64(&json!("9007199254740993"), "high").unwrap(), 9007199254740992.0);
        for bad in ["", "-", "+5", "1e3", "1.0", " 1", "0x10", &"9".repeat(40)] {
            assert_eq!(json_to_i128(&json!(bad), "n").unwrap_err().name(), "TypeError", "{bad:?}");
        }
        let m = as_object(&json!({"n": "9223372036854775807"}), "d").unwrap().clone();
        assert_eq!(get_u64(&m, "n").unwrap(), i64::MAX as u64);
    }

    #[test]
    fn nested_lists_flatten_and_ragged_ones_fail() {
        let j = json!([[1, 2, 3], [4, 5, 6]]);
        let (shape, items) = flatten_numbers(&j, "low").unwrap();
        assert_eq!(shape, [2, 3]);
        assert_eq!(items.len(), 6);
        let e = flatten_numbers(&json!([[1], [2, 3]]), "low").unwrap_err();
        assert!(e.message().contains("low"));
        assert_eq!(flatten_numbers(&json!(4), "x").unwrap().0, Vec::<usize>::new());
    }

    #[test]
    fn missing_fields_are_named() {
        let m = as_object(&json!({"a": 1}), "d").unwrap().clone();
        assert!(get_u64(&m, "n").unwrap_err().message().contains("\"n\""));
        assert_eq!(get_u64(&m, "a").unwrap(), 1);
        assert_eq!(shape_from_json(&json!(3), "shape").unwrap(), [3]);
    }
}
