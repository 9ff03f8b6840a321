//! Space values between JS and the core, guided by the space.
//!
//! JS forms: numbers (BigInt when a 64-bit integer does not fit), typed
//! arrays for boxes and other array-valued spaces (flat, row-major), strings
//! for text, `Uint8Array` for bytes, plain objects for dicts, arrays for
//! tuples, sequences and `[index, value]` unions, `{nodes, edges, edgeLinks}`
//! for graphs and `{data, shape}` for dynamic boxes, whose shape varies.
//!
//! Reading follows Gymnasium: a plain number or array of numbers is
//! converted to the space's dtype (like a Python list); a typed array keeps
//! its own dtype (like a numpy array), so a `Float64Array` is not in a
//! float32 box.

use super::keys::Keys;
use super::object::field;
use crate::error::{Error, Result};
use crate::js::interop::memory::{copy_out, is_typed_array_of, typed_length, InBuffer};
use crate::js::interop::{
    numbers::{bigint_to_i64, js_to_array},
    object::{set, set_fresh, type_of},
    typed::{typed_array_dtype, typed_array_to_data},
    value::to_js,
};
use crate::spaces::{BoxSpace, Space, SpaceKind};
use crate::value::{shape_len, Array, ArrayData, DType, Graph, Value};
use js_sys::{Array as JsArray, Object};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// An array of `dtype` and `shape`: typed arrays keep their dtype, other forms convert.
fn read_array(value: &JsValue, dtype: DType, shape: &[usize], what: &str) -> Result<Array> {
    match typed_array_to_data(value) {
        Some(data) if data.dtype() != dtype => Array::new(shape.to_vec(), data),
        // The dtype's own typed array holds valid elements already: only the count is checked.
        Some(data) => {
            let expected = shape_len(shape)?;
            if data.len() != expected {
                return Err(Error::value(format!(
                    "{what} must have {expected} element(s) for shape {shape:?}, got {}",
                    data.len()
                )));
            }
            Array::new(shape.to_vec(), data)
        }
        None => js_to_array(value, dtype, shape, what),
    }
}

thread_local! {
    /// Where `contains` copies a box's typed array to check it without building a value.
    static CONTAINS_BUFFER: RefCell<InBuffer> = RefCell::new(InBuffer::default());
}

/// `contains` for a box given a typed array of its own dtype, checked from a
/// reused buffer; None when that does not apply (the caller reads a value).
fn box_contains_typed(value: &JsValue, b: &BoxSpace) -> Option<bool> {
    if !is_typed_array_of(value, b.dtype()) {
        return None;
    }
    let len = typed_length(value);
    if len != b.len() {
        return Some(false);
    }
    // A getter of a typed array subclass could call back in; then the buffer is busy.
    // A copy that throws means the array's `length` lied: not a member, and no exception.
    CONTAINS_BUFFER.with(|buffer| {
        let mut buffer = buffer.try_borrow_mut().ok()?;
        Some(buffer.fill(value, b.dtype(), len) && b.data_within(buffer.data()))
    })
}

thread_local! {
    /// Where a box's samples are drawn before they are copied out to JS.
    static SAMPLE_BUFFER: RefCell<ArrayData> = const { RefCell::new(ArrayData::F32(Vec::new())) };
}

/// A box's sample (from its own generator) as a typed array, drawn into a
/// reused buffer; None for other kinds (nothing is drawn then).
/// Kept out of line (callers check the kind first) so that sampling other kinds stays small.
#[inline(never)]
pub fn sample_box_js(space: &mut Space) -> Option<JsValue> {
    if !matches!(space.kind(), SpaceKind::Box(_)) {
        return None;
    }
    SAMPLE_BUFFER.with(|buffer| {
        let mut buffer = buffer.try_borrow_mut().ok()?;
        space.sample_box_into(&mut buffer).then(|| copy_out(&buffer))
    })
}

