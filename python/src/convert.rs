//! Core values to Python objects and back. Arrays cross as numpy arrays of
//! the same dtype (their bytes copied once), graphs as Gymnasium's
//! `GraphInstance`, lists as lists, dicts as dicts in key order. A Python
//! value nested deeper than the core's value limit is a ValueError.

use compgym::limits::MAX_VALUE_DEPTH;
use compgym::value::{Array, ArrayData, DType, Graph, Value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

static NUMPY: GILOnceCell<Py<PyModule>> = GILOnceCell::new();

fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    NUMPY.get_or_try_init(py, || Ok(py.import("numpy")?.unbind())).map(|m| m.bind(py))
}

/// The elements' bytes in native order (bools as one byte each, as numpy keeps them).
fn native_bytes(data: &ArrayData) -> Vec<u8> {
    macro_rules! bytes_of {
        ($v:expr) => {
            $v.iter().flat_map(|x| x.to_ne_bytes()).collect()
        };
    }
    match data {
        ArrayData::Bool(v) => v.iter().map(|&b| b as u8).collect(),
        ArrayData::I8(v) => bytes_of!(v),
        ArrayData::I16(v) => bytes_of!(v),
        ArrayData::I32(v) => bytes_of!(v),
        ArrayData::I64(v) => bytes_of!(v),
        ArrayData::U8(v) => v.clone(),
        ArrayData::U16(v) => bytes_of!(v),
        ArrayData::U32(v) => bytes_of!(v),
        ArrayData::U64(v) => bytes_of!(v),
        ArrayData::F32(v) => bytes_of!(v),
        ArrayData::F64(v) => bytes_of!(v),
    }
}

/// Elements of `dtype` from native-order bytes (whole elements: numpy gives them so).
fn from_native_bytes(dtype: DType, bytes: &[u8]) -> ArrayData {
    macro_rules! read {
        ($variant:ident, $t:ty) => {
            ArrayData::$variant(
                bytes
                    .chunks_exact(std::mem::size_of::<$t>())
                    .map(|c| <$t>::from_ne_bytes(c.try_into().expect("chunks_exact gives whole elements")))
                    .collect(),
            )
        };
    }
    match dtype {
        DType::Bool => ArrayData::Bool(bytes.iter().map(|&b| b != 0).collect()),
        DType::I8 => read!(I8, i8),
        DType::I16 => read!(I16, i16),
        DType::I32 => read!(I32, i32),
        DType::I64 => read!(I64, i64),
        DType::U8 => ArrayData::U8(bytes.to_vec()),
        DType::U16 => read!(U16, u16),
        DType::U32 => read!(U32, u32),
        DType::U64 => read!(U64, u64),
        DType::F32 => read!(F32, f32),
        DType::F64 => read!(F64, f64),
    }
}

/// A writable numpy array holding a copy of `array`.
pub fn array_to_py<'py>(py: Python<'py>, array: &Array) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new(py, &native_bytes(array.data()));
    let flat = numpy(py)?.call_method1("frombuffer", (buffer, array.dtype().name()))?;
    flat.call_method1("reshape", (PyTuple::new(py, array.shape())?,))
}

fn graph_instance(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("gymnasium.spaces")?.getattr("GraphInstance")
}

fn graph_to_py<'py>(py: Python<'py>, graph: &Graph) -> PyResult<Bound<'py, PyAny>> {
    let part = |a: &Option<Array>| -> PyResult<PyObject> {
        Ok(match a {
            Some(a) => array_to_py(py, a)?.unbind(),
            None => py.None(),
        })
    };
    graph_instance(py)?.call1((part(&graph.nodes)?, part(&graph.edges)?, part(&graph.edge_links)?))
}

/// A core value as a Python object.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::None => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Float(f) => PyFloat::new(py, *f).into_any(),
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::Bytes(b) => PyBytes::new(py, b).into_any(),
        Value::Array(a) => array_to_py(py, a)?,
        Value::List(items) => {
            PyList::new(py, items.iter().map(|v| to_py(py, v)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Dict(entries) => {
            let dict = PyDict::new(py);
            for (k, v) in entries {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any()
        }
        Value::Graph(g) => graph_to_py(py, g)?,
    })
}

fn describe(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

/// A numpy array as a core array: its dtype by name, its shape, its C-order bytes.
fn array_from_py(np: &Bound<'_, PyModule>, obj: &Bound<'_, PyAny>) -> PyResult<Array> {
    let name: String = obj.getattr("dtype")?.getattr("name")?.extract()?;
    let dtype = DType::parse(&name).map_err(crate::errors::to_py)?;
    let shape: Vec<usize> = obj.getattr("shape")?.extract()?;
    let contiguous = np.call_method1("ascontiguousarray", (obj,))?;
    let bytes: Vec<u8> = contiguous.call_method0("tobytes")?.extract()?;
    Array::new(shape, from_native_bytes(dtype, &bytes)).map_err(crate::errors::to_py)
}

/// A Python object as a core value: None, bools, ints, floats, str, bytes,
/// numpy arrays and scalars, lists and tuples, dicts with str keys.
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py_at(obj, 0)
}

fn from_py_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_VALUE_DEPTH {
        return Err(PyValueError::new_err(format!("a value nested deeper than {MAX_VALUE_DEPTH} levels")));
    }
    let py = obj.py();
    let np = numpy(py)?;
    if obj.is_none() {
        return Ok(Value::None);
    }
    if obj.is_instance_of::<PyBool>() || obj.is_instance(&np.getattr("bool_")?)? {
        return Ok(Value::Bool(obj.is_truthy()?));
    }
    if obj.is_instance(&np.getattr("ndarray")?)? {
        return array_from_py(np, obj).map(Value::Array);
    }
    if obj.is_instance_of::<PyInt>() || obj.is_instance(&np.getattr("integer")?)? {
        return Ok(Value::Int(obj.extract()?));
    }
    if obj.is_instance_of::<PyFloat>() || obj.is_instance(&np.getattr("floating")?)? {
        return Ok(Value::Float(obj.extract()?));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::Str(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.downcast::<PyBytes>() {
        return Ok(Value::Bytes(b.as_bytes().to_vec()));
    }
    // Before tuples: GraphInstance is a named tuple.
    if obj.is_instance(&graph_instance(py)?)? {
        let part = |name: &str| -> PyResult<Option<Array>> {
            let a = obj.getattr(name)?;
            if a.is_none() {
                Ok(None)
            } else {
                array_from_py(np, &np.call_method1("asarray", (a,))?).map(Some)
            }
        };
        let (nodes, edges, edge_links) = (part("nodes")?, part("edges")?, part("edge_links")?);
        return Ok(Value::Graph(Box::new(Graph { nodes, edges, edge_links, n_nodes: None, n_edges: None })));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items = obj.try_iter()?.map(|item| from_py_at(&item?, depth + 1)).collect::<PyResult<_>>()?;
        return Ok(Value::List(items));
    }
    if let Ok(dict) = obj.downcast::<PyDict>() {
        let mut entries = Vec::with_capacity(dict.len());
        for (k, v) in dict.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| PyTypeError::new_err(format!("dict keys must be str, got {}", describe(&k))))?;
            entries.push((key.to_cow()?.into_owned(), from_py_at(&v, depth + 1)?));
        }
        return Ok(Value::Dict(entries));
    }
    Err(PyTypeError::new_err(format!("cannot convert a {} to a compgym value", describe(obj))))
}
