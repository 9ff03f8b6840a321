//! Typed arrays: which dtype a JS typed array carries, and array data in
//! and out (out through a kept view of the wasm memory, see [`super::memory`]).

use crate::value::{ArrayData, DType};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The flat typed array holding an array's data (C order).
pub fn array_data_to_js(data: &ArrayData) -> JsValue {
    // Bools are bytes of 0 and 1, so their storage copies out as a Uint8Array.
    super::memory::copy_out(data)
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
