//! [`Value`] ⇄ the protocol's `Event` in its JSON form.
//!
//! | value | Event |
//! |---|---|
//! | None | `{}` (no field set) |
//! | Bool, Int, Float, Str, Bytes | `booleanValue`, `int64Value`, `doubleValue`, `stringValue`, `bytesValue` (base64) |
//! | bool / int8 / int64 / float32 / float64 arrays | `booleanTensor`, `byteTensor` (value is base64), `int64Tensor`, `floatTensor`, `doubleTensor`: `{shape, value}` |
//! | List | `eventList: {event: [...]}` |
//! | Dict | `eventDict: {event: {key: ...}}` (a protobuf map: key order is not kept) |
//! | anything else (other dtypes, graphs) | `anyValue: {"@type": "type.googleapis.com/compgym.Value", "value": <value_json>}` |
//!
//! Reading also accepts `int32Value`, `floatValue`, one-dimensional
//! `stringTensor`s (as a list of strings) and the protocol's `Opaque`
//! message in `anyValue` (`{"@type": ".../compiler_gym.Opaque", "format",
//! "data"}`) as its bytes: the format belongs to the space (a Sequence's
//! `opaque_data_format`).

use super::proto_json::*;
use crate::error::{Error, Result};
use crate::limits::Nesting;
use crate::spaces::{value_from_json, value_to_json};
use crate::value::{Array, ArrayData, Value};
use serde_json::{json, Map, Value as Json};

/// The `@type` of values that have no native Event form.
pub const VALUE_TYPE_URL: &str = "type.googleapis.com/compgym.Value";
/// The `@type` of the protocol's opaque serialised data.
pub const OPAQUE_TYPE_URL: &str = "type.googleapis.com/compiler_gym.Opaque";

fn tensor(shape: &[usize], value: Json) -> Json {
    json!({ "shape": shape.iter().map(|&d| uint_to_json(d as u64)).collect::<Vec<_>>(), "value": value })
}

fn array_to_event(a: &Array) -> Json {
    let shape = a.shape();
    match a.data() {
        ArrayData::Bool(v) => json!({ "booleanTensor": tensor(shape, Json::from(v.clone())) }),
        ArrayData::I8(v) => {
            let bytes: Vec<u8> = v.iter().map(|&b| b as u8).collect();
            json!({ "byteTensor": tensor(shape, Json::from(base64_encode(&bytes))) })
        }
        ArrayData::I64(v) => {
            json!({ "int64Tensor": tensor(shape, v.iter().map(|&x| int_to_json(x)).collect()) })
        }
        ArrayData::F32(v) => {
            json!({ "floatTensor": tensor(shape, v.iter().map(|&x| float_to_json(x as f64)).collect()) })
        }
        ArrayData::F64(v) => {
            json!({ "doubleTensor": tensor(shape, v.iter().map(|&x| float_to_json(x)).collect()) })
        }
        _ => any_value(&Value::Array(a.clone())),
    }
}

fn any_value(v: &Value) -> Json {
    json!({ "anyValue": { "@type": VALUE_TYPE_URL, "value": value_to_json(v) } })
}

/// The Event JSON of a value.
pub fn value_to_event(v: &Value) -> Json {
    match v {
        Value::None => json!({}),
        Value::Bool(b) => json!({ "booleanValue": b }),
        Value::Int(i) => json!({ "int64Value": int_to_json(*i) }),
        Value::Float(x) => json!({ "doubleValue": float_to_json(*x) }),
        Value::Str(s) => json!({ "stringValue": s }),
        Value::Bytes(b) => json!({ "bytesValue": base64_encode(b) }),
        Value::Array(a) => array_to_event(a),
        Value::List(items) => {
            json!({ "eventList": { "event": items.iter().map(value_to_event).collect::<Vec<_>>() } })
        }
        Value::Dict(entries) => {
            let map: Map<String, Json> =
                entries.iter().map(|(k, v)| (k.clone(), value_to_event(v))).collect();
            json!({ "eventDict": { "event": map } })
        }
        Value::Graph(_) => any_value(v),
    }
}

fn shape_of(t: &Map<String, Json>, what: &str) -> Result<Vec<usize>> {
    match t.get("shape") {
        None => Ok(Vec::new()),
        Some(s) => json_to_list(s, what)?.iter().map(|d| json_to_index(d, what)).collect(),
    }
}

/// The flat values of a tensor; a missing `value` is empty, as in proto3.
fn values_of<'a>(t: &'a Map<String, Json>, what: &str) -> Result<&'a [Json]> {
    match t.get("value") {
        None => Ok(&[]),
        Some(v) => json_to_list(v, what),
    }
}