/// Whether a JS value is a member of `space`: as [`js_to_value`] then
/// `Space::contains`, with a box's own typed array checked without a value.
pub fn js_contains(value: &JsValue, space: &Space) -> bool {
    if let SpaceKind::Box(b) = space.kind() {
        if let Some(answer) = box_contains_typed(value, b) {
            return answer;
        }
    }
    js_to_value(value, space).is_ok_and(|v| space.contains(&v))
}

fn read_int(value: &JsValue, what: &str) -> Result<i64> {
    if value.is_bigint() {
        return bigint_to_i64(value, what);
    }
    match value.as_f64() {
        Some(x) if x.fract() == 0.0 && x.abs() < 9.2e18 => Ok(x as i64),
        _ => Err(Error::type_error(format!("{what} must be an integer, got {}", type_of(value)))),
    }
}

fn list_items(value: &JsValue, what: &str) -> Result<Vec<JsValue>> {
    if JsArray::is_array(value) {
        Ok(value.unchecked_ref::<JsArray>().iter().collect())
    } else {
        Err(Error::type_error(format!("{what} must be an array, got {}", type_of(value))))
    }
}

/// Length of a 1-d typed array or array, for spaces whose values vary in length.
fn js_len(value: &JsValue) -> Option<usize> {
    if typed_array_dtype(value).is_some() {
        Some(field(value, "length").as_f64()? as usize)
    } else if JsArray::is_array(value) {
        Some(value.unchecked_ref::<JsArray>().length() as usize)
    } else {
        None
    }
}

/// The number of rows of a flat array of rows shaped `row_shape`.
fn rows(value: &JsValue, row_shape: &[usize], what: &str) -> Result<usize> {
    let len = js_len(value).ok_or_else(|| Error::type_error(format!("{what} must be a typed array")))?;
    let per_row = shape_len(row_shape)?.max(1);
    if len % per_row != 0 {
        return Err(Error::value(format!("{what} has {len} elements, not a multiple of {per_row}")));
    }
    Ok(len / per_row)
}

fn read_graph(value: &JsValue, space: &crate::spaces::GraphSpace) -> Result<Value> {
    if !space.batch_shape().is_empty() {
        return Err(Error::type_error("batched graph values cannot be read from JS"));
    }
    let node_space = space.node_space();
    let nodes_js = field(value, "nodes");
    let n = rows(&nodes_js, node_space.shape(), "graph.nodes")?;
    let nodes =
        read_array(&nodes_js, node_space.dtype(), &[&[n], node_space.shape()].concat(), "graph.nodes")?;
    let links_js = field(value, "edgeLinks");
    let e = rows(&links_js, &[2], "graph.edgeLinks")?;
    let edge_links = read_array(&links_js, DType::I64, &[e, 2], "graph.edgeLinks")?;
    let edges = match space.edge_space() {
        Some(edge_space) => {
            let shape = [&[e], edge_space.shape()].concat();
            Some(read_array(&field(value, "edges"), edge_space.dtype(), &shape, "graph.edges")?)
        }
        None => None,
    };
    Ok(Value::Graph(Box::new(Graph {
        nodes: Some(nodes),
        edges,
        edge_links: Some(edge_links),
        n_nodes: None,
        n_edges: None,
    })))
}

