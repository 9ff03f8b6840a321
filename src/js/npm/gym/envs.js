// The environments behind compgym/gym's make: every registered compiler
// environment (CompilerGymEnv, over the core's seeded Gymnasium face), any
// TimeStep environment (TimeStepEnv: the two bandits, or a
// CompilerTimeStepEnvironment), and plain-JS environments registered with
// `register`.
import { GymFace, Space, StepType, CompilerBandit, StationaryStochasticPerArmEnvironment, registeredEnvs } from '../api.js';
import {
  Env,
  describe,
  isPlainObject,
  lookupError,
  moduleUrl,
  namedError,
  readResetArgs,
  requireFunction,
  typeError,
  valueError,
  keepNames,
} from './core.js';
import { TimeLimit } from './wrappers.js';
import { mlReady, readMlReady } from './ml-wrappers.js';
import { makeWrappers } from './common-wrappers.js';
import { isTypedArray } from './arrays.js';

/** @import { EnvSpec, ResetArgs } from './index.js' */
/** @import { AnyEnv } from './core.js' */
/**
 * A registration: Gymnasium's EnvSpec, make's flags, and for a `{module,
 * export}` entry point the module it loads.
 * @typedef {Omit<EnvSpec, 'entryPoint'> & { readonly entryPoint: (options: any) => AnyEnv, orderEnforce?: boolean, disableEnvChecker?: boolean, disableRenderOrderEnforcing?: boolean, source?: { module: string, export: string } | null }} Registration
 */

/**
 * A registered compiler environment with Gymnasium's API. Seeding, the
 * seeded action space and the benchmark draws happen in the core, so a
 * seed gives the same episode here, in a browser and natively.
 */
export class CompilerGymEnv extends Env {
  /**
   * `id` as for compgym's `make`; options: make's, `dataset` and `renderMode`.
   * @param {unknown} id checked: a string, or a fork's GymFace
   * @param {import('../compgym.js').GymFaceOptions | null} [options] checked by the core
   */
  constructor(id, options) {
    super();
    if (id instanceof GymFace) {
      this._face = id; // a fork's face
    } else {
      if (typeof id !== 'string') throw typeError(`id must be a string, got ${describe(id)}`);
      this._face = new GymFace(id, options ?? undefined);
    }
    /** @type {import('../compgym.js').CompilerEnv | undefined} made on first use */
    this._compilerEnv = undefined;
  }

  /** @param {ResetArgs} [args] */
  reset(args) {
    const { seed, options } = readResetArgs(args);
    return this._face.reset(seed, options);
  }
  /** @param {any} action */
  step(action) {
    return this._face.step(action);
  }
  render() {
    return this._face.render();
  }
  close() {
    this._face.close();
  }

  get actionSpace() {
    return this._face.actionSpace;
  }
  set actionSpace(_) {
    throw typeError(
      "a compiler environment's action space is its compiler's: change it with a wrapper (TransformAction, ConstrainedCommandline)",
    );
  }
  get observationSpace() {
    return this._face.observationSpace;
  }
  set observationSpace(_) {
    throw typeError('choose the observation with make(id, {observationSpace}), or change it with a wrapper (TransformObservation)');
  }
  get rewardRange() {
    return /** @type {[number, number]} */ (Array.from(this._face.rewardRange));
  }
  set rewardRange(_) {
    throw typeError("a compiler environment's reward range is its reward space's");
  }
  get metadata() {
    return this._face.metadata;
  }
  set metadata(_) {
    throw typeError("a compiler environment's metadata is fixed");
  }
  get renderMode() {
    return this._face.renderMode;
  }
  get spec() {
    return this._spec ?? this._face.spec;
  }
  /** @param {import('./core.js').Env['spec']} spec */
  set spec(spec) {
    this._spec = spec;
  }
  get npRandom() {
    return this._face.npRandom;
  }
  get npRandomSeed() {
    return this._face.npRandomSeed;
  }
  /** The dataset resets draw their benchmark from, or null. */
  get dataset() {
    return this._face.dataset;
  }

  /** The same environment as a compgym CompilerEnv: observation and reward views, state, validate... */
  /** @returns {import('../compgym.js').CompilerEnv} */
  get compilerEnv() {
    return (this._compilerEnv ??= this._face.compilerEnv);
  }
  get benchmark() {
    return this.compilerEnv.benchmark;
  }
  get actions() {
    return this.compilerEnv.actions;
  }
  get episodeReward() {
    return this.compilerEnv.episodeReward;
  }
  get state() {
    return this.compilerEnv.state;
  }
  commandline() {
    return this.compilerEnv.commandline();
  }
  validate() {
    return this.compilerEnv.validate();
  }

