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
use super::reflect::{self, Budget};
use crate::error::{Error, Result};
use crate::js::interop::memory::{copy_out, InBuffer};
use crate::js::interop::{
    numbers::{bigint_to_i64, js_to_array},
    object::{set, set_fresh, type_of},
    typed::{read_typed, typed_array},
    value::to_js,
};
use crate::limits;
use crate::spaces::{BoxSpace, GraphSpace, Space, SpaceKind};
use crate::value::{shape_len, Array, ArrayData, DType, Graph, Value};
use js_sys::{Array as JsArray, Object};
use std::cell::RefCell;
use wasm_bindgen::JsValue;

/// An array of `dtype` and `shape`: typed arrays keep their dtype (but for
/// bools, see below), other forms convert.
fn read_array(
    value: &JsValue,
    dtype: DType,
    shape: &[usize],
    what: &str,
    budget: &mut Budget,
) -> Result<Array> {
    let expected = shape_len(shape)?;
    budget.spend(limits::bytes_of(expected, dtype.size()), what)?;
    match typed_array(value) {
        // Bools travel as a Uint8Array of 0s and 1s (how this package returns them): converted, checked.
        Some(info) if info.dtype == DType::U8 && dtype == DType::Bool => {
            js_to_array(value, dtype, shape, what)
        }
        Some(info) if info.dtype != dtype => Array::new(shape.to_vec(), read_typed(value, info, what)?),
        // The dtype's own typed array holds valid elements already: only the count is checked.
        Some(info) => {
            if info.len != expected {
                return Err(Error::value(format!(
                    "{what} must have {expected} element(s) for shape {shape:?}, got {}",
                    info.len
                )));
            }
            Array::new(shape.to_vec(), read_typed(value, info, what)?)
        }
        None => match flatten_nested(value, shape, what)? {
            Some(flat) => js_to_array(&flat, dtype, shape, what),
            None => js_to_array(value, dtype, shape, what),
        },
    }
}

/// A nested array of `shape` (Gymnasium's `[[0, 0], [0, 0]]` for a 2 x 2 box,
/// innermost rows plain or typed arrays) as one flat array; None when `value`
/// is not nested (a flat array is read as it is). Every level's length must
/// be the shape's, so nothing larger than the shape is read.
fn flatten_nested(value: &JsValue, shape: &[usize], what: &str) -> Result<Option<JsValue>> {
    if shape.len() < 2 || !reflect::is_array(value) || reflect::array_length(value, what)? == 0 {
        return Ok(None);
    }
    let first = reflect::get(value, "0", what)?;
    if !reflect::is_array(&first) && typed_array(&first).is_none() {
        return Ok(None);
    }
    let flat = JsArray::new();
    push_leaves(value, shape, what, &flat)?;
    Ok(Some(flat.into()))
}

fn push_leaves(value: &JsValue, shape: &[usize], what: &str, out: &JsArray) -> Result<()> {
    // Callers pass a shape of one level or more; an empty one is an error, not a panic.
    let Some((&len, inner)) = shape.split_first() else {
        return Err(Error::value(format!("{what} is nested deeper than its shape")));
    };
    let wrong =
        |got: usize| Error::value(format!("{what} has {got} item(s) where the shape {shape:?} needs {len}"));
    if let Some(info) = typed_array(value) {
        if !inner.is_empty() || info.len != len {
            return Err(wrong(info.len));
        }
        for i in 0..len as u32 {
            // Read as JS values, so a BigInt64Array's items stay exact.
            out.push(&js_sys::Reflect::get_u32(value, i).map_err(|e| reflect::threw(what, &e))?);
        }
        return Ok(());
    }
    let items = reflect::array_items(value, what)?;
    if items.len() != len {
        return Err(wrong(items.len()));
    }
    for (i, item) in items.iter().enumerate() {
        if inner.is_empty() {
            out.push(item);
        } else {
            push_leaves(item, inner, &format!("{what}[{i}]"), out)?;
        }
    }
    Ok(())
}

thread_local! {
    /// Where `contains` copies a box's typed array to check it without building a value.
    static CONTAINS_BUFFER: RefCell<InBuffer> = RefCell::new(InBuffer::default());
}

