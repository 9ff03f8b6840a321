//! Benchmark URIs, datasets, and the store of benchmarks added by clients.
//!
//! A URI is `scheme://dataset/path?key=value&...#fragment`; without
//! `scheme://` the scheme is `benchmark` (`suite-v0/fib` is
//! `benchmark://suite-v0/fib`). A generator dataset names its benchmarks by
//! seed: `generator://random-v0/7`.

use super::messages::Benchmark;
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::fmt;

/// A parsed benchmark URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchmarkUri {
    pub scheme: String,
    pub dataset: String,
    /// The benchmark within the dataset, without the leading `/`; may be empty.
    pub path: String,
    pub params: Vec<(String, String)>,
    pub fragment: String,
}

impl BenchmarkUri {
    /// Parses a URI; a malformed one is a BenchmarkInitError.
    pub fn parse(uri: &str) -> Result<BenchmarkUri> {
        let bad = |why: &str| Error::benchmark_init(format!("malformed benchmark URI {uri:?}: {why}"));
        if uri.is_empty() || uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("empty or contains whitespace"));
        }
        let (scheme, rest) = match uri.split_once("://") {
            Some((s, r)) => (s, r),
            None => ("benchmark", uri),
        };
        if scheme.is_empty() || !scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) {
            return Err(bad("bad scheme"));
        }
        let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
        let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (dataset, path) = rest.split_once('/').unwrap_or((rest, ""));
        if dataset.is_empty() {
            return Err(bad("no dataset"));
        }
        let params = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (k.to_string(), v.to_string())
            })
            .collect();
        Ok(BenchmarkUri {
            scheme: scheme.to_string(),
            dataset: dataset.to_string(),
            path: path.to_string(),
            params,
            fragment: fragment.to_string(),
        })
    }

    /// `scheme://dataset`, the name of the benchmark's dataset.
    pub fn dataset_uri(&self) -> String {
        format!("{}://{}", self.scheme, self.dataset)
    }

    /// The value of query parameter `key`.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for BenchmarkUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.dataset)?;
        if !self.path.is_empty() {
            write!(f, "/{}", self.path)?;
        }
        for (i, (k, v)) in self.params.iter().enumerate() {
            let sep = if i == 0 { '?' } else { '&' };
            if v.is_empty() {
                write!(f, "{sep}{k}")?;
            } else {
                write!(f, "{sep}{k}={v}")?;
            }
        }
        if !self.fragment.is_empty() {
            write!(f, "#{}", self.fragment)?;
        }
        Ok(())
    }
}

/// The benchmarks of a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatasetBenchmarks {
    /// A finite list of URIs.
    Listed(Vec<String>),
    /// One benchmark per seed: `{dataset name}/{seed}` for every `u64`.
    Seeded,
}

/// A named collection of benchmarks, e.g. `benchmark://suite-v0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dataset {
    /// `scheme://dataset`, the prefix of its benchmarks' URIs.
    pub name: String,
    pub description: String,
    pub benchmarks: DatasetBenchmarks,
}

impl Dataset {
    /// The number of benchmarks, `None` when unbounded.
    pub fn size(&self) -> Option<u64> {
        match &self.benchmarks {
            DatasetBenchmarks::Listed(uris) => Some(uris.len() as u64),
            DatasetBenchmarks::Seeded => None,
        }
    }

    /// The `index`-th benchmark's URI (the seed for a seeded dataset).
    pub fn benchmark_uri(&self, index: u64) -> Option<String> {
        match &self.benchmarks {
            DatasetBenchmarks::Listed(uris) => usize::try_from(index).ok().and_then(|i| uris.get(i)).cloned(),
            DatasetBenchmarks::Seeded => Some(format!("{}/{index}", self.name)),
        }
    }
}

/// Benchmarks added by clients, by canonical URI. A new benchmark with the
/// URI of an old one replaces it.
#[derive(Clone, Debug, Default)]
pub struct BenchmarkStore {
    benchmarks: HashMap<String, Benchmark>,
}

impl BenchmarkStore {
    /// Adds (or replaces) a benchmark; its URI must parse.
    pub fn add(&mut self, benchmark: Benchmark) -> Result<()> {
        let key = BenchmarkUri::parse(&benchmark.uri)?.to_string();
        self.benchmarks.insert(key, benchmark);
        Ok(())
    }
    pub fn get(&self, uri: &BenchmarkUri) -> Option<&Benchmark> {
        self.benchmarks.get(&uri.to_string())
    }
    pub fn len(&self) -> usize {
        self.benchmarks.len()
    }
    pub fn is_empty(&self) -> bool {
        self.benchmarks.is_empty()
    }
    /// The URIs of every added benchmark, sorted.
    pub fn uris(&self) -> Vec<String> {
        let mut uris: Vec<String> = self.benchmarks.keys().cloned().collect();
        uris.sort();
        uris
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test(unsupported = test)]
    fn uris_parse_and_print() {
        let u = BenchmarkUri::parse("generator://random-v0/7?size=30&x#f").unwrap();
        assert_eq!((u.scheme.as_str(), u.dataset.as_str(), u.path.as_str()), ("generator", "random-v0", "7"));
        assert_eq!(u.param("size"), Some("30"));
        assert_eq!(u.param("x"), Some(""));
        assert_eq!(u.to_string(), "generator://random-v0/7?size=30&x#f");
        let short = BenchmarkUri::parse("suite-v0/fib").unwrap();
        assert_eq!(short.to_string(), "benchmark://suite-v0/fib");
        assert_eq!(short.dataset_uri(), "benchmark://suite-v0");
        assert_eq!(BenchmarkUri::parse("benchmark://a/b/c").unwrap().path, "b/c");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn malformed_uris_are_benchmark_init_errors() {
        for bad in ["", "benchmark://", "a b", "://x/y", "bench mark://x", "x://?q"] {
            assert_eq!(BenchmarkUri::parse(bad).unwrap_err().name(), "BenchmarkInitError", "{bad:?}");
        }
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn store_replaces_on_conflict_and_datasets_list() {
        let mut store = BenchmarkStore::default();
        store.add(Benchmark::from_contents("user-v0/a", "1")).unwrap();
        store.add(Benchmark::from_contents("benchmark://user-v0/a", "2")).unwrap();
        assert_eq!(store.len(), 1);
        let uri = BenchmarkUri::parse("user-v0/a").unwrap();
        assert_eq!(store.get(&uri).unwrap().contents(), b"2");
        assert!(store.add(Benchmark::from_contents("", "x")).is_err());
        let d = Dataset {
            name: "generator://g-v0".into(),
            description: String::new(),
            benchmarks: DatasetBenchmarks::Seeded,
        };
        assert_eq!((d.size(), d.benchmark_uri(5).unwrap().as_str()), (None, "generator://g-v0/5"));
        let l = Dataset {
            name: "benchmark://l-v0".into(),
            description: String::new(),
            benchmarks: DatasetBenchmarks::Listed(vec!["benchmark://l-v0/a".into()]),
        };
        assert_eq!((l.size(), l.benchmark_uri(1)), (Some(1), None));
    }
}