/// proto3 leaves a 1-d tensor's shape implicit when it is empty.
fn build(shape: Vec<usize>, data: ArrayData, what: &str) -> Result<Array> {
    let shape = if shape.is_empty() && data.len() != 1 { vec![data.len()] } else { shape };
    Array::new(shape, data).map_err(|e| e.context(what))
}

fn tensor_from_event(kind: &str, t: &Json) -> Result<Value> {
    let t = json_to_object(t, kind)?;
    let shape = shape_of(t, kind)?;
    let data = match kind {
        "booleanTensor" => {
            ArrayData::Bool(values_of(t, kind)?.iter().map(|x| json_to_bool(x, kind)).collect::<Result<_>>()?)
        }
        "byteTensor" => {
            let text = t.get("value").map(|v| json_to_str(v, kind)).transpose()?.unwrap_or("");
            ArrayData::I8(base64_decode(text, kind)?.into_iter().map(|b| b as i8).collect())
        }
        "int64Tensor" => {
            ArrayData::I64(values_of(t, kind)?.iter().map(|x| json_to_int(x, kind)).collect::<Result<_>>()?)
        }
        "floatTensor" => ArrayData::F32(
            values_of(t, kind)?
                .iter()
                .map(|x| json_to_float(x, kind).map(|f| f as f32))
                .collect::<Result<_>>()?,
        ),
        "doubleTensor" => {
            ArrayData::F64(values_of(t, kind)?.iter().map(|x| json_to_float(x, kind)).collect::<Result<_>>()?)
        }
        "stringTensor" => {
            if shape.len() > 1 {
                return Err(Error::type_error(
                    "stringTensor: only one-dimensional string tensors are supported",
                ));
            }
            let items = values_of(t, kind)?;
            return Ok(Value::List(
                items
                    .iter()
                    .map(|x| json_to_str(x, kind).map(|s| Value::Str(s.into())))
                    .collect::<Result<_>>()?,
            ));
        }
        _ => return Err(Error::type_error(format!("unknown tensor kind {kind:?}"))),
    };
    Ok(Value::Array(build(shape, data, kind)?))
}

