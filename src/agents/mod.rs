//! Agents that optimise programs through the environment API: searches and
//! a learned policy, and the leaderboard that compares them.
//!
//! Every agent works through [`CompilerEnv`](crate::env::CompilerEnv)'s
//! public API — reset, step, fork, observations — on whatever action space
//! the environment has. A search is a resumable state machine
//! ([`search::Search`], driven by [`search::SearchRun`] under a budget of
//! steps and/or seconds), so a Web Worker can run it in chunks, report
//! progress and stop it. States are forks: the compiler remembers the
//! transitions passes made, so returning to a state or replaying a known
//! step costs no pass.
//!
//! ```
//! # fn main() -> compgym::Result<()> {
//! use compgym::agents::{kinds::AgentKind, task::Task, Budget, SearchOptions, SearchRun};
//! use compgym::compilers::make;
//! use compgym::env::{EnvOptions, ResetOptions};
//! let mut env = make("bril-v0", EnvOptions::default())?;
//! env.reset(ResetOptions { benchmark: Some("benchmark://suite-v0/trapezoid".into()), ..Default::default() })?;
//! let budget = Budget { steps: Some(3000), seconds: Some(10.0) };
//! let options = SearchOptions { cost: "IrInstructionCount".into(), budget, ..Default::default() };
//! let mut run = SearchRun::new(&env, AgentKind::Explore.make(0, Task::CodeSize)?, options)?;
//! while run.run_chunk(0.05)?.is_running() {
//!     assert!(run.progress().best_cost <= 72.0); // best_cost, steps, elapsed, status
//! }
//! let result = run.result()?;
//! assert!(result.cost < 72.0, "{}", result.state().to_csv());
//! # Ok(())
//! # }
//! ```
//!
//! * [`random`]: random search with patience;
//! * [`greedy`]: the best single action each step, until none helps;
//! * [`beam`]: beam search over distinct states;
//! * [`explore`]: an archive of distinct states explored by short walks (after Go-Explore);
//! * [`guided`]: a search that a trained policy guides (greedy rounds, prefix beam, then explore);
//! * [`policy`]: a network choosing passes before the pipeline, trained with
//!   PPO ([`policy::train`]), played step by step by [`policy::play::Player`]
//!   and zero-shot by [`policy::PolicyRollout`];
//! * [`fixed`]: the fixed-sequence ablation every learned number is read against;
//! * [`programs`]: the hand-written programs and their train/held-out split;
//! * [`baseline`]: a baseline pipeline as a start state;
//! * [`kinds`]: the agents by name;
//! * [`leaderboard`]: every agent on code size and runtime, one table;
//! * [`request`]: agents and leaderboards started from plain data (names,
//!   counts, a budget), with their defaults and checks;
//! * [`context`], [`state_keys`]: what searches share.

pub mod baseline;
pub mod beam;
pub mod context;
pub mod explore;
pub mod fixed;
pub mod greedy;
pub mod guided;
pub mod kinds;
pub mod leaderboard;
pub mod policy;
pub mod programs;
pub mod random;
pub mod request;
pub mod search;
pub mod state_keys;
pub mod task;
#[cfg(test)]
mod tests;

pub use context::{Best, SearchContext, Stepped};
pub use search::{Budget, Progress, Search, SearchOptions, SearchResult, SearchRun, Status};
