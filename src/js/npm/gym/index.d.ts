// Types of compgym/gym: Gymnasium's API for compgym. Every entry point
// throws an Error whose `name` says what kind it is (ValueError,
// TypeError, LookupError, and the core's own kinds).
import type {
  CompilerEnv,
  CompilerEnvState,
  GymFaceOptions,
  GymFaceSpec,
  ResetOptions as CompilerResetOptions,
  Rng,
  Space,
  SpaceValue,
  TypedArray,
  ValidationResult,
} from '../compgym.js';

export type { SpaceValue, TypedArray };

/**
 * What reset and step say besides the observation and reward. A compiler environment's has
 * `actionMask` (1 = may change the program, 0 = known to do nothing here; `actionSpace.sample(mask)`
 * takes it) and `fixedPoint` when every action is known to do nothing (the mask is then all ones).
 */
export type Info = { [key: string]: unknown; actionMask?: Uint8Array; fixedPoint?: boolean };

/** reset's one argument. */
export interface ResetArgs<Options extends object = { [key: string]: unknown }> {
  /** A non-negative safe integer or a BigInt below 2^64; null or absent for none. */
  seed?: number | bigint | null;
  options?: Options | null;
}

export type ResetResult<Obs> = [observation: Obs, info: Info];
export type StepResult<Obs> = [observation: Obs, reward: number, terminated: boolean, truncated: boolean, info: Info];
/** What render returns: the text in mode "ansi", an RGB frame in mode "rgb_array", null without a mode. */
export type RenderFrame = string | Uint8Array | null;

export interface Metadata {
  renderModes: string[];
  renderFps: number | null;
  [key: string]: unknown;
}

/** A registered environment (Gymnasium's EnvSpec). */
export interface EnvSpec {
  readonly id: string;
  readonly entryPoint: (options: { [key: string]: unknown }) => Env<unknown, unknown>;
  readonly maxEpisodeSteps: number | null;
  readonly rewardThreshold: number | null;
  readonly nondeterministic: boolean;
  readonly kwargs: Readonly<{ [key: string]: unknown }>;
}

/**
 * Gymnasium's Env. Subclasses set `actionSpace` and `observationSpace` and
 * define `step`; their `reset` calls `super.reset(args)` first, which seeds
 * `npRandom` and then the action space from its first draw.
 */
export class Env<Obs = SpaceValue, Act = SpaceValue> {
  actionSpace: Space;
  observationSpace: Space;
  rewardRange: [number, number];
  metadata: Metadata;
  renderMode: string | null;
  spec: EnvSpec | GymFaceSpec | null;
  /** The environment's generator: seeded by reset({seed}), from entropy if never seeded. */
  npRandom: Rng;
  /** The seed of npRandom; -1 if it was set directly, null before it exists. */
  readonly npRandomSeed: number | bigint | null;
  readonly unwrapped: Env<unknown, unknown>;
  reset(args?: ResetArgs): ResetResult<Obs>;
  step(action: Act): StepResult<Obs>;
  render(): RenderFrame;
  close(): void;
  /** The attribute `name` of this environment or, for a wrapper, of the first in its stack that has it (LookupError if none). */
  getWrapperAttr(name: string): unknown;
  setWrapperAttr(name: string, value: unknown): void;
  /** A copy in the same state (a TypeError "NotImplemented: ..." where the environment cannot copy itself). */
  fork(): Env<Obs, Act>;
  toString(): string;
}

/**
 * Gymnasium's Wrapper with CompilerGym's extensions: forwards what it does
 * not change (spaces, reward range, metadata, spec, npRandom, render, close
 * and a compiler environment's members); `fork()` forks the wrapped
 * environment and copies the wrapper's own fields (shallowly).
 */
export class Wrapper<WrapperObs = SpaceValue, WrapperAct = SpaceValue, Obs = WrapperObs, Act = WrapperAct> extends Env<
  WrapperObs,
  WrapperAct
> {
  constructor(env: Env<Obs, Act>);
  env: Env<Obs, Act>;
  /** The wrapped compiler environment's CompilerEnv (undefined over other environments). */
  readonly compilerEnv: CompilerEnv | undefined;
  readonly benchmark: string | undefined;
  readonly actions: number[] | undefined;
  readonly episodeReward: number | null | undefined;
  readonly state: CompilerEnvState | undefined;
  /** The episode as a commandline (a compiler environment's). */
  commandline(): string;
  /** Replays the episode and checks the program (a compiler environment's). */
  validate(): ValidationResult;
}

/** Changes observations: define `observation`. */
export class ObservationWrapper<WrapperObs = SpaceValue, Act = SpaceValue, Obs = SpaceValue> extends Wrapper<WrapperObs, Act, Obs, Act> {
  observation(observation: Obs): WrapperObs;
}

/** Changes rewards: define `reward`. */
export class RewardWrapper<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act, Obs, Act> {
  reward(reward: number): number;
}

/** Changes actions: define `action` (and `reverseAction` if it can be undone). */
export class ActionWrapper<Obs = SpaceValue, WrapperAct = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, WrapperAct, Obs, Act> {
  action(action: WrapperAct): Act;
  reverseAction(action: Act): WrapperAct;
}

/** Deep equality of environment data (typed arrays by type and contents; NaN equals NaN). */
export function dataEqual(a: unknown, b: unknown): boolean;
/** An Error with `name` set, as every compgym error. */
export function namedError(name: string, message: string): Error;

