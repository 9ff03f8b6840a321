//! The Bril compiler: IR, text and JSON formats, verifier, interpreter,
//! bundled benchmark suite and random program generator.
//!
//! Bril is the teaching IR of Cornell's CS 6120. Semantics follow the
//! reference interpreter `brili`: the same output and the same dynamic
//! instruction count.
//!
//! - [`ir`]: [`Program`] / [`Function`] / [`Block`] / [`Instr`] with typed ids
//!   ([`VarId`], [`BlockId`], [`FuncId`]); CFG helpers (`successors`,
//!   `predecessors`), uses/defs, fresh names.
//! - Formats: [`parse_text`], [`to_text`], [`parse_json`], [`to_json`],
//!   [`parse_any`] (either). Readers resolve every name, so a program that
//!   exists has no dangling label or callee.
//! - [`verify()`]: types, arities, signatures, definedness, SSA rules.
//! - [`interp`]: [`interp::run`] or [`interp::Executable`] with [`interp::Limits`].
//! - [`suite`]: `benchmark://suite-v0/NAME` and [`suite::large`]:
//!   `benchmark://large-v0/NAME`; [`generator`]: `generator://random-v0/SEED?size=N`.
//! - [`mod@bench`]: interpreter throughput with the caller's clock.
//! - [`features`]: observations of a program: InstCount, Autophase, the
//!   ProGraML-like graph, CFGs, IrSha1.

pub mod analysis;
mod assemble;
#[cfg(feature = "bench")]
pub mod bench;
pub mod features;
pub mod generator;
mod hash;
pub mod interp;
pub mod ir;
pub mod json;
mod lex;
mod list;
pub mod ops;
pub mod parse;
pub mod passes;
pub mod print;
pub mod suite;
pub mod types;
pub mod verify;

pub use ir::{Block, BlockId, Dest, FuncId, Function, Instr, Literal, Op, Param, Pos, Program, Type, VarId};
pub use json::{parse_json, to_json, to_json_value};
pub use parse::parse_text;
pub use print::to_text;
pub use verify::verify;

/// Reads a program in either format: JSON when the first non-blank character
/// is `{`, Bril text otherwise.
pub fn parse_any(src: &str) -> crate::Result<Program> {
    if src.trim_start().starts_with('{') {
        parse_json(src)
    } else {
        parse_text(src)
    }
}
