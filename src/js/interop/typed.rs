//! Typed arrays: which dtype a JS typed array carries, and array data in
//! and out (out through a kept view of the wasm memory, see [`super::memory`]).
//!
//! A typed array's kind and length are read through the getters of
//! `%TypedArray%.prototype` itself, which look at the array's internal
//! slots and run none of the caller's code: a Proxy of a typed array is not
//! one, a subclass cannot lie about its `length`, and a typed array from
//! another realm (a worker's, an iframe's) is still recognised. Its data is
//! copied in by one `set`, which throws (caught) if its buffer was detached.

use super::reflect::threw;
use crate::error::Result;
use crate::limits;
use crate::value::{ArrayData, DType};
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(thread_local_v2, js_namespace = Int8Array, js_name = prototype)]
    static INT8_ARRAY_PROTOTYPE: JsValue;
    #[wasm_bindgen(thread_local_v2, js_namespace = Symbol, js_name = toStringTag)]
    static TO_STRING_TAG: JsValue;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = getPrototypeOf)]
    fn prototype_of(target: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = getOwnPropertyDescriptor)]
    fn own_property_descriptor(target: &JsValue, key: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> std::result::Result<JsValue, JsValue>;
}

/// The getters of `%TypedArray%.prototype` that read a typed array's slots.
struct Intrinsics {
    /// `[Symbol.toStringTag]`: the kind's name (`"Float32Array"`), undefined for anything else.
    tag: Function,
    /// `length`: the element count, 0 once the buffer is detached.
    length: Function,
}

fn intrinsics() -> Option<Intrinsics> {
    let prototype = prototype_of(&INT8_ARRAY_PROTOTYPE.with(JsValue::clone)).ok()?;
    let getter = |key: &JsValue| -> Option<Function> {
        let descriptor = own_property_descriptor(&prototype, key).ok()?;
        reflect_get(&descriptor, &JsValue::from_str("get")).ok()?.dyn_into().ok()
    };
    Some(Intrinsics { tag: getter(&TO_STRING_TAG.with(JsValue::clone))?, length: getter(&"length".into())? })
}

thread_local! {
    static INTRINSICS: Option<Intrinsics> = intrinsics();
}

/// What a typed array is, from its internal slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedArrayInfo {
    pub dtype: DType,
    /// The element count.
    pub len: usize,
}

fn dtype_of_kind(kind: &str) -> Option<DType> {
    Some(match kind {
        "Float32Array" => DType::F32,
        "Float64Array" => DType::F64,
        "Int8Array" => DType::I8,
        "Int16Array" => DType::I16,
        "Int32Array" => DType::I32,
        "BigInt64Array" => DType::I64,
        "Uint8Array" | "Uint8ClampedArray" => DType::U8,
        "Uint16Array" => DType::U16,
        "Uint32Array" => DType::U32,
        "BigUint64Array" => DType::U64,
        _ => return None,
    })
}

/// The dtype and length of a typed array, or None if `value` is not one
/// (or is a kind without a dtype here, such as `Float16Array`).
pub fn typed_array(value: &JsValue) -> Option<TypedArrayInfo> {
    if !value.is_object() {
        return None;
    }
    INTRINSICS.with(|intrinsics| {
        let intrinsics = intrinsics.as_ref()?;
        let dtype = dtype_of_kind(&intrinsics.tag.call0(value).ok()?.as_string()?)?;
        let len = intrinsics.length.call0(value).ok()?.as_f64()? as usize;
        Some(TypedArrayInfo { dtype, len })
    })
}

/// The dtype a typed array carries, or None if `value` is not a typed array.
pub fn typed_array_dtype(value: &JsValue) -> Option<DType> {
    typed_array(value).map(|t| t.dtype)
}

/// The flat typed array holding an array's data (C order).
pub fn array_data_to_js(data: &ArrayData) -> JsValue {
    // Bools are bytes of 0 and 1, so their storage copies out as a Uint8Array.
    super::memory::copy_out(data)
}

/// Copies a typed array into array data of its own dtype: None if `value`
/// is not a typed array; an error naming `what` if its data would pass the
/// byte budget or cannot be read (its buffer was detached).
pub fn typed_array_to_data(value: &JsValue, what: &str) -> Result<Option<ArrayData>> {
    let Some(info) = typed_array(value) else { return Ok(None) };
    read_typed(value, info, what).map(Some)
}

/// The data of the typed array `value`, described by `info`.
pub fn read_typed(value: &JsValue, info: TypedArrayInfo, what: &str) -> Result<ArrayData> {
    limits::check_bytes(
        limits::bytes_of(info.len, info.dtype.size()),
        format!("{what} ({} elements of {})", info.len, info.dtype),
    )?;
    // A detached buffer makes the copy throw ("Cannot perform ... on a detached ArrayBuffer").
    super::memory::copy_in(value, info.dtype, info.len).map_err(|thrown| threw(what, &thrown))
}