// ---- environments ----------------------------------------------------------

/** A compiler environment's action: a pass index or a pass flag ("-dce"). */
export type CompilerAction = number | string;

/** A registered compiler environment; seeding happens in the core, so a seed replays everywhere. */
export class CompilerGymEnv extends Env<SpaceValue, CompilerAction> {
  constructor(id: string, options?: GymFaceOptions);
  reset(args?: ResetArgs<CompilerResetOptions>): ResetResult<SpaceValue>;
  render(): string | null;
  readonly spec: EnvSpec | GymFaceSpec;
  /** The dataset resets draw their benchmark from, or null. */
  readonly dataset: string | null;
  /** The same environment as a CompilerEnv: observation and reward views, state, validate... */
  readonly compilerEnv: CompilerEnv;
  readonly benchmark: string | undefined;
  readonly actions: number[];
  readonly episodeReward: number | null;
  readonly state: CompilerEnvState;
  commandline(): string;
  validate(): ValidationResult;
  fork(): CompilerGymEnv;
}

/** What TimeStepEnv needs of a TimeStep environment (the bandits, CompilerTimeStepEnvironment). */
export interface TimeStepEnvironment {
  reset(): { stepType: unknown; reward: unknown; discount: unknown; observation: unknown };
  step(action: unknown): { stepType: unknown; reward: unknown; discount: unknown; observation: unknown };
  actionSpec(): unknown;
  observationSpec(): unknown;
  rewardSpec?(): unknown;
  seed?(seed: number | bigint): void;
  getInfo?(): unknown;
  close?(): void;
  readonly batched?: boolean;
  readonly batchSize?: number | null;
  readonly name?: string;
}

/** A TimeStep environment with Gymnasium's API (LAST with discount 0: terminated; otherwise truncated). */
export class TimeStepEnv extends Env<SpaceValue, number> {
  constructor(timeStepEnv: TimeStepEnvironment);
  readonly timeStepEnv: TimeStepEnvironment;
}

/** A tf_agents-style spec as a compgym Space. */
export function specToSpace(spec: unknown, what?: string): Space;

export interface RegisterOptions {
  /** Makes the environment from make's options merged over `kwargs`. */
  entryPoint: (options: { [key: string]: unknown }) => Env<unknown, unknown>;
  /** make wraps the environment in a TimeLimit of this many steps. */
  maxEpisodeSteps?: number | null;
  rewardThreshold?: number | null;
  nondeterministic?: boolean;
  kwargs?: { [key: string]: unknown };
}

/** A module whose export (a function of make's options) makes the environment: Gymnasium's "module:attr". */
export interface ModuleEntryPoint {
  /** A URL or path (relative to the page, or to the working directory in Node). */
  module: string | URL;
  /** Default "default". */
  export?: string;
}

/** Registers `id` for make (ValueError if taken). */
export function register(id: string, options: RegisterOptions): void;
/**
 * Registers `id` with a module entry point, which AsyncVectorEnv's workers
 * replay; resolves once the module is loaded (make works from then on).
 */
export function register(id: string, options: Omit<RegisterOptions, 'entryPoint'> & { entryPoint: ModuleEntryPoint }): Promise<void>;
/** Every id make knows, sorted. */
export function registeredIds(): string[];
/** The spec of `id` (LookupError if unknown). */
export function spec(id: string): EnvSpec;

/**
 * make's options: the environment's own (for a compiler environment GymFaceOptions), `maxEpisodeSteps`,
 * and `mlReady` (Float32Array observations, log-scaled when they are counts: see `mlReady`).
 */
export type MakeOptions = { maxEpisodeSteps?: number | null; mlReady?: boolean; [key: string]: unknown };

/**
 * What make returns for a compiler environment (`bril-...`): a
 * CompilerGymEnv, or a wrapper around one (a TimeLimit with
 * `maxEpisodeSteps`), which forwards the compiler's members. Its actions
 * are pass indices or flags, or any value of its action space.
 */
export type CompilerEnvLike = Env<SpaceValue, SpaceValue> &
  Pick<Wrapper<SpaceValue, SpaceValue>, 'compilerEnv' | 'benchmark' | 'actions' | 'episodeReward' | 'state' | 'commandline' | 'validate'>;

/** Gymnasium's make; `Obs` and `Act` name what the environment observes and takes. */
export function make(id: `bril-${string}`, options?: GymFaceOptions & MakeOptions): CompilerEnvLike;
export function make<Obs = SpaceValue, Act = SpaceValue>(id: string | EnvSpec, options?: MakeOptions): Env<Obs, Act>;

// ---- Gymnasium's wrappers ----------------------------------------------------

/** Truncates episodes after `maxEpisodeSteps` steps. */
export class TimeLimit<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, maxEpisodeSteps: number);
  readonly maxEpisodeSteps: number;
  /** Steps since the last reset (null before the first). */
  readonly elapsedSteps: number | null;
  fork(): this;
}

/** One finished episode: return, length, seconds. */
export interface EpisodeStatistics {
  r: number;
  l: number;
  t: number;
}

