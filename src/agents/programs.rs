//! The hand-written programs learning is judged on, and the fixed rule that
//! splits them into programs to train on and programs held out.
//!
//! Hand-written programs are the bundled `suite-v0` and `large-v0` and any
//! program of one's own (the CLI reads files and folders; the community
//! programs in `data/bril-community` are the usual ones). A program is
//! held out when the FNV-1a hash of its name (`suite-v0/fib-iter`,
//! `bril-community/core/ackermann`) is divisible by 3: about a third, fixed
//! forever, decided by the name alone so adding a program never moves
//! another across the line. Every learning number in the docs is on
//! held-out programs; training and the fixed-sequence ablation see only
//! the rest. Choices made while developing (training options, features)
//! are made on a development quarter of the train side ([`is_dev`]),
//! never on held-out programs.

use crate::bril::suite;
use crate::env::CompilerEnv;
use crate::error::{Error, Result};
use crate::service::{Benchmark, BenchmarkUri};

/// Which side of the split a program is on; `Dev` is the train side's
/// development quarter (see [`is_dev`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    Train,
    HeldOut,
    Dev,
}

impl Split {
    /// The side of the program named `name` (a URI or `dataset/path`).
    pub fn of(name: &str) -> Split {
        let name = name.split_once("://").map_or(name, |(_, rest)| rest);
        if fnv1a(name.as_bytes()) % 3 == 0 {
            Split::HeldOut
        } else {
            Split::Train
        }
    }

    /// Whether the program named `name` is on this side (the development
    /// quarter is part of the train side).
    pub fn contains(self, name: &str) -> bool {
        match self {
            Split::Dev => is_dev(name),
            side => Split::of(name) == side,
        }
    }

    pub fn by_name(name: &str) -> Result<Split> {
        match name {
            "train" => Ok(Split::Train),
            "held-out" | "heldout" | "test" => Ok(Split::HeldOut),
            "dev" => Ok(Split::Dev),
            _ => {
                Err(Error::lookup(format!("unknown split {name:?}; the splits are train, held-out and dev")))
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::HeldOut => "held-out",
            Split::Dev => "dev",
        }
    }
}

/// The program is on the train side and in its development quarter: what
/// training options are compared on (trained on the rest of the train side).
pub fn is_dev(name: &str) -> bool {
    let name = name.split_once("://").map_or(name, |(_, rest)| rest);
    let h = fnv1a(name.as_bytes());
    h % 3 != 0 && (h / 3) % 4 == 0
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A program of one's own: its URI and its Bril text or JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnProgram {
    pub uri: String,
    pub source: String,
}

impl OwnProgram {
    /// A program read from `path` (relative to a folder named `folder`):
    /// `benchmark://FOLDER/PATH` without the extension.
    pub fn from_file(folder: &str, path: &str, source: String) -> OwnProgram {
        let stem = path.strip_suffix(".bril").or_else(|| path.strip_suffix(".json")).unwrap_or(path);
        let clean = |s: &str| s.replace(|c: char| c.is_whitespace() || c == '?' || c == '#', "_");
        OwnProgram { uri: format!("benchmark://{}/{}", clean(folder), clean(stem)), source }
    }

    /// Adds the program to `env`'s benchmarks (a BenchmarkInitError if the
    /// compiler cannot read it).
    pub fn add_to(&self, env: &mut CompilerEnv) -> Result<()> {
        BenchmarkUri::parse(&self.uri)?;
        env.add_benchmark(Benchmark::from_contents(&self.uri, self.source.as_str()))
    }
}

/// The URIs of the bundled hand-written programs (`suite-v0`, then
/// `large-v0`) on side `split`.
pub fn bundled(split: Split) -> Vec<String> {
    suite::all().iter().map(|b| b.uri()).chain(suite::large::uris()).filter(|u| split.contains(u)).collect()
}

/// The programs of `own` on side `split`.
pub fn own(own: &[OwnProgram], split: Split) -> Vec<OwnProgram> {
    own.iter().filter(|p| split.contains(&p.uri)).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_fixed_by_name_and_about_a_third_is_held_out() {
        // Pinned: changing the rule would silently move programs across.
        assert_eq!(Split::of("benchmark://suite-v0/fib-iter"), Split::of("suite-v0/fib-iter"));
        let held = bundled(Split::HeldOut);
        let train = bundled(Split::Train);
        let all = suite::all().len() + suite::large::names().count();
        assert_eq!(held.len() + train.len(), all);
        assert!((all / 5..=all / 2).contains(&held.len()), "{} of {all} held out", held.len());
        assert!(held.iter().all(|u| !train.contains(u)));
        assert_eq!(
            held.iter().take(3).cloned().collect::<Vec<_>>(),
            bundled(Split::HeldOut).into_iter().take(3).collect::<Vec<_>>()
        );
    }

    #[test]
    fn own_programs_are_named_after_their_folder_and_path() {
        let p = OwnProgram::from_file("bril-community", "core/ackermann.bril", "@main {}".into());
        assert_eq!(p.uri, "benchmark://bril-community/core/ackermann");
        assert_eq!(OwnProgram::from_file("my dir", "a b.json", String::new()).uri, "benchmark://my_dir/a_b");
        assert_eq!(Split::by_name("held-out").unwrap(), Split::HeldOut);
        let dev = bundled(Split::Dev);
        assert!(
            !dev.is_empty() && dev.iter().all(|u| bundled(Split::Train).contains(u)),
            "dev is part of train"
        );
        assert_eq!(Split::by_name("nope").unwrap_err().name(), "LookupError");
    }
}
