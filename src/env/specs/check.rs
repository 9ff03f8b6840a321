//! Checking values against specs (tf_agents' `check_arrays_nest`), with
//! errors that say where and what: wrong dtype is a TypeError; a wrong
//! shape, structure or out-of-bounds element is a ValueError.

use super::{describe_leaf, ArraySpec, Spec};
use crate::error::{Error, Result};
use crate::value::{shape_len, Array, ArrayData, Value};
use crate::{bail, ensure};
use std::borrow::Cow;

/// Checks that `value` conforms to `spec`: same nesting, and every leaf an
/// array of exactly the spec's dtype and shape, within bounds if bounded.
///
/// Scalars stand for 0-d arrays as numbers do in numpy: `Value::Int` is
/// int64, `Value::Float` float64, `Value::Bool` bool.
pub fn check_value(spec: &Spec, value: &Value) -> Result<()> {
    check_value_batched(spec, value, &[], "value")
}

/// [`check_value`] for a value with `outer_dims` (a batch) before every
/// leaf's shape; `path` names the value in error messages (`observation`).
pub fn check_value_batched(spec: &Spec, value: &Value, outer_dims: &[usize], path: &str) -> Result<()> {
    check_at(spec, value, outer_dims, path)
}

fn check_at(spec: &Spec, value: &Value, outer: &[usize], path: &str) -> Result<()> {
    match spec {
        Spec::Array(s) => check_leaf(s, spec, value, outer, path).map(drop),
        Spec::Bounded(b) => {
            let array = check_leaf(b.array_spec(), spec, value, outer, path)?;
            let leaf_len = shape_len(b.shape())?;
            for i in 0..array.len() {
                // Per-element bounds repeat over the outer (batch) dimensions.
                let bound_index = if leaf_len == 0 { 0 } else { i % leaf_len };
                if !b.contains(array.data(), i, bound_index) {
                    bail!(
                        Value,
                        "{path}: element {} = {} is outside [{}, {}]",
                        index_of(array.shape(), i),
                        element_text(array.data(), i),
                        b.minimum(),
                        b.maximum()
                    );
                }
            }
            Ok(())
        }
        Spec::Dict(entries) => {
            let Value::Dict(items) = value else {
                bail!(
                    Type,
                    "{path}: expected a dict with keys {:?}, got a {}",
                    keys(entries),
                    value.kind_name()
                );
            };
            for (key, _) in items {
                ensure!(
                    entries.iter().any(|(k, _)| k == key),
                    Value,
                    "{path}: unexpected key {key:?}; expected keys {:?}",
                    keys(entries)
                );
            }
            for (key, child) in entries {
                let Some(v) = value.get(key) else {
                    bail!(Value, "{path}: missing key {key:?}; expected keys {:?}", keys(entries));
                };
                check_at(child, v, outer, &format!("{path}.{key}"))?;
            }
            Ok(())
        }
        Spec::List(children) => {
            let Value::List(items) = value else {
                bail!(Type, "{path}: expected a list of {}, got a {}", children.len(), value.kind_name());
            };
            ensure!(
                items.len() == children.len(),
                Value,
                "{path}: expected a list of {} items, got {}",
                children.len(),
                items.len()
            );
            for (i, (child, v)) in children.iter().zip(items).enumerate() {
                check_at(child, v, outer, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
    }
}

/// Checks dtype and shape; returns the leaf as an array for the bounds check.
fn check_leaf<'v>(
    spec: &ArraySpec,
    leaf: &Spec,
    value: &'v Value,
    outer: &[usize],
    path: &str,
) -> Result<Cow<'v, Array>> {
    let array = match value {
        Value::Array(a) => Cow::Borrowed(a),
        _ => Cow::Owned(scalar_array(value).ok_or_else(|| {
            Error::type_error(format!(
                "{path}: expected an array {}, got a {}",
                describe_leaf(leaf),
                value.kind_name()
            ))
        })?),
    };
    ensure!(
        array.dtype() == spec.dtype(),
        Type,
        "{path}: expected dtype {}, got {}",
        spec.dtype(),
        array.dtype()
    );
    let expected: Vec<usize> = [outer, spec.shape()].concat();
    if array.shape() != expected.as_slice() {
        let batch = if outer.is_empty() {
            String::new()
        } else {
            format!(" (batch dims {outer:?} + spec shape {:?})", spec.shape())
        };
        bail!(Value, "{path}: expected shape {expected:?}{batch}, got {:?}", array.shape());
    }
    Ok(array)
}

/// A number as the 0-d array numpy would make of it.
fn scalar_array(value: &Value) -> Option<Array> {
    let data = match value {
        Value::Int(i) => ArrayData::I64(vec![*i]),
        Value::Float(x) => ArrayData::F64(vec![*x]),
        Value::Bool(b) => ArrayData::Bool(vec![*b]),
        _ => return None,
    };
    Array::new(vec![], data).ok()
}

fn keys(entries: &[(String, Spec)]) -> Vec<&str> {
    entries.iter().map(|(k, _)| k.as_str()).collect()
}

/// The multi-index of flat element `i` in row-major `shape`, as `[r, c]`.
fn index_of(shape: &[usize], mut i: usize) -> String {
    let mut index = vec![0; shape.len()];
    for (slot, &dim) in index.iter_mut().zip(shape).rev() {
        if dim > 0 {
            *slot = i % dim;
            i /= dim;
        }
    }
    format!("{index:?}")
}

fn element_text(data: &ArrayData, i: usize) -> String {
    match data.get_i128(i) {
        Some(x) => x.to_string(),
        None => data.get_f64(i).to_string(),
    }
}
