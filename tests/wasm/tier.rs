//! The compiling tier against the interpreter, under wasm in Node and in
//! Chromium: every community program and hundreds of generated ones give the
//! same output, count and error kind; errors and uncovered programs fall
//! back to the interpreter; fuel stops a program that never ends; the
//! environments' long runs go through the injected engine.
#![cfg(target_arch = "wasm32")]

use compgym::bril::compile::{run_program, set_host_engine, Engine, Module, Ran, Tier, Tiered};
use compgym::bril::interp::{self, Limits, Outcome};
use compgym::bril::{self, parse_text, Program};
use compgym::js::env::compiler_env::make;
use compgym::js::tier::HostEngine;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

include!(concat!(env!("OUT_DIR"), "/bril_bench.rs"));

fn count(prof: &str) -> u64 {
    prof.trim().strip_prefix("total_dyn_inst:").and_then(|n| n.trim().parse().ok()).unwrap_or(u64::MAX)
}

fn compiled(program: &Program, args: &[String], limits: &Limits) -> (Outcome, Ran) {
    let run = Tiered::new(program).unwrap().run(args, limits, Tier::Compiled, &mut HostEngine);
    (run.outcome, run.ran)
}

fn kind(outcome: &Outcome) -> Option<compgym::ErrorKind> {
    outcome.result.as_ref().err().map(|e| e.kind())
}

