//! A self-describing JSON encoding of [`Value`]s that round-trips exactly.
//!
//! | value            | JSON                                                    |
//! |------------------|---------------------------------------------------------|
//! | None             | `null`                                                  |
//! | Bool             | `true` / `false`                                        |
//! | Int              | an integer: `3`                                         |
//! | Float            | a number with a fraction or exponent: `3.0`; non-finite floats as `{"float": "inf"}` (`"-inf"`, `"nan"`) |
//! | Str              | a string                                                |
//! | Bytes            | `{"bytes": "<lowercase hex>"}`                          |
//! | Array            | `{"dtype": "float32", "shape": [2], "data": [0.5, "inf"]}` (flat, row-major; bools as booleans) |
//! | List             | an array of values                                      |
//! | Dict             | `{"dict": [["key", value], ...]}` (keeps key order)     |
//! | Graph            | `{"graph": {"nodes", "edges", "edge_links", "n_nodes", "n_edges"}}`, each an Array or `null` |
//!
//! Ints and floats stay apart because serde_json writes `1.0` for a float
//! and reads it back as a float.

use super::array_ops::{from_f64s, from_i128s};
use super::json_util::{self as ju, f64_to_json, i128_to_json};
use crate::error::{Error, Result};
use crate::limits::Nesting;
use crate::value::{Array, ArrayData, DType, Graph, Value};
use serde_json::{json, Map, Value as Json};

/// The JSON encoding of a value.
pub fn value_to_json(value: &Value) -> Json {
    match value {
        Value::None => Json::Null,
        Value::Bool(b) => Json::from(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(x) if x.is_finite() => Json::from(*x),
        Value::Float(x) => json!({ "float": f64_to_json(*x) }),
        Value::Str(s) => Json::from(s.as_str()),
        Value::Bytes(b) => json!({ "bytes": hex(b) }),
        Value::Array(a) => array_to_json(a),
        Value::List(items) => Json::Array(items.iter().map(value_to_json).collect()),
        Value::Dict(entries) => {
            let pairs = entries.iter().map(|(k, v)| json!([k, value_to_json(v)])).collect();
            json!({ "dict": Json::Array(pairs) })
        }
        Value::Graph(g) => {
            let a = |x: &Option<Array>| x.as_ref().map_or(Json::Null, array_to_json);
            json!({ "graph": {
                "nodes": a(&g.nodes), "edges": a(&g.edges), "edge_links": a(&g.edge_links),
                "n_nodes": a(&g.n_nodes), "n_edges": a(&g.n_edges),
            }})
        }
    }
}

/// An array as `{"dtype", "shape", "data"}`.
pub fn array_to_json(a: &Array) -> Json {
    let d = a.data();
    let data: Vec<Json> = match d {
        ArrayData::Bool(v) => v.iter().map(|&b| Json::from(b)).collect(),
        ArrayData::F32(_) | ArrayData::F64(_) => (0..d.len()).map(|i| f64_to_json(d.get_f64(i))).collect(),
        _ => (0..d.len()).map(|i| i128_to_json(d.get_i128(i).unwrap_or(0))).collect(),
    };
    json!({ "dtype": a.dtype().name(), "shape": a.shape(), "data": data })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Result<Vec<u8>> {
    let bad = || Error::value("bytes: expected an even number of hex digits");
    if s.len() % 2 != 0 || !s.is_ascii() {
        return Err(bad());
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| bad())).collect()
}

/// Decodes [`value_to_json`]'s encoding.
pub fn value_from_json(j: &Json) -> Result<Value> {
    Ok(match j {
        Json::Null => Value::None,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else if n.is_u64() {
                return Err(Error::overflow(format!("integer {n} does not fit int64")));
            } else {
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::Str(s.clone()),
        Json::Array(items) => {
            let _level = Nesting::Value.enter()?;
            Value::List(items.iter().map(value_from_json).collect::<Result<_>>()?)
        }
        Json::Object(m) => object_from_json(m)?,
    })
}

fn object_from_json(m: &Map<String, Json>) -> Result<Value> {
    if m.contains_key("dtype") {
        return Ok(Value::Array(array_from_json(m)?));
    }
    let only = |key: &str| (m.len() == 1).then(|| m.get(key)).flatten();
    if let Some(x) = only("float") {
        return Ok(Value::Float(ju::json_to_f64(x, "float")?));
    }
    if let Some(b) = only("bytes") {
        return Ok(Value::Bytes(unhex(
            b.as_str().ok_or_else(|| Error::type_error("bytes: expected a hex string"))?,
        )?));
    }
    if let Some(d) = only("dict") {
        let _level = Nesting::Value.enter()?;
        let pairs =
            d.as_array().ok_or_else(|| Error::type_error("dict: expected a list of [key, value] pairs"))?;
        let entries = pairs
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Json::String(k), v]) => Ok((k.clone(), value_from_json(v)?)),
                _ => Err(Error::type_error(format!("dict: expected a [key, value] pair, got {p}"))),
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::Dict(entries));
    }
    if let Some(g) = only("graph") {
        let g = ju::as_object(g, "graph")?;
        let a = |key: &str| -> Result<Option<Array>> {
            ju::opt_field(g, key)
                .map(|x| array_from_json(ju::as_object(x, key)?).map_err(|e| e.context(key)))
                .transpose()
        };
        return Ok(Value::Graph(Box::new(Graph {
            nodes: a("nodes")?,
            edges: a("edges")?,
            edge_links: a("edge_links")?,
            n_nodes: a("n_nodes")?,
            n_edges: a("n_edges")?,
        })));
    }
    Err(Error::type_error(format!("unrecognised encoded value {}", Json::Object(m.clone()))))
}

