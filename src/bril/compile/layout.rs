//! The compiled module's memory, as the host sees it: a header of limits
//! and arguments written before a run, the count read back after, and the
//! records `print` leaves, turned into text with the interpreter's own
//! formatting.
//!
//! ```text
//! 0   fuel           (u64, in)   most dynamic instructions
//! 8   max depth      (u64, in)   deepest call nesting
//! 16  max cells      (u64, in)   register cells of all live frames; heap cells
//! 24  max records    (u64, in)   values printed, at most
//! 32  count          (u64, out)  dynamic instructions executed
//! 40  cursor         (u64, out)  where the last record ended
//! 48  arguments      (u64 each)  @main's parameters, the interpreter's words
//! ..  the first chunk of records, then heap allocations and further chunks
//! ```
//!
//! Records fill chunks of [`CHUNK_BYTES`], each starting with the address of
//! the next (0: none) and holding 16-byte records from offset 16. A record is
//! a value printed: its kind (with [`END_OF_LINE`] set on the last value of a
//! `print`) and its 64-bit word; a `print` of nothing leaves one
//! [`EMPTY_LINE`] record.

use crate::bril::interp::{write_value, Limits};
use crate::bril::types::BaseType;
use crate::bril::Type;

pub(crate) const FUEL: u64 = 0;
pub(crate) const MAX_DEPTH: u64 = 8;
pub(crate) const MAX_CELLS: u64 = 16;
pub(crate) const MAX_RECORDS: u64 = 24;
pub(crate) const COUNT: u64 = 32;
pub(crate) const CURSOR: u64 = 40;
pub(crate) const ARGS: u64 = 48;
pub(crate) const RECORD_BYTES: u64 = 16;
pub(crate) const CHUNK_BYTES: u64 = 1 << 16;

pub(crate) const KIND_INT: u32 = 0;
pub(crate) const KIND_BOOL: u32 = 1;
pub(crate) const KIND_FLOAT: u32 = 2;
pub(crate) const KIND_CHAR: u32 = 3;
pub(crate) const EMPTY_LINE: u32 = 4;
pub(crate) const KIND_PTR: u32 = 5;
pub(crate) const END_OF_LINE: u32 = 0x100;

/// Where the records start for a `@main` of `params` parameters.
pub(crate) fn records_at(params: usize) -> u64 {
    (ARGS + 8 * params as u64).next_multiple_of(RECORD_BYTES)
}

/// A record's kind for a printed value of type `ty`.
pub(crate) fn kind_of(ty: Type) -> u32 {
    if ty.is_ptr() {
        return KIND_PTR;
    }
    match ty.base {
        BaseType::Int => KIND_INT,
        BaseType::Bool => KIND_BOOL,
        BaseType::Float => KIND_FLOAT,
        BaseType::Char => KIND_CHAR,
    }
}

/// The header for one run: `limits` and `@main`'s arguments as words.
pub(crate) fn input(args: &[u64], limits: &Limits) -> Vec<u8> {
    let records = records_at(args.len());
    // Every record prints at least one byte, so a run with more records than
    // the output limit allows bytes fails in the interpreter too.
    let max_records = limits.max_output_bytes;
    let mut bytes = Vec::with_capacity(records as usize);
    let header = [limits.fuel, u64::from(limits.max_call_depth), limits.max_memory_cells, max_records, 0, 0];
    for word in header {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for word in args {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.resize(records as usize, 0);
    bytes
}

fn word(memory: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let bytes: [u8; 8] = memory.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(bytes))
}

/// The records in `memory`, in order: the chunks from the first, up to the
/// cursor; `None` when the chain is malformed.
fn records(memory: &[u8], params: usize) -> Option<Vec<&[u8]>> {
    let end = word(memory, CURSOR)?;
    let mut chunk = records_at(params);
    let mut found = Vec::new();
    // A chain can hold no more chunks than the memory does.
    for _ in 0..=memory.len() as u64 / CHUNK_BYTES {
        let last = (chunk..chunk + CHUNK_BYTES).contains(&end);
        let stop = if last { end } else { chunk + CHUNK_BYTES };
        let body = memory.get(usize::try_from(chunk + RECORD_BYTES).ok()?..usize::try_from(stop).ok()?)?;
        found.extend(body.chunks(RECORD_BYTES as usize));
        if last {
            return Some(found);
        }
        chunk = word(memory, chunk)? & 0xffff_ffff;
    }
    None
}

/// What a finished run left: its count and its output, or `None` when the
/// memory is malformed or the output passes `max_bytes` (the interpreter
/// then decides what happens).
pub(crate) fn output(memory: &[u8], params: usize, max_bytes: u64) -> Option<(u64, String)> {
    let count = word(memory, COUNT)?;
    let mut text = String::new();
    for record in records(memory, params)? {
        let kind = u32::try_from(word(record, 0)? & 0xffff_ffff).ok()?;
        let bits = word(record, 8)?;
        let ty = match kind & !END_OF_LINE {
            KIND_INT => Type { base: BaseType::Int, ptr_depth: 0 },
            KIND_BOOL => Type { base: BaseType::Bool, ptr_depth: 0 },
            KIND_FLOAT => Type { base: BaseType::Float, ptr_depth: 0 },
            KIND_CHAR => Type { base: BaseType::Char, ptr_depth: 0 },
            KIND_PTR => Type { base: BaseType::Int, ptr_depth: 1 },
            EMPTY_LINE => {
                text.push('\n');
                continue;
            }
            _ => return None,
        };
        write_value(&mut text, bits, ty);
        text.push(if kind & END_OF_LINE != 0 { '\n' } else { ' ' });
        if text.len() as u64 > max_bytes {
            return None;
        }
    }
    Some((count, text))
}
