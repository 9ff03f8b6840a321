//! A registered compiler environment in Python: the core's Gymnasium face
//! ([`GymCompilerEnv`]: seeded resets, the seeded action space, benchmark
//! draws) and CompilerGym's API on the same environment (views, state,
//! validation, fork, multistep). The pure-Python `compgym.envs` builds
//! `gymnasium.Env` on it.
//!
//! An environment is not `Send` (it shares its service through `Rc`), so it
//! is [`Owned`] by the thread that made it: another thread gets a
//! `ServiceError` (vector environments use processes).

use crate::convert::{from_py, to_py};
use crate::errors::IntoPy;
use crate::owned::Owned;
use crate::space::PySpace;
use compgym::compilers::make;
use compgym::env::compiler_env::{EnvOptions, Observed, ResetOptions, StepOptions};
use compgym::env::gym::{GymCompilerEnv, GymEnv, GymOptions, GymStep};
use compgym::env::{read_csv, CompilerEnv, CompilerEnvState};
use compgym::value::{Array, ArrayData, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// A state as Python passes it: `(benchmark, commandline, walltime, reward)`.
type StateTuple = (String, String, f64, Option<f64>);

#[pyclass(name = "GymEnv", module = "compgym._core")]
pub struct PyGymEnv {
    owned: Owned<GymCompilerEnv>,
}

/// A string option: absent, or a str (TypeError otherwise).
fn opt_string(options: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<String>> {
    match options.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract().map(Some).map_err(|_| PyTypeError::new_err(format!("{key} must be a str"))),
    }
}

/// An option that may be switched off: absent (the default), None (none), or a str.
fn opt_space(options: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<Option<String>>> {
    match options.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(Some(None)),
        Some(v) => v
            .extract()
            .map(|s| Some(Some(s)))
            .map_err(|_| PyTypeError::new_err(format!("{key} must be a str or None"))),
    }
}

/// TypeError for keys outside `known`, as Python reports an unexpected keyword.
fn check_keys(options: &Bound<'_, PyDict>, known: &[&str], what: &str) -> PyResult<()> {
    for key in options.keys() {
        let key: String = key.extract()?;
        if !known.contains(&key.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{what} got an unexpected option {key:?} (known: {})",
                known.join(", ")
            )));
        }
    }
    Ok(())
}

fn reset_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<ResetOptions> {
    let Some(o) = options else { return Ok(ResetOptions::default()) };
    check_keys(o, &["benchmark", "action_space", "observation_space", "reward_space"], "reset")?;
    Ok(ResetOptions {
        benchmark: opt_string(o, "benchmark")?,
        action_space: opt_string(o, "action_space")?,
        observation_space: opt_space(o, "observation_space")?,
        reward_space: opt_space(o, "reward_space")?,
    })
}

fn observed<'py>(py: Python<'py>, o: &Observed<Value>) -> PyResult<Bound<'py, PyAny>> {
    match o {
        Observed::None => Ok(py.None().into_bound(py)),
        Observed::One(v) => to_py(py, v),
        Observed::Many(vs) => {
            Ok(PyList::new(py, vs.iter().map(|v| to_py(py, v)).collect::<PyResult<Vec<_>>>()?)?.into_any())
        }
    }
}

/// The core's info keys (JavaScript's spelling) in Python's.
fn python_key(key: &str) -> &str {
    match key {
        "actionMask" => "action_mask",
        "actionHadNoEffect" => "action_had_no_effect",
        "newActionSpace" => "new_action_space",
        "fixedPoint" => "fixed_point",
        other => other,
    }
}

/// An info dict with Python's key spelling; the action mask as int8, the
/// dtype Gymnasium's `Discrete.sample(mask=...)` takes.
fn info_to_py<'py>(py: Python<'py>, info: &Value) -> PyResult<Bound<'py, PyAny>> {
    let Value::Dict(entries) = info else { return to_py(py, info) };
    let dict = PyDict::new(py);
    for (key, value) in entries {
        let value = match (key.as_str(), value) {
            ("actionMask", Value::Array(a)) => match a.data() {
                ArrayData::U8(mask) => {
                    let signed = mask.iter().map(|&m| m as i8).collect();
                    to_py(py, &Value::Array(Array::vector(ArrayData::I8(signed))))?
                }
                _ => to_py(py, value)?,
            },
            _ => to_py(py, value)?,
        };
        dict.set_item(python_key(key), value)?;
    }
    Ok(dict.into_any())
}

fn step_tuple<'py>(py: Python<'py>, s: &GymStep) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            to_py(py, &s.observation)?,
            s.reward.into_pyobject(py)?.into_any(),
            pyo3::types::PyBool::new(py, s.terminated).to_owned().into_any(),
            pyo3::types::PyBool::new(py, s.truncated).to_owned().into_any(),
            info_to_py(py, &s.info)?,
        ],
    )
}