/** Adds `info[statsKey] = {r, l, t}` to the step that ends an episode; keeps the last `bufferLength` of each. */
export class RecordEpisodeStatistics<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, options?: { bufferLength?: number; statsKey?: string });
  readonly bufferLength: number;
  readonly statsKey: string;
  readonly episodeCount: number;
  readonly episodeReturns: number;
  readonly episodeLengths: number;
  readonly returnQueue: number[];
  readonly lengthQueue: number[];
  readonly timeQueue: number[];
  fork(): this;
}

/** Observations flattened by the space's flatten into its flattenSpace. */
export class FlattenObservation<Act = SpaceValue> extends ObservationWrapper<TypedArray, Act, SpaceValue> {
  constructor(env: Env<SpaceValue, Act>);
  fork(): this;
}

/** Observations mapped by `f` (into `observationSpace` if given). */
export class TransformObservation<WrapperObs = SpaceValue, Act = SpaceValue, Obs = SpaceValue> extends ObservationWrapper<
  WrapperObs,
  Act,
  Obs
> {
  constructor(env: Env<Obs, Act>, f: (observation: Obs) => WrapperObs, observationSpace?: Space | null);
  readonly f: (observation: Obs) => WrapperObs;
  fork(): this;
}

/** Rewards mapped by `f`. */
export class TransformReward<Obs = SpaceValue, Act = SpaceValue> extends RewardWrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, f: (reward: number) => number);
  readonly f: (reward: number) => number;
  fork(): this;
}

/** Actions mapped by `f` before the environment sees them (agents act in `actionSpace` if given). */
export class TransformAction<Obs = SpaceValue, WrapperAct = SpaceValue, Act = SpaceValue> extends ActionWrapper<Obs, WrapperAct, Act> {
  constructor(env: Env<Obs, Act>, f: (action: WrapperAct) => Act, actionSpace?: Space | null);
  readonly f: (action: WrapperAct) => Act;
  fork(): this;
}

// ---- ML-ready wrappers -----------------------------------------------------------

/** The dtypes DtypeObservation converts to. */
export type ObservationDtype = 'float32' | 'float64' | 'int8' | 'int16' | 'int32' | 'int64' | 'uint8' | 'uint16' | 'uint32' | 'uint64';

/** Observations as a typed array of `dtype` (Box, MultiDiscrete, MultiBinary, Discrete observations); ValueError for another dtype. */
export class DtypeObservation<Act = SpaceValue> extends ObservationWrapper<TypedArray, Act, SpaceValue> {
  constructor(env: Env<SpaceValue, Act>, dtype: ObservationDtype);
  readonly dtype: ObservationDtype;
  fork(): this;
}

/** Observations log-scaled as compgym's policy reads features: `ln(1 + x)` (`sign(x) ln(1 + |x|)` below 0). */
export class Log1pObservation<Act = SpaceValue> extends ObservationWrapper<Float32Array | Float64Array, Act, SpaceValue> {
  constructor(env: Env<SpaceValue, Act>, options?: { dtype?: 'float32' | 'float64' });
  readonly dtype: 'float32' | 'float64';
  fork(): this;
}

/** Gymnasium's RunningMeanStd (float64 statistics, one entry per element). */
export class RunningMeanStd {
  constructor(size: number, epsilon?: number);
  readonly mean: Float64Array;
  readonly var: Float64Array;
  readonly count: number;
  update(x: ArrayLike<number | bigint>): void;
  copy(): RunningMeanStd;
}

/** Observations centred on the running mean and scaled by the running std, as Float32Arrays. */
export class NormalizeObservation<Act = SpaceValue> extends ObservationWrapper<Float32Array, Act, SpaceValue> {
  constructor(env: Env<SpaceValue, Act>, options?: { epsilon?: number });
  readonly epsilon: number;
  readonly obsRms: RunningMeanStd;
  /** Whether resets and steps still update the statistics (turn off to evaluate). */
  updateRunningMean: boolean;
  fork(): this;
}

/** Rewards scaled by the running std of the discounted return (Gymnasium's NormalizeReward). */
export class NormalizeReward<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, options?: { gamma?: number; epsilon?: number });
  readonly gamma: number;
  readonly epsilon: number;
  readonly returnRms: RunningMeanStd;
  readonly discountedReward: number;
  updateRunningMean: boolean;
  fork(): this;
}

/**
 * What make's `mlReady: true` applies: Float32Array observations, log-scaled (Log1pObservation) when the
 * observation space holds integers (counts), cast (DtypeObservation) when it holds floats.
 */
export function mlReady<Act = SpaceValue>(env: Env<SpaceValue, Act>): Log1pObservation<Act> | DtypeObservation<Act>;

// ---- CompilerGym's wrappers ----------------------------------------------------

export interface CommandlineFlag {
  name: string;
  flag: string;
  description: string;
}

/** Adds a terminal action (by default "-end-of-episode") that ends the episode and runs nothing. */
export class CommandlineWithTerminalAction<Obs = SpaceValue> extends Wrapper<Obs, CompilerAction> {
  constructor(env: Env<Obs, CompilerAction>, terminal?: CommandlineFlag);
  /** The index of the terminal action: after the wrapped space's flags. */
  readonly terminalAction: number;
  readonly terminalFlag: string;
  fork(): this;
}

