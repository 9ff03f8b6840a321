//! The dynamic value model shared by spaces, the service protocol, the
//! environments and the JS layer.
//!
//! It mirrors the service protocol's `Event`: scalars, strings, bytes,
//! n-dimensional typed arrays, lists (tuples and sequences), ordered
//! dictionaries and graphs. Arrays keep their element type so numeric data
//! crosses to JavaScript as the matching typed array without conversion.

use crate::error::{Error, Result};
use std::fmt;

/// The element type of an [`Array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

impl DType {
    pub const ALL: [DType; 11] = [
        DType::Bool,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F32,
        DType::F64,
    ];

    /// The numpy-style name: `bool`, `int8` ... `float64`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    /// Parses a dtype name; accepts numpy's names and a few common aliases.
    pub fn parse(name: &str) -> Result<DType> {
        Ok(match name {
            "bool" | "bool_" | "bool8" => DType::Bool,
            "int8" | "i8" => DType::I8,
            "int16" | "i16" => DType::I16,
            "int32" | "i32" => DType::I32,
            "int64" | "i64" | "int" => DType::I64,
            "uint8" | "u8" => DType::U8,
            "uint16" | "u16" => DType::U16,
            "uint32" | "u32" => DType::U32,
            "uint64" | "u64" => DType::U64,
            "float32" | "f32" => DType::F32,
            "float64" | "f64" | "float" | "double" => DType::F64,
            _ => {
                return Err(Error::type_error(format!(
                    "unknown dtype {name:?}; expected one of bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64"
                )))
            }
        })
    }

    /// The bytes one element takes in an [`ArrayData`] vector.
    pub const fn size(self) -> u64 {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
        }
    }

    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }
    pub const fn is_integer(self) -> bool {
        !matches!(self, DType::Bool | DType::F32 | DType::F64)
    }
    pub const fn is_signed(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// The inclusive integer range of an integer or bool dtype, as i128 so
    /// that u64's range fits too.
    pub const fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::Bool => (0, 1),
            DType::I8 => (i8::MIN as i128, i8::MAX as i128),
            DType::I16 => (i16::MIN as i128, i16::MAX as i128),
            DType::I32 => (i32::MIN as i128, i32::MAX as i128),
            DType::I64 => (i64::MIN as i128, i64::MAX as i128),
            DType::U8 => (0, u8::MAX as i128),
            DType::U16 => (0, u16::MAX as i128),
            DType::U32 => (0, u32::MAX as i128),
            DType::U64 => (0, u64::MAX as i128),
            DType::F32 | DType::F64 => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The elements of an [`Array`], stored flat in C (row-major) order.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Applies `$body` to the vector inside any [`ArrayData`] variant.
#[macro_export]
macro_rules! with_array_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            $crate::value::ArrayData::Bool($v) => $body,
            $crate::value::ArrayData::I8($v) => $body,
            $crate::value::ArrayData::I16($v) => $body,
            $crate::value::ArrayData::I32($v) => $body,
            $crate::value::ArrayData::I64($v) => $body,
            $crate::value::ArrayData::U8($v) => $body,
            $crate::value::ArrayData::U16($v) => $body,
            $crate::value::ArrayData::U32($v) => $body,
            $crate::value::ArrayData::U64($v) => $body,
            $crate::value::ArrayData::F32($v) => $body,
            $crate::value::ArrayData::F64($v) => $body,
        }
    };
}

impl ArrayData {
    pub fn dtype(&self) -> DType {
        match self {
            ArrayData::Bool(_) => DType::Bool,
            ArrayData::I8(_) => DType::I8,
            ArrayData::I16(_) => DType::I16,
            ArrayData::I32(_) => DType::I32,
            ArrayData::I64(_) => DType::I64,
            ArrayData::U8(_) => DType::U8,
            ArrayData::U16(_) => DType::U16,
            ArrayData::U32(_) => DType::U32,
            ArrayData::U64(_) => DType::U64,
            ArrayData::F32(_) => DType::F32,
            ArrayData::F64(_) => DType::F64,
        }
    }

    pub fn len(&self) -> usize {
        with_array_data!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `len` zeros (false for bool) of the given dtype.
    pub fn zeros(dtype: DType, len: usize) -> ArrayData {
        match dtype {
            DType::Bool => ArrayData::Bool(vec![false; len]),
            DType::I8 => ArrayData::I8(vec![0; len]),
            DType::I16 => ArrayData::I16(vec![0; len]),
            DType::I32 => ArrayData::I32(vec![0; len]),
            DType::I64 => ArrayData::I64(vec![0; len]),
            DType::U8 => ArrayData::U8(vec![0; len]),
            DType::U16 => ArrayData::U16(vec![0; len]),
            DType::U32 => ArrayData::U32(vec![0; len]),
            DType::U64 => ArrayData::U64(vec![0; len]),
            DType::F32 => ArrayData::F32(vec![0.0; len]),
            DType::F64 => ArrayData::F64(vec![0.0; len]),
        }
    }

    /// Element `i` widened to f64 (lossy above 2^53 for 64-bit integers).
    pub fn get_f64(&self, i: usize) -> f64 {
        match self {
            ArrayData::Bool(v) => v[i] as u8 as f64,
            ArrayData::I8(v) => v[i] as f64,
            ArrayData::I16(v) => v[i] as f64,
            ArrayData::I32(v) => v[i] as f64,
            ArrayData::I64(v) => v[i] as f64,
            ArrayData::U8(v) => v[i] as f64,
            ArrayData::U16(v) => v[i] as f64,
            ArrayData::U32(v) => v[i] as f64,
            ArrayData::U64(v) => v[i] as f64,
            ArrayData::F32(v) => v[i] as f64,
            ArrayData::F64(v) => v[i],
        }
    }

    /// Element `i` of an integer or bool array, exactly; `None` for floats.
    pub fn get_i128(&self, i: usize) -> Option<i128> {
        Some(match self {
            ArrayData::Bool(v) => v[i] as i128,
            ArrayData::I8(v) => v[i] as i128,
            ArrayData::I16(v) => v[i] as i128,
            ArrayData::I32(v) => v[i] as i128,
            ArrayData::I64(v) => v[i] as i128,
            ArrayData::U8(v) => v[i] as i128,
            ArrayData::U16(v) => v[i] as i128,
            ArrayData::U32(v) => v[i] as i128,
            ArrayData::U64(v) => v[i] as i128,
            ArrayData::F32(_) | ArrayData::F64(_) => return None,
        })
    }

    /// Every element widened to f64.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.get_f64(i)).collect()
    }
}