/// `contains` for a box given a typed array of its own dtype, checked from a
/// reused buffer; None when that does not apply (the caller reads a value).
fn box_contains_typed(value: &JsValue, b: &BoxSpace) -> Option<bool> {
    let info = typed_array(value)?;
    if info.dtype != b.dtype() {
        return None;
    }
    if info.len != b.len() {
        return Some(false);
    }
    // Busy only if JS code run by a copy called back in; then a value is read instead.
    // A copy that throws (a detached buffer) means not a member, and no exception.
    CONTAINS_BUFFER.with(|buffer| {
        let mut buffer = buffer.try_borrow_mut().ok()?;
        Some(buffer.fill(value, b.dtype(), info.len) && b.data_within(buffer.data()))
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

/// Length of a 1-d typed array or array, for spaces whose values vary in length.
fn js_len(value: &JsValue, what: &str) -> Result<usize> {
    if let Some(info) = typed_array(value) {
        Ok(info.len)
    } else if reflect::is_array(value) {
        Ok(reflect::array_length(value, what)? as usize)
    } else {
        Err(Error::type_error(format!("{what} must be an array or a typed array, got {}", type_of(value))))
    }
}

/// The number of rows of a flat array of `len` elements holding `count`
/// blocks of rows of `row_len` elements; `fallback` when blocks are empty.
fn rows(len: usize, count: usize, row_len: usize, fallback: usize, what: &str) -> Result<usize> {
    let per_row = count.saturating_mul(row_len);
    if per_row == 0 {
        return Ok(if len == 0 { fallback } else { 0 });
    }
    if len % per_row != 0 {
        return Err(Error::value(format!("{what} has {len} elements, not a multiple of {per_row}")));
    }
    Ok(len / per_row)
}

/// A graph value: `{nodes, edges, edgeLinks}` with the arrays flat, and for
/// a batched space `{nNodes, nEdges}` too, the graphs padded to the largest
/// (see [`GraphSpace`]).
fn read_graph(value: &JsValue, space: &GraphSpace, budget: &mut Budget) -> Result<Value> {
    let field = |key: &str| reflect::get(value, key, &format!("graph.{key}"));
    let batch = space.batch_shape();
    let batched = !batch.is_empty();
    let count = if batched { shape_len(batch)? } else { 1 };
    let shaped = |rows: usize, inner: &[usize]| [batch, &[rows], inner].concat();
    let (n_nodes, n_edges) = if batched {
        let nn = read_array(&field("nNodes")?, DType::I64, batch, "graph.nNodes", budget)?;
        let ne = read_array(&field("nEdges")?, DType::I64, batch, "graph.nEdges", budget)?;
        (Some(nn), Some(ne))
    } else {
        (None, None)
    };
    // With every graph empty, the padded row count is the largest count given.
    let largest = |counts: &Option<Array>| {
        counts.as_ref().map_or(0, |a| {
            (0..a.data().len()).filter_map(|i| a.data().get_i128(i)).max().unwrap_or(0).clamp(0, 1 << 31)
                as usize
        })
    };
    let node_space = space.node_space();
    let nodes_js = field("nodes")?;
    let n =
        rows(js_len(&nodes_js, "graph.nodes")?, count, node_space.len(), largest(&n_nodes), "graph.nodes")?;
    let nodes =
        read_array(&nodes_js, node_space.dtype(), &shaped(n, node_space.shape()), "graph.nodes", budget)?;
    let links_js = field("edgeLinks")?;
    let e = rows(js_len(&links_js, "graph.edgeLinks")?, count, 2, largest(&n_edges), "graph.edgeLinks")?;
    let edge_links = read_array(&links_js, DType::I64, &shaped(e, &[2]), "graph.edgeLinks", budget)?;
    let edges = match space.edge_space() {
        Some(edge_space) => Some(read_array(
            &field("edges")?,
            edge_space.dtype(),
            &shaped(e, edge_space.shape()),
            "graph.edges",
            budget,
        )?),
        None => None,
    };
    Ok(Value::Graph(Box::new(Graph {
        nodes: Some(nodes),
        edges,
        edge_links: Some(edge_links),
        n_nodes,
        n_edges,
    })))
}

/// Reads a JS value as a value of `space`; an error says why it cannot be one.
pub fn js_to_value(value: &JsValue, space: &Space) -> Result<Value> {
    read_value(value, space, &mut Budget::default())
}

fn read_value(value: &JsValue, space: &Space, budget: &mut Budget) -> Result<Value> {
    let what = space.name();
    budget.spend(limits::VALUE_SLOT_BYTES, what)?;
    Ok(match space.kind() {
        SpaceKind::Box(b) => Value::Array(read_array(value, b.dtype(), b.shape(), what, budget)?),
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
            crate::spaces::SequenceDType::Str => Value::Str(read_string(value, what, budget)?),
            crate::spaces::SequenceDType::Bytes => match typed_array(value) {
                Some(info) if info.dtype == DType::U8 => {
                    budget.spend(info.len as u64, what)?;
                    match read_typed(value, info, what)? {
                        ArrayData::U8(bytes) => Value::Bytes(bytes),
                        _ => return Err(Error::type_error(format!("{what} must be a Uint8Array"))),
                    }
                }
                _ => return Err(Error::type_error(format!("{what} must be a Uint8Array"))),
            },
            crate::spaces::SequenceDType::Array(dtype) => {
                let n = js_len(value, what)?;
                Value::Array(read_array(value, dtype, &[n], what, budget)?)
            }
        },
        SpaceKind::Text(_) => Value::Str(read_string(value, what, budget)?),
        SpaceKind::Permutation(_) => {
            let n = js_len(value, what)?;
            Value::Array(read_array(value, DType::I64, &[n], what, budget)?)
        }
        SpaceKind::MultiDiscrete(m) => Value::Array(read_array(value, m.dtype(), m.shape(), what, budget)?),
        SpaceKind::MultiBinary(m) => Value::Array(read_array(value, DType::I8, m.shape(), what, budget)?),
        SpaceKind::Binary(b) => Value::Array(read_array(value, DType::Bool, b.shape(), what, budget)?),
        SpaceKind::DynamicBox(d) => {
            let shape_what = format!("{what}.shape");
            let shape: Vec<usize> =
                reflect::array_items(&reflect::get(value, "shape", &shape_what)?, &shape_what)?
                    .iter()
                    .map(|d| read_int(d, &shape_what).map(|d| d.max(0) as usize))
                    .collect::<Result<_>>()?;
            limits::check_dims(&shape, &shape_what)?;
            let data = reflect::get(value, "data", &format!("{what}.data"))?;
            Value::Array(read_array(&data, d.dtype(), &shape, what, budget)?)
        }
        SpaceKind::Graph(g) => read_graph(value, g, budget)?,
        SpaceKind::Dict(d) => {
            if !value.is_object() || reflect::is_array(value) {
                return Err(Error::type_error(format!("{what} must be an object, got {}", type_of(value))));
            }
            if reflect::keys(value, what)?.len() != d.len() {
                return Err(Error::value(format!(
                    "{what} must have exactly the keys {:?}",
                    d.keys().collect::<Vec<_>>()
                )));
            }
            let mut entries = Vec::with_capacity(d.len());
            for (key, child) in d.spaces() {
                let item = reflect::get(value, key, &format!("{what}.{key}"))?;
                if item.is_undefined() {
                    return Err(Error::value(format!("{what} lacks the key {key:?}")));
                }
                entries.push((key.clone(), read_value(&item, child, budget)?));
            }
            Value::Dict(entries)
        }
        SpaceKind::Tuple(t) => {
            let items = reflect::array_items(value, what)?;
            if items.len() != t.spaces().len() {
                return Err(Error::value(format!("{what} must have {} entries", t.spaces().len())));
            }
            Value::List(
                items.iter().zip(t.spaces()).map(|(v, s)| read_value(v, s, budget)).collect::<Result<_>>()?,
            )
        }
        SpaceKind::SpaceSequence(s) => {
            let items = reflect::array_items(value, what)?;
            Value::List(items.iter().map(|v| read_value(v, s.space(), budget)).collect::<Result<_>>()?)
        }
        SpaceKind::Union(u) => {
            let items = reflect::array_items(value, what)?;
            let [index, inner] = items.as_slice() else {
                return Err(Error::value(format!("{what} must be [index, value]")));
            };
            let index = read_int(index, "union index")?;
            let child = usize::try_from(index)
                .ok()
                .and_then(|i| u.spaces().get(i))
                .ok_or_else(|| Error::value(format!("{what}: no subspace {index}")))?;
            Value::List(vec![Value::Int(index), read_value(inner, child, budget)?])
        }
        SpaceKind::Batched(b) => match b.stacked() {
            Some((dtype, shape)) => Value::Array(read_array(value, dtype, &shape, what, budget)?),
            None => nested_list(value, b.space(), b.batch_shape(), what, budget)?,
        },
    })
}

/// A string, its bytes counted.
fn read_string(value: &JsValue, what: &str, budget: &mut Budget) -> Result<String> {
    let text = reflect::string(value, what)?
        .ok_or_else(|| Error::type_error(format!("{what} must be a string, got {}", type_of(value))))?;
    budget.spend(text.len() as u64, what)?;
    Ok(text)
}

fn nested_list(
    value: &JsValue,
    inner: &Space,
    batch: &[usize],
    what: &str,
    budget: &mut Budget,
) -> Result<Value> {
    let Some((&n, rest)) = batch.split_first() else {
        return read_value(value, inner, budget);
    };
    let items = reflect::array_items(value, what)?;
    if items.len() != n {
        return Err(Error::value(format!("{what} must have {n} entries")));
    }
    items.iter().map(|v| nested_list(v, inner, rest, what, budget)).collect::<Result<_>>().map(Value::List)
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
        (SpaceKind::Batched(b), Value::List(_)) => batched_to_js(value, b.space(), b.batch_shape().len()),
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

/// A batch of values of `inner` nested `dims` lists deep, each value in its JS form.
fn batched_to_js(value: &Value, inner: &Space, dims: usize) -> JsValue {
    match value {
        Value::List(items) if dims > 0 => {
            items.iter().map(|item| batched_to_js(item, inner, dims - 1)).collect::<JsArray>().into()
        }
        _ => value_to_js(value, inner),
    }
}