fn state_dict<'py>(py: Python<'py>, s: &CompilerEnvState) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("benchmark", &s.benchmark)?;
    d.set_item("commandline", &s.commandline)?;
    d.set_item("walltime", s.walltime)?;
    d.set_item("reward", s.reward)?;
    Ok(d)
}

fn state_from(
    benchmark: String,
    commandline: String,
    walltime: f64,
    reward: Option<f64>,
) -> CompilerEnvState {
    CompilerEnvState { benchmark, commandline, walltime, reward }
}

impl PyGymEnv {
    fn gym(&self) -> PyResult<&GymCompilerEnv> {
        self.owned.get()
    }
    fn gym_mut(&mut self) -> PyResult<&mut GymCompilerEnv> {
        self.owned.get_mut()
    }
    fn env(&self) -> PyResult<&CompilerEnv> {
        Ok(self.gym()?.compiler_env())
    }
    fn env_mut(&mut self) -> PyResult<&mut CompilerEnv> {
        Ok(self.gym_mut()?.compiler_env_mut())
    }
    /// An action from Python: a pass name (`"-dce"`) or a value of the action space.
    fn action(&self, action: &Bound<'_, PyAny>) -> PyResult<Value> {
        if let Ok(name) = action.extract::<String>() {
            let actions = self.env()?.commandline_to_actions(&name).py()?;
            return match <[Value; 1]>::try_from(actions) {
                Ok([a]) => Ok(a),
                Err(_) => Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "action {name:?} must name exactly one action"
                ))),
            };
        }
        from_py(action)
    }
}

#[pymethods]
impl PyGymEnv {
    /// The environment registered as `id` (LookupError if unknown). Options:
    /// `benchmark`, `action_space`, `observation_space` and `reward_space`
    /// (None for none), `max_episode_steps`, `dataset` (seeded resets draw
    /// their benchmark from it), `render_mode` (`"ansi"` or None).
    #[new]
    #[pyo3(signature = (id, **options))]
    fn new(id: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyGymEnv> {
        let mut env_options = EnvOptions::default();
        let (mut dataset, mut render_mode) = (None, None);
        if let Some(o) = options {
            let known = [
                "benchmark",
                "action_space",
                "observation_space",
                "reward_space",
                "max_episode_steps",
                "dataset",
                "render_mode",
            ];
            check_keys(o, &known, "make")?;
            env_options.benchmark = opt_string(o, "benchmark")?;
            env_options.action_space = opt_string(o, "action_space")?;
            env_options.observation_space = opt_space(o, "observation_space")?;
            env_options.reward_space = opt_space(o, "reward_space")?;
            env_options.max_episode_steps = match o.get_item("max_episode_steps")? {
                Some(v) if !v.is_none() => Some(v.extract().map_err(|_| {
                    PyTypeError::new_err("max_episode_steps must be a non-negative int or None")
                })?),
                _ => None,
            };
            dataset = opt_string(o, "dataset")?;
            render_mode = opt_string(o, "render_mode")?;
        }
        let env = make(id, env_options).py()?;
        let inner = GymCompilerEnv::new(env, id, GymOptions { dataset, render_mode, entropy: None }).py()?;
        Ok(PyGymEnv { owned: Owned::new(inner) })
    }

    /// `(observation, info)`. `options`: `benchmark`, `action_space`,
    /// `observation_space`, `reward_space`.
    #[pyo3(signature = (seed=None, options=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let options = reset_options(options)?;
        let (observation, info) = self.gym_mut()?.reset(seed, options).py()?;
        PyTuple::new(py, [to_py(py, &observation)?, info_to_py(py, &info)?])
    }