/// Reads a JS value as a value of `space`; an error says why it cannot be one.
pub fn js_to_value(value: &JsValue, space: &Space) -> Result<Value> {
    let what = space.name();
    Ok(match space.kind() {
        SpaceKind::Box(b) => Value::Array(read_array(value, b.dtype(), b.shape(), what)?),
        SpaceKind::Discrete(_) | SpaceKind::NamedDiscrete(_) | SpaceKind::Commandline(_) => {
            Value::Int(read_int(value, what)?)
        }
        SpaceKind::Scalar(s) => match s.dtype() {
            DType::Bool => Value::Bool(
                value.as_bool().ok_or_else(|| Error::type_error(format!("{what} must be a boolean")))?,
            ),
            d if d.is_float() => Value::Float(
                value.as_f64().ok_or_else(|| Error::type_error(format!("{what} must be a number")))?,
            ),
            _ => Value::Int(read_int(value, what)?),
        },
        SpaceKind::Reward(_) => {
            Value::Float(value.as_f64().ok_or_else(|| Error::type_error(format!("{what} must be a number")))?)
        }
        SpaceKind::Sequence(seq) => match seq.dtype() {
            crate::spaces::SequenceDType::Str => Value::Str(
                value.as_string().ok_or_else(|| Error::type_error(format!("{what} must be a string")))?,
            ),
            crate::spaces::SequenceDType::Bytes => match typed_array_to_data(value) {
                Some(crate::value::ArrayData::U8(bytes)) => Value::Bytes(bytes),
                _ => return Err(Error::type_error(format!("{what} must be a Uint8Array"))),
            },
            crate::spaces::SequenceDType::Array(dtype) => {
                let n = js_len(value).ok_or_else(|| Error::type_error(format!("{what} must be an array")))?;
                Value::Array(read_array(value, dtype, &[n], what)?)
            }
        },
        SpaceKind::Text(_) => Value::Str(
            value.as_string().ok_or_else(|| Error::type_error(format!("{what} must be a string")))?,
        ),
        SpaceKind::Permutation(_) => {
            let n = js_len(value).ok_or_else(|| Error::type_error(format!("{what} must be an array")))?;
            Value::Array(read_array(value, DType::I64, &[n], what)?)
        }
        SpaceKind::MultiDiscrete(m) => Value::Array(read_array(value, m.dtype(), m.shape(), what)?),
        SpaceKind::MultiBinary(m) => Value::Array(read_array(value, DType::I8, m.shape(), what)?),
        SpaceKind::Binary(b) => Value::Array(read_array(value, DType::Bool, b.shape(), what)?),
        SpaceKind::DynamicBox(d) => {
            let shape_js = field(value, "shape");
            let shape: Vec<usize> = list_items(&shape_js, &format!("{what}.shape"))?
                .iter()
                .map(|d| read_int(d, "shape").map(|d| d.max(0) as usize))
                .collect::<Result<_>>()?;
            Value::Array(read_array(&field(value, "data"), d.dtype(), &shape, what)?)
        }
        SpaceKind::Graph(g) => read_graph(value, g)?,
        SpaceKind::Dict(d) => {
            if !value.is_object() || JsArray::is_array(value) {
                return Err(Error::type_error(format!("{what} must be an object")));
            }
            let keys = Object::keys(value.unchecked_ref::<Object>());
            if keys.length() as usize != d.len() {
                return Err(Error::value(format!(
                    "{what} must have exactly the keys {:?}",
                    d.keys().collect::<Vec<_>>()
                )));
            }
            let entries = d
                .spaces()
                .iter()
                .map(|(key, child)| {
                    let item = field(value, key);
                    if item.is_undefined() {
                        return Err(Error::value(format!("{what} lacks the key {key:?}")));
                    }
                    Ok((key.clone(), js_to_value(&item, child)?))
                })
                .collect::<Result<_>>()?;
            Value::Dict(entries)
        }
        SpaceKind::Tuple(t) => {
            let items = list_items(value, what)?;
            if items.len() != t.spaces().len() {
                return Err(Error::value(format!("{what} must have {} entries", t.spaces().len())));
            }
            Value::List(items.iter().zip(t.spaces()).map(|(v, s)| js_to_value(v, s)).collect::<Result<_>>()?)
        }
        SpaceKind::SpaceSequence(s) => {
            let items = list_items(value, what)?;
            Value::List(items.iter().map(|v| js_to_value(v, s.space())).collect::<Result<_>>()?)
        }
        SpaceKind::Union(u) => {
            let items = list_items(value, what)?;
            let [index, inner] = items.as_slice() else {
                return Err(Error::value(format!("{what} must be [index, value]")));
            };
            let index = read_int(index, "union index")?;
            let child = usize::try_from(index)
                .ok()
                .and_then(|i| u.spaces().get(i))
                .ok_or_else(|| Error::value(format!("{what}: no subspace {index}")))?;
            Value::List(vec![Value::Int(index), js_to_value(inner, child)?])
        }
        SpaceKind::Batched(b) => {
            let inner = b.space();
            let batch = b.batch_shape();
            match inner.create_empty() {
                Value::Array(a) => {
                    Value::Array(read_array(value, a.dtype(), &[batch, a.shape()].concat(), what)?)
                }
                Value::Int(_) => Value::Array(read_array(value, DType::I64, batch, what)?),
                Value::Float(_) => Value::Array(read_array(value, DType::F64, batch, what)?),
                Value::Bool(_) => Value::Array(read_array(value, DType::Bool, batch, what)?),
                _ => nested_list(value, inner, batch, what)?,
            }
        }
    })
}

