//! The Bril readers, the interpreter and the passes.

use super::{expect_kind, seed_of, text};
use crate::bril::interp::{Executable, Limits};
use crate::bril::passes::registry;
use crate::bril::{generator, parse_json, parse_text, to_json, to_text, verify, Program};
use crate::error::ErrorKind;

/// Small bounds, so each input runs in well under a millisecond.
const LIMITS: Limits =
    Limits { fuel: 20_000, max_memory_cells: 1 << 12, max_call_depth: 64, max_output_bytes: 1 << 12 };

/// A malformed program is a ParseError, one that is not well formed (a
/// label defined twice...) a VerifyError.
const READ_ERRORS: &[ErrorKind] = &[ErrorKind::Parse, ErrorKind::Verify, ErrorKind::Limit];

/// Printing then reading a program gives a program that prints the same.
fn check_round_trips(p: &Program, what: &str) {
    let printed = to_text(p);
    let again =
        parse_text(&printed).unwrap_or_else(|e| panic!("{what}: its text does not parse: {e}\n{printed}"));
    assert_eq!(to_text(&again), printed, "{what}: text round trip");
    // JSON has no comments, so no `# ARGS:` line (as bril2json).
    let mut p = p.clone();
    p.args = None;
    let json = to_json(&p);
    let back = parse_json(&json).unwrap_or_else(|e| panic!("{what}: its JSON does not parse: {e}\n{json}"));
    assert_eq!(to_text(&back), to_text(&p), "{what}: JSON round trip");
}

/// Bril text: parse errors only; whatever parses round-trips through text and JSON.
pub fn bril_text(data: &[u8]) {
    match parse_text(&text(data)) {
        Ok(p) => check_round_trips(&p, "bril_text"),
        Err(e) => expect_kind(&e, READ_ERRORS, "bril_text"),
    }
}

/// Bril JSON: the same for the JSON reader, for well-formed programs the
/// text format can write (JSON names may be any string, text names are
/// identifiers; JSON can leave out what text cannot, like a const's value).
pub fn bril_json(data: &[u8]) {
    match parse_json(&text(data)) {
        Ok(p) if names_are_identifiers(&p) && verify(&p).is_ok() => check_round_trips(&p, "bril_json"),
        Ok(p) => drop(to_json(&p)),
        Err(e) => expect_kind(&e, READ_ERRORS, "bril_json"),
    }
}

/// Whether every name of the program can be written in Bril text:
/// `[A-Za-z_%][A-Za-z0-9_%.]*` (after the `@` or `.` of functions and labels).
fn names_are_identifiers(p: &Program) -> bool {
    let ident = |s: &str| {
        let mut bytes = s.bytes();
        bytes.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'%')
            && bytes.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'%' | b'.'))
    };
    let json = crate::bril::to_json_value(p);
    let mut names = Vec::new();
    for f in json["functions"].as_array().into_iter().flatten() {
        names.extend(f["name"].as_str());
        for a in f["args"].as_array().into_iter().flatten() {
            names.extend(a["name"].as_str());
        }
        for i in f["instrs"].as_array().into_iter().flatten() {
            names.extend(i["label"].as_str().into_iter().chain(i["dest"].as_str()));
            for key in ["args", "funcs", "labels"] {
                names.extend(i[key].as_array().into_iter().flatten().filter_map(|n| n.as_str()));
            }
        }
    }
    names.into_iter().all(ident)
}

/// The verifier and the interpreter: any program that parses is verified,
/// and run (verified or not: an ill-typed program must not panic either)
/// within small limits, with its `# ARGS:` or none. Only typed errors.
pub fn interpreter(data: &[u8]) {
    let Ok(p) = parse_text(&text(data)) else { return };
    let verified = verify(&p);
    if let Err(e) = &verified {
        expect_kind(e, &[ErrorKind::Verify], "verify");
    }
    let exe = match Executable::new_unverified(&p) {
        Ok(exe) => exe,
        Err(e) => return expect_kind(&e, &[ErrorKind::Verify, ErrorKind::Limit], "lowering"),
    };
    let outcome = exe.run(&p.main_args(), &LIMITS);
    // Fuel is checked at jumps and calls: a straight run may pass it by a block.
    let most = LIMITS.fuel + p.instr_count() as u64;
    assert!(outcome.dyn_inst <= most, "ran {} instructions on {} of fuel", outcome.dyn_inst, LIMITS.fuel);
    assert!(outcome.stdout.len() as u64 <= LIMITS.max_output_bytes + 64, "output past its limit");
    if let Err(e) = &outcome.result {
        let allowed: &[ErrorKind] = if verified.is_ok() {
            &[ErrorKind::Runtime, ErrorKind::Limit, ErrorKind::Value]
        } else {
            &[ErrorKind::Runtime, ErrorKind::Limit, ErrorKind::Value, ErrorKind::Type, ErrorKind::Verify]
        };
        expect_kind(e, allowed, "run");
    }
    dynamic(&p, verified.is_ok(), &outcome);
}

