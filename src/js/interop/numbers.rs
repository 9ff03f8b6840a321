//! Numbers between JavaScript and the core: a 64-bit integer crosses as a
//! number when a JS number holds it exactly and as a `BigInt` otherwise,
//! never silently rounded; integers read from JS must be integral and in range.

use super::object::type_of;
use super::reflect;
use super::typed::typed_array_to_data;
use crate::error::{Error, Result};
use crate::value::{Array, ArrayData, DType};
use js_sys::BigInt;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The largest integer a JS number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// An i64 as a JS number when exact, else as a BigInt.
pub fn int_to_js(i: i64) -> JsValue {
    if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) {
        JsValue::from_f64(i as f64)
    } else {
        BigInt::from(i).into()
    }
}

/// A u64 as a JS number when exact, else as a BigInt.
pub fn uint_to_js(u: u64) -> JsValue {
    if u <= MAX_SAFE_INTEGER as u64 {
        JsValue::from_f64(u as f64)
    } else {
        BigInt::from(u).into()
    }
}

/// A BigInt for a message: its digits when it has few (the digits of a huge
/// one would take long to make and more to show).
pub fn describe_bigint(value: &JsValue) -> String {
    let big: &BigInt = value.unchecked_ref();
    match i128::try_from(big.clone()) {
        Ok(i) => format!("{i}n"),
        Err(_) => "a BigInt outside the int128 range".into(),
    }
}

/// Reads a JS BigInt as an i64, or an OverflowError naming `what`.
pub fn bigint_to_i64(value: &JsValue, what: &str) -> Result<i64> {
    let big: &BigInt = value.unchecked_ref();
    i64::try_from(big.clone())
        .map_err(|_| Error::overflow(format!("{what}: {} does not fit in int64", describe_bigint(value))))
}

/// Reads a JS number or BigInt as an exact i64: a fraction, NaN or an
/// out-of-range number is an error naming `what`.
pub fn js_to_i64(value: &JsValue, what: &str) -> Result<i64> {
    if value.is_bigint() {
        return bigint_to_i64(value, what);
    }
    let Some(x) = value.as_f64() else {
        return Err(Error::type_error(format!("{what} must be an integer, got {}", type_of(value))));
    };
    // 2^63 is exactly representable; anything at or above it does not fit.
    if x.fract() != 0.0 || !x.is_finite() || !(-9.223372036854776e18..9.223372036854776e18).contains(&x) {
        return Err(Error::value(format!("{what} must be an integer in the int64 range, got {x}")));
    }
    Ok(x as i64)
}

/// Reads a seed: a non-negative safe-integer number or a BigInt in the u64
/// range. Anything else is an error naming `what`.
pub fn js_to_u64(value: &JsValue, what: &str) -> Result<u64> {
    if value.is_bigint() {
        let big: &BigInt = value.unchecked_ref();
        return u64::try_from(big.clone()).map_err(|_| {
            Error::overflow(format!("{what}: {} is not in the uint64 range", describe_bigint(value)))
        });
    }
    let Some(x) = value.as_f64() else {
        return Err(Error::type_error(format!(
            "{what} must be a number or a BigInt, got {}",
            type_of(value)
        )));
    };
    if x.fract() != 0.0 || !(0.0..=MAX_SAFE_INTEGER as f64).contains(&x) {
        return Err(Error::value(format!(
            "{what} must be a non-negative safe integer (or a BigInt), got {x}"
        )));
    }
    Ok(x as u64)
}

/// One number read from JS: a float from a `number`, an exact integer from a `BigInt`.
#[derive(Clone, Copy)]
enum Num {
    Float(f64),
    Int(i128),
}

fn read_numbers(value: &JsValue, what: &str) -> Result<Vec<Num>> {
    let one = |item: &JsValue, i: Option<usize>| -> Result<Num> {
        if let Some(x) = item.as_f64() {
            Ok(Num::Float(x))
        } else if let Some(b) = item.as_bool() {
            Ok(Num::Int(b as i128))
        } else if item.is_bigint() {
            let big: &BigInt = item.unchecked_ref();
            i128::try_from(big.clone())
                .map(Num::Int)
                .map_err(|_| Error::overflow(format!("{what}: {} is too large", describe_bigint(item))))
        } else {
            let at = i.map_or(String::new(), |i| format!("[{i}]"));
            Err(Error::type_error(format!("{what}{at} must be a number, got {}", type_of(item))))
        }
    };
    if let Some(data) = typed_array_to_data(value, what)? {
        let n = data.len();
        return Ok(match &data {
            ArrayData::I64(v) => v.iter().map(|&x| Num::Int(x as i128)).collect(),
            ArrayData::U64(v) => v.iter().map(|&x| Num::Int(x as i128)).collect(),
            _ => (0..n).map(|i| Num::Float(data.get_f64(i))).collect(),
        });
    }
    if reflect::is_array(value) {
        let items = reflect::array_items(value, what)?;
        return items.iter().enumerate().map(|(i, item)| one(item, Some(i))).collect();
    }
    Ok(vec![one(value, None)?])
}

fn to_int(n: Num, dtype: DType, what: &str) -> Result<i128> {
    let (lo, hi) = dtype.int_range().unwrap_or((i128::MIN, i128::MAX));
    let i = match n {
        Num::Int(i) => i,
        Num::Float(x) if x.fract() == 0.0 && x.is_finite() && x.abs() < 1.8e19 => x as i128,
        Num::Float(x) => {
            return Err(Error::value(format!("{what} must hold integers for dtype {dtype}, got {x}")))
        }
    };
    if !(lo..=hi).contains(&i) {
        return Err(Error::value(format!("{what}: {i} is out of the {dtype} range [{lo}, {hi}]")));
    }
    Ok(i)
}

/// Reads a number, an array of numbers or a typed array as an array of
/// `dtype` and `shape`. Integers must be integral and in the dtype's range;
/// the element count must match the shape. Errors name `what`.
pub fn js_to_array(value: &JsValue, dtype: DType, shape: &[usize], what: &str) -> Result<Array> {
    let numbers = read_numbers(value, what)?;
    let expected = crate::value::shape_len(shape)?;
    if numbers.len() != expected {
        return Err(Error::value(format!(
            "{what} must have {expected} element(s) for shape {shape:?}, got {}",
            numbers.len()
        )));
    }
    let data = if dtype.is_float() {
        let floats = numbers.iter().map(|&n| match n {
            Num::Float(x) => x,
            Num::Int(i) => i as f64,
        });
        crate::spaces::array_ops::from_f64s(dtype, floats)
    } else {
        let ints = numbers.iter().map(|&n| to_int(n, dtype, what)).collect::<Result<Vec<i128>>>()?;
        crate::spaces::array_ops::from_i128s(dtype, ints.into_iter())
    };
    Array::new(shape.to_vec(), data)
}