fn nested_list(value: &JsValue, inner: &Space, batch: &[usize], what: &str) -> Result<Value> {
    let Some((&n, rest)) = batch.split_first() else {
        return js_to_value(value, inner);
    };
    let items = list_items(value, what)?;
    if items.len() != n {
        return Err(Error::value(format!("{what} must have {n} entries")));
    }
    items.iter().map(|v| nested_list(v, inner, rest, what)).collect::<Result<_>>().map(Value::List)
}

/// A value of `space` as its JS form (see the module docs).
pub fn value_to_js(value: &Value, space: &Space) -> JsValue {
    value_to_js_keyed(value, space, &Keys::None)
}

/// [`value_to_js`] with the space's dict keys made already ([`Keys::of`]).
pub fn value_to_js_keyed(value: &Value, space: &Space, keys: &Keys) -> JsValue {
    match (space.kind(), value) {
        (SpaceKind::DynamicBox(_), Value::Array(a)) => {
            let object = Object::new();
            set(&object, "data", &to_js(value));
            let shape: JsArray = a.shape().iter().map(|&d| JsValue::from_f64(d as f64)).collect();
            set(&object, "shape", &shape);
            object.into()
        }
        (SpaceKind::Dict(d), Value::Dict(entries)) => {
            let object = Object::new();
            for (i, ((key, item), (space_key, child))) in entries.iter().zip(d.spaces()).enumerate() {
                match keys.entry(i) {
                    Some((js_key, child_keys)) if key == space_key => {
                        set_fresh(&object, js_key, &value_to_js_keyed(item, child, child_keys))
                    }
                    _ => set_fresh(&object, &JsValue::from_str(key), &value_to_js(item, child)),
                }
            }
            object.into()
        }
        (SpaceKind::Tuple(t), Value::List(items)) => items
            .iter()
            .zip(t.spaces())
            .enumerate()
            .map(|(i, (v, s))| value_to_js_keyed(v, s, keys.item(i)))
            .collect::<JsArray>()
            .into(),
        (SpaceKind::SpaceSequence(s), Value::List(items)) => {
            items.iter().map(|v| value_to_js_keyed(v, s.space(), keys.item(0))).collect::<JsArray>().into()
        }
        (SpaceKind::Union(u), Value::List(pair)) if pair.len() == 2 => {
            let index = pair[0].as_int().and_then(|i| usize::try_from(i).ok());
            let inner = match index.and_then(|i| Some((i, u.spaces().get(i)?))) {
                Some((i, child)) => value_to_js_keyed(&pair[1], child, keys.item(i)),
                None => to_js(&pair[1]),
            };
            JsArray::of2(&to_js(&pair[0]), &inner).into()
        }
        _ => to_js(value),
    }
}