  /** A copy in the same state, on its own session, with copies of both generators. */
  fork() {
    const copy = new CompilerGymEnv(this._face.fork(this._face.actionSpace));
    copy._spec = this._spec;
    return copy;
  }
}

// ---- TimeStep environments ------------------------------------------------

/** @type {{ [dtype: string]: [number, number] | [bigint, bigint] }} */
const INT_LIMITS = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0n, 2n ** 64n - 1n],
};

/**
 * @param {unknown} spec
 * @returns {spec is { shape: number[], dtype: import('../compgym.js').DTypeName, [field: string]: any }} the dtype unchecked: Space.box checks it
 */
function isLeafSpec(spec) {
  return isPlainObject(spec) && Array.isArray(spec.shape) && typeof spec.dtype === 'string';
}

/**
 * A tf_agents-style spec (as TimeStep environments give them) as a compgym Space.
 * @param {unknown} spec
 * @returns {import('../compgym.js').Space}
 */
export function specToSpace(spec, what = 'spec') {
  if (isLeafSpec(spec)) {
    const { shape, dtype } = spec;
    const bounded = 'minimum' in spec;
    const integer = dtype in INT_LIMITS;
    if (bounded && integer && shape.length === 0) {
      const low = Number(spec.minimum);
      const high = Number(spec.maximum);
      return Space.discrete(high - low + 1, { start: low, name: spec.name ?? undefined });
    }
    if (dtype === 'bool') return Space.binary(shape, { name: spec.name ?? undefined });
    const [lowest, highest] = integer ? INT_LIMITS[dtype] : [-Infinity, Infinity];
    // Specs carry 64-bit limits as rounded numbers: clamp integer bounds back into the dtype.
    const clamp = (/** @type {number | bigint} */ x) =>
      !integer || Number.isSafeInteger(x) || typeof x === 'bigint' ? x : x > 0 ? highest : lowest;
    const bound = (/** @type {number | bigint | (number | bigint)[]} */ b) => (Array.isArray(b) ? b.map(clamp) : clamp(b));
    return Space.box({
      low: bounded ? bound(spec.minimum) : lowest,
      high: bounded ? bound(spec.maximum) : highest,
      shape,
      dtype,
      name: spec.name ?? undefined,
    });
  }
  if (Array.isArray(spec)) return Space.tuple(spec.map((s, i) => specToSpace(s, `${what}[${i}]`)));
  if (isPlainObject(spec)) {
    /** @type {{ [key: string]: import('../compgym.js').Space }} */
    const spaces = {};
    for (const [key, child] of Object.entries(spec)) spaces[key] = specToSpace(child, `${what}.${key}`);
    return Space.dict(spaces, { sortKeys: false });
  }
  throw typeError(`${what} is not a spec: ${describe(spec)}`);
}

/**
 * The single value of a one-element batch (or the value itself).
 * @param {unknown} value
 */
function unbatch(value) {
  return isTypedArray(value) && value.length === 1 ? value[0] : value;
}

/**
 * A TimeStep environment (tf_agents' API: the bandits,
 * CompilerTimeStepEnvironment) with Gymnasium's API. Spaces come from its
 * specs; a LAST time step is `terminated` when its discount is 0 and
 * `truncated` otherwise; info is `getInfo()` where the environment has one.
 * reset({seed}) seeds npRandom and the action space, and the environment
 * itself with `seed(seed)`. Batched environments are accepted with a batch
 * of one (the batch dimension is hidden); for more, use a vector environment.
 */
