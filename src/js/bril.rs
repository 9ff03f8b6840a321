//! The Bril compiler for JavaScript: run a program, and measure the
//! interpreter's throughput (the wasm side of `bench/interp.mjs`).

use super::error::to_js_error;
use crate::bril::interp::{run, Limits};
use crate::bril::{bench, parse_any};
use crate::js::interop::object::set;
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Runs a Bril program (text or JSON) on `args` (default: its `# ARGS:` line):
/// `{stdout, dynInst}`. Parse and verify errors are `ParseError`/`VerifyError`;
/// a failing program is a `RuntimeError` or `LimitError`.
#[wasm_bindgen(js_name = runBril)]
pub fn run_bril(source: &str, args: Option<Vec<String>>) -> Result<JsValue, JsValue> {
    let program = parse_any(source).map_err(to_js_error)?;
    let args = args.unwrap_or_else(|| program.main_args());
    let outcome = run(&program, &args, &Limits::default());
    outcome.result.clone().map_err(to_js_error)?;
    let object = Object::new();
    set(&object, "stdout", &JsValue::from_str(&outcome.stdout));
    set(&object, "dynInst", &JsValue::from_f64(outcome.dyn_inst as f64));
    Ok(object.into())
}

/// Runs a program repeatedly for at least `seconds` and returns
/// `{dynInst, runs, seconds, perSecond}`.
#[wasm_bindgen(js_name = benchInterpreter)]
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
