//! Benchmarks parsed once per thread, whichever environment asks.
//!
//! What environments learn about a benchmark (baselines, the states passes
//! led to) lives while one of them holds it (`shared_tables`); the parsed
//! program is not learnt, only read from the text, so it is kept beyond
//! that. A reset after every environment on the benchmark was closed then
//! parses nothing, and adding a benchmark and resetting on it parses once.
//! A small table, kept in the order of use: programs are shared (`Arc`
//! functions), so a copy costs a few allocations.

use crate::bril::Program;
use crate::error::Result;
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Programs kept; past it, the least recently used goes.
const KEPT: usize = 64;
/// Text kept in all (bytes): the table holds small programs, and a large
/// one is left to the environments, which free it at `close()`.
const KEPT_BYTES: usize = 1 << 20;
/// The longest text kept.
const LONGEST: usize = 64 << 10;

struct Parsed {
    hash: u64,
    contents: Box<[u8]>,
    program: Program,
}

thread_local! {
    /// Most recently used last.
    static PARSED: RefCell<Vec<Parsed>> = const { RefCell::new(Vec::new()) };
}

/// The program `parse` makes of `contents`, from the table if it was made
/// before. Only successes are kept: a refused text is parsed again, to say why.
pub fn parsed(contents: &[u8], parse: impl FnOnce() -> Result<Program>) -> Result<Program> {
    let mut hasher = DefaultHasher::new();
    contents.hash(&mut hasher);
    let hash = hasher.finish();
    let found = PARSED.with(|table| {
        let mut table = table.try_borrow_mut().ok()?;
        let at = table.iter().rposition(|p| p.hash == hash && *p.contents == *contents)?;
        let entry = table.remove(at);
        let program = entry.program.clone();
        table.push(entry);
        Some(program)
    });
    if let Some(program) = found {
        return Ok(program);
    }
    let program = parse()?;
    if contents.len() > LONGEST {
        return Ok(program);
    }
    PARSED.with(|table| {
        if let Ok(mut table) = table.try_borrow_mut() {
            let mut bytes = table.iter().map(|p| p.contents.len()).sum::<usize>() + contents.len();
            while !table.is_empty() && (table.len() >= KEPT || bytes > KEPT_BYTES) {
                bytes -= table.remove(0).contents.len();
            }
            table.push(Parsed { hash, contents: contents.into(), program: program.clone() });
        }
    });
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bril::parse_text;
    use std::cell::Cell;

    #[test]
    fn the_same_text_is_parsed_once_and_a_refused_one_every_time() {
        let calls = Cell::new(0);
        let text = "@main { x: int = const 7; print x; }";
        let parse = |t: &str| {
            calls.set(calls.get() + 1);
            parse_text(t)
        };
        let a = parsed(text.as_bytes(), || parse(text)).unwrap();
        let b = parsed(text.as_bytes(), || parse(text)).unwrap();
        assert_eq!((a, calls.get()), (b, 1));
        let other = "@main { x: int = const 8; print x; }";
        parsed(other.as_bytes(), || parse(other)).unwrap();
        assert_eq!(calls.get(), 2, "other contents are parsed");
        for _ in 0..2 {
            assert!(parsed(b"@main {", || parse("@main {")).is_err());
        }
        assert_eq!(calls.get(), 4, "a refused text is not kept");
    }

    #[test]
    fn the_least_recently_used_program_goes_first() {
        let texts: Vec<String> =
            (0..=KEPT).map(|i| format!("@main {{ x: int = const {i}; print x; }}")).collect();
        let calls = Cell::new(0);
        let parse = |t: &str| {
            calls.set(calls.get() + 1);
            parse_text(t)
        };
        for t in &texts[..KEPT] {
            parsed(t.as_bytes(), || parse(t)).unwrap();
        }
        // Using the first again makes the second the oldest, which the next text evicts.
        parsed(texts[0].as_bytes(), || parse(&texts[0])).unwrap();
        parsed(texts[KEPT].as_bytes(), || parse(&texts[KEPT])).unwrap();
        let before = calls.get();
        parsed(texts[0].as_bytes(), || parse(&texts[0])).unwrap();
        assert_eq!(calls.get(), before, "the first was kept");
        parsed(texts[1].as_bytes(), || parse(&texts[1])).unwrap();
        assert_eq!(calls.get(), before + 1, "the second was evicted");
    }

    #[test]
    fn long_texts_are_not_kept_and_the_table_keeps_to_its_bytes() {
        let calls = Cell::new(0);
        let parse = |t: &str| {
            calls.set(calls.get() + 1);
            parse_text(t)
        };
        // A program just over the longest kept: parsed each time.
        let body = "  x: int = const 1;\n".repeat(LONGEST / 20 + 1);
        let long = format!("@main {{\n{body}  print x;\n}}");
        assert!(long.len() > LONGEST);
        for _ in 0..2 {
            parsed(long.as_bytes(), || parse(&long)).unwrap();
        }
        assert_eq!(calls.get(), 2);
        // Programs just under it: the table holds at most KEPT_BYTES of them.
        let texts: Vec<String> = (0..KEPT_BYTES / LONGEST + 2)
            .map(|i| {
                format!("@main {{\n{}  print x;\n}}", "  x: int = const 1;\n".repeat(LONGEST / 20 - 2 - i))
            })
            .collect();
        for t in &texts {
            assert!(t.len() <= LONGEST);
            parsed(t.as_bytes(), || parse(t)).unwrap();
        }
        let kept = PARSED.with(|table| table.borrow().iter().map(|p| p.contents.len()).sum::<usize>());
        assert!(kept <= KEPT_BYTES, "{kept} bytes kept");
        let before = calls.get();
        parsed(texts[0].as_bytes(), || parse(&texts[0])).unwrap();
        assert_eq!(calls.get(), before + 1, "the oldest went to make room");
        let last = texts.last().unwrap();
        parsed(last.as_bytes(), || parse(last)).unwrap();
        assert_eq!(calls.get(), before + 1, "the newest stayed");
    }
}
