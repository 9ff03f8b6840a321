use super::*;
use crate::bril::parse_text;

fn run_src(src: &str, args: &[&str]) -> Outcome {
    run_with(src, args, &Limits::default())
}

fn run_with(src: &str, args: &[&str], limits: &Limits) -> Outcome {
    let p = parse_text(src).unwrap();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run(&p, &args, limits)
}

fn error_of(o: &Outcome) -> (ErrorKind, String) {
    let e = o.result.clone().unwrap_err();
    (e.kind(), e.message().to_string())
}

#[test]
fn integer_arithmetic_wraps_like_brili() {
    let o = run_src(
        "@main(a: int) {\n  m: int = const -9223372036854775808;\n  n: int = const -1;\n  q: int = div m n;\n  big: int = const 9223372036854775807;\n  one: int = const 1;\n  s: int = add big one;\n  t: int = mul big big;\n  d: int = div a n;\n  e: int = const 7;\n  f: int = const -2;\n  g: int = div e f;\n  print q s t d g;\n}",
        &["5"],
    );
    assert_eq!(o.stdout, "-9223372036854775808 -9223372036854775808 1 -5 -3\n");
    assert_eq!(o.dyn_inst, 12);
    assert!(o.is_ok());
}

#[test]
fn division_by_zero_is_a_runtime_error() {
    let o =
        run_src("@main {\n  a: int = const 1;\n  z: int = const 0;\n  print a;\n  q: int = div a z;\n}", &[]);
    assert_eq!(o.stdout, "1\n", "output before the error is kept");
    assert_eq!(error_of(&o).0, ErrorKind::Runtime);
}

#[test]
fn counts_instructions_not_labels_or_implicit_returns() {
    let src = "@main {\n  i: int = const 0;\n  n: int = const 3;\n  one: int = const 1;\n.top:\n  c: bool = lt i n;\n  br c .body .end;\n.body:\n  i: int = add i one;\n  jmp .top;\n.end:\n  call @f;\n}\n@f {\n  nop;\n}";
    let o = run_src(src, &[]);
    // 3 consts + 4 * (lt, br) + 3 * (add, jmp) + call + nop
    assert_eq!(o.dyn_inst, 3 + 8 + 6 + 2);
    let with_ret = run_src("@main {\n  x: int = const 1;\n  ret;\n  print x;\n}", &[]);
    assert_eq!(with_ret.dyn_inst, 2);
    assert_eq!(with_ret.stdout, "");
}

#[test]
fn values_print_like_brili() {
    let o = run_src(
        "@main(x: float, b: bool, c: char) {\n  h: float = const 0.5;\n  y: float = fmul x h;\n  z: float = const 0;\n  n: float = fdiv z z;\n  i: float = fdiv x z;\n  k: int = char2int c;\n  k2: int = const 10;\n  k3: int = add k k2;\n  c2: char = int2char k3;\n  lt: bool = clt c c2;\n  print y b c c2 lt n i;\n  print;\n}",
        &["3", "true", "a"],
    );
    assert_eq!(o.stdout, "1.50000000000000000 true a k true NaN Infinity\n\n");
}

#[test]
fn int2char_rejects_non_characters() {
    let o = run_src("@main {\n  i: int = const -1;\n  c: char = int2char i;\n}", &[]);
    assert_eq!(error_of(&o).0, ErrorKind::Runtime);
}

