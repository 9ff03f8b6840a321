//! Program analyses the global passes build on.
//!
//! - [`cfg::Cfg`]: successors, predecessors, reverse postorder, reachability.
//! - [`dom::Dominators`]: immediate dominators (Cooper–Harvey–Kennedy), the
//!   dominator tree, dominance frontiers.
//! - [`loops`]: natural loops (back edges, bodies, nesting, exits) and
//!   preheader insertion.
//! - [`dataflow`]: a generic forward/backward worklist solver over a lattice
//!   ([`dataflow::Dataflow`]); [`liveness`], [`reaching`] definitions and
//!   [`definite`] assignment are built on it.
//! - [`edit`]: block insertion/removal and relabeling that keep jump targets
//!   right, unreachable-block removal, and [`edit::rewrite_functions`], the
//!   driver the global passes share (a rewrite that fails verification is dropped);
//!   [`edit::rewrite_drafts`] gives a pass each function as an [`edit::Draft`],
//!   copied only when the pass first writes to it.
//! - [`consts`]: constant bits and folding, bit-exact with the interpreter.
//! - [`sets`]: sparse sets for facts at block boundaries ([`sets::SparseSet`])
//!   and scratch sets reused while walking a block ([`sets::Marks`],
//!   [`sets::ListedSet`]): no analysis costs blocks × variables.
//!
//! Analyses are plain values computed from a [`Function`](crate::bril::Function);
//! any edit of the function makes them stale.

pub mod cfg;
pub mod consts;
pub mod dataflow;
pub mod definite;
pub mod dom;
pub mod edit;
pub mod liveness;
pub mod loops;
pub mod reaching;
pub mod sets;

pub use cfg::Cfg;
pub use dom::Dominators;
pub use loops::Loop;
