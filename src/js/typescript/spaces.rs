//! Spaces: the factories' options, the descriptions `toJSON()` and
//! `toGym()` write (and `fromJSON`/`fromGym` read), dtypes and kinds.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_SPACES: &'static str = r#"
/** An element type, by its canonical name (what `canonicalDtype` returns). */
export type DType =
  | "bool"
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "float32"
  | "float64";

/** An element type as the factories read it: a canonical name or one of numpy's aliases. */
export type DTypeName =
  | DType
  | "bool_"
  | "bool8"
  | "i8"
  | "i16"
  | "i32"
  | "i64"
  | "int"
  | "u8"
  | "u16"
  | "u32"
  | "u64"
  | "f32"
  | "f64"
  | "float"
  | "double";

/**
 * A mask for `sample(mask)` (Gymnasium 1.x): one row of 0/1 (MultiBinary: 0, 1 or 2 = random) per
 * choice; a MultiDiscrete takes a row per element (nested like its shape) or one row of all.
 */
export type SampleMask = Uint8Array | Int8Array | ArrayLike<number | boolean> | ReadonlyArray<SampleMask>;

/** Gymnasium's keyword form: at most one of `mask` and `probability` (rows summing to 1; MultiBinary: P(bit = 1)). */
export interface SampleOptions {
  mask?: SampleMask | null;
  probability?: Float64Array | Float32Array | ArrayLike<number> | ReadonlyArray<Float64Array | Float32Array | ArrayLike<number>> | null;
}

/** What a Sequence holds: text, bytes, or arrays of a dtype. */
export type SequenceDType = "str" | "bytes" | DType;

// ---- the factories' options -------------------------------------------------

/** Bounds or counts: one number for every element, or one per element (nested arrays give the shape). */
export type BoundsInput = number | bigint | TypedArray | BoundsInput[];
/** A shape: its dimensions, or one number for a vector. */
export type ShapeInput = number | number[] | Uint32Array;
/** A child space: a Space, or its description. */
export type SpaceInput = Space | SpaceDescription;

export interface SpaceOptions {
  /** The space's name (default: its kind). */
  name?: string;
}

export interface BoxOptions extends SpaceOptions {
  low: BoundsInput;
  high: BoundsInput;
  /** Default: the bounds' shape. */
  shape?: ShapeInput;
  /** Default `"float32"`. */
  dtype?: DTypeName;
}

export interface DiscreteOptions extends SpaceOptions {
  /** The first value (default 0). */
  start?: number | bigint;
}

/** A Commandline space's flag; `name` is what `get(name)` looks up. */
export interface CommandlineFlag {
  name: string;
  flag: string;
  description?: string;
}

export interface ScalarOptions extends SpaceOptions {
  /** null or absent: unbounded. */
  min?: number | bigint | null;
  max?: number | bigint | null;
  /** Default `"float64"`. */
  dtype?: DTypeName;
}

export interface SequenceOptions extends SpaceOptions {
  /** `[min, max]` length; max null for unbounded. */
  sizeRange?: [number, number | null];
  /** Default `"bytes"`; `"string"` is read as `"str"`. */
  dtype?: SequenceDType | DTypeName | "string";
  /** The format of opaque bytes (`"json://"`...). */
  opaqueDataFormat?: string | null;
  /** A Scalar space every element lies in. */
  scalarRange?: SpaceInput | null;
}

export interface SpaceSequenceOptions extends SpaceOptions {
  sizeRange?: [number, number | null];
}

export interface DictOptions extends SpaceOptions {
  /** Sort the keys, as Gymnasium does (default true); false keeps the object's order. */
  sortKeys?: boolean;
}

export interface RewardOptions extends SpaceOptions {
  observationSpaces?: string[];
  defaultValue?: number;
  min?: number | null;
  max?: number | null;
  defaultNegatesReturns?: boolean;
  successThreshold?: number | null;
  deterministic?: boolean;
  platformDependent?: boolean;
}

export interface MultiDiscreteOptions extends SpaceOptions {
  start?: BoundsInput;
  /** Default `"int64"`. */
  dtype?: DTypeName;
}

export interface DynamicBoxOptions extends SpaceOptions {
  low: BoundsInput;
  high: BoundsInput;
  shapeLow: ShapeInput;
  shapeHigh: ShapeInput;
  dtype: DTypeName;
  /** What `pad` fills with (default 0). */
  fillValue?: number;
}

export interface GraphOptions extends SpaceOptions {
  /** A Box of each node's features. */
  nodeSpace: SpaceInput;
  /** A Box of each edge's features, or none. */
  edgeSpace?: SpaceInput | null;
  minNodes?: number;
  maxNodes?: number | null;
  minEdges?: number;
  maxEdges?: number | null;
  batchShape?: ShapeInput;
}

export interface TextOptions extends SpaceOptions {
  maxLength: number;
  minLength?: number;
  /** The characters text is drawn from (default: digits and ASCII letters). */
  charset?: string;
}

/** `getRepr`'s options (UniEnv's). */
export interface ReprOptions {
  abbreviate?: boolean;
  includeDtype?: boolean;
}

// ---- descriptions: what toJSON() writes and fromJSON() reads --------------------

/** A number of a description: non-finite ones by name, integers past 2^53 as decimal strings. */
export type DescriptionNumber = number | "inf" | "-inf" | "nan" | `${bigint}`;
/** Bounds in a description: one number for every element, or nested arrays shaped like the space. */
export type DescriptionBounds = DescriptionNumber | DescriptionBounds[];
/** A length range: `[min, max]`, max null for unbounded. */
export type SizeRange = [number, number | null];

