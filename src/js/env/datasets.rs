//! Datasets and benchmarks for JavaScript: `env.datasets`,
//! `env.randomBenchmark(seed | rng, dataset?)` and `env.addBenchmark(uri, program)`.

use super::compiler_env::JsCompilerEnv;
use super::{borrow, borrow_mut};
use crate::error::{Error, Result};
use crate::js::interop::object::call_method;
use crate::js::interop::object::set;
use crate::js::interop::{json::js_to_json, numbers::js_to_u64, object::type_of, reflect};
use crate::js::to_js_error;
use crate::rng::Rng;
use crate::service::{Benchmark, Dataset, DatasetBenchmarks};
use js_sys::{Array as JsArray, Object};
use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

/// `{name, description, size, benchmarks}`: size and benchmarks are null for
/// an unbounded (seeded) dataset.
fn dataset_to_js(dataset: &Dataset) -> JsValue {
    let object = Object::new();
    set(&object, "name", &JsValue::from(dataset.name.as_str()));
    set(&object, "description", &JsValue::from(dataset.description.as_str()));
    set(&object, "size", &dataset.size().map_or(JsValue::NULL, |n| JsValue::from_f64(n as f64)));
    let benchmarks = match &dataset.benchmarks {
        DatasetBenchmarks::Listed(uris) => {
            uris.iter().map(|u| JsValue::from_str(u)).collect::<JsArray>().into()
        }
        DatasetBenchmarks::Seeded => JsValue::NULL,
    };
    set(&object, "benchmarks", &benchmarks);
    object.into()
}

/// A generator from a seed, or one seeded by a draw from a JS `Rng` (which
/// advances it, so a seeded `Rng` replays the same choices).
fn rng_from(value: &JsValue) -> Result<Rng> {
    if value.is_object() {
        let draw = call_method(value, "nextU64", &[], "rng")?;
        return Ok(Rng::seed_from_u64(js_to_u64(&draw, "rng.nextU64()")?));
    }
    Ok(Rng::seed_from_u64(js_to_u64(value, "seed")?))
}

/// A Bril program from text or from Bril JSON (an object or JSON text).
fn program_text(program: &JsValue) -> Result<String> {
    match reflect::string(program, "program")? {
        Some(text) => Ok(text),
        None if program.is_object() => Ok(js_to_json(program, "program")?.to_string()),
        None => Err(Error::type_error(format!(
            "program must be Bril text or Bril JSON, got {}",
            type_of(program)
        ))),
    }
}

#[wasm_bindgen(js_class = CompilerEnv)]
impl JsCompilerEnv {
    /// The compiler's datasets.
    #[wasm_bindgen(getter, unchecked_return_type = "DatasetInfo[]")]
    pub fn datasets(&self) -> JsResult<JsValue> {
        let env = borrow(self.shared()).map_err(to_js_error)?;
        Ok(env.datasets().datasets().iter().map(dataset_to_js).collect::<JsArray>().into())
    }

    /// A benchmark URI drawn uniformly (a dataset, then a benchmark of it),
    /// from `dataset` if given. `seedOrRng`: a seed, or an `Rng` to draw from.
    #[wasm_bindgen(js_name = randomBenchmark)]
    pub fn random_benchmark(
        &self,
        #[wasm_bindgen(js_name = seedOrRng, unchecked_param_type = "number | bigint | Rng")]
        seed_or_rng: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] dataset: JsValue,
    ) -> JsResult<String> {
        let run = || -> Result<String> {
            let dataset = crate::js::interop::args::optional_string(&dataset, "dataset")?;
            let mut rng = rng_from(&seed_or_rng)?;
            let env = borrow(self.shared())?;
            match &dataset {
                Some(d) => env.datasets().random_benchmark_in(d, &mut rng),
                None => env.datasets().random_benchmark(&mut rng),
            }
        };
        run().map_err(to_js_error)
    }

    /// Registers a Bril program (text, or Bril JSON as an object or text)
    /// under `uri`, replacing one with the same URI. A program that does not
    /// parse or verify is a BenchmarkInitError naming the line and column.
    #[wasm_bindgen(js_name = addBenchmark)]
    pub fn add_benchmark(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | BrilProgram")] program: JsValue,
    ) -> JsResult<()> {
        let run = || -> Result<()> {
            let uri = &crate::js::interop::args::string(&uri, "uri")?;
            let text = program_text(&program)?;
            crate::bril::parse_any(&text)
                .and_then(|p| crate::bril::verify(&p))
                .map_err(|e| Error::benchmark_init(format!("{uri}: {}: {}", e.name(), e.message())))?;
            borrow_mut(self.shared())?.add_benchmark(Benchmark::from_contents(uri.as_str(), text))
        };
        run().map_err(to_js_error)
    }
}

/// Loads a dataset the package ships as a file beside its module (today
/// `large-v0`) from `json`, the file's text, for every environment, service
/// and agent of this instance; returns its name. The package's
/// `loadDataset(name)` fetches the file and calls it; under Node, the
/// package calls it on import. A file of another dataset or version, or
/// with programs that do not read, is a ValueError (or the ParseError a
/// program gives), and nothing changes.
#[wasm_bindgen(js_name = registerDataset, unchecked_return_type = "ShippedDataset")]
pub fn register_dataset(#[wasm_bindgen(unchecked_param_type = "string")] json: JsValue) -> JsResult<String> {
    crate::js::interop::args::string(&json, "a dataset file's JSON")
        .and_then(|text| crate::bril::suite::large::register(&text))
        .map(String::from)
        .map_err(to_js_error)
}