#[test]
fn memory_works_and_errors_are_reported() {
    let ok = run_src(
        "@main {\n  n: int = const 3;\n  p: ptr<int> = alloc n;\n  q: ptr<int> = ptradd p n;\n  m: int = const -1;\n  q: ptr<int> = ptradd q m;\n  store q n;\n  v: int = load q;\n  pp: ptr<ptr<int>> = alloc n;\n  store pp p;\n  p2: ptr<int> = load pp;\n  w: int = load q;\n  free pp;\n  free p2;\n  print v w;\n}",
        &[],
    );
    assert_eq!(ok.stdout, "3 3\n");
    assert!(ok.is_ok(), "{:?}", ok.result);

    let prelude = "@main {\n  n: int = const 2;\n  p: ptr<int> = alloc n;\n";
    let failing = [
        "  q: ptr<int> = ptradd p n;\n  store q n;\n  free p;\n}",
        "  free p;\n  v: int = load p;\n}",
        "  free p;\n  free p;\n}",
        "  q: ptr<int> = ptradd p n;\n  free q;\n}",
        "  v: int = load p;\n  free p;\n}",
        "  print n;\n}",
        "  z: int = const 0;\n  q: ptr<int> = alloc z;\n  free p;\n}",
    ];
    for tail in failing {
        let o = run_src(&format!("{prelude}{tail}"), &[]);
        assert_eq!(error_of(&o).0, ErrorKind::Runtime, "{tail}");
    }
    let leak = run_src(&format!("{prelude}  print n;\n}}"), &[]);
    assert_eq!(leak.stdout, "2\n");
    assert!(error_of(&leak).1.contains("not been freed"));
}

#[test]
fn limits_stop_runaway_programs() {
    let spin = "@main {\n.l:\n  jmp .l;\n}";
    let limits = Limits { fuel: 1000, ..Limits::default() };
    let o = run_with(spin, &[], &limits);
    assert_eq!(error_of(&o).0, ErrorKind::Limit);
    assert!(o.dyn_inst > 1000 && o.dyn_inst < 1010);

    let recurse = "@main {\n  call @main;\n}";
    let o = run_with(recurse, &[], &Limits::default());
    assert_eq!(error_of(&o).0, ErrorKind::Limit);

    let hog = "@main {\n  n: int = const 1000;\n.l:\n  p: ptr<int> = alloc n;\n  jmp .l;\n}";
    let o = run_with(hog, &[], &Limits::default());
    assert_eq!(error_of(&o).0, ErrorKind::Limit);

    let chatty = "@main {\n  x: int = const 1;\n.l:\n  print x;\n  jmp .l;\n}";
    let small = Limits { max_output_bytes: 100, ..Limits::default() };
    let o = run_with(chatty, &[], &small);
    assert_eq!(error_of(&o).0, ErrorKind::Limit);
    assert!(o.stdout.len() <= 102);
}

#[test]
fn main_arguments_are_checked() {
    let src = "@main(a: int, b: bool) {\n  print a b;\n}";
    assert_eq!(run_src(src, &["1", "false"]).stdout, "1 false\n");
    assert_eq!(error_of(&run_src(src, &["1"])).0, ErrorKind::Value);
    assert_eq!(error_of(&run_src(src, &["x", "true"])).0, ErrorKind::Value);
    assert_eq!(error_of(&run_src(src, &["1", "yes"])).0, ErrorKind::Value);
}

#[test]
fn calls_pass_arguments_and_return_values() {
    let o = run_src(
        "@main {\n  n: int = const 10;\n  r: int = call @fib n;\n  print r;\n}\n@fib(n: int): int {\n  two: int = const 2;\n  small: bool = lt n two;\n  br small .base .rec;\n.base:\n  ret n;\n.rec:\n  one: int = const 1;\n  a: int = sub n one;\n  b: int = sub n two;\n  x: int = call @fib a;\n  y: int = call @fib b;\n  s: int = add x y;\n  ret s;\n}",
        &[],
    );
    assert_eq!(o.stdout, "55\n");
    assert!(o.is_ok());
}

#[test]
fn falling_off_a_value_function_is_an_error() {
    let o = run_src(
        "@main {\n  x: int = call @f;\n}\n@f: int {\n  c: bool = const false;\n  br c .a .b;\n.a:\n  one: int = const 1;\n  ret one;\n.b:\n}",
        &[],
    );
    assert_eq!(error_of(&o).0, ErrorKind::Runtime);
}

