use super::*;
use crate::bril::parse_text;

include!(concat!(env!("OUT_DIR"), "/bril_bench.rs"));

fn tiered(text: &str) -> Tiered {
    Tiered::new(&parse_text(text).unwrap()).unwrap()
}

fn validate(bytes: &[u8]) {
    wasmparser::Validator::new().validate_all(bytes).unwrap();
}

#[test]
fn every_covered_community_program_compiles_to_a_valid_module() {
    let mut covered = 0;
    for &(name, text, _, _) in BRIL_BENCH {
        let program = parse_text(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Ok(t) = Tiered::new(&program) else { continue };
        if let Ok(module) = t.module() {
            wasmparser::Validator::new()
                .validate_all(module.bytes())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            covered += 1;
        }
    }
    // Most community programs use no memory.
    assert!(BRIL_BENCH.is_empty() || covered > 60, "only {covered} covered");
}

#[test]
fn generated_programs_compile_to_valid_modules() {
    for seed in 0..100 {
        let p = crate::bril::generator::v1::generate(seed, 60).unwrap();
        let t = Tiered::new(&p).unwrap();
        if let Ok(module) = t.module() {
            wasmparser::Validator::new()
                .validate_all(module.bytes())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}

#[test]
fn undef_and_programs_without_main_stay_with_the_interpreter() {
    let undef = tiered("@main { x: int = undef; y: int = id x; print; }");
    assert_eq!(undef.module().unwrap_err(), "instruction undef");
    let no_main = tiered("@f { ret; }");
    assert_eq!(no_main.module().unwrap_err(), "no @main");
}

#[test]
fn small_programs_of_every_covered_kind_validate() {
    let programs = [
        "@main { x: float = const 1.5; y: float = fmul x x; b: bool = flt x y; print y b; }",
        "@main { c: char = const 'a'; i: int = char2int c; d: char = int2char i; e: bool = ceq c d; print d e; }",
        "@main { print; }",
        "@f(n: int): int { one: int = const 1; b: bool = le n one; br b .done .rec;\n.done: ret one;\n.rec: m: int = sub n one; r: int = call @f m; s: int = mul n r; ret s; }\n@main { n: int = const 5; r: int = call @f n; print r; }",
        "@main { x: int = const 1; set y x; y: int = get; print y; }",
        "@main(b: bool) { br b .a .b;\n.a: x: int = const 1;\n.b: print x; }",
        "@main { n: int = const 2; p: ptr<float> = alloc n; q: ptr<float> = ptradd p n; x: float = const 1; store p x; y: float = load p; print p q y; free p; }",
    ];
    for text in programs {
        let t = Tiered::new(&parse_text(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"));
        validate(t.module().unwrap_or_else(|e| panic!("{text}: {e}")).bytes());
    }
}

/// An engine that refuses every module.
struct Refusing(u32);

impl Engine for Refusing {
    fn run(&mut self, _: &Module, _: &[u8]) -> Option<Vec<u8>> {
        self.0 += 1;
        None
    }
}

#[test]
fn a_refused_run_is_the_interpreters() {
    let t = tiered("@main { a: int = const 1; z: int = const 0; q: int = div a z; print q; }");
    let mut engine = Refusing(0);
    let run = t.run(&[], &Limits::default(), Tier::Compiled, &mut engine);
    assert_eq!(engine.0, 1);
    assert_eq!(run.ran, Ran::Interpreter);
    assert_eq!(run.outcome.result.unwrap_err().kind(), ErrorKind::Runtime);
    assert_eq!(run.outcome.dyn_inst, 3);
}

#[test]
fn auto_leaves_short_runs_to_the_interpreter() {
    let t = tiered("@main { a: int = const 1; print a; }");
    let mut engine = Refusing(0);
    let run = t.run(&[], &Limits::default(), Tier::Auto, &mut engine);
    assert_eq!((engine.0, run.ran, run.outcome.stdout.as_str()), (0, Ran::Interpreter, "1\n"));
    // Interpreter never asks the engine; no engine never either.
    t.run(&[], &Limits::default(), Tier::Interpreter, &mut engine);
    let native = t.run(&[], &Limits::default(), Tier::Compiled, &mut NoEngine);
    assert_eq!((engine.0, native.ran), (0, Ran::Interpreter));
}

#[test]
fn tiers_parse_by_name() {
    assert_eq!(Tier::parse("auto").unwrap(), Tier::Auto);
    assert_eq!(Tier::parse("compiled").unwrap(), Tier::Compiled);
    assert_eq!(Tier::parse("interpreter").unwrap(), Tier::Interpreter);
    assert_eq!(Tier::parse("jit").unwrap_err().kind(), ErrorKind::Value);
}

#[test]
fn output_records_print_as_the_interpreter_prints() {
    let mut memory = layout::input(&[], &Limits::default());
    // The first chunk: no next chunk.
    memory.extend_from_slice(&[0; layout::RECORD_BYTES as usize]);
    let mut record = |kind: u32, bits: u64| {
        memory.extend_from_slice(&u64::from(kind).to_le_bytes());
        memory.extend_from_slice(&bits.to_le_bytes());
    };
    record(layout::KIND_INT, (-3i64) as u64);
    record(layout::KIND_FLOAT, 0.1f64.to_bits());
    record(layout::KIND_BOOL | layout::END_OF_LINE, 1);
    record(layout::EMPTY_LINE, 0);
    record(layout::KIND_CHAR | layout::END_OF_LINE, u64::from('é'));
    record(layout::KIND_PTR | layout::END_OF_LINE, 3 << 32 | 2);
    memory[layout::COUNT as usize] = 9;
    let end = (memory.len() as u64).to_le_bytes();
    memory[layout::CURSOR as usize..][..8].copy_from_slice(&end);
    let (count, text) = layout::output(&memory, 0, 1000).unwrap();
    assert_eq!(
        (count, text.as_str()),
        (9, "-3 0.10000000000000001 true\n\né\n{ loc: Key { base: 3, offset: 2 } }\n")
    );
    // Past the output limit the interpreter decides.
    assert_eq!(layout::output(&memory, 0, 10), None);
}

#[test]
fn arguments_sit_where_the_module_reads_them() {
    let limits = Limits { fuel: 5, max_call_depth: 6, max_memory_cells: 7, max_output_bytes: 8 };
    let input = layout::input(&[41, 42], &limits);
    let word = |at: u64| u64::from_le_bytes(input[at as usize..][..8].try_into().unwrap());
    assert_eq!(input.len() as u64, layout::records_at(2));
    assert_eq!([word(layout::FUEL), word(layout::MAX_DEPTH), word(layout::MAX_CELLS)], [5, 6, 7]);
    assert_eq!([word(layout::MAX_RECORDS), word(layout::ARGS), word(layout::ARGS + 8)], [8, 41, 42]);
}