/** A Commandline action space cut down to `flags`. */
export class ConstrainedCommandline<Obs = SpaceValue> extends ActionWrapper<Obs, CompilerAction, number> {
  constructor(env: Env<Obs, CompilerAction>, flags: string[], options?: { name?: string });
  readonly flags: string[];
  action(action: CompilerAction): number;
  action(action: CompilerAction[]): number[];
  reverseAction(action: number): number;
  reverseAction(action: number[]): number[];
  /** The episode's actions in the constrained space. */
  readonly actions: number[];
  fork(): this;
}

/** Counts calls to close, reset, step and fork (fork returns the wrapped environment's fork). */
export class Counter<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>);
  readonly counters: { close: number; reset: number; step: number; fork: number };
  fork(): Env<Obs, Act>;
}

/** Forks before every step; `undo()` returns to the state before the last step. */
export class ForkOnStep<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>);
  /** The forks taken before each step of the episode, oldest first. */
  readonly stack: Env<Obs, Act>[];
  /** Continues from the fork before the last step and returns it; null when there is nothing to undo. */
  undo(): Env<Obs, Act> | null;
  fork(): this;
}

/** Resets on the next benchmark of an iterable (LookupError once it is exhausted). */
export class IterateOverBenchmarks<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, benchmarks: Iterable<string>, options?: { forkSharesIterator?: boolean });
  readonly forkSharesIterator: boolean;
  fork(): this;
}

/** Resets on the benchmarks in turn, forever. */
export class CycleOverBenchmarks<Obs = SpaceValue, Act = SpaceValue> extends IterateOverBenchmarks<Obs, Act> {}

/** Resets on a benchmark drawn uniformly with its own seeded generator (reseeded by reset({seed})). */
export class RandomOrderBenchmarks<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, benchmarks: Iterable<string>, options?: { seed?: number | bigint });
  readonly benchmarks: string[];
  readonly rng: Rng;
  fork(): this;
}

/** Validates after every step; a failure ends the episode with `rewardPenalty` and `info.errorDetails`. */
export class ValidateBenchmarkAfterEveryStep<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, options?: { rewardPenalty?: number });
  readonly rewardPenalty: number;
  fork(): this;
}

// ---- the checker -------------------------------------------------------------

export type CheckName =
  | 'api'
  | 'wrapped'
  | 'action-space'
  | 'observation-space'
  | 'action-space-bounds'
  | 'observation-space-bounds'
  | 'action-space-normalized'
  | 'reward-range'
  | 'metadata'
  | 'render-mode'
  | 'reset-raises'
  | 'reset-return'
  | 'reset-observation'
  | 'reset-observation-finite'
  | 'reset-observation-type'
  | 'reset-info'
  | 'reset-seed-rng'
  | 'reset-seed'
  | 'reset-options'
  | 'reset-data-reused'
  | 'step-raises'
  | 'step-return'
  | 'step-observation'
  | 'step-observation-finite'
  | 'step-observation-type'
  | 'step-reward'
  | 'step-terminated'
  | 'step-truncated'
  | 'step-info'
  | 'step-determinism'
  | 'step-truncates'
  | 'step-data-reused'
  | 'render'
  | 'close';

/** One problem: errors break Gymnasium's API, warnings are its advice. The message says what to change. */
export interface CheckProblem {
  check: CheckName;
  severity: 'error' | 'warning';
  message: string;
}

/**
 * Gymnasium's check_env with its passive checker: returns every problem
 * found (empty when none); throws a TypeError only for a non-object. It
 * resets, steps and finally closes the environment twice.
 */
export function checkEnv(env: object, options?: { skipRenderCheck?: boolean; skipCloseCheck?: boolean }): CheckProblem[];

// ---- vector environments -------------------------------------------------------

export const AutoresetMode: {
  readonly NEXT_STEP: 'NextStep';
  readonly SAME_STEP: 'SameStep';
  readonly DISABLED: 'Disabled';
};
export type AutoresetModeName = 'NextStep' | 'SameStep' | 'Disabled';

/** Batched infos: one entry per environment under each key, and a `_key` mask of the environments that set it. */
export type VectorInfo = { [key: string]: Float64Array | Uint8Array | BigInt64Array | TypedArray | unknown[] | VectorInfo } & {
  /** The environments' action masks, `numEnvs` rows of one entry per action, end to end. */
  actionMask?: Uint8Array;
};

/** How rewards batch: a Float64Array, or a Float32Array with `rewardDtype: "float32"` (makeVec's mlReady). */
export type RewardArray = Float64Array | Float32Array;

export type VectorStepResult<Rewards extends RewardArray = Float64Array> = [
  observations: SpaceValue,
  rewards: Rewards,
  terminations: Uint8Array,
  truncations: Uint8Array,
  infos: VectorInfo,
];
export type VectorResetResult = [observations: SpaceValue, infos: VectorInfo];

export interface VectorResetArgs {
  /** One seed (environment i gets seed + i), one per environment, or none. */
  seed?: number | bigint | null | (number | bigint | null)[];
  /** Passed to every reset; `resetMask` resets only the environments it selects. */
  options?: { resetMask?: ArrayLike<boolean | number>; [key: string]: unknown } | null;
}

export interface VectorOptions {
  autoresetMode?: AutoresetModeName;
  /** How rewards batch: a Float64Array (default) or a Float32Array. */
  rewardDtype?: 'float64' | 'float32';
  /** With a discrete action space: `actionSpace` becomes a MultiDiscrete whose samples are Int32Arrays or BigInt64Arrays. */
  actionDtype?: 'int64' | 'int32' | null;
}

