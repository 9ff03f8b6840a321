//! The Bril compiler for JavaScript: read and print programs in both
//! formats, verify, optimise, compute features and run them (what the
//! package's `compgym` command does).

use super::error::to_js_error;
use super::tier::HostEngine;
use crate::bril::compile::{Ran, Tier, Tiered};
use crate::bril::interp::Limits;
use crate::bril::{features, parse_any, passes, Program};
use crate::js::interop::{self, object::set};
use crate::Error;
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Reads the `source` argument (a string) and parses it.
fn parse(source: &JsValue) -> Result<Program, JsValue> {
    let source = interop::args::string(source, "source").map_err(to_js_error)?;
    parse_any(&source).map_err(to_js_error)
}

/// An optional array of strings (`undefined` or `null`: none).
fn optional_strings(value: &JsValue, what: &str) -> Result<Option<Vec<String>>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    interop::options::strings(value, what).map(Some).map_err(to_js_error)
}

/// Applies pass flags and pipelines (`-O1`, `-O2`, `-Oz`) in order, as the
/// command line's `--passes` does.
fn apply_passes(program: &mut Program, flags: &[String]) -> Result<(), JsValue> {
    passes::run_command_line(program, flags).map(drop).map_err(to_js_error)
}

/// The `tier` of `runBril`'s options (default `auto`).
fn run_options(options: &JsValue) -> Result<Tier, JsValue> {
    if !interop::options::check_keys(options, &["tier"], "options").map_err(to_js_error)? {
        return Ok(Tier::Auto);
    }
    match interop::options::string(options, "tier", "options").map_err(to_js_error)? {
        None => Ok(Tier::Auto),
        Some(name) => Tier::parse(&name).map_err(to_js_error),
    }
}

/// Runs a Bril program (text or JSON) on `args` (default: its `# ARGS:` line),
/// after the pass flags and pipelines in `passes` if any: `{stdout, dynInst,
/// tier}`. `options.tier` picks who runs it: `'auto'` (the interpreter, then
/// the program compiled to WebAssembly once a run is long), `'compiled'` or
/// `'interpreter'`; the result's `tier` says which did. Both give the same
/// output and count. Parse and verify errors are `ParseError`/`VerifyError`;
/// a failing program is a `RuntimeError`, `LimitError` or `ValueError` (bad
/// arguments) that also carries the `stdout` printed and the `dynInst`
/// executed before it failed (a `BrilRunError`).
#[wasm_bindgen(js_name = runBril, unchecked_return_type = "BrilRun")]
pub fn run_bril(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string[] | null")] args: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string[] | null")] passes: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BrilRunOptions | null")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let args = optional_strings(&args, "args")?;
    let passes = optional_strings(&passes, "passes")?;
    let tier = run_options(&options)?;
    let mut program = parse(&source)?;
    apply_passes(&mut program, passes.as_deref().unwrap_or_default())?;
    let args = args.unwrap_or_else(|| program.main_args());
    let tiered = Tiered::new(&program).map_err(to_js_error)?;
    let run = tiered.run(&args, &Limits::default(), tier, &mut HostEngine);
    let outcome = run.outcome;
    let ran = match run.ran {
        Ran::Compiled => "compiled",
        Ran::Interpreter => "interpreter",
    };
    let report = |object: &Object| {
        set(object, "stdout", &JsValue::from_str(&outcome.stdout));
        set(object, "dynInst", &JsValue::from_f64(outcome.dyn_inst as f64));
        set(object, "tier", &JsValue::from_str(ran));
    };
    if let Err(error) = &outcome.result {
        let error = to_js_error(error.clone());
        report(error.unchecked_ref());
        return Err(error);
    }
    let object = Object::new();
    report(&object);
    Ok(object.into())
}

/// A program (text or JSON) as Bril JSON, as `bril2json` prints it;
/// `positions` 1 adds where each function, label and instruction starts
/// (`-p`), 2 where it ends too (`-pp`).
#[wasm_bindgen(js_name = brilToJson)]
pub fn bril_to_json(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] positions: JsValue,
) -> Result<String, JsValue> {
    let positions = interop::args::optional_count(&positions, "positions").map_err(to_js_error)?;
    let source = interop::args::string(&source, "source").map_err(to_js_error)?;
    crate::bril::source_to_json(&source, positions.unwrap_or(0)).map_err(to_js_error)
}

/// A program (text or JSON) as Bril text, as `bril2txt` prints it.
#[wasm_bindgen(js_name = brilToText)]
pub fn bril_to_text(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
) -> Result<String, JsValue> {
    Ok(crate::bril::to_text(&parse(&source)?))
}

/// Checks that a program is well formed: a `ParseError` or `VerifyError`
/// says where it is not.
#[wasm_bindgen(js_name = verifyBril)]
pub fn verify_bril(#[wasm_bindgen(unchecked_param_type = "string")] source: JsValue) -> Result<(), JsValue> {
    crate::bril::verify(&parse(&source)?).map_err(to_js_error)
}

/// Optimises a program with pass flags and pipelines (`-O1`, `-O2`, `-Oz`),
/// in order; the result as Bril text, or as one line of JSON when `json`.
#[wasm_bindgen(js_name = optimizeBril)]
pub fn optimize_bril(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] passes: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] json: JsValue,
) -> Result<String, JsValue> {
    let passes = interop::options::strings(&passes, "passes").map_err(to_js_error)?;
    let json = interop::args::flag(&json, "json").map_err(to_js_error)?;
    let mut program = parse(&source)?;
    apply_passes(&mut program, &passes)?;
    Ok(if json { crate::bril::to_json(&program) } else { crate::bril::to_text(&program) })
}

/// A program's features (InstCount, Autophase, the ProGraML graph, CFG,
/// IrSha1) as indented JSON, or its CFG as Graphviz DOT when `dot`.
#[wasm_bindgen(js_name = brilFeatures)]
pub fn bril_features(
    #[wasm_bindgen(unchecked_param_type = "string")] source: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] dot: JsValue,
) -> Result<String, JsValue> {
    let dot = interop::args::flag(&dot, "dot").map_err(to_js_error)?;
    let program = parse(&source)?;
    if dot {
        return Ok(features::cfg::to_dot(&program));
    }
    serde_json::to_string_pretty(&features::to_json(&program))
        .map_err(|e| to_js_error(Error::service(e.to_string())))
}

/// The optimisation passes and pipelines: `{passes: [{flag, description}],
/// pipelines: ['-O0', ...], pipelinePlans: {'-O1': {groups,
/// keepGroupIfNoLarger}, ...}}` (how each pipeline runs pass by pass).
#[wasm_bindgen(js_name = brilPasses, unchecked_return_type = "BrilPasses")]
pub fn bril_passes() -> JsValue {
    interop::json::json_to_js(&passes::summary())
}
