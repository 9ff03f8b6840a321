//! Values as JavaScript holds them (see `interop::value` and
//! `interop::space_value`), seeds, JSON and error names.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_VALUES: &'static str = r#"
/** The typed arrays values travel in: int64 as BigInt64Array, bool as Uint8Array of 0 and 1. */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** A Graph space's value: node and edge features and the edges' `[source, target]` links, flat and row-major. */
export interface GraphValue {
  nodes: TypedArray | null;
  edges: TypedArray | null;
  edgeLinks: TypedArray | null;
  nNodes?: TypedArray | null;
  nEdges?: TypedArray | null;
}

/** A DynamicBox space's value: flat row-major data and the shape it has. */
export interface DynamicBoxValue {
  data: TypedArray;
  shape: number[];
}

/**
 * A value of a space (an action, an observation, a sample) in its natural
 * JavaScript form: numbers (a BigInt where an int64 does not fit a number),
 * booleans, strings, `Uint8Array` bytes, typed arrays for arrays and boxes,
 * arrays for tuples, sequences and `[index, value]` unions, plain objects
 * for dicts, graphs and dynamic boxes; null for none.
 */
export type SpaceValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | TypedArray
  | GraphValue
  | DynamicBoxValue
  | SpaceValue[]
  | { [key: string]: SpaceValue };

/** Numbers read into an array of a known dtype and shape: one number, a flat array, or a typed array. */
export type NumbersInput = number | bigint | boolean | TypedArray | Array<number | bigint | boolean>;

/** A seed: a non-negative safe integer, or a BigInt below 2^64. */
export type Seed = number | bigint;

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The `name` of every error compgym throws (`errorNames()` lists them). */
export type ErrorName =
  | "ValueError"
  | "LookupError"
  | "TypeError"
  | "SessionNotFound"
  | "ServiceError"
  | "BenchmarkInitError"
  | "ParseError"
  | "VerifyError"
  | "RuntimeError"
  | "LimitError"
  | "OverflowError";

/** What every entry point throws: an Error whose `name` says what kind it is. */
export interface CompgymError extends Error {
  name: ErrorName;
}

/** numpy Generator's choice and permutation, typed by what they are given. */
export interface Rng {
  /** An item of `a` (an integer n stands for 0..n) drawn uniformly; with `size`, that many draws with replacement. */
  choice(a: number): number;
  choice<T>(a: ArrayLike<T>): T;
  choice(a: number, size: number): number[];
  choice<T>(a: ArrayLike<T>, size: number): T[];
  /** For an integer n, 0..n in a random order; for an array or typed array, a shuffled copy of the same kind. */
  permutation(n: number): number[];
  permutation<A extends TypedArray>(x: A): A;
  permutation<T>(x: readonly T[]): T[];
}
"#;