/** What SyncVectorEnv and AsyncVectorEnv share. */
export interface VectorEnvAttributes {
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetModeName;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  /** The batched spaces: arrays stack into one typed array (leading dimension numEnvs). */
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly metadata: Metadata & { autoresetMode: AutoresetModeName };
  readonly renderMode: string | null;
  readonly spec: EnvSpec | GymFaceSpec | null;
  readonly closed: boolean;
}

/** A SyncVectorEnv entry: a function making an environment, an environment, an id, or {id, options}. */
export type EnvFn = (() => Env<unknown, unknown>) | Env<unknown, unknown> | string | { id: string; options?: MakeOptions };

/** The actions of one step: a batch shaped like actionSpace.sample() (typed arrays or arrays). */
export type VectorActions = SpaceValue | ArrayLike<number | bigint>;

export class SyncVectorEnv<Rewards extends RewardArray = Float64Array> implements VectorEnvAttributes {
  constructor(envFns: EnvFn[], options?: VectorOptions);
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetModeName;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly metadata: Metadata & { autoresetMode: AutoresetModeName };
  readonly renderMode: string | null;
  readonly spec: EnvSpec | GymFaceSpec | null;
  readonly closed: boolean;
  readonly envs: Env<unknown, unknown>[];
  reset(args?: VectorResetArgs): VectorResetResult;
  step(actions: VectorActions): VectorStepResult<Rewards>;
  call(name: string, ...args: unknown[]): unknown[];
  getAttr(name: string): unknown[];
  setAttr(name: string, values: unknown): void;
  render(): RenderFrame[];
  close(): void;
  toString(): string;
}

/** An AsyncVectorEnv entry: an id, {id, options}, or a module whose export makes the environment. */
export type WorkerEnvSpec = string | { id: string; options?: MakeOptions } | { module: string | URL; export?: string; args?: unknown[] };

export interface AsyncVectorOptions extends VectorOptions {
  /** How many workers share the environments (default: one each). */
  workers?: number;
  /** The worker script (default: compgym's worker.js). */
  workerUrl?: string | URL;
}

/**
 * N environments in workers. One call at a time: a call made while another
 * is pending rejects with an AlreadyPendingCallError. An environment that
 * throws is reported after the others' results are taken in (the error's
 * `envIndex` names it); the next step resets it.
 */
export class AsyncVectorEnv<Rewards extends RewardArray = Float64Array> implements VectorEnvAttributes {
  constructor(envs: WorkerEnvSpec[], options?: AsyncVectorOptions);
  readonly numEnvs: number;
  readonly numWorkers: number;
  /** Resolves once every worker made its environments (the spaces are known from then on). */
  readonly ready: Promise<AsyncVectorEnv>;
  readonly autoresetMode: AutoresetModeName;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly metadata: Metadata & { autoresetMode: AutoresetModeName };
  readonly renderMode: string | null;
  readonly spec: EnvSpec | GymFaceSpec | null;
  readonly rewardRange: [number, number];
  readonly closed: boolean;
  reset(args?: VectorResetArgs): Promise<VectorResetResult>;
  step(actions: VectorActions): Promise<VectorStepResult<Rewards>>;
  call(name: string, ...args: unknown[]): Promise<unknown[]>;
  getAttr(name: string): Promise<unknown[]>;
  setAttr(name: string, values: unknown): Promise<void>;
  render(): Promise<unknown[]>;
  /** Closes the environments and stops the workers; safe to call twice. */
  close(): Promise<void>;
  toString(): string;
}

export interface MakeVecOptions {
  numEnvs?: number;
  options?: MakeOptions;
  /** Every environment ML-ready, rewards a Float32Array, actions sampled as an Int32Array. */
  mlReady?: boolean;
}
/** Gymnasium's make_vec: numEnvs copies of `id` in a SyncVectorEnv or an AsyncVectorEnv (with `mlReady`, Float32Array rewards). */
export function makeVec(
  id: string,
  options: MakeVecOptions & { mlReady: true; vectorizationMode?: 'sync'; vectorOptions?: VectorOptions },
): SyncVectorEnv<Float32Array>;
export function makeVec(
  id: string,
  options: MakeVecOptions & { mlReady: true; vectorizationMode: 'async'; vectorOptions?: AsyncVectorOptions },
): AsyncVectorEnv<Float32Array>;
export function makeVec(
  id: string,
  options?: MakeVecOptions & { vectorizationMode?: 'sync'; vectorOptions?: VectorOptions },
): SyncVectorEnv;
export function makeVec(
  id: string,
  options: MakeVecOptions & { vectorizationMode: 'async'; vectorOptions?: AsyncVectorOptions },
): AsyncVectorEnv;

/** How values of a space batch for n environments. */
export interface Batcher {
  readonly space: Space;
  concatenate(items: SpaceValue[]): SpaceValue;
  item(batch: SpaceValue, i: number): SpaceValue;
  length(batch: SpaceValue): number;
}
export function batcher(space: Space, n: number): Batcher;
/** Gymnasium's _add_info: environment i's info into the batched infos. */
export function addInfo(infos: VectorInfo, info: Info, i: number, n: number): VectorInfo;

// ---- Gymnasium 1.x's further wrappers (issue 25) ----------------------------------

