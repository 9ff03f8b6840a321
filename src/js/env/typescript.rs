//! TypeScript shapes of the plain objects the environment API takes and
//! returns, so `compgym.d.ts` types them.
//!
//! Optional option arguments are typed `T | void`: TypeScript lets a call
//! leave out a trailing argument whose type accepts `void`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_ENV: &'static str = r#"
/** Options of `make(id, options)`; each one overrides the id's default. */
export interface EnvOptions {
  benchmark?: string;
  actionSpace?: string;
  /** An observation space id, or null for none. */
  observationSpace?: string | null;
  /** A reward space name, or null for none. */
  rewardSpace?: string | null;
  maxEpisodeSteps?: number | null;
}

/** Options of `env.reset(options)`; each one given also changes the setting for later resets. */
export interface ResetOptions {
  benchmark?: string;
  actionSpace?: string;
  observationSpace?: string | null;
  rewardSpace?: string | null;
}

/** Explicit spaces for one `multistep`: the results are then arrays in this order. */
export interface StepOptions {
  observationSpaces?: string[];
  rewardSpaces?: string[];
}

export interface StepInfo {
  actionHadNoEffect: boolean;
  newActionSpace: boolean;
  /** Set when the compiler failed and the episode ended. */
  error?: CompgymError;
  /** A discrete action space's mask: 1 = may change the program, 0 = known to do nothing here. */
  actionMask?: Uint8Array;
  /** Every action is known to do nothing (the mask is then all ones). */
  fixedPoint?: true;
}

/** Gymnasium's step results. */
export interface StepResult {
  /** The observation of the observation space (null without one); with `observationSpaces`, one per space. */
  observation: SpaceValue;
  reward: number | number[] | null;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
}

/**
 * What the plain `step(action)` returns: the reward of the reward space, a
 * number. (An environment made without a reward space, such as bril-v0,
 * gives null there: set `env.rewardSpace` before summing rewards.)
 */
export interface SingleStepResult extends StepResult {
  reward: number;
}

export interface CompilerEnv {
  /**
   * One action: an integer, or a pass name like `"-dce"`. The plain call
   * gives one reward; with `observationSpaces`/`rewardSpaces` (CompilerGym's
   * `step(action, observation_spaces, reward_spaces)`) the observation and
   * reward are arrays in the order asked.
   */
  step(action: SpaceValue): SingleStepResult;
  step(action: SpaceValue, options: StepOptions & { rewardSpaces: string[] }): StepResult & { reward: number[] };
  step(action: SpaceValue, options?: StepOptions | void): StepResult;
}

/** CompilerGym's indexing: `env.observation["Autophase"]` computes what `.get("Autophase")` does. */
export interface ObservationView {
  readonly [name: string]: unknown;
}

/** CompilerGym's indexing: `env.reward["IrInstructionCountOz"]` computes what `.get(...)` does. */
export interface RewardView {
  readonly [name: string]: unknown;
}

/** CompilerGym's `CompilerEnvState`. */
export interface CompilerEnvState {
  benchmark: string;
  commandline: string;
  walltime?: number;
  reward?: number | null;
}

export interface ValidationError {
  kind: "Action replay failed" | "Reward mismatch" | "Semantics";
  details: string;
}

export interface ValidationResult {
  state: CompilerEnvState;
  okay: boolean;
  walltime: number;
  actionsReplayFailed: boolean;
  rewardValidated: boolean;
  rewardValidationFailed: boolean;
  benchmarkSemanticsValidated: boolean;
  benchmarkSemanticsValidationFailed: boolean;
  errors: ValidationError[];
}

/** A dataset the package ships as a file beside its module, fetched by `loadDataset(name)`. */
export type ShippedDataset = "large-v0";

/**
 * Fetches a dataset the package ships as a file (in its `datasets/` folder,
 * beside its module, which carries only the dataset's names) and loads it
 * for every environment, service and agent of this instance; resolves to its
 * name. Until then `env.datasets` lists the dataset's benchmarks, and a
 * reset to one of them is a BenchmarkInitError that says to load it.
 * Idempotent. Under Node the files are loaded on import and this resolves at
 * once; the workers (`compgym/worker.js`, `compgym/agents-worker.js`) load
 * them themselves. `base`: the folder they are served from, if not the
 * package's own.
 */
export function loadDataset(name: ShippedDataset, options?: { base?: string | URL }): Promise<ShippedDataset>;

export interface DatasetInfo {
  name: string;
  description: string;
  /** null for an unbounded (seeded) dataset. */
  size: number | null;
  benchmarks: string[] | null;
}

export interface RewardSpaceInfo {
  name: string;
  observationSpaces: string[];
  range: [number, number];
  defaultValue: number;
  successThreshold: number | null;
  defaultNegatesReturns: boolean;
  deterministic: boolean;
  platformDependent: boolean;
}

/** Options of `env.observation.addDerivedSpace`; unset ones come from the base space. */
export interface DerivedSpaceOptions {
  space?: Space | SpaceDescription;
  deterministic?: boolean;
  platformDependent?: boolean;
  defaultValue?: SpaceValue;
}

/**
 * A derived space's translate function: the base space's observation in,
 * the derived space's out. (Declared as a method so a TypeScript caller
 * may narrow the parameter: `(n: number) => 2 * n`.)
 */
export type TranslateFn = { translate(value: SpaceValue): SpaceValue }["translate"];

/**
 * A reward written in JavaScript, for `env.reward.addSpace`. On fork it is
 * copied with `clone()` if present, else shallowly with the same prototype.
 */
export interface JsRewardObject {
  name: string;
  observationSpaces?: string[];
  range?: [number | null, number | null];
  defaultValue?: number;
  successThreshold?: number;
  defaultNegatesReturns?: boolean;
  deterministic?: boolean;
  platformDependent?: boolean;
  reset?(benchmark: string, observationView: ObservationView): void;
  update(actions: number[], observations: SpaceValue[], observationView: ObservationView): number;
  clone?(): JsRewardObject;
}
"#;