export class TimeStepEnv extends Env {
  /** @param {any} timeStepEnv checked: an object with reset, step, actionSpec and observationSpec */
  constructor(timeStepEnv) {
    super();
    for (const method of ['reset', 'step', 'actionSpec', 'observationSpec']) {
      if (typeof timeStepEnv?.[method] !== 'function') {
        throw typeError(`TimeStepEnv wraps a TimeStep environment (with ${method}()), got ${describe(timeStepEnv)}`);
      }
    }
    const batch = timeStepEnv.batched ? timeStepEnv.batchSize : null;
    if (batch !== null && batch !== 1) {
      throw valueError(
        `a Gymnasium environment steps one episode at a time, this one a batch of ${batch}: make it with batchSize 1 and run several in a SyncVectorEnv`,
      );
    }
    this.timeStepEnv = timeStepEnv;
    this._batched = batch !== null;
    this.actionSpace = specToSpace(timeStepEnv.actionSpec(), 'actionSpec');
    this.observationSpace = specToSpace(timeStepEnv.observationSpec(), 'observationSpec');
    const reward = typeof timeStepEnv.rewardSpec === 'function' ? timeStepEnv.rewardSpec() : null;
    if (reward && 'minimum' in reward)
      this.rewardRange = /** @type {[number, number]} */ ([Number(reward.minimum), Number(reward.maximum)]);
  }

  /**
   * @param {ResetArgs} [args]
   * @returns {any} [observation, info]
   */
  reset(args) {
    const { seed } = readResetArgs(args);
    super.reset({ seed });
    if (seed !== null) this.timeStepEnv.seed(seed);
    const timeStep = this.timeStepEnv.reset();
    return [timeStep.observation, this._info()];
  }

  /** @param {any} action */
  step(action) {
    const timeStep = this.timeStepEnv.step(this._batched ? [action] : action);
    const last = unbatch(timeStep.stepType) === StepType.LAST;
    const terminated = last && unbatch(timeStep.discount) === 0;
    return [timeStep.observation, Number(unbatch(timeStep.reward)), terminated, last && !terminated, this._info()];
  }

  _info() {
    if (typeof this.timeStepEnv.getInfo !== 'function') return {};
    try {
      const info = this.timeStepEnv.getInfo();
      return isPlainObject(info) ? info : { info };
    } catch (/** @type {any} */ error) {
      if (error?.name === 'TypeError' && /^NotImplemented/.test(error.message)) return {};
      throw error;
    }
  }

  close() {
    this.timeStepEnv.close?.();
  }

  toString() {
    return `TimeStepEnv<${this.timeStepEnv.name ?? this.timeStepEnv.constructor.name}>`;
  }
}

// ---- the registry -----------------------------------------------------------

/** @type {Map<string, Registration>} */
const registry = new Map();
/**
 * The ids registered by this module (every worker has them too).
 * @type {Set<string>}
 */
const builtinIds = new Set();

/**
 * @param {string} id
 * @param {unknown} options
 * @returns {{ [option: string]: any }} the options, their values still to check
 */
function readSpecOptions(id, options) {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    throw typeError(`register(${JSON.stringify(id)}, options): options must be an object, got ${describe(options)}`);
  const known = [
    'entryPoint',
    'maxEpisodeSteps',
    'rewardThreshold',
    'nondeterministic',
    'kwargs',
    'orderEnforce',
    'disableEnvChecker',
    'disableRenderOrderEnforcing',
  ];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw typeError(`register: unknown option ${JSON.stringify(key)} (known: ${known.join(', ')})`);
  }
  return options;
}

/**
 * @param {unknown} n
 * @param {string} what
 */
function readStepLimit(n, what) {
  if (n === undefined || n === null) return null;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
    throw valueError(`${what} must be a positive integer, got ${describe(n)}`);
  return n;
}

/**
 * Registers `id` (Gymnasium's `register`): `entryPoint(options)` makes the
 * environment from make's options merged over `kwargs`; `maxEpisodeSteps`
 * makes `make` wrap it in a TimeLimit. A ValueError if the id is taken.
 *
 * `entryPoint` may also be `{module, export}` (Gymnasium's "module:attr"):
 * the module's export, a function of the options, makes the environment.
 * That form returns a promise that resolves once the module is loaded
 * (`make` works from then on), and AsyncVectorEnv's workers replay it, as
 * they cannot receive a function.
 * @param {unknown} id
 * @param {unknown} options
 * @returns {Promise<void> | undefined}
 */
