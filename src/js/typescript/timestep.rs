//! tf_agents' TimeStep face: specs, time steps, state tokens, the options
//! of the TimeStep environments and the per-arm bandits' functions.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TIMESTEP: &'static str = r#"
/** tf_agents' ArraySpec: the shape and dtype of an array. */
export interface ArraySpec {
  name: string | null;
  shape: number[];
  dtype: DType;
}

/**
 * tf_agents' BoundedArraySpec: inclusive bounds, one for every element
 * (a number; a BigInt for an int64 beyond 2^53) or one per element.
 */
export interface BoundedArraySpec extends ArraySpec {
  minimum: number | bigint | number[] | Float64Array;
  maximum: number | bigint | number[] | Float64Array;
}

/** A nest of specs: array specs in dicts and lists. */
export type Spec = ArraySpec | BoundedArraySpec | Spec[] | { [key: string]: Spec };

/** The specs of a time step's fields. */
export interface TimeStepSpec<ObservationSpec = Spec> {
  stepType: ArraySpec;
  reward: ArraySpec;
  discount: BoundedArraySpec;
  observation: ObservationSpec;
}

/** A time step of an unbatched environment: FIRST from reset, MID or LAST from step. */
export interface TimeStep<Observation = SpaceValue> {
  stepType: StepType;
  reward: number;
  /** 0 when the episode ended, 1 otherwise (also when it was cut short). */
  discount: number;
  observation: Observation;
}

/** A time step of a batched environment: one entry per batch element in every field. */
export interface BatchedTimeStep<Observation = SpaceValue> {
  /** `StepType` values. */
  stepType: Int32Array;
  reward: Float32Array;
  discount: Float32Array;
  observation: Observation;
}

/**
 * A per-arm bandit's observation, batched and flat: `global` holds
 * batchSize × globalDim features, `per_arm` batchSize × maxNumActions ×
 * armDim; `num_actions` (with a `numActionsFn`) the arms available to each
 * batch element.
 */
export interface PerArmObservation {
  global: Float64Array;
  per_arm: Float64Array;
  num_actions?: Int32Array;
}
/** A time step of a per-arm bandit (always batched). */
export type PerArmTimeStep = BatchedTimeStep<PerArmObservation>;
export interface PerArmObservationSpec {
  global: ArraySpec;
  per_arm: ArraySpec;
  num_actions?: BoundedArraySpec;
}

/** What `getState()` returns and `setState` restores: JSON, opaque to the caller. */
export type EnvStateToken = { [key: string]: JsonValue };

/** `CompilerTimeStepEnvironment.getInfo()`: what the last step did. */
export interface CompilerTimeStepInfo {
  actionHadNoEffect: boolean;
  newActionSpace: boolean;
  /** The compiler's failure that ended the episode, if any. */
  error: { name: ErrorName; message: string } | null;
  benchmark: string | null;
}

/** Options of `new CompilerTimeStepEnvironment(id, options)`: `make`'s, and the dataset seeded resets draw from. */
export interface CompilerTimeStepOptions extends EnvOptions {
  dataset?: string | null;
}

/** Options of `new CompilerBandit(options)`. */
export interface CompilerBanditOptions {
  seed?: Seed;
  /** Default 1. */
  batchSize?: number | bigint;
  /** Suite program names or URIs (default: the whole suite). */
  programs?: string[];
}

/** A context: drawn by a function from the environment's generator, or a built-in distribution of `dim` features. */
export type ContextSamplingFn =
  | ((rng: Rng) => number[] | TypedArray)
  | { kind: "gaussian"; dim: number; mean?: number; std?: number }
  | { kind: "uniform"; dim: number; low?: number; high?: number };

/** The reward of the chosen arm's features (`[global, arm]`): a function, or a built-in linear one (which also knows its expectation). */
export type BanditRewardFn =
  | ((features: Float64Array, rng: Rng) => number)
  | { kind: "linear"; theta: number[] | TypedArray; noiseStd?: number };

/** The number of arms available at a step: a function, or uniform in `[low, high]`. */
export type NumActionsFn = ((rng: Rng) => number | bigint) | { kind: "uniform"; low: number; high: number };

/** Options of `new StationaryStochasticPerArmEnvironment(options)`. */
export interface PerArmBanditOptions {
  globalContextSamplingFn: ContextSamplingFn;
  armContextSamplingFn: ContextSamplingFn;
  maxNumActions: number | bigint;
  rewardFn: BanditRewardFn;
  numActionsFn?: NumActionsFn;
  /** Default 1. */
  batchSize?: number | bigint;
  name?: string;
  seed?: Seed;
}

/** What `validateEnvironment` plays: any TimeStep environment of this package. */
export interface ValidatableEnvironment {
  validate(episodes?: number | null, seed?: number | null): void;
}

/** LinUCB plays the compiler bandit as well as the stationary one. */
export interface LinUcb {
  /** The arms to play for the compiler bandit's current observation (reset it first). */
  act(env: CompilerBandit): Int32Array;
}
"#;