#[wasm_bindgen_test]
fn every_community_program_runs_compiled_as_brili_runs_it() {
    let mut ran_compiled = 0;
    for &(name, text, out, prof) in BRIL_BENCH {
        let program = parse_text(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let covered = Tiered::new(&program).unwrap().module().is_ok();
        let (outcome, ran) = compiled(&program, &program.main_args(), &Limits::default());
        assert!(outcome.result.is_ok(), "{name}: {:?}", outcome.result);
        assert_eq!(outcome.stdout, out, "{name}");
        assert_eq!(outcome.dyn_inst, count(prof), "{name}");
        assert_eq!(ran == Ran::Compiled, covered, "{name}: {ran:?}");
        ran_compiled += usize::from(covered);
    }
    assert!(BRIL_BENCH.is_empty() || ran_compiled > 60, "only {ran_compiled} compiled");
}

/// Both tiers on `program`: identical output, count and error kind; a run
/// the interpreter finishes is the compiled tier's when it covers the program.
fn agree(what: &str, program: &Program, args: &[String], limits: &Limits) -> Ran {
    let tiered = Tiered::new(program).unwrap();
    let reference = tiered.executable().run(args, limits);
    let (outcome, ran) = compiled(program, args, limits);
    assert_eq!(outcome.stdout, reference.stdout, "{what}");
    assert_eq!(outcome.dyn_inst, reference.dyn_inst, "{what}");
    assert_eq!(kind(&outcome), kind(&reference), "{what}: {:?}", outcome.result);
    // Past the fuel at the end the interpreter decides (it checks fuel at
    // jumps only, so it may finish).
    if reference.result.is_ok() && tiered.module().is_ok() && reference.dyn_inst <= limits.fuel {
        assert_eq!(ran, Ran::Compiled, "{what}");
    }
    ran
}

#[wasm_bindgen_test]
fn generated_programs_agree_under_both_tiers() {
    let mut ran_compiled = 0;
    for seed in 0..200 {
        let p = bril::generator::v1::generate(seed, 60).unwrap();
        let ran = agree(&format!("random-v1 {seed}"), &p, &p.main_args(), &Limits::default());
        ran_compiled += usize::from(ran == Ran::Compiled);
    }
    for seed in 0..200 {
        let p = bril::generator::generate(seed, 30).unwrap();
        let ran = agree(&format!("random-v0 {seed}"), &p, &p.main_args(), &Limits::default());
        ran_compiled += usize::from(ran == Ran::Compiled);
    }
    assert!(ran_compiled > 300, "only {ran_compiled} of 400 compiled");
}

#[wasm_bindgen_test]
fn errors_are_the_interpreters() {
    let programs = [
        // Division by zero after some output.
        ("@main { a: int = const 7; print a; z: int = const 0; q: int = div a z; print q; }", vec![]),
        // The one quotient that overflows wraps in the interpreter; wasm traps.
        (
            "@main { m: int = const -9223372036854775808; n: int = const -1; q: int = div m n; print q; }",
            vec![],
        ),
        ("@main(x: int) { c: char = int2char x; print c; }", vec!["55296".to_string()]),
        ("@main(x: int) { c: char = int2char x; print c; }", vec!["-1".to_string()]),
        ("@main(x: int) { c: char = int2char x; print c; }", vec!["1114111".to_string()]),
        // Read before assignment on one path.
        ("@main(b: bool) { br b .a .b;\n.a: x: int = const 1;\n.b: print x; }", vec!["false".to_string()]),
        ("@main(b: bool) { br b .a .b;\n.a: x: int = const 1;\n.b: print x; }", vec!["true".to_string()]),
        // Bad arguments.
        ("@main(x: int) { print x; }", vec!["nope".to_string()]),
        ("@main(x: int) { print x; }", vec![]),
        ("@main(x: float, c: char, b: bool) { print x c b; }", vec!["-0".into(), "λ".into(), "true".into()]),
    ];
    for (text, args) in programs {
        let p = parse_text(text).unwrap();
        agree(text, &p, &args, &Limits::default());
    }
}

#[wasm_bindgen_test]
fn limits_stop_compiled_runs_and_the_interpreter_reports() {
    let forever =
        parse_text("@main { one: int = const 1; x: int = const 0;\n.top: x: int = add x one; jmp .top; }")
            .unwrap();
    let limits = Limits { fuel: 100_000, ..Limits::default() };
    let (outcome, ran) = compiled(&forever, &[], &limits);
    assert_eq!((ran, kind(&outcome)), (Ran::Interpreter, Some(compgym::ErrorKind::Limit)));
    assert!(outcome.dyn_inst > limits.fuel);

    let deep = parse_text("@f(n: int) { one: int = const 1; m: int = add n one; call @f m; }\n@main { z: int = const 0; call @f z; }").unwrap();
    let limits = Limits { max_call_depth: 500, ..Limits::default() };
    agree("deep", &deep, &[], &limits);
    // Straight-line code past the fuel: the interpreter checks at jumps only.
    let straight = parse_text("@main { a: int = const 1; b: int = add a a; print b; }").unwrap();
    for fuel in 0..5 {
        agree("straight", &straight, &[], &Limits { fuel, ..Limits::default() });
    }
    let chatty = parse_text("@main { a: int = const 12345; print a a; print a; }").unwrap();
    for max_output_bytes in [0, 5, 12, 17, 18, 100] {
        agree("chatty", &chatty, &[], &Limits { max_output_bytes, ..Limits::default() });
    }
}

#[wasm_bindgen_test]
fn uncovered_programs_fall_back_to_the_interpreter() {
    let undef = parse_text("@main { x: int = undef; y: int = id x; print; }").unwrap();
    assert!(Tiered::new(&undef).unwrap().module().is_err());
    let (outcome, ran) = compiled(&undef, &[], &Limits::default());
    assert_eq!((ran, outcome.stdout.as_str(), outcome.dyn_inst), (Ran::Interpreter, "\n", 3));
}

#[wasm_bindgen_test]
fn memory_runs_compiled_and_its_errors_are_the_interpreters() {
    let fine = parse_text(
        "@main { n: int = const 3; p: ptr<int> = alloc n; one: int = const 1; q: ptr<int> = ptradd p one; store q n; x: int = load q; \
         f: ptr<float> = alloc one; y: float = const 2.5; store f y; z: float = load f; print x z p q f; free p; free f; }",
    )
    .unwrap();
    assert_eq!(agree("fine", &fine, &[], &Limits::default()), Ran::Compiled);
    let failing = [
        // Read before any write, out of bounds either side, after free.
        "@main { n: int = const 2; p: ptr<int> = alloc n; x: int = load p; free p; }",
        "@main { n: int = const 2; p: ptr<int> = alloc n; q: ptr<int> = ptradd p n; store q n; free p; }",
        "@main { n: int = const 2; m: int = const -1; p: ptr<int> = alloc n; q: ptr<int> = ptradd p m; store q n; free p; }",
        "@main { n: int = const 2; p: ptr<int> = alloc n; store p n; free p; x: int = load p; print x; }",
        // Free off the base, twice; a leak; nothing or too much allocated.
        "@main { n: int = const 2; one: int = const 1; p: ptr<int> = alloc n; q: ptr<int> = ptradd p one; free q; }",
        "@main { n: int = const 2; p: ptr<int> = alloc n; free p; free p; }",
        "@main { n: int = const 2; p: ptr<int> = alloc n; print n; }",
        "@main { n: int = const 0; p: ptr<int> = alloc n; free p; }",
        "@main { n: int = const 99999999999; p: ptr<int> = alloc n; free p; }",
        // An offset past 32 bits comes back in range in 64 but not in the interpreter.
        "@main { n: int = const 2; big: int = const 4294967296; back: int = const -4294967296; p: ptr<int> = alloc n; \
         q: ptr<int> = ptradd p big; r: ptr<int> = ptradd q back; store r n; free p; }",
    ];
    for text in failing {
        let p = parse_text(text).unwrap();
        agree(text, &p, &[], &Limits::default());
    }
    // The heap's cell limit, and memory reused by a kept instance from a clean state.
    let loop_alloc = parse_text(
        "@main(k: int) { one: int = const 1; i: int = const 0; n: int = const 100;\n.l: p: ptr<int> = alloc n; store p i; x: int = load p; free p; \
         i: int = add i one; b: bool = lt i k; br b .l .e;\n.e: print x; }",
    )
    .unwrap();
    for k in ["1", "50", "3"] {
        agree("loop", &loop_alloc, &[k.to_string()], &Limits::default());
        agree(
            "small heap",
            &loop_alloc,
            &[k.to_string()],
            &Limits { max_memory_cells: 250, ..Limits::default() },
        );
    }
}

#[wasm_bindgen_test]
fn a_kept_instance_runs_again_from_a_clean_state() {
    let p = parse_text("@main(n: int) { one: int = const 1; i: int = const 0;\n.l: i: int = add i one; print i; b: bool = lt i n; br b .l .e;\n.e: }").unwrap();
    for n in [3, 1, 5, 2] {
        let args = [n.to_string()];
        agree("again", &p, &args, &Limits::default());
    }
}

/// The host's engine, counting the modules it runs.
struct Counting(std::rc::Rc<std::cell::Cell<u32>>);

impl Engine for Counting {
    fn run(&mut self, module: &Module, input: &[u8]) -> Option<Vec<u8>> {
        self.0.set(self.0.get() + 1);
        HostEngine.run(module, input)
    }
}

#[wasm_bindgen_test]
fn the_environments_long_runs_go_compiled_on_the_injected_engine() {
    let used = std::rc::Rc::new(std::cell::Cell::new(0));
    let before = set_host_engine(Some(Box::new(Counting(used.clone()))));
    let text = "@main(n: int) { one: int = const 1; i: int = const 0;\n.l: i: int = add i one; b: bool = lt i n; br b .l .e;\n.e: print i; }";
    let p = parse_text(text).unwrap();
    for (n, runs) in [("10", 0), ("2000000", 1)] {
        let args = [n.to_string()];
        assert_eq!(
            run_program(&p, &args, &Limits::default()),
            interp::run(&p, &args, &Limits::default()),
            "{n}"
        );
        assert_eq!(used.get(), runs, "{n}");
    }
    // An environment's runtime observation of a long program.
    let long = format!("# ARGS: 3000000\n{text}");
    let env = make(JsValue::from("bril-v0"), None).unwrap();
    env.add_benchmark(JsValue::from("benchmark://user-v0/long"), long.clone().into()).unwrap();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"benchmark".into(), &"benchmark://user-v0/long".into()).unwrap();
    env.reset(Some(options.into())).unwrap();
    let count = env.observation().get(JsValue::from("DynamicInstructionCount")).unwrap();
    let p = parse_text(&long).unwrap();
    let want = interp::run(&p, &p.main_args(), &Limits::default()).dyn_inst;
    assert_eq!(count.as_f64().or_else(|| count.as_string().and_then(|s| s.parse().ok())), Some(want as f64));
    assert_eq!(used.get(), 2);
    set_host_engine(before);
}
