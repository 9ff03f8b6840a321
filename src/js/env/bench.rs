//! The environment benchmark's core loop run inside wasm (the JS API's own
//! loop is in `bench/env-measure.mjs`): the two together show what crossing
//! into JavaScript costs.

use crate::compilers::bench::{run, EnvBenchConfig};
use crate::js::interop::json::json_to_js;
use crate::js::to_js_error;
use wasm_bindgen::prelude::*;

/// `{benchmark, episodeLength, stepsPerSecond, firstVisitStepsPerSecond, resetUs, forkUs, autophaseUs,
/// irUs}` measured in wasm, `seconds` per measure.
#[wasm_bindgen(js_name = benchEnv)]
pub fn bench_env(benchmark: &str, episode_length: u32, seconds: f64) -> Result<JsValue, JsValue> {
    let config =
        EnvBenchConfig { benchmark: benchmark.into(), episode_length: episode_length as usize, seconds };
    let mut clock = || js_sys::Date::now() / 1000.0;
    run(&config, &mut clock).map(|r| json_to_js(&r.to_json())).map_err(to_js_error)
}