#[test]
fn ssa_set_and_get_carry_values_across_edges() {
    let o = run_src(
        "@main(c: bool) {\n  a: int = const 5;\n  set x a;\n  br c .here .there;\n.here:\n  b: int = const 7;\n  set x b;\n.there:\n  x: int = get;\n  u: int = undef;\n  print x;\n}",
        &["true"],
    );
    assert_eq!(o.stdout, "7\n");
    assert_eq!(o.dyn_inst, 8);
}

#[test]
fn streaming_hands_output_to_the_sink() {
    let p = parse_text("@main {\n  x: int = const 4;\n  print x;\n  print x;\n}").unwrap();
    let exe = Executable::new(&p).unwrap();
    let mut seen = String::new();
    let mut sink = |s: &str| seen.push_str(s);
    let o = exe.run_streaming(&[], &Limits::default(), Some(&mut sink));
    assert!(o.stdout.is_empty());
    assert_eq!(seen, "4\n4\n");
}

#[test]
fn unverified_nonsense_never_panics() {
    // Type confusion and undefined reads in an unverified program run to
    // some result or error, never a panic.
    let p = parse_text(
        "@main {\n  b: bool = const true;\n  x: int = add b b;\n  p: ptr<int> = id x;\n  v: int = load p;\n  print v q;\n  q: float = const 1.5;\n}",
    )
    .unwrap();
    let exe = Executable::new_unverified(&p).unwrap();
    let o = exe.run(&[], &Limits::default());
    assert_eq!(error_of(&o).0, ErrorKind::Runtime);
}

#[test]
fn reading_an_unassigned_variable_is_brilis_error() {
    // Only the path through .skip leaves x unassigned.
    let src = "@main(c: bool) {\n  br c .set .skip;\n.set:\n  x: int = const 3;\n.skip:\n  y: int = add x x;\n  print y;\n}";
    let assigned = run_src(src, &["true"]);
    assert_eq!((assigned.stdout.as_str(), assigned.dyn_inst), ("6\n", 4), "the checks are not counted");
    let unassigned = run_src(src, &["false"]);
    assert_eq!(error_of(&unassigned), (ErrorKind::Runtime, "undefined variable x".to_string()));
    // A copy of an unassigned variable fails too, as in brili.
    let copy = run_src(
        "@main(c: bool) {\n  br c .a .b;\n.a:\n  x: int = const 1;\n.b:\n  y: int = id x;\n}",
        &["false"],
    );
    assert_eq!(error_of(&copy).1, "undefined variable x");
}

#[test]
fn undef_values_may_only_be_copied() {
    let copied = "@main {\n  u: int = undef;\n  v: int = id u;\n  set x v;\n  x: int = get;\n  print u;\n}";
    let o = run_src(&copied.replace("  print u;\n", ""), &[]);
    assert!(o.is_ok(), "{:?}", o.result);
    let o = run_src(copied, &[]);
    assert_eq!(error_of(&o).0, ErrorKind::Runtime);
    assert!(error_of(&o).1.contains("u holds undef"), "{:?}", o.result);
    let used =
        run_src("@main {\n  u: int = undef;\n  set x u;\n  x: int = get;\n  y: int = add x x;\n}", &[]);
    assert!(error_of(&used).1.contains("x holds undef"), "{:?}", used.result);
}

// Dynamic typing: programs that were not verified, run as brili runs them
// (the expected words are brili.ts's).

fn run_dynamic(src: &str, args: &[&str]) -> Outcome {
    let p = parse_text(src).unwrap();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    Executable::new_dynamic(&p).unwrap().run(&args, &Limits::default())
}

fn dynamic_error(src: &str, args: &[&str]) -> String {
    let o = run_dynamic(src, args);
    let (kind, message) = error_of(&o);
    assert_eq!(kind, ErrorKind::Runtime, "{message}");
    message
}

