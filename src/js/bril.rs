//! The Bril compiler for JavaScript: run a program.

use super::error::to_js_error;
use crate::bril::interp::{run, Limits};
use crate::bril::parse_any;
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