/** What make applied (Gymnasium's EnvSpec fields): an OrderEnforcing, and the PassiveEnvChecker unless disabled. */
export interface EnvSpec {
  readonly orderEnforce?: boolean;
  readonly disableEnvChecker?: boolean;
  readonly disableRenderOrderEnforcing?: boolean;
}
export interface RegisterOptions {
  /** make wraps the environment in an OrderEnforcing (default true). */
  orderEnforce?: boolean;
  /** make leaves out the PassiveEnvChecker (default false; make's own `disableEnvChecker` wins). */
  disableEnvChecker?: boolean;
  /** make's OrderEnforcing lets render run before reset (default false; make's own option wins). */
  disableRenderOrderEnforcing?: boolean;
}

/** A ResetNeeded error on step (and render, unless disabled) before the first reset; make applies it. */
export class OrderEnforcing<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, options?: { disableRenderOrderEnforcing?: boolean });
  readonly disableRenderOrderEnforcing: boolean;
  /** Whether reset has been called. */
  readonly hasReset: boolean;
  fork(): this;
}

/**
 * Gymnasium's passive checks: the spaces when made (a TypeError if one is not a Space), then the first
 * reset, step and render; problems are warnings (GymnasiumWarning), nothing is changed. make applies it
 * unless `disableEnvChecker`.
 */
export class PassiveEnvChecker<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>);
  readonly checkedReset: boolean;
  readonly checkedStep: boolean;
  readonly checkedRender: boolean;
  readonly closeCalled: boolean;
  fork(): this;
}

/** Next-step autoreset: the step after an episode ends resets and returns [observation, 0, false, false, info]. */
export class Autoreset<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>);
  /** Whether the next step resets. */
  readonly autoreset: boolean;
  fork(): this;
}

/** A Box action: a number (shape []) or one number per element. */
export type BoxActionInput = number | ArrayLike<number>;

/** Actions clipped into the environment's Box; agents act in a Box of infinite bounds. */
export class ClipAction<Obs = SpaceValue, Act = SpaceValue> extends TransformAction<Obs, BoxActionInput, Act> {
  constructor(env: Env<Obs, Act>);
}

/** A float Box action space rescaled to [minAction, maxAction] (numbers, or one per element). */
export class RescaleAction<Obs = SpaceValue, Act = SpaceValue> extends TransformAction<Obs, BoxActionInput, Act> {
  constructor(env: Env<Obs, Act>, minAction: number | ArrayLike<number>, maxAction: number | ArrayLike<number>);
  readonly minAction: number[];
  readonly maxAction: number[];
}

/** With probability `repeatActionProbability`, the previous action for `repeatActionDuration` steps (drawn from the environment's npRandom). */
export class StickyAction<Obs = SpaceValue, Act = SpaceValue> extends ActionWrapper<Obs, Act, Act> {
  constructor(env: Env<Obs, Act>, repeatActionProbability: number, options?: { repeatActionDuration?: number | [number, number] });
  readonly repeatActionProbability: number;
  readonly repeatActionDurationRange: [number, number];
  readonly lastAction: Act | null;
  readonly isStickyActions: boolean;
  readonly numRepeats: number;
  readonly repeatsTaken: number;
  fork(): this;
}

/** Frame skip: each action applied `numRepeats` times (fewer if the episode ends), the rewards summed. */
export class RepeatAction<Obs = SpaceValue, Act = SpaceValue> extends Wrapper<Obs, Act> {
  constructor(env: Env<Obs, Act>, numRepeats: number);
  readonly numRepeats: number;
  fork(): this;
}

/** Rewards clipped into [minReward, maxReward] (null: no bound on that side; not both). */
export class ClipReward<Obs = SpaceValue, Act = SpaceValue> extends TransformReward<Obs, Act> {
  constructor(env: Env<Obs, Act>, options: { minReward?: number | null; maxReward?: number | null });
  readonly minReward: number | null;
  readonly maxReward: number | null;
}

/** The last `stackSize` observations batched into one value (padded with the reset's, zeros or a custom value). */
export class FrameStackObservation<Act = SpaceValue, Obs = SpaceValue> extends Wrapper<SpaceValue, Act, Obs, Act> {
  constructor(env: Env<Obs, Act>, stackSize: number, options?: { paddingType?: 'reset' | 'zero' | Obs });
  readonly stackSize: number;
  readonly paddingType: 'reset' | 'zero' | '_custom';
  readonly paddingValue: Obs | null;
  fork(): this;
}

/** The steps of the episode added to each observation (flattened by default; normalized by the step limit with `normalizeTime`). */
export class TimeAwareObservation<Act = SpaceValue, Obs = SpaceValue> extends ObservationWrapper<SpaceValue, Act, Obs> {
  constructor(env: Env<Obs, Act>, options?: { flatten?: boolean; normalizeTime?: boolean; dictTimeKey?: string });
  readonly flatten: boolean;
  readonly normalizeTime: boolean;
  /** The episode's step limit (a TimeLimit's, or spec.maxEpisodeSteps). */
  readonly maxTimesteps: number;
  readonly timesteps: number;
  fork(): this;
}

/** Observations `delay` steps late (the space's value nearest zero until then). */
export class DelayObservation<Obs = SpaceValue, Act = SpaceValue> extends ObservationWrapper<Obs, Act, Obs> {
  constructor(env: Env<Obs, Act>, delay: number);
  readonly delay: number;
  fork(): this;
}