#[test]
fn a_bad_instruction_on_a_path_never_taken_is_harmless() {
    let src = "@main {\n  one: int = const 1;\n  jmp .end;\n.dead:\n  print nothing;\n  y: int = add one;\n  b: bool = add one one;\n  br one .dead .end;\n.end:\n  print one;\n}";
    assert!(crate::bril::verify(&parse_text(src).unwrap()).is_err());
    let o = run_dynamic(src, &[]);
    assert_eq!((o.stdout.as_str(), o.dyn_inst, o.is_ok()), ("1\n", 3, true), "{:?}", o.result);
}

#[test]
fn values_keep_the_type_they_were_made_with() {
    // The destination's declared type is not checked: brili prints an int.
    let o = run_dynamic(
        "@main(x: int) {\n  y: bool = add x x;\n  print y;\n  z: int = const true;\n  print z;\n}",
        &["2"],
    );
    assert_eq!((o.stdout.as_str(), o.is_ok()), ("4\ntrue\n", true), "{:?}", o.result);
    let used = "@main(x: int) {\n  y: bool = add x x;\n  br y .a .a;\n.a:\n}";
    assert_eq!(dynamic_error(used, &["2"]), "br argument 0 must be a bool");
    let mixed = "@main {\n  a: int = const 1;\n  b: bool = const true;\n  c: int = add a b;\n}";
    assert_eq!(dynamic_error(mixed, &[]), "add argument 1 must be a int");
    let f = "@main {\n  a: float = const 1;\n  b: int = const 2;\n  c: float = fadd a b;\n}";
    assert_eq!(dynamic_error(f, &[]), "fadd argument 1 must be a float");
}

#[test]
fn reads_of_unassigned_variables_and_undef_fail_as_in_brili() {
    assert_eq!(dynamic_error("@main {\n  print x;\n}", &[]), "undefined variable x");
    let undef = "@main {\n  u: int = undef;\n  v: int = id u;\n  print v;\n}";
    assert_eq!(dynamic_error(undef, &[]), "print of undefined value");
    let added = "@main {\n  u: int = undef;\n  one: int = const 1;\n  w: int = add one u;\n}";
    assert_eq!(dynamic_error(added, &[]), "add argument 1 must be a int");
    let get = "@main {\n  x: int = get;\n}";
    assert_eq!(dynamic_error(get, &[]), "get without corresponding set for x");
    let set = "@main {\n  one: int = const 1;\n  set x one;\n  x: int = get;\n  print x;\n}";
    assert_eq!(run_dynamic(set, &[]).stdout, "1\n");
}

#[test]
fn malformed_instructions_fail_when_they_run() {
    assert_eq!(dynamic_error("@main {\n  x: int = id;\n}", &[]), "id takes 1 argument(s); got 0");
    let two = "@main {\n  a: int = const 1;\n  b: bool = not a a;\n}";
    assert_eq!(dynamic_error(two, &[]), "not takes 1 argument(s); got 2");
    let alloc = "@main {\n  a: int = const 1;\n  p: int = alloc a;\n}";
    assert_eq!(dynamic_error(alloc, &[]), "cannot allocate non-pointer type int");
    let free = "@main {\n  a: int = const 1;\n  free a;\n}";
    assert_eq!(dynamic_error(free, &[]), "free argument 0 must be a Pointer");
}

