//! The Bril compiler for JavaScript: run a program.

use super::error::to_js_error;
use crate::bril::interp::{run, Limits};
use crate::bril::parse_any;
use crate::js::interop::{self, object::set};
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Runs a Bril program (text or JSON) on `args` (default: its `# ARGS:` line):
/// `{stdout, dynInst}`. Parse and verify errors are `ParseError`/`VerifyError`;
/// a failing program is a `RuntimeError` or `LimitError`.
#[wasm_bindgen(js_name = runBril)]
pub fn run_bril(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string[] | null")] args: JsValue,
) -> Result<JsValue, JsValue> {
    let source = interop::args::string(&source, "source").map_err(to_js_error)?;
    let args = if args.is_undefined() || args.is_null() {
        None
    } else {
        Some(interop::options::strings(&args, "args").map_err(to_js_error)?)
    };
    let program = parse_any(&source).map_err(to_js_error)?;
    let args = args.unwrap_or_else(|| program.main_args());
    let outcome = run(&program, &args, &Limits::default());
    outcome.result.clone().map_err(to_js_error)?;
    let object = Object::new();
    set(&object, "stdout", &JsValue::from_str(&outcome.stdout));
    set(&object, "dynInst", &JsValue::from_f64(outcome.dyn_inst as f64));
    Ok(object.into())
}
