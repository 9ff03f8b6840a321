//! The dataset's file, as the npm package ships it beside its module
//! (`datasets/large-v0.json`, written by `scripts/dataset-file.mjs` from this
//! folder's `.bril` and `.out` files): `{"format": 1, "dataset": "large-v0",
//! "compgym": VERSION, "benchmarks": [{"name", "source", "expected_output"}]}`
//! with the benchmarks sorted by name.

use super::{Benchmark, DATASET, NAMES, REGISTERED};
use crate::error::{Error, Result};
use serde::Deserialize;

/// The version of the file's layout this build reads.
const FORMAT: u32 = 1;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DatasetFile {
    format: u32,
    dataset: String,
    compgym: String,
    benchmarks: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    source: String,
    expected_output: String,
}

/// Loads the dataset from `json`, its file's text, for every later use
/// (resets, the dataset's listing, the agents); returns its name. A file
/// of another layout, dataset or compgym version, with other programs than
/// this build names is a ValueError; a program that does not parse or
/// verify gives that error, named; either way nothing changes. Loading it again, or where the build
/// carries the programs, checks the file and keeps what is there.
pub fn register(json: &str) -> Result<&'static str> {
    let benchmarks = read(json)?;
    if super::is_loaded() {
        return Ok(DATASET);
    }
    let leaked: Vec<Benchmark> = benchmarks
        .into_iter()
        .map(|e| Benchmark {
            dataset: DATASET,
            name: leak(e.name),
            source: leak(e.source),
            expected_output: leak(e.expected_output),
        })
        .collect();
    // Once per process: what a racing registration left is the same programs.
    let _ = REGISTERED.set(Box::leak(leaked.into_boxed_slice()));
    Ok(DATASET)
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The file's benchmarks, checked.
fn read(json: &str) -> Result<Vec<Entry>> {
    let file: DatasetFile =
        serde_json::from_str(json).map_err(|e| Error::value(format!("not a compgym dataset file: {e}")))?;
    if file.format != FORMAT {
        return Err(Error::value(format!(
            "a dataset file of format {}; this build reads format {FORMAT}",
            file.format
        )));
    }
    if file.dataset != DATASET {
        return Err(Error::value(format!(
            "a dataset file of {:?}; only {DATASET} is shipped as a file",
            file.dataset
        )));
    }
    if file.compgym != crate::VERSION {
        return Err(Error::value(format!(
            "the {DATASET} file was written for compgym {}; this is {}: use the file of this package",
            file.compgym,
            crate::VERSION
        )));
    }
    let names: Vec<&str> = file.benchmarks.iter().map(|e| e.name.as_str()).collect();
    if names != NAMES {
        let missing: Vec<_> = NAMES.iter().filter(|n| !names.contains(n)).collect();
        let unknown: Vec<_> = names.iter().filter(|n| !NAMES.contains(n)).collect();
        return Err(Error::value(format!(
            "the {DATASET} file's programs are not this build's (missing {missing:?}, unknown {unknown:?}, \
             or out of order)"
        )));
    }
    for entry in &file.benchmarks {
        let program = crate::bril::parse_text(&entry.source).map_err(|e| e.context(&entry.name))?;
        crate::bril::verify(&program).map_err(|e| e.context(&entry.name))?;
    }
    Ok(file.benchmarks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    /// The file `scripts/dataset-file.mjs` writes, from the programs built in.
    fn shipped() -> serde_json::Value {
        let benchmarks: Vec<_> = super::super::all()
            .unwrap()
            .iter()
            .map(|b| serde_json::json!({"name": b.name, "source": b.source, "expected_output": b.expected_output}))
            .collect();
        serde_json::json!({"format": 1, "dataset": DATASET, "compgym": crate::VERSION, "benchmarks": benchmarks})
    }

    fn refusal(file: &serde_json::Value) -> String {
        let error = read(&file.to_string()).err().expect("refused");
        assert_eq!(error.kind(), ErrorKind::Value, "{error}");
        error.message().to_string()
    }

    #[test]
    fn the_shipped_file_reads_back_as_the_built_in_programs() {
        let entries = read(&shipped().to_string()).unwrap();
        let built_in = super::super::all().unwrap();
        assert_eq!(entries.len(), built_in.len());
        for (entry, b) in entries.iter().zip(built_in) {
            assert_eq!((entry.name.as_str(), entry.source.as_str()), (b.name, b.source));
            assert_eq!(entry.expected_output, b.expected_output);
        }
        // Where the build carries them, registering checks and keeps them.
        assert_eq!(register(&shipped().to_string()).unwrap(), DATASET);
        assert!(REGISTERED.get().is_none());
    }

    #[test]
    fn a_file_of_another_layout_dataset_version_or_program_list_is_refused() {
        assert!(refusal(&serde_json::json!("not an object")).contains("not a compgym dataset file"));
        let mut file = shipped();
        file["format"] = 2.into();
        assert!(refusal(&file).contains("format 2"));
        let mut file = shipped();
        file["dataset"] = "suite-v0".into();
        assert!(refusal(&file).contains("\"suite-v0\""));
        let mut file = shipped();
        file["compgym"] = "0.0.1".into();
        assert!(refusal(&file).contains("written for compgym 0.0.1"));
        let mut file = shipped();
        file["benchmarks"].as_array_mut().unwrap().remove(3);
        assert!(refusal(&file).contains("missing [\"edit-distance\"]"));
        let mut file = shipped();
        file["benchmarks"][0]["name"] = "bigint".into();
        assert!(refusal(&file).contains("unknown [\"bigint\"]"));
        let mut file = shipped();
        file["benchmarks"][0]["extra"] = 1.into();
        assert!(refusal(&file).contains("unknown field"));
        assert!(register("{}").is_err());
    }

    #[test]
    fn a_program_that_does_not_parse_or_verify_is_refused_by_name() {
        let mut file = shipped();
        file["benchmarks"][1]["source"] = "@main { x: int = add y y; }".into();
        let error = read(&file.to_string()).err().unwrap();
        assert!(error.message().starts_with("bytecode-vm: "), "{error}");
        file["benchmarks"][1]["source"] = "@main {".into();
        assert!(read(&file.to_string()).err().unwrap().message().starts_with("bytecode-vm: "));
    }
}