/// Decodes an Event JSON.
pub fn value_from_event(j: &Json) -> Result<Value> {
    let m = json_to_object(j, "Event")?;
    // Protobuf readers ignore a `typeId` hint; so do we.
    let mut fields = m.iter().filter(|(k, _)| k.as_str() != "typeId");
    let Some((key, x)) = fields.next() else {
        return Ok(Value::None);
    };
    if let Some((other, _)) = fields.next() {
        return Err(Error::value(format!("Event: more than one value is set ({key:?} and {other:?})")));
    }
    Ok(match key.as_str() {
        "booleanValue" => Value::Bool(json_to_bool(x, key)?),
        "int64Value" | "int32Value" => Value::Int(json_to_int(x, key)?),
        "doubleValue" | "floatValue" => Value::Float(json_to_float(x, key)?),
        "stringValue" => Value::Str(json_to_str(x, key)?.to_string()),
        "bytesValue" => Value::Bytes(base64_decode(json_to_str(x, key)?, key)?),
        "booleanTensor" | "byteTensor" | "int64Tensor" | "floatTensor" | "doubleTensor" | "stringTensor" => {
            tensor_from_event(key, x)?
        }
        "eventList" => {
            let _level = Nesting::Value.enter()?;
            let list = json_to_object(x, key)?;
            match list.get("event") {
                None => Value::List(Vec::new()),
                Some(e) => {
                    Value::List(json_to_list(e, key)?.iter().map(value_from_event).collect::<Result<_>>()?)
                }
            }
        }
        "eventDict" => {
            let _level = Nesting::Value.enter()?;
            let dict = json_to_object(x, key)?;
            match dict.get("event") {
                None => Value::Dict(Vec::new()),
                Some(e) => Value::Dict(
                    json_to_object(e, key)?
                        .iter()
                        .map(|(k, v)| Ok((k.clone(), value_from_event(v)?)))
                        .collect::<Result<_>>()?,
                ),
            }
        }
        "anyValue" => {
            let any = json_to_object(x, key)?;
            let url = any.get("@type").map(|t| json_to_str(t, "@type")).transpose()?.unwrap_or("");
            match url {
                VALUE_TYPE_URL => value_from_json(any.get("value").unwrap_or(&Json::Null))?,
                OPAQUE_TYPE_URL => {
                    if let Some(format) = any.get("format") {
                        json_to_str(format, "Opaque.format")?;
                    }
                    let data = any.get("data").map(|d| json_to_str(d, "Opaque.data")).transpose()?;
                    Value::Bytes(base64_decode(data.unwrap_or(""), "Opaque.data")?)
                }
                _ => return Err(Error::type_error(format!("anyValue: unsupported @type {url:?}"))),
            }
        }
        other => return Err(Error::type_error(format!("Event: unknown field {other:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Graph;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn round_trip(v: Value) {
        let j = value_to_event(&v);
        let text = serde_json::to_string(&j).unwrap();
        let back = value_from_event(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, v, "{text}");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn every_value_round_trips() {
        round_trip(Value::None);
        round_trip(Value::Bool(false));
        round_trip(Value::Int(i64::MAX));
        round_trip(Value::Int(-3));
        round_trip(Value::Float(f64::NEG_INFINITY));
        round_trip(Value::Float(0.1));
        round_trip(Value::Str("hé".into()));
        round_trip(Value::Bytes(vec![0, 1, 254, 255]));
        round_trip(Value::Array(Array::new(vec![2, 2], ArrayData::I64(vec![1, i64::MIN, 3, 4])).unwrap()));
        round_trip(Value::Array(Array::vector(ArrayData::I8(vec![-128, 0, 127]))));
        round_trip(Value::Array(Array::vector(ArrayData::Bool(vec![true, false]))));
        round_trip(Value::Array(Array::vector(ArrayData::F32(vec![0.5, f32::INFINITY]))));
        round_trip(Value::Array(Array::new(vec![1, 1], ArrayData::F64(vec![2.25])).unwrap()));
        round_trip(Value::Array(Array::vector(ArrayData::U16(vec![65535]))));
        round_trip(Value::List(vec![Value::Int(1), Value::List(vec![]), Value::Str("x".into())]));
        round_trip(Value::Dict(vec![("a".into(), Value::Int(1)), ("b".into(), Value::Dict(vec![]))]));
        round_trip(Value::Graph(Box::new(Graph {
            nodes: Some(Array::new(vec![1, 1], ArrayData::F32(vec![1.0])).unwrap()),
            edges: None,
            edge_links: None,
            n_nodes: None,
            n_edges: None,
        })));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn protocol_shaped_objects_are_read() {
        let j = json!({"int64Tensor": {"shape": ["2"], "value": ["9007199254740993", 1]}});
        let v = value_from_event(&j).unwrap();
        assert_eq!(v, Value::Array(Array::vector(ArrayData::I64(vec![9007199254740993, 1]))));
        assert_eq!(value_to_event(&Value::Int(5)), json!({"int64Value": 5}));
        assert_eq!(value_to_event(&Value::Float(f64::NAN)), json!({"doubleValue": "NaN"}));
        assert_eq!(
            value_from_event(&json!({"doubleTensor": {"value": [1.0, 2.0]}}))
                .unwrap()
                .as_array()
                .unwrap()
                .shape(),
            &[2]
        );
        assert_eq!(
            value_from_event(&json!({"stringTensor": {"shape": [2], "value": ["a", "b"]}})).unwrap(),
            Value::List(vec![Value::Str("a".into()), Value::Str("b".into())])
        );
        assert_eq!(value_from_event(&json!({"int32Value": 7, "typeId": "x"})).unwrap(), Value::Int(7));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn opaque_data_is_read_as_its_bytes() {
        let j = json!({"anyValue": {"@type": OPAQUE_TYPE_URL, "format": "json://", "data": "eyJhIjoxfQ=="}});
        assert_eq!(value_from_event(&j).unwrap(), Value::Bytes(b"{\"a\":1}".to_vec()));
        let empty = json!({"anyValue": {"@type": OPAQUE_TYPE_URL, "format": "x"}});
        assert_eq!(value_from_event(&empty).unwrap(), Value::Bytes(vec![]));
        let bad = json!({"anyValue": {"@type": OPAQUE_TYPE_URL, "data": "***"}});
        assert_eq!(value_from_event(&bad).unwrap_err().name(), "ValueError");
        let bad = json!({"anyValue": {"@type": OPAQUE_TYPE_URL, "format": 3}});
        assert!(value_from_event(&bad).is_err());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn malformed_events_are_errors() {
        assert_eq!(value_from_event(&json!([1])).unwrap_err().name(), "TypeError");
        assert_eq!(
            value_from_event(&json!({"int64Value": 1, "doubleValue": 2})).unwrap_err().name(),
            "ValueError"
        );
        assert_eq!(value_from_event(&json!({"quux": 1})).unwrap_err().name(), "TypeError");
        assert!(value_from_event(&json!({"int64Tensor": {"shape": [3], "value": [1]}})).is_err());
        assert!(value_from_event(&json!({"anyValue": {"@type": "x"}})).is_err());
        assert!(value_from_event(&json!({"byteTensor": {"value": "***"}})).is_err());
    }
}