export function register(id, options) {
  if (typeof id !== 'string' || id === '') throw typeError(`id must be a non-empty string, got ${describe(id)}`);
  const o = readSpecOptions(id, options);
  const source = isPlainObject(o.entryPoint) ? readModuleEntry(id, o.entryPoint) : null;
  if (!source) requireFunction(o.entryPoint, `register(${JSON.stringify(id)}): entryPoint`);
  if (registry.has(id) || compilerIds().includes(id)) throw valueError(`environment ${JSON.stringify(id)} is already registered`);
  if (o.kwargs !== undefined && !isPlainObject(o.kwargs)) throw typeError(`register: kwargs must be an object, got ${describe(o.kwargs)}`);
  /** @type {Function | null} */
  let factory = null;
  const entryPoint = source
    ? (/** @type {{ [key: string]: unknown }} */ kwargs) => {
        if (!factory) throw valueError(`the module of ${JSON.stringify(id)} is still loading: await gym.register(...) before make`);
        return factory(kwargs);
      }
    : o.entryPoint;
  const registration = Object.freeze({
    id,
    entryPoint,
    maxEpisodeSteps: readStepLimit(o.maxEpisodeSteps, 'maxEpisodeSteps'),
    rewardThreshold: o.rewardThreshold ?? null,
    nondeterministic: o.nondeterministic ?? false,
    kwargs: Object.freeze({ ...(o.kwargs ?? {}) }),
    orderEnforce: o.orderEnforce ?? true,
    disableEnvChecker: o.disableEnvChecker ?? false,
    disableRenderOrderEnforcing: o.disableRenderOrderEnforcing ?? false,
    source,
  });
  registry.set(id, registration);
  if (!source) return undefined;
  // A module the user names at run time: bundlers must leave this import alone.
  return import(/* webpackIgnore: true */ /* @vite-ignore */ source.module)
    .then(
      (module) => {
        const made = module[source.export];
        if (typeof made !== 'function')
          throw typeError(`${source.module} has no function export ${JSON.stringify(source.export)} to make ${JSON.stringify(id)}`);
        factory = made;
      },
      (error) => {
        throw namedError(
          error?.name === 'TypeError' ? 'LookupError' : (error?.name ?? 'Error'),
          `register(${JSON.stringify(id)}): cannot load ${source.module}: ${error?.message ?? error}`,
        );
      },
    )
    .catch((error) => {
      // A registration that cannot make anything is taken back, so it can be made again.
      if (registry.get(id) === registration) registry.delete(id);
      throw error;
    });
}

/**
 * `{module, export}` with the module made an absolute URL (a worker has no importer to resolve against).
 * @param {string} id
 * @param {{ [key: string]: unknown }} entry
 */
function readModuleEntry(id, entry) {
  const { module, export: name = 'default', ...unknown } = entry;
  const extra = Object.keys(unknown);
  if (extra.length)
    throw typeError(`register(${JSON.stringify(id)}): entryPoint has an unknown key ${JSON.stringify(extra[0])} (known: module, export)`);
  if (!(typeof module === 'string' || module instanceof URL))
    throw typeError(`register(${JSON.stringify(id)}): entryPoint.module must be a URL or path, got ${describe(module)}`);
  if (typeof name !== 'string')
    throw typeError(`register(${JSON.stringify(id)}): entryPoint.export must be a string, got ${describe(name)}`);
  return Object.freeze({ module: moduleUrl(module), export: name });
}

/**
 * How a worker can make `id`: null for an id every worker knows (or an
 * unknown one, which the worker reports); the registration as plain data
 * for one registered here with a `{module, export}` entry point; a
 * LookupError for one registered with a function, which cannot travel.
 * @param {string} id
 */
export function workerRegistration(id) {
  const registered = registry.get(id);
  if (!registered || builtinIds.has(id)) return null;
  if (!registered.source) {
    throw lookupError(
      `${JSON.stringify(id)} was registered with a function entry point, which cannot reach a worker: register it with entryPoint: {module, export} (a module whose export makes the environment from its options), or pass {module, export, args} to AsyncVectorEnv`,
    );
  }
  const { entryPoint, source, id: _, ...rest } = registered;
  return { ...rest, kwargs: { ...rest.kwargs }, entryPoint: { ...source } };
}

/** @type {string[] | null} */
let compilerIdList = null;
function compilerIds() {
  compilerIdList ??= registeredEnvs();
  return compilerIdList;
}

/**
 * @param {string} id
 * @returns {Registration}
 */
function compilerSpec(id) {
  return Object.freeze({
    id,
    entryPoint: (/** @type {import('../compgym.js').GymFaceOptions} */ options) => new CompilerGymEnv(id, options),
    maxEpisodeSteps: null,
    rewardThreshold: null,
    nondeterministic: false,
    kwargs: Object.freeze({}),
  });
}

/**
 * Every id `make` knows: the compiler environments, the bandits and those registered here.
 * @type {typeof import('./index.js').registeredIds}
 */
