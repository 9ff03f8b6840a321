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
//!   `benchmark://large-v0/NAME`; [`generator`]: `generator://random-v0/SEED?size=N`
//!   and `generator://random-v1/SEED?size=N` (shaped like hand-written programs);
//!   [`shapes`]: large programs of a given size and shape (straight-line,
//!   loop-heavy, call-heavy, block-chain, call-chain, one-variable).
//! - [`mod@bench`]: interpreter throughput with the caller's clock;
//!   [`scaling`]: the cost of every pass, feature and reader against size.
//! - [`features`]: observations of a program: InstCount, Autophase, the
//!   ProGraML-like graph, CFGs, IrSha1.
//! - [`identity`]: whether two programs are exactly the same, and a hash of it.

pub mod analysis;
mod assemble;
#[cfg(feature = "bench")]
pub mod bench;
pub mod compile;
pub mod features;
pub mod generator;
mod hash;
pub mod identity;
pub mod interp;
pub mod ir;
pub mod json;
mod lex;
mod list;
pub mod names;
pub mod ops;
pub mod parse;
pub mod passes;
pub mod print;
#[cfg(feature = "bench")]
pub mod scaling;
pub mod shapes;
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

/// A program (text or JSON) as Bril JSON, as `bril2json` prints it, with
/// `positions` marks: 0 none, 1 each function's, label's and instruction's
/// start (`-p`), 2 or more its end too (`-pp`; a JSON source has no ends to
/// give, so it gets starts).
pub fn source_to_json(src: &str, positions: u32) -> crate::Result<String> {
    use json::{to_json_with, Positions};
    if src.trim_start().starts_with('{') {
        let program = parse_json(src)?;
        return Ok(to_json_with(&program, if positions > 0 { Positions::Starts } else { Positions::None }));
    }
    let (program, ends) = parse::parse_text_with_ends(src)?;
    let marks = match positions {
        0 => Positions::None,
        1 => Positions::Starts,
        _ => Positions::StartsAndEnds(&ends),
    };
    Ok(to_json_with(&program, marks))
}
