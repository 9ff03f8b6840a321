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
use super::typed::{array_data_to_js, typed_array_to_data};
use crate::error::{Error, Result};
use crate::value::{Array, Graph, Value};
use js_sys::{Array as JsArray, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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