/// Dynamic typing (as `compgym brili` runs what does not verify): any
/// program that lowers runs with only run-time errors and limits, and a
/// verified one that the fast path ran gives the same output and count.
fn dynamic(p: &Program, verified: bool, fast: &crate::bril::interp::Outcome) {
    let exe = match Executable::new_dynamic(p) {
        Ok(exe) => exe,
        Err(e) => return expect_kind(&e, &[ErrorKind::Limit, ErrorKind::Verify], "dynamic lowering"),
    };
    let outcome = exe.run(&p.main_args(), &LIMITS);
    if let Err(e) = &outcome.result {
        expect_kind(e, &[ErrorKind::Runtime, ErrorKind::Limit, ErrorKind::Value], "dynamic run");
    }
    // Tags take frame slots, so the stack limit may come sooner.
    let stack_limit = outcome.result.as_ref().is_err_and(|e| e.kind() == ErrorKind::Limit);
    if verified && fast.is_ok() && !stack_limit {
        assert_eq!(&outcome, fast, "a verified program runs the same with dynamic typing");
    }
}

/// The program a `passes` input describes: byte 0 even, a generated program
/// (seed from the bytes, size from byte 1); odd, the rest as Bril text.
/// Returns the program and the bytes left for the pass sequence.
fn program_of(data: &[u8]) -> Option<(Program, &[u8])> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        let (&size, rest) = rest.split_first().unwrap_or((&40, &[]));
        let (seed_bytes, passes) = rest.split_at(rest.len().min(8));
        let p = generator::generate(seed_of(seed_bytes), 1 + u32::from(size) % 120).ok()?;
        Some((p, passes))
    } else {
        // Text up to a NUL byte; the bytes after it choose the passes.
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        let p = parse_text(&text(&rest[..end])).ok()?;
        verify(&p).ok()?;
        Some((p, rest.get(end + 1..).unwrap_or(&[])))
    }
}

/// Every pass, differentially: for a program whose unoptimised run ends
/// within fuel, after each pass of a byte-chosen sequence the program still
/// verifies and prints the same output with the same outcome.
pub fn passes(data: &[u8]) {
    let Some((mut p, choices)) = program_of(data) else { return };
    let args = p.main_args();
    let Ok(exe) = Executable::new(&p) else { return };
    let before = exe.run(&args, &LIMITS);
    if matches!(&before.result, Err(e) if e.kind() == ErrorKind::Limit) {
        return; // Not known to end: nothing to compare.
    }
    // Optimised code may run longer (SSA adds copies, unrolling...): more fuel.
    let loose = Limits { fuel: LIMITS.fuel * 16, max_call_depth: LIMITS.max_call_depth * 2, ..LIMITS };
    let passes = registry();
    let mut applied = Vec::new();
    for &choice in choices.iter().take(12) {
        let pass = &passes[usize::from(choice) % passes.len()];
        applied.push(pass.flag);
        let input = to_text(&p);
        if let Err(e) = (pass.run)(&mut p) {
            panic!("{applied:?} failed with {e} on a well-formed program:\n{input}");
        }
        if let Err(e) = verify(&p) {
            panic!("{applied:?} broke the program: {e}\n{input}\nbecame\n{}", to_text(&p));
        }
        let after = Executable::new(&p).expect("verified").run(&args, &loose);
        let same = match (&before.result, &after.result) {
            (Ok(()), Ok(())) => before.stdout == after.stdout,
            // A run that failed must fail the same way after the same output.
            (Err(a), Err(b)) => a.kind() == b.kind() && before.stdout == after.stdout,
            _ => false,
        };
        assert!(
            same,
            "{applied:?} changed the behaviour: {:?} {:?} became {:?} {:?}\n{input}\nbecame\n{}",
            before.stdout,
            before.result,
            after.stdout,
            after.result,
            to_text(&p)
        );
    }
}
