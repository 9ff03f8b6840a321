//! TypeScript unions built at compile time from the core's registries, so
//! a new space kind or agent reaches `compgym.d.ts` with no line here:
//! `SpaceType` (the kinds' `type` tags, [`crate::spaces::KINDS`]),
//! `Batching` ([`crate::spaces::Batching::ALL`]) and `AgentName`
//! ([`crate::agents::kinds::AGENTS`]). wasm-bindgen takes a constant
//! expression as a custom section; `tests/js/catalog.test.mjs` compares the
//! unions with `catalog()`.

use crate::agents::kinds::AGENTS;
use crate::spaces::{Batching, KINDS};
use wasm_bindgen::prelude::*;

// The constants below are read only by wasm-bindgen's generated custom
// section, which the dead-code lint does not count as a use.

/// Copies `bytes` into `out` at `at`; returns where they end.
#[allow(dead_code)]
const fn copy<const N: usize>(out: &mut [u8; N], at: usize, bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < bytes.len() {
        out[at + i] = bytes[i];
        i += 1;
    }
    at + bytes.len()
}

/// `$prefix` + `"a" | "b" | …` + `$suffix` as a `&'static str` computed at
/// compile time, the strings being `entry $access` for each entry of
/// `$list` (`KINDS` and `.name`, `Batching::ALL` and `.name()`).
macro_rules! ts_union {
    ($prefix:expr, $list:expr, $($access:tt)+) => {{
        const PREFIX: &str = $prefix;
        const LEN: usize = {
            let list = $list;
            let mut n = PREFIX.len() + 2; // the prefix, ";\n"
            let mut i = 0;
            while i < list.len() {
                n += list[i] $($access)+ .len() + if i > 0 { 5 } else { 2 };
                i += 1;
            }
            n
        };
        const BYTES: [u8; LEN] = {
            let list = $list;
            let mut out = [0u8; LEN];
            let mut at = copy(&mut out, 0, PREFIX.as_bytes());
            let mut i = 0;
            while i < list.len() {
                at = copy(&mut out, at, if i > 0 { b" | \"" } else { b"\"" });
                at = copy(&mut out, at, list[i] $($access)+ .as_bytes());
                at = copy(&mut out, at, b"\"");
                i += 1;
            }
            copy(&mut out, at, b";\n");
            out
        };
        // Every piece is a `&str`, so the bytes are UTF-8; were they not, the
        // section would be empty and the type tests would miss the union.
        match core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => "",
        }
    }};
}

/// `export type SpaceType = "Box" | …;`
#[allow(dead_code)]
const SPACE_TYPE: &str = ts_union!(
    "\n/** The kind of a space (`space.type`, a description's `type`). */\nexport type SpaceType = ",
    KINDS,
    .name
);

/// `export type Batching = "stack" | …;`
#[allow(dead_code)]
const BATCHING: &str = ts_union!(
    "\n/** How a space kind's values batch across vector environments: stacked into one array, gathered scalars, part by part (Dict, Tuple), or a list. */\nexport type Batching = ",
    Batching::ALL,
    .name()
);

/// `export type AgentName = "random" | …;`
#[allow(dead_code)]
const AGENT_NAME: &str = ts_union!(
    "\n/** The agents by name: the searches, the search the policy guides, the learned policy's zero-shot rollout, and the fixed-sequence ablation. */\nexport type AgentName = ",
    AGENTS,
    .name
);

#[wasm_bindgen(typescript_custom_section)]
const _: &str = SPACE_TYPE;

#[wasm_bindgen(typescript_custom_section)]
const _: &str = BATCHING;

#[wasm_bindgen(typescript_custom_section)]
const _: &str = AGENT_NAME;