#[test]
fn calls_check_arguments_and_results_when_they_happen() {
    let f = "@f(a: int): int {\n  ret a;\n}\n@g(a: int) {\n  ret a;\n}\n@h: int {\n  print h;\n}\n";
    let call =
        |body: &str| format!("@main {{\n  one: int = const 1;\n  t: bool = const true;\n{body}\n}}\n{f}");
    assert_eq!(run_dynamic(&call("  x: int = call @f one;\n  print x;"), &[]).stdout, "1\n");
    assert_eq!(dynamic_error(&call("  x: int = call @f t;"), &[]), "function argument type mismatch");
    assert_eq!(dynamic_error(&call("  x: int = call @f;"), &[]), "function expected 1 arguments, got 0");
    assert_eq!(
        dynamic_error(&call("  x: bool = call @f one;"), &[]),
        "type of value returned by function does not match destination type"
    );
    assert_eq!(dynamic_error(&call("  call @f one;"), &[]), "unexpected value returned without destination");
    assert_eq!(
        dynamic_error(&call("  x: int = call @g one;"), &[]),
        "function with void return type used in value call"
    );
    assert_eq!(dynamic_error(&call("  x: int = call @h;"), &[]), "undefined variable h");
    let falls_off = "@main {\n  c: bool = const false;\n  x: int = call @h c;\n}\n@h(c: bool): int {\n  br c .a .b;\n.a:\n  ret c;\n.b:\n}\n";
    let message = "non-void function (type: int) doesn't return anything";
    assert_eq!(dynamic_error(falls_off, &[]), message);
    let verified = falls_off.replace("ret c", "one: int = const 1;\n  ret one");
    assert_eq!(error_of(&run_src(&verified, &[])).1, message, "the fast path says the same");
}

#[test]
fn memory_checks_the_stored_value_against_the_pointer() {
    let src = "@main {\n  one: int = const 1;\n  p: ptr<int> = alloc one;\n  t: bool = const true;\n  store p t;\n}";
    assert_eq!(dynamic_error(src, &[]), "store argument 1 must be a int");
    let nested = "@main {\n  one: int = const 1;\n  p: ptr<ptr<int>> = alloc one;\n  q: ptr<int> = alloc one;\n  store q one;\n  store p q;\n  r: ptr<int> = load p;\n  v: int = load r;\n  print v;\n  free q;\n  free p;\n}";
    let o = run_dynamic(nested, &[]);
    assert_eq!((o.stdout.as_str(), o.is_ok()), ("1\n", true), "{:?}", o.result);
    let wrong = nested.replace("store q one", "t: bool = const true;\n  store p t");
    assert_eq!(dynamic_error(&wrong, &[]), "store argument 1 must be a [object Object]");
}

#[test]
fn a_verified_program_runs_the_same_either_way() {
    let src = "@main(n: int) {\n  i: int = const 0;\n  one: int = const 1;\n  f: float = const 0.5;\n.loop:\n  c: bool = lt i n;\n  br c .body .end;\n.body:\n  x: int = call @sq i;\n  print x f c;\n  i: int = add i one;\n  jmp .loop;\n.end:\n}\n@sq(a: int): int {\n  s: int = mul a a;\n  ret s;\n}\n";
    let fast = run_src(src, &["4"]);
    let dynamic = run_dynamic(src, &["4"]);
    assert!(fast.is_ok());
    assert_eq!(fast, dynamic);
}

#[test]
fn like_brili_takes_the_fast_path_only_when_nothing_can_differ() {
    let verified = parse_text("@main {\n  a: int = const 1;\n  print a;\n}").unwrap();
    assert!(Executable::like_brili(&verified).unwrap().lowered.checks.is_empty());
    let undef = parse_text("@main {\n  a: int = undef;\n  b: int = id a;\n}").unwrap();
    assert!(!Executable::like_brili(&undef).unwrap().lowered.checks.is_empty());
    let bad = parse_text("@main {\n  print a;\n}").unwrap();
    let o = Executable::like_brili(&bad).unwrap().run(&[], &Limits::default());
    assert_eq!(error_of(&o).1, "undefined variable a");
}

#[test]
fn the_fast_path_speaks_brilis_words() {
    let get = "@main(c: bool) {\n  br c .a .b;\n.a:\n  one: int = const 1;\n  set x one;\n.b:\n  x: int = get;\n  print x;\n}";
    assert_eq!(error_of(&run_src(get, &["false"])).1, "get without corresponding set for x");
    let c = "@main {\n  n: int = const -1;\n  c: char = int2char n;\n}";
    assert_eq!(error_of(&run_src(c, &[])).1, "value -1 cannot be converted to char");
}
