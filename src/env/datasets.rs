//! The datasets of a compiler backend: listing, lookup, random choice.

use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::service::{BenchmarkUri, Dataset, DatasetBenchmarks};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Datasets {
    list: Vec<Dataset>,
}

impl Datasets {
    pub fn new(list: Vec<Dataset>) -> Datasets {
        Datasets { list }
    }

    pub fn datasets(&self) -> &[Dataset] {
        &self.list
    }

    /// The dataset named `name` (`scheme://dataset`, or just `dataset`);
    /// LookupError if unknown.
    pub fn dataset(&self, name: &str) -> Result<&Dataset> {
        let canonical =
            BenchmarkUri::parse(name).map(|u| u.dataset_uri()).unwrap_or_else(|_| name.to_string());
        self.list
            .iter()
            .find(|d| d.name == canonical)
            .ok_or_else(|| Error::lookup(format!("unknown dataset {name:?}")))
    }

    /// The first benchmark of the first non-empty dataset: the default
    /// benchmark of an environment that was given none.
    pub fn first_benchmark(&self) -> Option<String> {
        self.list.iter().find_map(|d| d.benchmark_uri(0))
    }

    /// The URIs of every listed benchmark (seeded datasets are unbounded and
    /// not listed).
    pub fn listed_benchmarks(&self) -> impl Iterator<Item = &str> {
        self.list
            .iter()
            .flat_map(|d| match &d.benchmarks {
                DatasetBenchmarks::Listed(uris) => uris.as_slice(),
                DatasetBenchmarks::Seeded => &[],
            })
            .map(String::as_str)
    }

    /// A benchmark drawn with `rng`: a dataset uniformly (empty ones
    /// excluded), then a benchmark of it uniformly (a seed below 2^53 for a
    /// seeded dataset, so JavaScript can hold it). LookupError if there is
    /// no benchmark at all.
    pub fn random_benchmark(&self, rng: &mut Rng) -> Result<String> {
        let candidates: Vec<&Dataset> = self.list.iter().filter(|d| d.size() != Some(0)).collect();
        if candidates.is_empty() {
            return Err(Error::lookup("there are no benchmarks to choose from"));
        }
        let dataset = candidates[rng.index(candidates.len())];
        let index = match dataset.size() {
            Some(n) => rng.below(n),
            None => rng.draw_seed(),
        };
        dataset.benchmark_uri(index).ok_or_else(|| Error::lookup("dataset index out of range"))
    }

    /// A benchmark drawn from one dataset.
    pub fn random_benchmark_in(&self, dataset: &str, rng: &mut Rng) -> Result<String> {
        Datasets::new(vec![self.dataset(dataset)?.clone()]).random_benchmark(rng)
    }
}