/** Keeps the keys of a Dict observation (in the Dict's sorted order) or the indices of a Tuple (in the order given). */
export class FilterObservation<Act = SpaceValue> extends TransformObservation<SpaceValue, Act, SpaceValue> {
  constructor(env: Env<SpaceValue, Act>, filterKeys: string[] | number[]);
  readonly filterKeys: string[] | number[];
}

/** What vector wrappers wrap: a SyncVectorEnv, an AsyncVectorEnv (once ready), a VectorEnv or another vector wrapper. */
export interface VectorEnvLike {
  readonly numEnvs: number;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly metadata: { autoresetMode?: AutoresetModeName; [key: string]: unknown };
  readonly spec: EnvSpec | GymFaceSpec | null;
  readonly renderMode: string | null;
  readonly closed: boolean;
  reset(args?: VectorResetArgs): VectorResetResult | Promise<VectorResetResult>;
  step(actions: VectorActions): VectorStepResult<RewardArray> | Promise<VectorStepResult<RewardArray>>;
  render(): unknown;
  close(): void | Promise<void>;
}

/** `T`, or a promise of it when `E` returns promises (an AsyncVectorEnv). */
export type VectorReturn<E, T> = E extends { reset(...args: never[]): Promise<unknown> } ? Promise<T> : T;

/**
 * Gymnasium's VectorEnv, to extend: set the spaces, `numEnvs` and `metadata.autoresetMode`, define step;
 * reset calls `super.reset(args)` first (it seeds `npRandom` with one seed). SyncVectorEnv and
 * AsyncVectorEnv extend it.
 */
export class VectorEnv implements VectorEnvLike {
  numEnvs: number;
  singleObservationSpace: Space;
  singleActionSpace: Space;
  observationSpace: Space;
  actionSpace: Space;
  metadata: { autoresetMode?: AutoresetModeName; [key: string]: unknown };
  spec: EnvSpec | GymFaceSpec | null;
  renderMode: string | null;
  closed: boolean;
  npRandom: Rng;
  readonly npRandomSeed: number | bigint | null;
  readonly unwrapped: VectorEnv;
  reset(args?: VectorResetArgs): VectorResetResult;
  step(actions: VectorActions): VectorStepResult<RewardArray>;
  render(): unknown;
  /** Calls closeExtras() once; later calls do nothing. */
  close(): void;
  closeExtras(): void;
  toString(): string;
}

/** Gymnasium's VectorWrapper: forwards what it does not change; returns promises over an AsyncVectorEnv. */
export class VectorWrapper<E extends VectorEnvLike = VectorEnvLike> {
  constructor(env: E);
  readonly env: E;
  readonly numEnvs: number;
  singleObservationSpace: Space;
  singleActionSpace: Space;
  observationSpace: Space;
  actionSpace: Space;
  metadata: { autoresetMode?: AutoresetModeName; [key: string]: unknown };
  readonly spec: EnvSpec | GymFaceSpec | null;
  readonly renderMode: string | null;
  readonly closed: boolean;
  readonly unwrapped: VectorEnvLike;
  reset(args?: VectorResetArgs): VectorReturn<E, VectorResetResult>;
  step(actions: VectorActions): VectorReturn<E, VectorStepResult<RewardArray>>;
  render(): unknown;
  close(): void | Promise<void>;
  call(name: string, ...args: unknown[]): VectorReturn<E, unknown[]>;
  getAttr(name: string): VectorReturn<E, unknown[]>;
  setAttr(name: string, values: unknown): VectorReturn<E, void>;
  toString(): string;
}

/** Changes batched observations: define `observations` (NextStep or Disabled autoreset). */
export class VectorObservationWrapper<E extends VectorEnvLike = VectorEnvLike> extends VectorWrapper<E> {
  observations(observations: SpaceValue): SpaceValue;
}
/** Changes batched rewards: define `rewards`. */
export class VectorRewardWrapper<E extends VectorEnvLike = VectorEnvLike> extends VectorWrapper<E> {
  rewards(rewards: RewardArray): RewardArray;
}
/** Changes batched actions: define `actions`. */
export class VectorActionWrapper<E extends VectorEnvLike = VectorEnvLike> extends VectorWrapper<E> {
  actions(actions: VectorActions): VectorActions;
}

/** A single-env wrapper class whose constructor takes the environment and then `Args`. */
export type WrapperClass<Args extends unknown[], W> = new (env: Env<never, never>, ...args: Args) => W;

