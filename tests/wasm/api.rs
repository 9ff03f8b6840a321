//! The JS face of the crate, run under wasm in Node and in Chromium.
#![cfg(target_arch = "wasm32")]

use compgym::js;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn error_name(error: &JsValue) -> String {
    js_sys::Reflect::get(error, &"name".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(js::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn errors_are_js_errors_with_a_kind_name() {
    let error = js::canonical_dtype(JsValue::from("complex64")).unwrap_err();
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(error_name(&error), "TypeError");
    let message = js_sys::Reflect::get(&error, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.contains("complex64"), "{message}");
    // The instance keeps working after an error.
    assert_eq!(js::canonical_dtype(JsValue::from("f32")).unwrap(), "float32");
}

#[wasm_bindgen_test]
fn every_error_kind_has_a_distinct_name() {
    let names = js::error_names();
    assert!(names.contains(&"ValueError".to_string()));
    assert!(names.contains(&"SessionNotFound".to_string()));
    let unique: std::collections::HashSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
}

#[wasm_bindgen_test]
fn bril_programs_run_and_fail_with_typed_errors() {
    let program =
        "# ARGS: 20\n@main(n: int) {\n  two: int = const 2;\n  m: int = mul n two;\n  print m;\n}\n";
    let run = |source: &str, args: JsValue, passes: JsValue| {
        compgym::js::bril::run_bril(JsValue::from(source), args, passes, JsValue::UNDEFINED)
    };
    let none = || JsValue::UNDEFINED;
    let out = run(program, none(), none()).unwrap();
    let get = |key: &str| js_sys::Reflect::get(&out, &key.into()).unwrap();
    assert_eq!(get("stdout").as_string().unwrap(), "40\n");
    assert_eq!(get("dynInst").as_f64(), Some(3.0));
    let out = run(program, js_sys::Array::of1(&"1".into()).into(), none()).unwrap();
    assert_eq!(js_sys::Reflect::get(&out, &"stdout".into()).unwrap().as_string().unwrap(), "2\n");
    let parse = run("@main {\n  x: int = ;\n}", none(), none()).unwrap_err();
    assert_eq!(error_name(&parse), "ParseError");
    let crash =
        "@main {\n  z: int = const 0;\n  one: int = const 1;\n  print one;\n  q: int = div one z;\n}\n";
    let failure = run(crash, none(), none()).unwrap_err();
    assert_eq!(error_name(&failure), "RuntimeError");
    // What the program printed and executed before it failed comes with the error.
    assert_eq!(js_sys::Reflect::get(&failure, &"stdout".into()).unwrap().as_string().unwrap(), "1\n");
    assert_eq!(js_sys::Reflect::get(&failure, &"dynInst".into()).unwrap().as_f64(), Some(4.0));
    let optimised = run(program, none(), js_sys::Array::of1(&"-O2".into()).into()).unwrap();
    assert_eq!(js_sys::Reflect::get(&optimised, &"stdout".into()).unwrap().as_string().unwrap(), "40\n");
    let rate = compgym::js::bench::bench_interpreter(program, 0.01).unwrap();
    assert!(js_sys::Reflect::get(&rate, &"perSecond".into()).unwrap().as_f64().unwrap() > 0.0);
}

/// Passes assume a well-formed program: on one that is not, `optimizeBril`
/// and `runBril` with passes are a VerifyError, not a panic that would kill
/// the instance, and the next call works.
#[wasm_bindgen_test]
fn passes_on_a_program_that_is_not_well_formed_are_a_verify_error() {
    let flags = |flag: &str| JsValue::from(js_sys::Array::of1(&flag.into()));
    for source in ["@main {\n  x: int = id;\n  print x;\n}", "@main {\n  b: bool = not;\n  print b;\n}"] {
        for flag in ["-lvn", "-peephole", "-O1", "-O2", "-Oz"] {
            let e = js::bril::optimize_bril(source.into(), flags(flag), JsValue::FALSE).unwrap_err();
            assert_eq!(error_name(&e), "VerifyError", "optimizeBril {flag}");
            let e = js::bril::run_bril(source.into(), JsValue::UNDEFINED, flags(flag), JsValue::UNDEFINED)
                .unwrap_err();
            assert_eq!(error_name(&e), "VerifyError", "runBril {flag}");
        }
    }
    let good = "@main {\n  a: int = const 2;\n  b: int = add a a;\n  print b;\n}";
    let text = js::bril::optimize_bril(good.into(), flags("-O2"), JsValue::FALSE).unwrap();
    assert!(text.contains("const 4"), "{text}");
}