/// Decodes `{"dtype", "shape", "data"}`; `data` may also be nested lists.
pub fn array_from_json(m: &Map<String, Json>) -> Result<Array> {
    let dtype = ju::get_dtype(m, "dtype")?;
    let (nested_shape, items) = ju::flatten_numbers(ju::field(m, "data")?, "data")?;
    let shape = match ju::opt_field(m, "shape") {
        Some(s) => ju::shape_from_json(s, "shape")?,
        None => nested_shape,
    };
    let data = match dtype {
        DType::Bool => ArrayData::Bool(
            items
                .iter()
                .map(|x| {
                    x.as_bool()
                        .or_else(|| x.as_i64().map(|i| i != 0))
                        .ok_or_else(|| Error::type_error("data: expected booleans"))
                })
                .collect::<Result<_>>()?,
        ),
        d if d.is_float() => from_f64s(
            d,
            items.iter().map(|x| ju::json_to_f64(x, "data")).collect::<Result<Vec<_>>>()?.into_iter(),
        ),
        d => {
            let (lo, hi) = d.int_range().expect("integer dtype");
            let ints = items
                .iter()
                .map(|x| {
                    let i = ju::json_to_i128(x, "data")?;
                    if i < lo || i > hi {
                        return Err(Error::overflow(format!("data: {i} does not fit {d}")));
                    }
                    Ok(i)
                })
                .collect::<Result<Vec<_>>>()?;
            from_i128s(d, ints.into_iter())
        }
    };
    Array::new(shape, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: Value) {
        let j = value_to_json(&v);
        let text = serde_json::to_string(&j).unwrap();
        let back = value_from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, v, "{text}");
    }

    #[test]
    fn every_kind_round_trips_through_text() {
        round_trip(Value::None);
        round_trip(Value::Bool(true));
        round_trip(Value::Int(i64::MIN));
        round_trip(Value::Float(1.0));
        round_trip(Value::Float(f64::NEG_INFINITY));
        round_trip(Value::Float(0.1 + 0.2));
        round_trip(Value::Str("{\"dtype\": 1}".into()));
        round_trip(Value::Bytes(vec![0, 255, 16]));
        round_trip(Value::Array(Array::new(vec![2, 1], ArrayData::F32(vec![f32::INFINITY, 0.1])).unwrap()));
        round_trip(Value::Array(Array::vector(ArrayData::U64(vec![u64::MAX]))));
        round_trip(Value::Array(Array::vector(ArrayData::Bool(vec![true, false]))));
        round_trip(Value::Array(Array::new(vec![], ArrayData::I8(vec![-3])).unwrap()));
        round_trip(Value::List(vec![Value::Int(1), Value::List(vec![])]));
        round_trip(Value::Dict(vec![("z".into(), Value::Int(1)), ("a".into(), Value::Float(2.0))]));
        round_trip(Value::Graph(Box::new(Graph {
            nodes: Some(Array::new(vec![2, 1], ArrayData::F32(vec![1.0, 2.0])).unwrap()),
            edges: None,
            edge_links: Some(Array::new(vec![1, 2], ArrayData::I64(vec![0, 1])).unwrap()),
            n_nodes: None,
            n_edges: None,
        })));
        let nan = value_from_json(&value_to_json(&Value::Float(f64::NAN))).unwrap();
        assert!(nan.as_f64().unwrap().is_nan());
    }

    #[test]
    fn ints_and_floats_stay_apart() {
        assert_eq!(serde_json::to_string(&value_to_json(&Value::Float(2.0))).unwrap(), "2.0");
        assert_eq!(value_from_json(&serde_json::from_str("2").unwrap()).unwrap(), Value::Int(2));
        assert_eq!(value_from_json(&serde_json::from_str("2.0").unwrap()).unwrap(), Value::Float(2.0));
    }

    #[test]
    fn malformed_encodings_are_errors() {
        assert_eq!(value_from_json(&json!({"what": 1})).unwrap_err().name(), "TypeError");
        assert_eq!(
            value_from_json(&json!({"dtype": "int8", "data": [300]})).unwrap_err().name(),
            "OverflowError"
        );
        assert!(value_from_json(&json!({"dtype": "int8", "shape": [3], "data": [1]})).is_err());
        assert!(value_from_json(&json!({"bytes": "abc"})).is_err());
        assert!(value_from_json(&json!({"dict": [[1, 2]]})).is_err());
        assert_eq!(value_from_json(&json!(u64::MAX)).unwrap_err().name(), "OverflowError");
    }
}