/** gymnasium.wrappers.vector: the vector wrappers, by Gymnasium's names. */
export namespace vector {
  /** `f` applied to each batch of observations (into `observationSpace`, or `singleObservationSpace` batched). */
  export class TransformObservation<E extends VectorEnvLike = VectorEnvLike, In = SpaceValue> extends VectorObservationWrapper<E> {
    constructor(env: E, f: (observations: In) => SpaceValue, observationSpace?: Space | null, singleObservationSpace?: Space | null);
    readonly f: (observations: In) => SpaceValue;
  }
  /** `f` applied to each batch of rewards. */
  export class TransformReward<E extends VectorEnvLike = VectorEnvLike> extends VectorRewardWrapper<E> {
    constructor(env: E, f: (rewards: RewardArray) => RewardArray);
    readonly f: (rewards: RewardArray) => RewardArray;
  }
  /** `f` applied to each batch of actions (agents act in `actionSpace`, or `singleActionSpace` batched). */
  export class TransformAction<E extends VectorEnvLike = VectorEnvLike, In = VectorActions> extends VectorActionWrapper<E> {
    constructor(env: E, f: (actions: In) => VectorActions, actionSpace?: Space | null, singleActionSpace?: Space | null);
    readonly f: (actions: In) => VectorActions;
  }
  /** Infos as one object per environment (with the keys it set), not batched (a VectorWrapper whose infos are arrays). */
  export class DictInfoToList<E extends VectorEnvLike = VectorEnvLike> {
    constructor(env: E);
    readonly env: E;
    readonly numEnvs: number;
    readonly singleObservationSpace: Space;
    readonly singleActionSpace: Space;
    readonly observationSpace: Space;
    readonly actionSpace: Space;
    readonly metadata: { autoresetMode?: AutoresetModeName; [key: string]: unknown };
    readonly closed: boolean;
    render(): unknown;
    close(): void | Promise<void>;
    toString(): string;
    reset(args?: VectorResetArgs): VectorReturn<E, [observations: SpaceValue, infos: Info[]]>;
    step(
      actions: VectorActions,
    ): VectorReturn<E, [observations: SpaceValue, rewards: RewardArray, terminations: Uint8Array, truncations: Uint8Array, infos: Info[]]>;
  }
  /** A single-env observation wrapper's `observation` applied to each environment's observation. */
  export class VectorizeTransformObservation<
    E extends VectorEnvLike = VectorEnvLike,
    Args extends unknown[] = unknown[],
  > extends VectorObservationWrapper<E> {
    constructor(env: E, wrapper: WrapperClass<Args, { observation(x: never): unknown; observationSpace: Space }>, ...args: Args);
    readonly wrapper: { observation(x: never): unknown; observationSpace: Space };
  }
  /** A single-env reward wrapper's `reward` applied to each environment's reward. */
  export class VectorizeTransformReward<
    E extends VectorEnvLike = VectorEnvLike,
    Args extends unknown[] = unknown[],
  > extends VectorRewardWrapper<E> {
    constructor(env: E, wrapper: WrapperClass<Args, { reward(r: number): number }>, ...args: Args);
    readonly wrapper: { reward(r: number): number };
  }
  /** A single-env action wrapper's `action` applied to each environment's action. */
  export class VectorizeTransformAction<
    E extends VectorEnvLike = VectorEnvLike,
    Args extends unknown[] = unknown[],
  > extends VectorActionWrapper<E> {
    constructor(env: E, wrapper: WrapperClass<Args, { action(a: never): unknown; actionSpace: Space }>, ...args: Args);
    readonly wrapper: { action(a: never): unknown; actionSpace: Space };
  }
  export class ClipAction<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformAction<E, []> {
    constructor(env: E);
  }
  export class RescaleAction<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformAction<
    E,
    [number | ArrayLike<number>, number | ArrayLike<number>]
  > {
    constructor(env: E, minAction: number | ArrayLike<number>, maxAction: number | ArrayLike<number>);
  }
  export class ClipReward<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformReward<
    E,
    [{ minReward?: number | null; maxReward?: number | null }]
  > {
    constructor(env: E, options: { minReward?: number | null; maxReward?: number | null });
  }
  export class FlattenObservation<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformObservation<E, []> {
    constructor(env: E);
  }
  export class FilterObservation<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformObservation<E, [string[] | number[]]> {
    constructor(env: E, filterKeys: string[] | number[]);
  }
  export class DtypeObservation<E extends VectorEnvLike = VectorEnvLike> extends VectorizeTransformObservation<E, [ObservationDtype]> {
    constructor(env: E, dtype: ObservationDtype);
  }
  /** The batched episode statistics of the environments that ended an episode (0 for the others). */
  export interface VectorEpisodeStatistics {
    r: Float64Array;
    l: Int32Array;
    t: Float64Array;
  }
  /** `infos[statsKey] = {r, l, t}` and `_statsKey` when environments end episodes; the last `bufferLength` kept. */
  export class RecordEpisodeStatistics<E extends VectorEnvLike = VectorEnvLike> extends VectorWrapper<E> {
    constructor(env: E, options?: { bufferLength?: number; statsKey?: string });
    readonly bufferLength: number;
    readonly statsKey: string;
    readonly episodeCount: number;
    readonly episodeReturns: Float64Array;
    readonly episodeLengths: Int32Array;
    readonly returnQueue: number[];
    readonly lengthQueue: number[];
    readonly timeQueue: number[];
  }
  /** Observations normalized by the running mean and variance over all environments, as one Float32Array. */
  export class NormalizeObservation<E extends VectorEnvLike = VectorEnvLike> extends VectorObservationWrapper<E> {
    constructor(env: E, options?: { epsilon?: number });
    readonly epsilon: number;
    readonly obsRms: RunningMeanStd;
    updateRunningMean: boolean;
  }
  /** Rewards scaled by the running std of all environments' discounted returns. */
  export class NormalizeReward<E extends VectorEnvLike = VectorEnvLike> extends VectorWrapper<E> {
    constructor(env: E, options?: { gamma?: number; epsilon?: number });
    readonly gamma: number;
    readonly epsilon: number;
    readonly returnRms: RunningMeanStd;
    readonly accumulatedReward: Float64Array;
    updateRunningMean: boolean;
  }
}
