//! `compgym._core`: the compgym core as a Python extension module. It
//! converts and maps errors; every decision is the core's. The pure-Python
//! package `compgym` builds Gymnasium's face on it.
//!
//! - [`errors`]: core error kinds as Python exceptions (`ValueError`,
//!   `LookupError`, `TypeError`, and `ParseError`... subclassing them).
//! - [`convert`]: core values to and from Python objects (arrays as numpy).
//! - [`space`]: a core space (its own seeded sampling, `contains`, descriptions).
//! - [`agents`]: the leaderboard, whole or a cell at a time (for Ray).
//! - [`env`]: a registered environment with Gymnasium's face and
//!   CompilerGym's API, [`owned`] by the thread that made it.

mod agents;
mod convert;
mod env;
mod errors;
mod owned;
mod space;

use pyo3::prelude::*;

/// The Rust side's allocations go through mimalloc, as in the native
/// binaries (docs/benchmarks.md, "The native allocator"), with their
/// settings (`compgym::native_allocator`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every registered environment id, sorted.
#[pyfunction]
fn registered_ids() -> Vec<String> {
    compgym::compilers::registered_ids()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    compgym::native_allocator::configure();
    errors::add(m)?;
    m.add_class::<space::PySpace>()?;
    m.add_class::<env::PyGymEnv>()?;
    m.add_function(wrap_pyfunction!(registered_ids, m)?)?;
    m.add_function(wrap_pyfunction!(env::state_to_csv, m)?)?;
    m.add_function(wrap_pyfunction!(env::read_states_csv, m)?)?;
    m.add_function(wrap_pyfunction!(agents::leaderboard_plan, m)?)?;
    m.add_function(wrap_pyfunction!(agents::leaderboard_cell, m)?)?;
    m.add_function(wrap_pyfunction!(agents::leaderboard_assemble, m)?)?;
    m.add_function(wrap_pyfunction!(agents::leaderboard, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
