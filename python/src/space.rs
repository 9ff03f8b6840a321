//! A core space in Python: sampling with its own seeded generator (the
//! same bits as the JS and native faces), `contains`, and its descriptions
//! (the core's JSON and, where Gymnasium has an equivalent, Gymnasium's).

use crate::convert::{from_py, to_py};
use crate::errors::IntoPy;
use compgym::space_from_json;
use compgym::spaces::{from_gym_space, to_gym_space, Space};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

#[pyclass(name = "Space", module = "compgym._core")]
#[derive(Clone)]
pub struct PySpace {
    pub space: Space,
}

#[pymethods]
impl PySpace {
    /// The space of a core JSON description (ParseError, ValueError, TypeError if bad).
    #[staticmethod]
    fn from_json(description: &str) -> PyResult<PySpace> {
        let json: serde_json::Value = serde_json::from_str(description)
            .map_err(|e| crate::errors::ParseError::new_err(format!("space description: {e}")))?;
        Ok(PySpace { space: space_from_json(&json).py()? })
    }

    /// The space of a Gymnasium-style JSON description (`{"type": "Box", ...}`).
    #[staticmethod]
    fn from_gym_json(description: &str) -> PyResult<PySpace> {
        let json: serde_json::Value = serde_json::from_str(description)
            .map_err(|e| crate::errors::ParseError::new_err(format!("space description: {e}")))?;
        Ok(PySpace { space: from_gym_space(&json).py()? })
    }

    #[getter]
    fn name(&self) -> &str {
        self.space.name()
    }

    /// The kind: `"Discrete"`, `"Box"`, `"Sequence"`...
    #[getter]
    fn type_name(&self) -> &'static str {
        self.space.type_name()
    }

    /// The core's JSON description.
    fn to_json(&self) -> String {
        self.space.to_json().to_string()
    }

    /// Gymnasium's JSON description; TypeError for kinds Gymnasium lacks.
    fn gym_json(&self) -> PyResult<String> {
        Ok(to_gym_space(&self.space).py()?.to_string())
    }

    /// Reseeds the generator; returns the seeds used (this one, then the children's).
    fn seed(&mut self, seed: u64) -> Vec<u64> {
        self.space.seed(seed)
    }

    fn sample<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.space.sample())
    }

    /// Whether `value` is in the space; a value that does not convert is not.
    fn contains(&self, value: &Bound<'_, PyAny>) -> bool {
        from_py(value).is_ok_and(|v| self.space.contains(&v))
    }

    fn __contains__(&self, value: &Bound<'_, PyAny>) -> bool {
        self.contains(value)
    }

    /// Equal names and structure (generators are not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PySpace>().is_ok_and(|o| o.borrow().space == self.space)
    }

    fn __repr__(&self) -> String {
        format!("Space({})", self.to_json())
    }

    fn __copy__(&self) -> PySpace {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PySpace {
        self.clone()
    }

    /// Pickles as its description: the copy's generator starts unseeded.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let from_json = py.get_type::<PySpace>().getattr("from_json")?;
        Ok((from_json, PyTuple::new(py, [self.to_json()])?))
    }
}
