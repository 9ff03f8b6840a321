//! tf_agents-style specs for JavaScript: specs become plain objects
//! (`{name, shape, dtype, minimum, maximum}`; dicts and lists nest), and JS
//! values are read guided by a spec, so `[1, 2]` becomes an int32 action.

use crate::env::specs::{ArraySpec, Bounds, Spec, TimeStepSpec};
use crate::error::{Error, Result};
use crate::js::interop::{
    numbers::{int_to_js, js_to_array},
    object::{set, type_of},
    reflect,
    typed::array_data_to_js,
    value::to_js,
};
use crate::value::Value;
use js_sys::{Array as JsArray, Object};
use wasm_bindgen::JsValue;

fn bounds_to_js(bounds: &Bounds) -> JsValue {
    match bounds {
        Bounds::Int(v) if v.len() == 1 => int_to_js(v[0].clamp(i64::MIN as i128, i64::MAX as i128) as i64),
        Bounds::Float(v) if v.len() == 1 => JsValue::from_f64(v[0]),
        Bounds::Int(v) => v.iter().map(|&i| JsValue::from_f64(i as f64)).collect::<JsArray>().into(),
        Bounds::Float(v) => array_data_to_js(&crate::value::ArrayData::F64(v.clone())),
    }
}

fn leaf_to_js(leaf: &ArraySpec) -> Object {
    let object = Object::new();
    set(&object, "name", &leaf.name().map_or(JsValue::NULL, JsValue::from_str));
    let shape: JsArray = leaf.shape().iter().map(|&d| JsValue::from_f64(d as f64)).collect();
    set(&object, "shape", &shape);
    set(&object, "dtype", &JsValue::from_str(leaf.dtype().name()));
    object
}

/// A spec as a plain JS object.
pub fn spec_to_js(spec: &Spec) -> JsValue {
    match spec {
        Spec::Array(leaf) => leaf_to_js(leaf).into(),
        Spec::Bounded(bounded) => {
            let object = leaf_to_js(bounded.array_spec());
            set(&object, "minimum", &bounds_to_js(bounded.minimum()));
            set(&object, "maximum", &bounds_to_js(bounded.maximum()));
            object.into()
        }
        Spec::Dict(entries) => {
            let object = Object::new();
            for (key, item) in entries {
                set(&object, key, &spec_to_js(item));
            }
            object.into()
        }
        Spec::List(items) => items.iter().map(spec_to_js).collect::<JsArray>().into(),
    }
}

/// The four specs of a time step as `{stepType, reward, discount, observation}`.
pub fn time_step_spec_to_js(spec: &TimeStepSpec) -> JsValue {
    let object = Object::new();
    set(&object, "stepType", &spec_to_js(&spec.step_type));
    set(&object, "reward", &spec_to_js(&spec.reward));
    set(&object, "discount", &spec_to_js(&spec.discount));
    set(&object, "observation", &spec_to_js(&spec.observation));
    object.into()
}

fn js_to_leaf(value: &JsValue, leaf: &ArraySpec, outer: &[usize], path: &str) -> Result<Value> {
    let shape = [outer, leaf.shape()].concat();
    js_to_array(value, leaf.dtype(), &shape, path).map(Value::Array)
}

/// Reads a JS value shaped like `spec` with `outer` dimensions (a batch)
/// in front of every leaf. `path` names the value in errors.
pub fn js_to_spec_value(value: &JsValue, spec: &Spec, outer: &[usize], path: &str) -> Result<Value> {
    match spec {
        Spec::Array(leaf) => js_to_leaf(value, leaf, outer, path),
        Spec::Bounded(bounded) => js_to_leaf(value, bounded.array_spec(), outer, path),
        Spec::Dict(entries) => {
            if !value.is_object() || reflect::is_array(value) {
                return Err(Error::type_error(format!("{path} must be an object, got {}", type_of(value))));
            }
            for key in reflect::keys(value, path)? {
                if !entries.iter().any(|(k, _)| *k == key) {
                    return Err(Error::value(format!("{path} has an unexpected key {key:?}")));
                }
            }
            let mut out = Vec::with_capacity(entries.len());
            for (key, item) in entries {
                let field = reflect::get(value, key, &format!("{path}.{key}"))?;
                if field.is_undefined() {
                    return Err(Error::value(format!("{path} lacks the key {key:?}")));
                }
                out.push((key.clone(), js_to_spec_value(&field, item, outer, &format!("{path}.{key}"))?));
            }
            Ok(Value::Dict(out))
        }
        Spec::List(items) => {
            if !reflect::is_array(value) {
                return Err(Error::type_error(format!("{path} must be an array, got {}", type_of(value))));
            }
            let array = reflect::array_items(value, path)?;
            if array.len() != items.len() {
                return Err(Error::value(format!(
                    "{path} must have {} entries, got {}",
                    items.len(),
                    array.len()
                )));
            }
            items
                .iter()
                .zip(&array)
                .enumerate()
                .map(|(i, (item, v))| js_to_spec_value(v, item, outer, &format!("{path}[{i}]")))
                .collect::<Result<_>>()
                .map(Value::List)
        }
    }
}

/// A 0-d array as a plain JS number, anything else as [`to_js`] gives it.
pub fn scalar_or_js(value: &Value) -> JsValue {
    match value {
        Value::Array(a) if a.shape().is_empty() => JsValue::from_f64(a.data().get_f64(0)),
        other => to_js(other),
    }
}
