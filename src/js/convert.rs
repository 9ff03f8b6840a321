//! Core values to JavaScript values and back.
//!
//! Numbers stay numbers unless a 64-bit integer does not fit a JS number
//! exactly; then it is a `BigInt`, never silently rounded. Arrays become the
//! typed array of their dtype (bool arrays are `Uint8Array`s of 0 and 1),
//! lists become arrays, dicts plain objects (in the dict's order), graphs
//! `{nodes, edges, edgeLinks}`.

use crate::error::{Error, Result};
use crate::value::{Array, ArrayData, DType, Graph, Value};
use js_sys::{Array as JsArray, BigInt, Object, Reflect};
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

/// The flat typed array holding an array's data (C order).
pub fn array_data_to_js(data: &ArrayData) -> JsValue {
    // Bools are bytes of 0 and 1, so their storage copies out as a Uint8Array.
    super::memory::copy_out(data)
}

/// Sets `object[key] = value`; setting a property on a fresh plain object cannot fail.
pub fn set(object: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

#[wasm_bindgen]
extern "C" {
    /// An object made by this module, whose properties are plain data.
    type FreshObject;
    #[wasm_bindgen(method, indexing_setter)]
    fn put(this: &FreshObject, key: &JsValue, value: &JsValue);
}

/// `object[key] = value` for an object made here (`Object::new()`), where it
/// cannot throw: a plain assignment, without `Reflect.set`'s exception guard.
pub fn set_fresh(object: &Object, key: &JsValue, value: &JsValue) {
    object.unchecked_ref::<FreshObject>().put(key, value);
}

fn graph_to_js(graph: &Graph) -> JsValue {
    let object = Object::new();
    let set = |object: &Object, key: &str, value: &JsValue| set_fresh(object, &JsValue::from_str(key), value);
    let optional = |a: &Option<Array>| a.as_ref().map_or(JsValue::NULL, |a| array_data_to_js(a.data()));
    set(&object, "nodes", &optional(&graph.nodes));
    set(&object, "edges", &optional(&graph.edges));
    set(&object, "edgeLinks", &optional(&graph.edge_links));
    if graph.n_nodes.is_some() || graph.n_edges.is_some() {
        set(&object, "nNodes", &optional(&graph.n_nodes));
        set(&object, "nEdges", &optional(&graph.n_edges));
    }
    object.into()
}

/// A core value as the natural JS value.
pub fn to_js(value: &Value) -> JsValue {
    match value {
        Value::None => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Int(i) => int_to_js(*i),
        Value::Float(x) => JsValue::from_f64(*x),
        Value::Str(s) => JsValue::from_str(s),
        Value::Bytes(b) => js_sys::Uint8Array::from(&b[..]).into(),
        Value::Array(a) => array_data_to_js(a.data()),
        Value::List(items) => items.iter().map(to_js).collect::<JsArray>().into(),
        Value::Dict(entries) => {
            let object = Object::new();
            for (key, item) in entries {
                set_fresh(&object, &JsValue::from_str(key), &to_js(item));
            }
            object.into()
        }
        Value::Graph(graph) => graph_to_js(graph),
    }
}

/// Reads a JS BigInt as an i64, or an OverflowError naming `what`.
pub fn bigint_to_i64(value: &JsValue, what: &str) -> Result<i64> {
    let big: &BigInt = value.unchecked_ref();
    i64::try_from(big.clone())
        .map_err(|_| Error::overflow(format!("{what}: {} does not fit in int64", js_string(value))))
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

/// `typeof`-like name of a JS value for error messages (`null` and arrays included).
pub fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if JsArray::is_array(value) {
        "array".into()
    } else if let Some(name) = typed_array_dtype(value).map(DType::name) {
        format!("{name} typed array")
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

fn js_string(value: &JsValue) -> String {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// The dtype a typed array carries, or None if `value` is not a typed array.
pub fn typed_array_dtype(value: &JsValue) -> Option<DType> {
    Some(if value.is_instance_of::<js_sys::Float32Array>() {
        DType::F32
    } else if value.is_instance_of::<js_sys::Float64Array>() {
        DType::F64
    } else if value.is_instance_of::<js_sys::Int8Array>() {
        DType::I8
    } else if value.is_instance_of::<js_sys::Int16Array>() {
        DType::I16
    } else if value.is_instance_of::<js_sys::Int32Array>() {
        DType::I32
    } else if value.is_instance_of::<js_sys::BigInt64Array>() {
        DType::I64
    } else if value.is_instance_of::<js_sys::Uint8Array>()
        || value.is_instance_of::<js_sys::Uint8ClampedArray>()
    {
        DType::U8
    } else if value.is_instance_of::<js_sys::Uint16Array>() {
        DType::U16
    } else if value.is_instance_of::<js_sys::Uint32Array>() {
        DType::U32
    } else if value.is_instance_of::<js_sys::BigUint64Array>() {
        DType::U64
    } else {
        return None;
    })
}

/// Copies a typed array into array data of its own dtype.
pub fn typed_array_to_data(value: &JsValue) -> Option<ArrayData> {
    Some(match typed_array_dtype(value)? {
        DType::F32 => ArrayData::F32(value.unchecked_ref::<js_sys::Float32Array>().to_vec()),
        DType::F64 => ArrayData::F64(value.unchecked_ref::<js_sys::Float64Array>().to_vec()),
        DType::I8 => ArrayData::I8(value.unchecked_ref::<js_sys::Int8Array>().to_vec()),
        DType::I16 => ArrayData::I16(value.unchecked_ref::<js_sys::Int16Array>().to_vec()),
        DType::I32 => ArrayData::I32(value.unchecked_ref::<js_sys::Int32Array>().to_vec()),
        DType::I64 => ArrayData::I64(value.unchecked_ref::<js_sys::BigInt64Array>().to_vec()),
        DType::U8 => ArrayData::U8(js_sys::Uint8Array::new(value).to_vec()),
        DType::U16 => ArrayData::U16(value.unchecked_ref::<js_sys::Uint16Array>().to_vec()),
        DType::U32 => ArrayData::U32(value.unchecked_ref::<js_sys::Uint32Array>().to_vec()),
        DType::U64 => ArrayData::U64(value.unchecked_ref::<js_sys::BigUint64Array>().to_vec()),
        DType::Bool => return None,
    })
}

/// A JS value as a core value without a space to guide it: numbers become
/// floats (a space-guided conversion decides int vs float), BigInts ints,
/// typed arrays 1-d arrays, arrays lists, plain objects dicts.
pub fn from_js(value: &JsValue) -> Result<Value> {
    if value.is_null() || value.is_undefined() {
        Ok(Value::None)
    } else if let Some(b) = value.as_bool() {
        Ok(Value::Bool(b))
    } else if let Some(x) = value.as_f64() {
        Ok(Value::Float(x))
    } else if value.is_bigint() {
        Ok(Value::Int(bigint_to_i64(value, "value")?))
    } else if let Some(s) = value.as_string() {
        Ok(Value::Str(s))
    } else if let Some(data) = typed_array_to_data(value) {
        Ok(Value::Array(Array::vector(data)))
    } else if JsArray::is_array(value) {
        let items: JsArray = value.clone().unchecked_into();
        items.iter().map(|item| from_js(&item)).collect::<Result<_>>().map(Value::List)
    } else if value.is_object() && !value.is_function() {
        let entries = Object::entries(value.unchecked_ref());
        entries
            .iter()
            .map(|pair| {
                let pair: JsArray = pair.unchecked_into();
                let key = pair.get(0).as_string().unwrap_or_default();
                Ok((key, from_js(&pair.get(1))?))
            })
            .collect::<Result<_>>()
            .map(Value::Dict)
    } else {
        Err(Error::type_error(format!("cannot use a {} as a value", type_of(value))))
    }
}

/// Reads a seed: a non-negative safe-integer number or a BigInt in the u64
/// range. Anything else is an error naming `what`.
pub fn js_to_u64(value: &JsValue, what: &str) -> Result<u64> {
    if value.is_bigint() {
        let big: &BigInt = value.unchecked_ref();
        return u64::try_from(big.clone()).map_err(|_| {
            Error::overflow(format!("{what}: {} is not in the uint64 range", js_string(value)))
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
            let text = big.to_string(10).ok().and_then(|s| s.as_string()).unwrap_or_default();
            text.parse::<i128>()
                .map(Num::Int)
                .map_err(|_| Error::overflow(format!("{what}: {text} is too large")))
        } else {
            let at = i.map_or(String::new(), |i| format!("[{i}]"));
            Err(Error::type_error(format!("{what}{at} must be a number, got {}", type_of(item))))
        }
    };
    if let Some(data) = typed_array_to_data(value) {
        let n = data.len();
        return Ok(match &data {
            ArrayData::I64(v) => v.iter().map(|&x| Num::Int(x as i128)).collect(),
            ArrayData::U64(v) => v.iter().map(|&x| Num::Int(x as i128)).collect(),
            _ => (0..n).map(|i| Num::Float(data.get_f64(i))).collect(),
        });
    }
    if JsArray::is_array(value) {
        let items: &JsArray = value.unchecked_ref();
        return items.iter().enumerate().map(|(i, item)| one(&item, Some(i))).collect();
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

/// A JS value as JSON text (for opaque tokens), or a TypeError.
pub fn js_to_json(value: &JsValue, what: &str) -> Result<serde_json::Value> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::type_error(format!("{what} must be JSON-serialisable")))?;
    serde_json::from_str(&text).map_err(|e| Error::value(format!("{what}: {e}")))
}

/// A JSON value as the equal plain JS value.
pub fn json_to_js(value: &serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
}
