//! The short fuzz run of the tests: every target of `compgym::fuzzing` on
//! its checked-in corpus (`fuzz/corpus/<target>/`) and on a few thousand
//! inputs mutated from it by a seeded generator, with the tokens of its
//! dictionary (`fuzz/dict/<target>.dict`, libFuzzer's format). The same
//! inputs every run, however busy the machine: a fixed count per target,
//! chosen for a few seconds each in a debug build. A failing input is written to
//! `target/fuzz-short/<target>-failure` for `cargo fuzz run <target> <file>`.
//!
//! Needs the `fuzzing` feature: `cargo test --features fuzzing --test fuzz_short`.

use compgym::fuzzing::{Target, TARGETS};
use compgym::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Mutated inputs for a target whose inputs are cheap (readers, spaces, the
/// protocol); those that run passes take fewer, given in their tests.
const MUTATIONS: usize = 5000;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = fuzz_dir().join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// The tokens of a libFuzzer dictionary: one `"quoted"` token a line, with
/// `\\`, `\"` and `\xNN` escapes.
fn dictionary(target: &str) -> Vec<Vec<u8>> {
    let text =
        std::fs::read_to_string(fuzz_dir().join("dict").join(format!("{target}.dict"))).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let quoted = line.trim().split_once('"')?.1.rsplit_once('"')?.0;
            let mut out = Vec::new();
            let mut bytes = quoted.bytes();
            while let Some(b) = bytes.next() {
                match (b, bytes.clone().next()) {
                    (b'\\', Some(b'x')) => {
                        bytes.next();
                        let hex: String = bytes.by_ref().take(2).map(char::from).collect();
                        out.push(u8::from_str_radix(&hex, 16).ok()?);
                    }
                    (b'\\', Some(c)) => {
                        bytes.next();
                        out.push(c);
                    }
                    _ => out.push(b),
                }
            }
            Some(out)
        })
        .collect()
}

/// Numbers that find edges: zero, signs, powers of two, the float extremes.
const INTERESTING: [&str; 16] = [
    "0",
    "-1",
    "1",
    "255",
    "65536",
    "2147483648",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "1e308",
    "-0",
    "1.5",
    "\"inf\"",
    "\"nan\"",
];

struct Mutator {
    rng: Rng,
    corpus: Vec<Vec<u8>>,
    tokens: Vec<Vec<u8>>,
}

impl Mutator {
    fn pick(&mut self, n: usize) -> usize {
        self.rng.index(n.max(1))
    }

    fn mutate(&mut self) -> Vec<u8> {
        let i = self.pick(self.corpus.len());
        let mut data = self.corpus[i].clone();
        for _ in 0..1 + self.pick(4) {
            let at = self.pick(data.len() + 1);
            match self.pick(8) {
                0 if !data.is_empty() => {
                    let i = self.pick(data.len());
                    data[i] ^= 1 << self.pick(8);
                }
                1 if !data.is_empty() => {
                    let i = self.pick(data.len());
                    data[i] = self.rng.next_u64() as u8;
                }
                2 => {
                    let end = (at + 1 + self.pick(16)).min(data.len());
                    data.drain(at.min(end)..end);
                }
                3 => {
                    // Repeat a slice: nesting and lengths grow.
                    let end = (at + 1 + self.pick(64)).min(data.len());
                    let slice = data[at.min(end)..end].to_vec();
                    for _ in 0..1 + self.pick(8) {
                        data.splice(at..at, slice.iter().copied());
                    }
                }
                4 => {
                    // Splice in part of another input.
                    let i = self.pick(self.corpus.len());
                    let other = self.corpus[i].clone();
                    let from = self.pick(other.len() + 1);
                    let to = (from + self.pick(128)).min(other.len());
                    data.splice(at..at, other[from..to].iter().copied());
                }
                5 => {
                    let n = INTERESTING[self.pick(INTERESTING.len())].as_bytes().to_vec();
                    let end =
                        data[at..].iter().position(|b| !b.is_ascii_digit()).map_or(data.len(), |p| at + p);
                    data.splice(at..end, n);
                }
                _ if !self.tokens.is_empty() => {
                    let i = self.pick(self.tokens.len());
                    let token = self.tokens[i].clone();
                    data.splice(at..at, token);
                }
                _ => data.insert(at, self.rng.next_u64() as u8),
            }
        }
        data
    }
}

fn run_one(name: &str, target: Target, input: &[u8]) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| target(input))) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("fuzz-short");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("{name}-failure"));
        let _ = std::fs::write(&file, input);
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!(
            "{name} failed on {} (saved as {}): {message}",
            String::from_utf8_lossy(input),
            file.display()
        );
    }
}

fn fuzz(name: &str, mutations: usize) {
    let target = TARGETS.iter().find(|(n, _)| *n == name).expect("a target").1;
    let corpus = corpus(name);
    assert!(!corpus.is_empty(), "{name}: an empty corpus");
    for input in &corpus {
        run_one(name, target, input);
    }
    let mut m = Mutator { rng: Rng::seed_from_u64(0xF022), corpus, tokens: dictionary(name) };
    for _ in 0..mutations {
        let input = m.mutate();
        run_one(name, target, &input);
    }
    eprintln!("{name}: {} corpus inputs, {mutations} mutations", m.corpus.len());
}

#[test]
fn every_target_has_a_test_and_a_libfuzzer_target() {
    for (name, _) in TARGETS {
        assert!(fuzz_dir().join("fuzz_targets").join(format!("{name}.rs")).is_file(), "{name}");
    }
}

#[test]
fn bril_text() {
    fuzz("bril_text", MUTATIONS);
}

#[test]
fn bril_json() {
    fuzz("bril_json", MUTATIONS);
}

#[test]
fn interpreter() {
    fuzz("interpreter", 2000);
}

#[test]
fn passes() {
    fuzz("passes", 400);
}

#[test]
fn space_description() {
    fuzz("space_description", MUTATIONS);
}

#[test]
fn protocol() {
    fuzz("protocol", MUTATIONS);
}

#[test]
fn pass_mutants() {
    fuzz("pass_mutants", 300);
}
