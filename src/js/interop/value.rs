//! Core values to JavaScript values and back, without a space to guide them
//! (see [`super::space_value`] for values read by their space).
//!
//! Numbers stay numbers unless a 64-bit integer does not fit a JS number
//! exactly; then it is a `BigInt`, never silently rounded. Arrays become the
//! typed array of their dtype (bool arrays are `Uint8Array`s of 0 and 1),
//! lists become arrays, dicts plain objects (in the dict's order), graphs
//! `{nodes, edges, edgeLinks}`.

use super::numbers::{bigint_to_i64, int_to_js};
use super::object::{set_fresh, type_of};
use super::reflect::{self, Walk};
use super::typed::{array_data_to_js, read_typed, typed_array};
use crate::error::{Error, Result};
use crate::limits::{self, MAX_VALUE_DEPTH};
use crate::value::{Array, Graph, Value};
use js_sys::{Array as JsArray, Object};
use wasm_bindgen::prelude::*;

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

/// A JS value as a core value without a space to guide it: numbers become
/// floats (a space-guided conversion decides int vs float), BigInts ints,
/// typed arrays 1-d arrays, arrays lists, plain objects dicts. Nesting past
/// [`MAX_VALUE_DEPTH`] is a LimitError, an object that contains itself a
/// ValueError, and everything read counts against the byte budget.
pub fn from_js(value: &JsValue) -> Result<Value> {
    read(value, "value", &mut Walk::new(MAX_VALUE_DEPTH))
}

fn read(value: &JsValue, path: &str, walk: &mut Walk) -> Result<Value> {
    walk.enter(value, path)?;
    let out = read_entered(value, path, walk)?;
    walk.leave();
    Ok(out)
}

fn read_entered(value: &JsValue, path: &str, walk: &mut Walk) -> Result<Value> {
    if value.is_null() || value.is_undefined() {
        Ok(Value::None)
    } else if let Some(b) = value.as_bool() {
        Ok(Value::Bool(b))
    } else if let Some(x) = value.as_f64() {
        Ok(Value::Float(x))
    } else if value.is_bigint() {
        Ok(Value::Int(bigint_to_i64(value, path)?))
    } else if let Some(s) = reflect::string(value, path)? {
        walk.budget.spend(s.len() as u64, path)?;
        Ok(Value::Str(s))
    } else if reflect::is_array(value) {
        let items = reflect::items(value, path)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| read(item, &format!("{path}[{i}]"), walk))
            .collect::<Result<_>>()
            .map(Value::List)
    } else if let Some(info) = typed_array(value) {
        walk.budget.spend(limits::bytes_of(info.len, info.dtype.size()), path)?;
        Ok(Value::Array(Array::vector(read_typed(value, info, path)?)))
    } else if value.is_object() && !value.is_function() {
        reflect::entries(value, path)?
            .into_iter()
            .map(|(key, item)| {
                walk.budget.spend(key.len() as u64, path)?;
                let item = read(&item, &format!("{path}.{key}"), walk)?;
                Ok((key, item))
            })
            .collect::<Result<_>>()
            .map(Value::Dict)
    } else {
        Err(Error::type_error(format!("cannot use a {} as a value", type_of(value))))
    }
}