    /// `(observation, reward, terminated, truncated, info)`.
    fn step<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let action = self.action(action)?;
        let step = self.gym_mut()?.step(&action).py()?;
        step_tuple(py, &step)
    }

    /// CompilerGym's `multistep`: the actions in one call, observing and
    /// rewarding once at the end, with the environment's spaces or the given
    /// ones (then lists). `(observation, reward, terminated, truncated, info)`.
    #[pyo3(signature = (actions, observation_spaces=None, reward_spaces=None))]
    fn multistep<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        observation_spaces: Option<Vec<String>>,
        reward_spaces: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions.try_iter()?.map(|a| self.action(&a?)).collect::<PyResult<Vec<_>>>()?;
        let options = StepOptions { observation_spaces, reward_spaces };
        let result = self.env_mut()?.multistep(&actions, &options).py()?;
        let reward: Bound<'py, PyAny> = match &result.reward {
            Observed::None => 0.0f64.into_pyobject(py)?.into_any(),
            Observed::One(r) => r.into_pyobject(py)?.into_any(),
            Observed::Many(rs) => PyList::new(py, rs)?.into_any(),
        };
        let info = PyDict::new(py);
        info.set_item("action_had_no_effect", result.info.action_had_no_effect)?;
        info.set_item("new_action_space", result.info.new_action_space)?;
        if let Some(e) = &result.info.error {
            let error = PyDict::new(py);
            error.set_item("name", e.name())?;
            error.set_item("message", e.message())?;
            info.set_item("error", error)?;
        }
        PyTuple::new(
            py,
            [
                observed(py, &result.observation)?,
                reward,
                pyo3::types::PyBool::new(py, result.terminated).to_owned().into_any(),
                pyo3::types::PyBool::new(py, result.truncated).to_owned().into_any(),
                info.into_any(),
            ],
        )
    }

    /// A copy of the face's action space, with its generator as it is.
    fn action_space(&self) -> PyResult<PySpace> {
        Ok(PySpace { space: self.gym()?.action_space().clone() })
    }

    /// Grows whenever a reset reseeds the action space or the compiler replaces it.
    fn action_space_generation(&self) -> PyResult<u64> {
        Ok(self.gym()?.face().action_space_generation())
    }

    fn observation_space(&self) -> PyResult<PySpace> {
        Ok(PySpace { space: self.gym()?.observation_space().clone() })
    }

    fn reward_range(&self) -> PyResult<(f64, f64)> {
        Ok(self.gym()?.reward_range())
    }

    /// `(max_episode_steps, reward_threshold)` of the id.
    fn spec_limits(&self) -> PyResult<(Option<u64>, Option<f64>)> {
        Ok(self.gym()?.spec().map_or((None, None), |s| (s.max_episode_steps, s.reward_threshold)))
    }

    fn render<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.gym_mut()?.render().py()? {
            Some(v) => to_py(py, &v),
            None => Ok(py.None().into_bound(py)),
        }
    }

    fn close(&mut self) -> PyResult<()> {
        self.gym_mut()?.close().py()
    }

    fn np_random_seed(&self) -> PyResult<Option<u64>> {
        Ok(self.gym()?.np_random_seed())
    }

    /// A copy in the same state on its own session, with copies of the generators.
    fn fork(&mut self) -> PyResult<PyGymEnv> {
        Ok(PyGymEnv { owned: Owned::new(self.gym_mut()?.fork().py()?) })
    }

    // ---- CompilerGym's API -------------------------------------------------

    #[getter]
    fn benchmark(&self) -> PyResult<Option<String>> {
        Ok(self.env()?.benchmark().map(String::from))
    }

    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.env()?.actions().iter().map(|a| to_py(py, a)).collect::<PyResult<Vec<_>>>()?)
    }

    #[getter]
    fn episode_reward(&self) -> PyResult<Option<f64>> {
        Ok(self.env()?.episode_reward())
    }

    #[getter]
    fn episode_walltime(&self) -> PyResult<f64> {
        Ok(self.env()?.episode_walltime())
    }

    #[getter]
    fn in_episode(&self) -> PyResult<bool> {
        Ok(self.env()?.in_episode())
    }

    fn compiler_version(&self) -> PyResult<String> {
        self.env()?.compiler_version().py()
    }

    /// The name of the action space, the ids of the observation spaces, the names of the reward spaces.
    fn action_space_name(&self) -> PyResult<String> {
        Ok(self.env()?.action_space().name.clone())
    }

    fn action_space_names(&self) -> PyResult<Vec<String>> {
        Ok(self.env()?.action_spaces().iter().map(|a| a.name.clone()).collect())
    }

    fn observation_space_ids(&self) -> PyResult<Vec<String>> {
        Ok(self.env()?.observation().spaces().iter().map(|s| s.id.clone()).collect())
    }

    fn reward_space_names(&self) -> PyResult<Vec<String>> {
        Ok(self.env()?.reward_view().spaces().map(|r| r.name().to_string()).collect())
    }

    /// The id of the observation step returns, the name of the reward it returns.
    fn observation_space_id(&self) -> PyResult<Option<String>> {
        Ok(self.env()?.observation_space().map(|s| s.id.clone()))
    }

    fn reward_space_name(&self) -> PyResult<Option<String>> {
        Ok(self.env()?.reward_space().map(|r| r.name().to_string()))
    }

    /// One observation by id (LookupError if unknown), computed now.
    fn observation<'py>(&self, py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.env()?.observation().get(id).py()?)
    }

    /// The space of one observation by id.
    fn observation_space_of(&self, id: &str) -> PyResult<PySpace> {
        Ok(PySpace { space: self.env()?.observation().spec(id).py()?.space.clone() })
    }

    /// One reward by name, as a step would give it now.
    fn reward(&mut self, name: &str) -> PyResult<f64> {
        self.env_mut()?.reward(name).py()
    }

    fn commandline(&self) -> PyResult<String> {
        self.env()?.commandline().py()
    }

    fn commandline_to_actions<'py>(
        &self,
        py: Python<'py>,
        commandline: &str,
    ) -> PyResult<Bound<'py, PyList>> {
        let actions = self.env()?.commandline_to_actions(commandline).py()?;
        PyList::new(py, actions.iter().map(|a| to_py(py, a)).collect::<PyResult<Vec<_>>>()?)
    }

    fn actions_to_commandline(&self, actions: &Bound<'_, PyAny>) -> PyResult<String> {
        let actions = actions.try_iter()?.map(|a| from_py(&a?)).collect::<PyResult<Vec<_>>>()?;
        self.env()?.actions_to_commandline(&actions).py()
    }

    /// `{benchmark, commandline, walltime, reward}` of this episode.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        state_dict(py, &self.env()?.state().py()?)
    }

    /// Resets to a state's benchmark and replays its commandline.
    fn apply(&mut self, benchmark: String, commandline: String) -> PyResult<()> {
        let state = state_from(benchmark, commandline, 0.0, None);
        self.env_mut()?.apply(&state).py()
    }

    /// Replays a state (default: this episode's) on a fresh session and
    /// reports what differs: a dict after CompilerGym's `ValidationResult`.
    #[pyo3(signature = (state=None))]
    fn validate<'py>(&self, py: Python<'py>, state: Option<StateTuple>) -> PyResult<Bound<'py, PyDict>> {
        let state = state.map(|(b, c, w, r)| state_from(b, c, w, r));
        let result = self.env()?.validate(state.as_ref()).py()?;
        let d = PyDict::new(py);
        d.set_item("state", state_dict(py, &result.state)?)?;
        d.set_item("walltime", result.walltime)?;
        d.set_item("actions_replay_failed", result.actions_replay_failed)?;
        d.set_item("reward_validated", result.reward_validated)?;
        d.set_item("reward_validation_failed", result.reward_validation_failed)?;
        d.set_item("benchmark_semantics_validated", result.benchmark_semantics_validated)?;
        d.set_item("benchmark_semantics_validation_failed", result.benchmark_semantics_validation_failed)?;
        let errors = result.errors.iter().map(|e| (e.kind.clone(), e.details.clone())).collect::<Vec<_>>();
        d.set_item("errors", errors)?;
        Ok(d)
    }

    /// `(name, description, size or None)` of every dataset.
    fn datasets(&self) -> PyResult<Vec<(String, String, Option<u64>)>> {
        let datasets = self.env()?.datasets().datasets();
        Ok(datasets.iter().map(|d| (d.name.clone(), d.description.clone(), d.size())).collect())
    }

    /// The URI of a dataset's `index`-th benchmark (None past its end).
    fn benchmark_uri(&self, dataset: &str, index: u64) -> PyResult<Option<String>> {
        Ok(self.env()?.datasets().dataset(dataset).py()?.benchmark_uri(index))
    }

    /// The 0/1 mask of actions that may change the program, and whether none can.
    fn action_mask(&self) -> PyResult<Option<(Vec<u8>, bool)>> {
        Ok(self.env()?.action_mask().py()?.map(|m| (m.allowed, m.fixed_point)))
    }

    #[pyo3(signature = (id))]
    fn set_observation_space(&mut self, id: Option<&str>) -> PyResult<()> {
        self.env_mut()?.set_observation_space(id).py()
    }

    #[pyo3(signature = (name))]
    fn set_reward_space(&mut self, name: Option<&str>) -> PyResult<()> {
        self.env_mut()?.set_reward_space(name).py()
    }

    fn set_benchmark(&mut self, uri: &str) -> PyResult<()> {
        self.env_mut()?.set_benchmark(uri).py()
    }
}

/// A state as a CSV line (CompilerGym's `CompilerEnvState.to_csv`).
#[pyfunction]
#[pyo3(signature = (benchmark, commandline, walltime, reward))]
pub fn state_to_csv(benchmark: String, commandline: String, walltime: f64, reward: Option<f64>) -> String {
    state_from(benchmark, commandline, walltime, reward).to_csv()
}

/// The states of a CSV text (the header optional), as tuples.
#[pyfunction]
pub fn read_states_csv(text: &str) -> PyResult<Vec<StateTuple>> {
    Ok(read_csv(text).py()?.into_iter().map(|s| (s.benchmark, s.commandline, s.walltime, s.reward)).collect())
}