/// An n-dimensional array: a shape and flat row-major data.
///
/// Invariant: the product of `shape` equals `data.len()` (an empty shape is a
/// 0-d array holding one element).
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    shape: Vec<usize>,
    data: ArrayData,
}

/// The number of elements of `shape`, or an error if it overflows `usize`.
pub fn shape_len(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| Error::value(format!("shape {shape:?} has too many elements")))
}

impl Array {
    /// An array of `shape` over `data`; the sizes must agree.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Result<Array> {
        let n = shape_len(&shape)?;
        if n != data.len() {
            return Err(Error::value(format!(
                "shape {shape:?} needs {n} elements but the data has {}",
                data.len()
            )));
        }
        Ok(Array { shape, data })
    }

    /// A 1-d array over `data`.
    pub fn vector(data: ArrayData) -> Array {
        Array { shape: vec![data.len()], data }
    }

    pub fn zeros(dtype: DType, shape: Vec<usize>) -> Result<Array> {
        let n = shape_len(&shape)?;
        Ok(Array { shape, data: ArrayData::zeros(dtype, n) })
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn data(&self) -> &ArrayData {
        &self.data
    }
    pub fn data_mut(&mut self) -> &mut ArrayData {
        &mut self.data
    }
    pub fn into_parts(self) -> (Vec<usize>, ArrayData) {
        (self.shape, self.data)
    }
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The same data under another shape with the same number of elements.
    pub fn reshape(self, shape: Vec<usize>) -> Result<Array> {
        Array::new(shape, self.data)
    }
}

/// A graph value: node features, optional edge features and edge links.
///
/// `nodes` has shape `[N, ...node_shape]`, `edges` `[E, ...edge_shape]` and
/// `edge_links` `[E, 2]` (int64 node indices). A batched graph space stores
/// padded arrays with a leading batch shape plus the true counts in
/// `n_nodes` and `n_edges`.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    pub nodes: Option<Array>,
    pub edges: Option<Array>,
    pub edge_links: Option<Array>,
    pub n_nodes: Option<Array>,
    pub n_edges: Option<Array>,
}

/// A dynamic value: an action, an observation or a sample of a space.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// No value (an absent optional).
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Array(Array),
    /// Tuples, sequences of spaces and union samples (`[index, value]`).
    List(Vec<Value>),
    /// An ordered dictionary: keys are unique.
    Dict(Vec<(String, Value)>),
    Graph(Box<Graph>),
}

impl Value {
    /// A short name of the variant, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::Array(_) => "array",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
            Value::Graph(_) => "graph",
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// A number of any kind as f64 (ints, floats, bools, and one-element arrays).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(x) => Some(*x),
            Value::Bool(b) => Some(*b as u8 as f64),
            Value::Array(a) if a.len() == 1 => Some(a.data().get_f64(0)),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(v) => Some(v),
            _ => None,
        }
    }

    /// The entry of a dict value by key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Float(x)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn dtype_names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::parse(d.name()).unwrap(), d);
        }
        let e = DType::parse("complex64").unwrap_err();
        assert_eq!(e.name(), "TypeError");
        assert!(e.message().contains("complex64"));
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn array_shape_must_match_data() {
        assert!(Array::new(vec![2, 3], ArrayData::F32(vec![0.0; 6])).is_ok());
        let e = Array::new(vec![2, 3], ArrayData::F32(vec![0.0; 5])).unwrap_err();
        assert_eq!(e.name(), "ValueError");
        let scalar = Array::new(vec![], ArrayData::I64(vec![7])).unwrap();
        assert_eq!(scalar.len(), 1);
        assert!(shape_len(&[usize::MAX, 2]).is_err());
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn int_ranges() {
        assert_eq!(DType::U64.int_range(), Some((0, u64::MAX as i128)));
        assert_eq!(DType::I8.int_range(), Some((-128, 127)));
        assert_eq!(DType::F32.int_range(), None);
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn value_accessors() {
        let d = Value::Dict(vec![("a".into(), Value::Int(1)), ("b".into(), Value::Float(2.5))]);
        assert_eq!(d.get("b").and_then(Value::as_f64), Some(2.5));
        assert_eq!(d.get("c"), None);
        assert_eq!(Value::Int(3).as_f64(), Some(3.0));
        assert_eq!(Value::Str("x".into()).kind_name(), "string");
    }
}
