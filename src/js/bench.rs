//! The wasm sides of the benchmarks (built with the `bench` feature only):
//! the environment's core loop (`bench/env.mjs`; the JS API's own loop is in
//! `bench/env-measure.mjs`, and the two together show what crossing into
//! JavaScript costs) and the interpreter's throughput (`bench/interp.mjs`).

use crate::bril::{bench, parse_any};
use crate::compilers::bench::{run, EnvBenchConfig};
use crate::js::interop::json::json_to_js;
use crate::js::interop::object::set;
use crate::js::tier::HostEngine;
use crate::js::to_js_error;
use js_sys::Object;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_BENCH: &'static str = r#"
/** `benchEnv`'s measures: steps per second, and microseconds per reset, fork and observation. */
export interface EnvBenchResult {
  benchmark: string;
  episodeLength: number;
  stepsPerSecond: number;
  firstVisitStepsPerSecond: number;
  resetUs: number;
  forkUs: number;
  autophaseUs: number;
  irUs: number;
}
/** `benchCompiled`'s measures: `benchInterpreter`'s for the compiling tier, and the first run's seconds (compiling included). */
export interface CompiledBenchResult {
  dynInst: number;
  runs: number;
  seconds: number;
  perSecond: number;
  firstRunSeconds: number;
}
/** `benchInterpreter`'s measures: one run's instructions, the runs made, their seconds, instructions per second. */
export interface InterpreterBenchResult {
  dynInst: number;
  runs: number;
  seconds: number;
  perSecond: number;
}
"#;

/// `{benchmark, episodeLength, stepsPerSecond, firstVisitStepsPerSecond, resetUs, forkUs, autophaseUs,
/// irUs}` measured in wasm, `seconds` per measure.
#[wasm_bindgen(js_name = benchEnv, unchecked_return_type = "EnvBenchResult")]
pub fn bench_env(
    benchmark: &str,
    #[wasm_bindgen(js_name = episodeLength)] episode_length: u32,
    seconds: f64,
) -> Result<JsValue, JsValue> {
    let config =
        EnvBenchConfig { benchmark: benchmark.into(), episode_length: episode_length as usize, seconds };
    let mut clock = || js_sys::Date::now() / 1000.0;
    run(&config, &mut clock).map(|r| json_to_js(&r.to_json())).map_err(to_js_error)
}

/// Runs a program repeatedly for at least `seconds` and returns
/// `{dynInst, runs, seconds, perSecond}`.
#[wasm_bindgen(js_name = benchInterpreter, unchecked_return_type = "InterpreterBenchResult")]
pub fn bench_interpreter(source: &str, seconds: f64) -> Result<JsValue, JsValue> {
    let program = parse_any(source).map_err(to_js_error)?;
    let mut clock = || js_sys::Date::now() / 1000.0;
    let t = bench::measure(&program, &program.main_args(), seconds, &mut clock).map_err(to_js_error)?;
    let object = Object::new();
    set(&object, "dynInst", &JsValue::from_f64(t.dyn_inst as f64));
    set(&object, "runs", &JsValue::from_f64(f64::from(t.runs)));
    set(&object, "seconds", &JsValue::from_f64(t.seconds));
    set(&object, "perSecond", &JsValue::from_f64(t.per_second()));
    Ok(object.into())
}

/// Runs a program compiled to WebAssembly repeatedly for at least `seconds`
/// and returns `{dynInst, runs, seconds, perSecond, firstRunSeconds}`; a
/// program the compiling tier leaves to the interpreter is a ValueError.
#[wasm_bindgen(js_name = benchCompiled, unchecked_return_type = "CompiledBenchResult")]
pub fn bench_compiled(source: &str, seconds: f64) -> Result<JsValue, JsValue> {
    let program = parse_any(source).map_err(to_js_error)?;
    let mut clock = || js_sys::Date::now() / 1000.0;
    let (t, first) =
        bench::measure_compiled(&program, &program.main_args(), seconds, &mut clock, &mut HostEngine)
            .map_err(to_js_error)?;
    let object = Object::new();
    set(&object, "dynInst", &JsValue::from_f64(t.dyn_inst as f64));
    set(&object, "runs", &JsValue::from_f64(f64::from(t.runs)));
    set(&object, "seconds", &JsValue::from_f64(t.seconds));
    set(&object, "perSecond", &JsValue::from_f64(t.per_second()));
    set(&object, "firstRunSeconds", &JsValue::from_f64(first));
    Ok(object.into())
}
