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
//! * [`random`]: random search with patience;
//! * [`greedy`]: the best single action each step, until none helps;
//! * [`beam`]: beam search over distinct states;
//! * [`explore`]: an archive of distinct states explored by short walks (after Go-Explore);
//! * [`policy`]: a network trained with REINFORCE ([`policy::train`]), played
//!   zero-shot by [`policy::PolicyRollout`];
//! * [`baseline`]: a baseline pipeline as a start state;
//! * [`kinds`]: the agents by name;
//! * [`leaderboard`]: every agent on code size and runtime, one table;
//! * [`context`], [`state_keys`]: what searches share.

pub mod baseline;
pub mod beam;
pub mod context;
pub mod explore;
pub mod greedy;
pub mod kinds;
pub mod leaderboard;
pub mod policy;
pub mod random;
pub mod search;
pub mod state_keys;
#[cfg(test)]
mod tests;

pub use context::{Best, SearchContext, Stepped};
pub use search::{Budget, Progress, Search, SearchOptions, SearchResult, SearchRun, Status};