export interface BoxDescription {
  type: "Box";
  name: string;
  dtype: DType;
  shape: number[];
  low: DescriptionBounds;
  high: DescriptionBounds;
}
export interface DiscreteDescription {
  type: "Discrete";
  name: string;
  n: number;
  start: number;
}
export interface NamedDiscreteDescription {
  type: "NamedDiscrete";
  name: string;
  names: string[];
}
export interface CommandlineDescription {
  type: "Commandline";
  name: string;
  flags: { name: string; flag: string; description: string }[];
}
export interface ScalarDescription {
  type: "Scalar";
  name: string;
  dtype: DType;
  min: DescriptionNumber | null;
  max: DescriptionNumber | null;
}
export interface SequenceDescription {
  type: "Sequence";
  name: string;
  dtype: SequenceDType;
  size_range: SizeRange;
  opaque_data_format: string | null;
  scalar_range: ScalarDescription | null;
}
export interface SpaceSequenceDescription {
  type: "SpaceSequence";
  name: string;
  size_range: SizeRange;
  space: SpaceDescription;
}
export interface PermutationDescription {
  type: "Permutation";
  name: string;
  scalar_range: ScalarDescription;
}
export interface DictDescription {
  type: "Dict";
  name: string;
  /** `[key, space]` pairs, in the dict's order. */
  spaces: [string, SpaceDescription][];
  /** Read only: whether to sort the keys (default: as the pairs come). */
  sort_keys?: boolean;
}
export interface TupleDescription {
  type: "Tuple";
  name: string;
  spaces: SpaceDescription[];
}
export interface UnionDescription {
  type: "Union";
  name: string;
  spaces: SpaceDescription[];
}
export interface RewardDescription {
  type: "Reward";
  name: string;
  observation_spaces: string[];
  default_value: DescriptionNumber;
  min: DescriptionNumber | null;
  max: DescriptionNumber | null;
  default_negates_returns: boolean;
  success_threshold: DescriptionNumber | null;
  deterministic: boolean;
  platform_dependent: boolean;
}
export interface MultiDiscreteDescription {
  type: "MultiDiscrete";
  name: string;
  nvec: number[];
  start: number[];
  shape: number[];
  dtype: DType;
}
export interface MultiBinaryDescription {
  type: "MultiBinary";
  name: string;
  shape: number[];
}
export interface BinaryDescription {
  type: "Binary";
  name: string;
  shape: number[];
}
export interface DynamicBoxDescription {
  type: "DynamicBox";
  name: string;
  dtype: DType;
  low: DescriptionBounds;
  high: DescriptionBounds;
  shape_low: number[];
  shape_high: number[];
  fill_value: DescriptionNumber;
}
export interface GraphDescription {
  type: "Graph";
  name: string;
  node_space: BoxDescription;
  edge_space: BoxDescription | null;
  min_nodes: number;
  max_nodes: number | null;
  min_edges: number;
  max_edges: number | null;
  batch_shape: number[];
}
export interface TextDescription {
  type: "Text";
  name: string;
  charset: string;
  min_length: number;
  max_length: number;
}
export interface BatchedDescription {
  type: "Batched";
  name: string;
  space: SpaceDescription;
  batch_shape: number[];
}

/** A space's description (`space.toJSON()`), by kind; `Space.fromJSON` turns it back into the space. */
export type SpaceDescription =
  | BoxDescription
  | DiscreteDescription
  | NamedDiscreteDescription
  | CommandlineDescription
  | ScalarDescription
  | SequenceDescription
  | SpaceSequenceDescription
  | PermutationDescription
  | DictDescription
  | TupleDescription
  | UnionDescription
  | RewardDescription
  | MultiDiscreteDescription
  | MultiBinaryDescription
  | BinaryDescription
  | DynamicBoxDescription
  | GraphDescription
  | TextDescription
  | BatchedDescription;

// ---- Gymnasium's descriptions: what toGym() writes and fromGym() reads ----------------

export interface GymBoxDescription {
  type: "Box";
  low: DescriptionBounds;
  high: DescriptionBounds;
  shape: number[];
  dtype: DType;
}
export interface GymDiscreteDescription {
  type: "Discrete";
  n: number;
  start: number;
}
export interface GymMultiDiscreteDescription {
  type: "MultiDiscrete";
  /** Nested like the space's shape. */
  nvec: DescriptionBounds;
  start: DescriptionBounds;
  dtype: DType;
}
export interface GymMultiBinaryDescription {
  type: "MultiBinary";
  n: number[];
}
export interface GymTextDescription {
  type: "Text";
  charset: string;
  min_length: number;
  max_length: number;
}
export interface GymDictDescription {
  type: "Dict";
  spaces: { [key: string]: GymSpaceDescription };
}
export interface GymTupleDescription {
  type: "Tuple";
  spaces: GymSpaceDescription[];
}
export interface GymOneOfDescription {
  type: "OneOf";
  spaces: GymSpaceDescription[];
}
export interface GymSequenceDescription {
  type: "Sequence";
  feature_space: GymSpaceDescription;
  stack: boolean;
}
export interface GymGraphDescription {
  type: "Graph";
  node_space: GymBoxDescription;
  edge_space: GymBoxDescription | null;
}

/** A Gymnasium space as a description (`space.toGym()`); `Space.fromGym` reads it. */
export type GymSpaceDescription =
  | GymBoxDescription
  | GymDiscreteDescription
  | GymMultiDiscreteDescription
  | GymMultiBinaryDescription
  | GymTextDescription
  | GymDictDescription
  | GymTupleDescription
  | GymOneOfDescription
  | GymSequenceDescription
  | GymGraphDescription;
"#;
