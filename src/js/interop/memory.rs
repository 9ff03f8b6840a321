//! Typed arrays copied to and from the wasm memory in one JS call.
//!
//! `js_sys`'s copies make a temporary `subarray` view of the memory for each
//! copy. Here views are kept and reused: one of the whole memory per element
//! type, whose `slice` copies data out into a fresh typed array, and one of a
//! reusable buffer ([`InBuffer`]), whose `set` copies a typed array in.
//! Growing the memory detaches its buffer, so views are remade when the
//! memory's size has changed since they were made.

use crate::value::{ArrayData, DType};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// Any typed array: the members every kind of typed array has.
    pub type AnyTypedArray;
    #[wasm_bindgen(method, getter)]
    pub fn length(this: &AnyTypedArray) -> f64;
    #[wasm_bindgen(method)]
    fn slice(this: &AnyTypedArray, begin: u32, end: u32) -> JsValue;
    #[wasm_bindgen(method)]
    fn subarray(this: &AnyTypedArray, begin: u32, end: u32) -> JsValue;
    #[wasm_bindgen(method, catch)]
    fn set(this: &AnyTypedArray, source: &JsValue, offset: u32) -> Result<(), JsValue>;
}

/// The views of one memory buffer, made on first use, one per view dtype.
struct Views {
    pages: usize,
    views: [Option<JsValue>; 10],
}

thread_local! {
    static VIEWS: RefCell<Views> = const { RefCell::new(Views { pages: 0, views: [const { None }; 10] }) };
}

/// The typed array kind that holds `dtype` (bools are bytes of 0 and 1) and its slot.
fn view_slot(dtype: DType) -> usize {
    match dtype {
        DType::Bool | DType::U8 => 0,
        DType::I8 => 1,
        DType::I16 => 2,
        DType::U16 => 3,
        DType::I32 => 4,
        DType::U32 => 5,
        DType::F32 => 6,
        DType::F64 => 7,
        DType::I64 => 8,
        DType::U64 => 9,
    }
}

fn new_view(dtype: DType, buffer: &JsValue) -> JsValue {
    match dtype {
        DType::Bool | DType::U8 => js_sys::Uint8Array::new(buffer).into(),
        DType::I8 => js_sys::Int8Array::new(buffer).into(),
        DType::I16 => js_sys::Int16Array::new(buffer).into(),
        DType::U16 => js_sys::Uint16Array::new(buffer).into(),
        DType::I32 => js_sys::Int32Array::new(buffer).into(),
        DType::U32 => js_sys::Uint32Array::new(buffer).into(),
        DType::F32 => js_sys::Float32Array::new(buffer).into(),
        DType::F64 => js_sys::Float64Array::new(buffer).into(),
        DType::I64 => js_sys::BigInt64Array::new(buffer).into(),
        DType::U64 => js_sys::BigUint64Array::new(buffer).into(),
    }
}

fn memory_pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

fn memory_buffer() -> JsValue {
    wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer()
}

/// Calls `f` with the current view of the whole memory as `dtype` elements.
/// Making a view stores JS values, which may grow the memory, so the view is
/// checked against the memory's size after it is made; `f` must not allocate
/// before it uses the view.
fn with_memory_view<R>(dtype: DType, f: impl FnOnce(&AnyTypedArray) -> R) -> R {
    let slot = view_slot(dtype);
    VIEWS.with(|cache| match cache.try_borrow_mut() {
        Ok(mut cache) => loop {
            if cache.pages != memory_pages() {
                *cache = Views { pages: memory_pages(), views: Default::default() };
            } else if let Some(view) = &cache.views[slot] {
                return f(view.unchecked_ref());
            }
            cache.views[slot] = Some(new_view(dtype, &memory_buffer()));
        },
        // Busy: JS code run by a copy (a `Symbol.species` getter) called back in. A fresh view then.
        Err(_) => loop {
            let pages = memory_pages();
            let view = new_view(dtype, &memory_buffer());
            if memory_pages() == pages {
                return f(view.unchecked_ref());
            }
        },
    })
}

/// Start (in elements of its own size) and length of a slice in the memory.
fn extent_of<T>(v: &[T]) -> (u32, u32) {
    ((v.as_ptr() as usize / std::mem::size_of::<T>()) as u32, v.len() as u32)
}

/// A fresh typed array of the data's dtype holding a copy of it (bools as a `Uint8Array`).
pub fn copy_out(data: &ArrayData) -> JsValue {
    let (start, len) = crate::with_array_data!(data, v => extent_of(v));
    with_memory_view(data.dtype(), |view| view.slice(start, start + len))
}

/// Copies the typed array `source` of `dtype` and `len` elements (as
/// [`super::typed::typed_array`] read them) into new array data, by one
/// `set` into a view of the data's storage. The error is what `set` threw
/// (a detached buffer).
pub fn copy_in(source: &JsValue, dtype: DType, len: usize) -> Result<ArrayData, JsValue> {
    let data = ArrayData::zeros(dtype, len);
    let (start, len) = crate::with_array_data!(&data, v => extent_of(v));
    // A part made while the memory grew views a stale buffer; it is made again.
    loop {
        let pages = memory_pages();
        let part: AnyTypedArray =
            with_memory_view(dtype, |view| view.subarray(start, start + len)).unchecked_into();
        if memory_pages() == pages {
            part.set(source, 0)?;
            return Ok(data);
        }
    }
}

/// A reusable buffer that typed arrays are copied into, through a kept view
/// of exactly its storage: a source longer than the view makes `set` throw
/// instead of writing past the buffer.
pub struct InBuffer {
    data: ArrayData,
    /// The view and what it was made for: memory size, start, length, dtype.
    view: Option<((usize, u32, u32, DType), JsValue)>,
}

impl Default for InBuffer {
    fn default() -> Self {
        InBuffer { data: ArrayData::F32(Vec::new()), view: None }
    }
}

impl InBuffer {
    /// Copies `source`, a typed array of `dtype` (see [`super::typed::typed_array`])
    /// of `len` elements, into the buffer. False if the copy threw.
    pub fn fill(&mut self, source: &JsValue, dtype: DType, len: usize) -> bool {
        if self.data.dtype() == dtype {
            crate::with_array_data!(&mut self.data, v => v.resize(len, Default::default()));
        } else {
            self.data = ArrayData::zeros(dtype, len);
        }
        let (start, len) = crate::with_array_data!(&self.data, v => extent_of(v));
        // A view made while the memory grew is stale at once; it is remade (see `with_memory_view`).
        loop {
            let key = (memory_pages(), start, len, dtype);
            match &self.view {
                Some((made_for, view)) if *made_for == key => {
                    return view.unchecked_ref::<AnyTypedArray>().set(source, 0).is_ok()
                }
                _ => {
                    let whole: AnyTypedArray = new_view(dtype, &memory_buffer()).unchecked_into();
                    self.view = Some((key, whole.subarray(start, start + len)));
                }
            }
        }
    }

    pub fn data(&self) -> &ArrayData {
        &self.data
    }
}
