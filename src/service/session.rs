//! What a compiler implements to be served: a [`CompilerBackend`] that
//! describes its spaces and starts [`CompilationSession`]s.

use super::benchmark::{BenchmarkUri, Dataset};
use super::messages::{ActionSpace, Benchmark, ObservationSpace};
use crate::error::Result;
use crate::value::Value;

/// What applying one action did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionOutcome {
    /// No further actions can be taken (the program is final or broken).
    pub end_of_session: bool,
    /// Set when the action changed the action space.
    pub new_action_space: Option<ActionSpace>,
    /// The action is known to have changed nothing, so deterministic
    /// observations from before it are still valid.
    pub action_had_no_effect: bool,
}

/// One compilation in progress: a program being transformed by actions.
///
/// Errors returned here reach clients as ServiceErrors; the service stays
/// usable after any of them.
pub trait CompilationSession {
    /// Applies one action from the session's action space.
    fn apply_action(&mut self, action: &Value) -> Result<ActionOutcome>;

    /// Computes the observation `space`, which is entry `index` of the
    /// backend's observation spaces (match on the index: it is cheaper than
    /// the name). `&mut` so a session may cache analyses.
    fn get_observation(&mut self, index: usize, space: &ObservationSpace) -> Result<Value>;

    /// An independent copy in the same state.
    fn fork(&self) -> Result<Box<dyn CompilationSession>>;

    /// The action space this session uses if starting on its benchmark
    /// changed it from the one it was started with: StartSession's
    /// `new_action_space`. `None` (the default) when it did not.
    fn new_action_space(&self) -> Option<ActionSpace> {
        None
    }

    /// Marks in `no_effect` (one entry per action of the session's action
    /// space, by position) the actions already known to leave the current
    /// state unchanged, without trying any: it must be cheap. The default
    /// knows nothing.
    fn known_no_effect(&self, no_effect: &mut [bool]) {
        let _ = no_effect;
    }

    /// Handles a `<key, value>` parameter; `Ok(None)` for an unknown key.
    fn handle_session_parameter(&mut self, key: &str, value: &str) -> Result<Option<String>> {
        let _ = (key, value);
        Ok(None)
    }

    /// Checks that the program still means what the benchmark meant (for a
    /// compiler: run it and compare with the unoptimised program's
    /// behaviour). `Ok(None)` when the session cannot tell; otherwise the
    /// list of problems found, empty when none.
    fn validate(&mut self) -> Result<Option<Vec<String>>> {
        Ok(None)
    }
}

/// A compiler as a service: its spaces, its benchmarks and a way to start
/// sessions. The service calls the list methods once, when it is created.
pub trait CompilerBackend {
    /// The version of the compiler (GetVersion's `compiler_version`).
    fn compiler_version(&self) -> String;

    /// The action spaces a session can be started with; at least one.
    fn action_spaces(&self) -> Vec<ActionSpace>;

    /// Every observation space; StartSession and Step refer to them by index.
    fn observation_spaces(&self) -> Vec<ObservationSpace>;

    /// Starts a session on `benchmark` with action space `action_space`
    /// (an index into [`CompilerBackend::action_spaces`], already checked).
    /// A program that cannot be loaded is a BenchmarkInitError.
    fn start_session(
        &self,
        benchmark: &Benchmark,
        action_space: usize,
    ) -> Result<Box<dyn CompilationSession>>;

    /// Produces the benchmark a URI names (a bundled program, a generated
    /// one...), or `Ok(None)` if this backend does not know it. Benchmarks
    /// added with AddBenchmark take precedence.
    fn resolve_benchmark(&self, uri: &BenchmarkUri) -> Result<Option<Benchmark>> {
        let _ = uri;
        Ok(None)
    }

    /// The datasets this backend can resolve, for listing and random choice.
    fn datasets(&self) -> Vec<Dataset> {
        Vec::new()
    }

    /// Checks a benchmark given to AddBenchmark, so a program that can never
    /// be loaded is refused when it is added (a BenchmarkInitError saying
    /// why) rather than at the next reset. The default accepts everything.
    fn check_benchmark(&self, benchmark: &Benchmark) -> Result<()> {
        let _ = benchmark;
        Ok(())
    }

    /// Forgets what the backend remembers between sessions (parsed
    /// benchmarks, states passes led to): its environment was closed. The
    /// default remembers nothing.
    fn forget_recent(&mut self) {}
}