export function registeredIds() {
  return [...new Set([...compilerIds(), ...registry.keys()])].sort();
}

/**
 * The spec of `id`; a LookupError naming the known ids if there is none.
 * @param {unknown} id
 * @returns {Registration}
 */
export function spec(id) {
  if (typeof id !== 'string') throw typeError(`id must be a string, got ${describe(id)}`);
  const registered = registry.get(id);
  if (registered) return registered;
  if (compilerIds().includes(id)) return compilerSpec(id);
  throw lookupError(`unknown environment ${JSON.stringify(id)} (known: ${registeredIds().join(', ')})`);
}

/**
 * Gymnasium's `make`: the environment `id` with `options` (the id's own,
 * for a compiler environment `benchmark`, `observationSpace`,
 * `rewardSpace`, `actionSpace`, `dataset`, `renderMode`), wrapped in a
 * PassiveEnvChecker (unless `disableEnvChecker`, here or in the spec),
 * then an OrderEnforcing (unless the spec's `orderEnforce` is false; with
 * `disableRenderOrderEnforcing`, here or in the spec), then
 * a TimeLimit when `maxEpisodeSteps` (here or in the spec) is set, and with
 * `mlReady: true` in what `mlReady(env)` applies (Float32Array
 * observations, log-scaled counts).
 * @param {unknown} id an id or a spec
 * @param {unknown} [options] checked: an object
 * @returns {AnyEnv}
 */
export function make(id, options) {
  const s = /** @type {Registration} */ (
    typeof id === 'object' && id !== null && typeof (/** @type {{ entryPoint?: unknown }} */ (id).entryPoint) === 'function' ? id : spec(id)
  );
  if (options !== undefined && !isPlainObject(options))
    throw typeError(`make(${JSON.stringify(s.id)}, options): options must be an object, got ${describe(options)}`);
  const {
    maxEpisodeSteps,
    mlReady: ml,
    disableEnvChecker,
    disableRenderOrderEnforcing,
    ...rest
  } = /** @type {{ [option: string]: unknown }} */ (options ?? {});
  const limit = readStepLimit(maxEpisodeSteps, 'maxEpisodeSteps') ?? s.maxEpisodeSteps;
  const ready = readMlReady(ml, `make(${JSON.stringify(s.id)})`);
  const kwargs = { ...s.kwargs, ...rest };
  /** @type {AnyEnv} */
  let env = s.entryPoint(kwargs);
  if (!env || typeof env.reset !== 'function' || typeof env.step !== 'function') {
    throw typeError(`the entry point of ${JSON.stringify(s.id)} returned ${describe(env)}, not an environment`);
  }
  const wrapped = makeWrappers(env, s, { disableEnvChecker, disableRenderOrderEnforcing });
  // The spec says what make applied, so make(env.spec) makes the same stack.
  (env.unwrapped ?? env).spec = Object.freeze({ ...s, maxEpisodeSteps: limit, kwargs: Object.freeze(kwargs), ...wrapped.applied });
  env = wrapped.env;
  if (limit !== null) env = new TimeLimit(env, limit);
  if (ready) env = mlReady(env);
  return env;
}

// The bandits, through TimeStepEnv (registered without touching the wasm
// module, which a browser may not have loaded yet).
/** @type {[string, (options: any) => TimeStepEnv][]} options: the bandit's, checked by the core */
const bandits = [
  ['compgym/CompilerBandit-v0', (options) => new TimeStepEnv(new CompilerBandit(options))],
  [
    'compgym/StationaryBandit-v0',
    (options) =>
      new TimeStepEnv(
        new StationaryStochasticPerArmEnvironment({
          globalContextSamplingFn: { kind: 'gaussian', dim: 2 },
          armContextSamplingFn: { kind: 'gaussian', dim: 3 },
          maxNumActions: 4,
          rewardFn: { kind: 'linear', theta: [1, -1, 0.5, 2, -0.5], noiseStd: 0.1 },
          ...options,
        }),
      ),
  ],
];
for (const [id, entryPoint] of bandits) {
  registry.set(
    id,
    Object.freeze({ id, entryPoint, maxEpisodeSteps: null, rewardThreshold: null, nondeterministic: false, kwargs: Object.freeze({}) }),
  );
  builtinIds.add(id);
}

keepNames({ CompilerGymEnv, TimeStepEnv });
