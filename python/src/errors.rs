//! Core errors as Python exceptions, named as the JS errors are. Kinds with
//! a Python built-in of the same name raise it; the others raise a
//! `compgym` exception subclassing the nearest built-in, so `except
//! ValueError` catches a parse error as a caller would expect.

use compgym::{Error, ErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::{PyLookupError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

create_exception!(compgym, ServiceError, PyRuntimeError, "The compiler service failed to do what was asked.");
create_exception!(
    compgym,
    SessionNotFound,
    ServiceError,
    "No such session: a step before reset, or after close."
);
create_exception!(compgym, BenchmarkInitError, PyValueError, "A benchmark could not be loaded.");
create_exception!(compgym, ParseError, PyValueError, "Bril text or JSON that does not parse.");
create_exception!(compgym, VerifyError, PyValueError, "A Bril program that is not well formed.");
create_exception!(
    compgym,
    LimitError,
    PyValueError,
    "A resource limit was hit (fuel, memory, nesting, bytes)."
);

/// The Python exception of a core error.
pub fn to_py(e: Error) -> PyErr {
    let message = e.message().to_string();
    match e.kind() {
        ErrorKind::Value => PyValueError::new_err(message),
        ErrorKind::Lookup => PyLookupError::new_err(message),
        ErrorKind::Type => PyTypeError::new_err(message),
        ErrorKind::SessionNotFound => SessionNotFound::new_err(message),
        ErrorKind::Service => ServiceError::new_err(message),
        ErrorKind::BenchmarkInit => BenchmarkInitError::new_err(message),
        ErrorKind::Parse => ParseError::new_err(message),
        ErrorKind::Verify => VerifyError::new_err(message),
        ErrorKind::Runtime => PyRuntimeError::new_err(message),
        ErrorKind::Limit => LimitError::new_err(message),
        ErrorKind::Overflow => PyOverflowError::new_err(message),
    }
}

/// `Result<T>` of the core as a `PyResult<T>`.
pub trait IntoPy<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for compgym::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ServiceError", py.get_type::<ServiceError>())?;
    m.add("SessionNotFound", py.get_type::<SessionNotFound>())?;
    m.add("BenchmarkInitError", py.get_type::<BenchmarkInitError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("VerifyError", py.get_type::<VerifyError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    Ok(())
}
