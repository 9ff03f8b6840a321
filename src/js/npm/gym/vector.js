// Gymnasium 1.x's vector environments: SyncVectorEnv (N environments in
// this thread) and AsyncVectorEnv (in workers: Web Workers in a browser,
// worker threads in Node, through compgym's worker.js), with batched
// observations as typed arrays, Gymnasium's autoreset modes (next-step by
// default) and its info conventions: each info key holds one entry per
// environment and a `_key` mask says which environments set it.
import { Space, catalog } from '../api.js';
import { make, workerRegistration } from './envs.js';
import {
  describe,
  exactDescription,
  isEnv,
  isPlainObject,
  moduleUrl,
  namedError,
  readSeed,
  requireEnv,
  typeError,
  valueError,
  keepNames,
} from './core.js';
import { DTYPES, readDtype, readMlReady } from './ml-wrappers.js';
import { VectorEnv } from './vector-env.js';
import { isTypedArray } from './arrays.js';

/** @typedef {import('./arrays.js').TypedArray} TypedArray */
/** @import { VectorResetArgs } from './index.js' */
/** @import { AnyEnv, SpaceObject } from './core.js' */
/** @import { DType, SpaceDescription } from '../compgym.js' */
/**
 * A typed array class a batch may hold.
 * @typedef {{ new (length: number): TypedArray, from(values: Iterable<unknown> | ArrayLike<unknown>, map: (x: any) => unknown): TypedArray }} TypedArrayClass
 */
/** @typedef {{ [key: string]: any }} Infos batched infos as they are built */
/** @typedef {{ result: any, error?: undefined } | { error: any, result?: undefined }} Outcome an operation's result or what it threw */

/**
 * How workers are started: compgym/remote.js's `connectService` for the
 * platform, set by the entry module (gym/index.js in browsers, gym/node.js
 * in Node), so this file names neither.
 */
/**
 * A worker's service as compgym/remote.js's `connectService` returns it.
 * @typedef {{ call(method: string, body: object): Promise<any>, terminate(): Promise<unknown> }} Service
 */
/** @type {(workerUrl?: string | URL) => Service} */
let connect = () => {
  throw new Error('compgym/gym: import it through its package entry (compgym/gym)');
};
/** @param {(workerUrl?: string | URL) => Service} connectService */
export function useConnect(connectService) {
  connect = connectService;
}

/** Gymnasium's AutoresetMode values. */
export const AutoresetMode = Object.freeze({ NEXT_STEP: 'NextStep', SAME_STEP: 'SameStep', DISABLED: 'Disabled' });

// The typed array of each dtype a batch may hold: the wrappers' dtypes, and bool as bytes.
/** @type {{ [dtype: string]: TypedArrayClass }} */
const TYPED = { ...DTYPES, bool: Uint8Array };

const isBig = (/** @type {TypedArrayClass} */ Ctor) => Ctor === BigInt64Array || Ctor === BigUint64Array;

/**
 * `value` (a typed array or an array of numbers) as a `Ctor`, copying only when it must.
 * @param {any} value
 * @param {TypedArrayClass} Ctor
 * @returns {TypedArray}
 */
function asTyped(value, Ctor) {
  if (value instanceof Ctor) return value;
  if (isBig(Ctor)) return Ctor.from(value, (x) => BigInt(x));
  return Ctor.from(value, (x) => Number(x));
}

const product = (/** @type {number[]} */ shape) => shape.reduce((a, b) => a * b, 1);

/** Each space kind's batching, from the core's registry (read once the module is initialised). */
/** @type {Map<string, string> | null} */
let batchings = null;
const batchingOf = (/** @type {string} */ type) => (batchings ??= new Map(catalog().spaceKinds.map((k) => [k.name, k.batching]))).get(type);

/**
 * How values of `space` are batched for `n` environments: the batched
 * space, `concatenate(items)` and `item(batch, i)`. The core's registry says
 * how each kind batches and `space.batchDtype` in what: arrays stack into
 * one typed array (leading dimension n), integer-valued scalars gather into
 * a BigInt64Array (Gymnasium's int64), float ones into a Float64Array, bools
 * into a Uint8Array; dicts and tuples batch each part; anything else is an
 * array of the n values.
 * @param {SpaceObject} space
 * @param {number} n
 * @returns {Batcher}
 */
export function batcher(space, n) {
  const description = space.toJSON();
  /** @type {(dtype: string) => Batcher} */
  const stacked = (dtype) => {
    const Ctor = TYPED[dtype];
    const size = product(Array.from(/** @type {ArrayLike<number>} */ (space.shape)));
    return {
      space: Space.batched(space, [n]),
      concatenate(items) {
        const out = /** @type {any} */ (new Ctor(n * size)); // its set takes Ctor's elements, which asTyped gives
        items.forEach((x, i) => out.set(asTyped(x, Ctor), i * size));
        return out;
      },
      item(batch, i) {
        return asTyped(batch, Ctor).subarray(i * size, (i + 1) * size);
      },
      length: (batch) => (isTypedArray(batch) || Array.isArray(batch) ? batch.length / size : -1),
    };
  };
  /** @type {(dtype: string) => Batcher} */
  const gathered = (dtype) => {
    /** @type {[TypedArrayClass, (x: any) => unknown]} */
    const [Ctor, read] =
      dtype === 'bool'
        ? [Uint8Array, Boolean]
        : dtype === 'float64'
          ? [Float64Array, Number]
          : [BigInt64Array, (x) => (Number.isSafeInteger(Number(x)) ? Number(x) : x)];
    return {
      space: Space.batched(space, [n]),
      concatenate: (items) => asTyped(items, Ctor),
      item: (batch, i) => read(batch[i]),
      length: (batch) => (isTypedArray(batch) || Array.isArray(batch) ? batch.length : -1),
    };
  };
  /** @type {() => Batcher} */
  const parts = () => {
    if (description.type === 'Dict') {
      /** @type {[string, Batcher][]} */
      const children = description.spaces.map(([key, d]) => [key, batcher(Space.fromJSON(exactDescription(d)), n)]);
      const spaces = Object.fromEntries(children.map(([key, b]) => [key, b.space]));
      return {
        space: Space.dict(spaces, { sortKeys: false }),
        concatenate: (items) => Object.fromEntries(children.map(([key, b]) => [key, b.concatenate(items.map((x) => x[key]))])),
        item: (batch, i) => Object.fromEntries(children.map(([key, b]) => [key, b.item(batch[key], i)])),
        length: (batch) => (isPlainObject(batch) && children.every(([key, b]) => b.length(batch[key]) === n) ? n : -1),
      };
    }
    const children = /** @type {{ spaces: SpaceDescription[] }} */ (description).spaces.map((d) =>
      batcher(Space.fromJSON(exactDescription(d)), n),
    );
    return {
      space: Space.tuple(children.map((b) => b.space)),
      concatenate: (items) => children.map((b, k) => b.concatenate(items.map((x) => x[k]))),
      item: (batch, i) => children.map((b, k) => b.item(batch[k], i)),
      length: (batch) => (Array.isArray(batch) && children.every((b, k) => b.length(batch[k]) === n) ? n : -1),
    };
  };
  /** @type {() => Batcher} */
  const listed = () => ({
    space: Space.batched(space, [n]),
    concatenate: (items) => [...items],
    item: (batch, i) => batch[i],
    length: (batch) => (Array.isArray(batch) ? batch.length : -1),
  });
  const batching = batchingOf(description.type);
  switch (batching) {
    case 'stack':
      return stacked(/** @type {string} */ (space.batchDtype)); // the kinds that stack or gather have one
    case 'gather':
      return gathered(/** @type {string} */ (space.batchDtype));
    case 'parts':
      return parts();
    case 'list':
      return listed();
    default:
      throw new Error(`compgym/gym: the registry has no batching for a ${description.type} space (${batching})`);
  }
}

/**
 * A new per-environment array for info values like `value`: a typed array's rows end to end.
 * @param {unknown} value
 * @param {number} n
 * @returns {TypedArray | unknown[]}
 */
function infoArray(value, n) {
  if (isTypedArray(value)) return new /** @type {new (length: number) => TypedArray} */ (value.constructor)(n * value.length);
  if (typeof value === 'number') return new Float64Array(n);
  if (typeof value === 'boolean') return new Uint8Array(n);
  if (typeof value === 'bigint') return new BigInt64Array(n);
  return new Array(n).fill(null);
}

/**
 * @param {TypedArray | unknown[]} array
 * @param {unknown} value
 * @param {number} n
 */
function fits(array, value, n) {
  if (Array.isArray(array)) return true;
  if (isTypedArray(value)) return array.constructor === value.constructor && array.length === n * value.length;
  if (array.length !== n) return false;
  if (array instanceof Float64Array) return typeof value === 'number';
  if (array instanceof Uint8Array) return typeof value === 'boolean';
  if (array instanceof BigInt64Array) return typeof value === 'bigint';
  return false;
}

/**
 * The per-environment entries of a batched info array (rows of a typed array's batch).
 * @param {any} array a typed array or an array
 * @param {Uint8Array | undefined} set
 * @param {number} n
 */
function entriesOf(array, set, n) {
  const width = isTypedArray(array) ? array.length / n : 0;
  return Array.from({ length: n }, (_, j) =>
    !set?.[j] ? null : width !== 1 && isTypedArray(array) ? array.slice(j * width, (j + 1) * width) : array[j],
  );
}

/**
 * Gymnasium's `_add_info`: adds environment `i`'s info to the batched
 * infos. Nested objects recurse; numbers gather into Float64Arrays,
 * booleans into Uint8Arrays, BigInts into BigInt64Arrays, typed arrays
 * (such as `actionMask`) into one typed array of the same kind holding
 * the n rows end to end (Gymnasium's `(n, *shape)` array), anything else
 * into arrays (null where unset; also where rows differ in kind or
 * length), and `finalObs` stays an array of the observations;
 * `_key` is a Uint8Array mask of the environments that set `key`.
 * @param {Infos} infos
 * @param {{ [key: string]: unknown }} info
 * @param {number} i
 * @param {number} n
 * @returns {Infos}
 */
export function addInfo(infos, info, i, n) {
  for (const [key, value] of Object.entries(info)) {
    let array;
    if (key === 'finalObs') {
      // As Gymnasium's final_obs: the observations themselves, easier to use unbatched.
      array = infos[key] ?? new Array(n).fill(null);
      array[i] = value;
    } else if (isPlainObject(value)) {
      array = addInfo(isPlainObject(infos[key]) ? infos[key] : {}, value, i, n);
    } else {
      array = infos[key] ?? infoArray(value, n);
      if (!fits(array, value, n)) array = entriesOf(array, infos[`_${key}`], n);
      if (isTypedArray(value) && !Array.isArray(array)) array.set(value, i * value.length);
      else array[i] = typeof value === 'boolean' && !Array.isArray(array) ? Number(value) : value;
    }
    const mask = infos[`_${key}`] ?? new Uint8Array(n);
    mask[i] = 1;
    infos[key] = array;
    infos[`_${key}`] = mask;
  }
  return infos;
}

/**
 * @param {unknown} mode
 * @returns {string}
 */
function readAutoresetMode(mode) {
  const modes = Object.values(AutoresetMode);
  if (!modes.includes(/** @type {any} */ (mode)))
    throw valueError(`autoresetMode must be one of ${modes.join(', ')}, got ${describe(mode)}`);
  return /** @type {string} */ (mode);
}

/**
 * The vector reset's `{seed, options}`: a seed per environment and the reset mask.
 * @param {unknown} args
 * @param {number} n
 */
function readVectorReset(args, n) {
  if (args !== undefined && args !== null && !isPlainObject(args))
    throw typeError(`reset takes one object {seed, options}, got ${describe(args)}`);
  const { seed = null, options = null, ...unknown } = /** @type {{ [key: string]: unknown }} */ (args ?? {});
  const extra = Object.keys(unknown);
  if (extra.length) throw typeError(`reset: unknown argument ${JSON.stringify(extra[0])} (known: seed, options)`);
  let seeds;
  if (Array.isArray(seed)) {
    if (seed.length !== n) throw valueError(`reset: seed has ${seed.length} entries for ${n} environments`);
    seeds = seed.map((s, i) => readSeed(s, `reset: seed[${i}]`));
  } else {
    const s = readSeed(seed, 'reset: seed');
    seeds = Array.from({ length: n }, (_, i) => (s === null ? null : typeof s === 'bigint' ? s + BigInt(i) : s + i));
  }
  if (options !== null && !isPlainObject(options)) throw typeError(`reset: options must be an object, got ${describe(options)}`);
  const { resetMask, ...rest } = /** @type {{ [key: string]: unknown }} */ (options ?? {});
  let mask = null;
  if (resetMask !== undefined) {
    if (!(Array.isArray(resetMask) || isTypedArray(resetMask)) || resetMask.length !== n) {
      throw valueError(`reset: options.resetMask must be ${n} booleans, got ${describe(resetMask)}`);
    }
    mask = Uint8Array.from(/** @type {ArrayLike<unknown>} */ (resetMask), (x) => (x ? 1 : 0));
    if (!mask.some((x) => x)) throw valueError('reset: options.resetMask must select at least one environment');
  }
  return { seeds, options: options === null ? null : rest, mask };
}

/**
 * The vector options both vector environments read besides their own.
 * @param {{ rewardDtype?: unknown, actionDtype?: unknown }} [options] checked
 */
function readDtypes({ rewardDtype = 'float64', actionDtype = null } = {}) {
  return {
    rewardDtype: readDtype(rewardDtype, 'rewardDtype', ['float64', 'float32']),
    actionDtype: actionDtype === null ? null : readDtype(actionDtype, 'actionDtype', ['int64', 'int32']),
  };
}

/**
 * The batched action space with samples of `dtype` (int32 or int64) for a
 * discrete single space: Gymnasium's batch of Discrete, a MultiDiscrete.
 * @param {SpaceObject} single
 * @param {number} n
 * @param {DType} dtype
 */
function discreteBatch(single, n, dtype) {
  const d = single.toJSON();
  if (!['Discrete', 'NamedDiscrete', 'Commandline'].includes(d.type)) {
    throw typeError(`actionDtype needs a discrete action space (Discrete, NamedDiscrete, Commandline), got ${single}`);
  }
  const size = single.n;
  const start = d.type === 'Discrete' ? Number(d.start) : 0;
  return Space.multiDiscrete(new Array(n).fill(size), { start: new Array(n).fill(start), dtype });
}

/**
 * How values of one space are batched (see batcher).
 * @typedef {{ space: import('../compgym.js').Space, concatenate(items: any[]): any, item(batch: any, i: number): any, length(batch: any): number }} Batcher
 */

/** What both vector environments share. */
class VectorEnvBase extends VectorEnv {
  // Set by _setup (at once, or once an AsyncVectorEnv's workers answer).
  /** @type {Batcher} */ _observations = /** @type {any} */ (undefined);
  /** @type {Batcher} */ _actions = /** @type {any} */ (undefined);
  /** @type {Float64ArrayConstructor | Float32ArrayConstructor} */ _Rewards = /** @type {any} */ (undefined);
  /** @type {Uint8Array} */ _autoreset = /** @type {any} */ (undefined);
  /** @type {any[]} */ _last = /** @type {any} */ (undefined);

  /**
   * @param {{ observationSpace: SpaceObject, actionSpace: SpaceObject, metadata?: object, renderMode?: string | null, spec?: any }} single
   *   the first environment, or what the workers said of theirs
   * @param {number} n
   * @param {unknown} autoresetMode
   */
  _setup(single, n, autoresetMode, dtypes = readDtypes()) {
    /** @type {number} */
    this.numEnvs = n;
    this.autoresetMode = readAutoresetMode(autoresetMode);
    this.singleObservationSpace = single.observationSpace;
    this.singleActionSpace = single.actionSpace;
    this._observations = batcher(single.observationSpace, n);
    this._actions = batcher(single.actionSpace, n);
    this._Rewards = dtypes.rewardDtype === 'float32' ? Float32Array : Float64Array;
    this.observationSpace = this._observations.space;
    this.actionSpace = dtypes.actionDtype ? discreteBatch(single.actionSpace, n, dtypes.actionDtype) : this._actions.space;
    this.metadata = { ...(single.metadata ?? {}), autoresetMode: this.autoresetMode };
    this.renderMode = single.renderMode ?? null;
    this.spec = single.spec ?? null;
    this.closed = false;
    this._autoreset = new Uint8Array(n);
    this._last = new Array(n).fill(null);
  }

  /**
   * One action per environment from a batch, each checked before any environment steps.
   * @param {unknown} actions
   */
  _splitActions(actions) {
    if (this.closed) throw valueError(`${this.constructor.name} is closed`);
    const n = /** @type {number} */ (this.numEnvs); // set by _setup
    if (this._actions.length(actions) !== n) {
      throw valueError(`step takes a batch of ${n} actions (shaped like actionSpace.sample()), got ${describe(actions)}`);
    }
    /** @type {unknown[]} */
    const out = [];
    for (let i = 0; i < n; i++) {
      const action = this._actions.item(actions, i);
      if (!(/** @type {SpaceObject} */ (this.singleActionSpace).contains(action))) {
        throw valueError(`action ${i}, ${describe(action)}, is not in the action space ${this.singleActionSpace}`);
      }
      out.push(action);
    }
    if (this.autoresetMode === AutoresetMode.DISABLED) {
      const ended = this._autoreset.findIndex((x) => x !== 0);
      if (ended >= 0) {
        throw valueError(
          `environment ${ended} ended its episode: reset it first (reset({options: {resetMask}})) when autoresetMode is Disabled`,
        );
      }
    }
    return out;
  }

  /**
   * Outcomes in environment order ({result} or {error}) -> the batched step
   * results. Every environment that answered is taken in, so the batch
   * stays consistent; an environment that threw keeps its last observation
   * and is reset by the next step (as after an episode end). Then the first
   * error is thrown, as Gymnasium raises after all workers answered.
   * @param {Outcome[]} outcomes
   */
  _gather(outcomes) {
    const n = /** @type {number} */ (this.numEnvs); // set by _setup
    const observations = new Array(n);
    const rewards = new this._Rewards(n);
    const terminations = new Uint8Array(n);
    const truncations = new Uint8Array(n);
    /** @type {Infos} */
    const infos = {};
    outcomes.forEach(({ result, error }, i) => {
      if (error) {
        this._autoreset[i] = 1;
        return;
      }
      const [observation, reward, terminated, truncated, info, final] = result;
      observations[i] = observation;
      this._last[i] = observation;
      rewards[i] = reward;
      terminations[i] = terminated ? 1 : 0;
      truncations[i] = truncated ? 1 : 0;
      if (final) addInfo(infos, { finalObs: final[0], finalInfo: final[1] }, i, n);
      addInfo(infos, info, i, n);
      this._autoreset[i] = this.autoresetMode !== AutoresetMode.SAME_STEP && (terminated || truncated) ? 1 : 0;
    });
    this._throwFirstError(outcomes, 'step');
    return [this._observations.concatenate(observations), rewards, terminations, truncations, infos];
  }

  /**
   * Takes in the resets that succeeded (environment i's info in `infos`); throws the first error after.
   * @param {(Outcome | null)[]} outcomes null for an environment not reset
   */
  _gatherResets(outcomes) {
    /** @type {Infos} */
    const infos = {};
    outcomes.forEach((outcome, i) => {
      if (!outcome) return;
      if (outcome.error) {
        this._autoreset[i] = 1;
        return;
      }
      this._last[i] = outcome.result[0];
      this._autoreset[i] = 0;
      addInfo(infos, outcome.result[1], i, /** @type {number} */ (this.numEnvs));
    });
    this._throwFirstError(outcomes, 'reset');
    return [this._observations.concatenate(this._last), infos];
  }

  /**
   * @param {(Outcome | null)[]} outcomes
   * @param {string} what
   */
  _throwFirstError(outcomes, what) {
    const failed = outcomes.findIndex((o) => o?.error);
    if (failed < 0) return;
    const { error } = /** @type {Outcome} */ (outcomes[failed]);
    const others = outcomes.filter((o) => o?.error).length - 1;
    const also = others ? ` (and ${others} other environment${others > 1 ? 's' : ''})` : '';
    const next = this.autoresetMode === AutoresetMode.DISABLED ? 'reset({options: {resetMask}}) resets it' : 'the next step resets it';
    const wrapped = namedError(
      error?.name ?? 'Error',
      `environment ${failed}${also} failed in ${what}: ${error?.message ?? String(error)}; the others' results were taken in and ${next}`,
    );
    throw Object.assign(wrapped, { envIndex: failed });
  }

  /**
   * What each environment does this step: reset (next-step autoreset), step, or step and reset.
   * @param {number} i
   * @returns {'reset' | 'step' | 'stepReset'}
   */
  _operation(i) {
    // Set after an episode end (next-step mode) or a failed operation (any mode but Disabled, which stops in _splitActions).
    if (this._autoreset[i]) return 'reset';
    return this.autoresetMode === AutoresetMode.SAME_STEP ? 'stepReset' : 'step';
  }

  toString() {
    return `${this.constructor.name}(${this.spec?.id ? `${this.spec.id}, ` : ''}numEnvs=${this.numEnvs})`;
  }
}

/**
 * One environment's operation, as both vector environments run it.
 * @param {AnyEnv} env
 * @param {{ op: unknown, seed?: unknown, options?: unknown, action?: unknown }} op
 */
export function runOperation(env, op) {
  switch (op.op) {
    case 'reset':
      return env.reset({ seed: op.seed ?? null, options: op.options ?? null });
    case 'step':
      return env.step(op.action);
    case 'stepReset': {
      const result = env.step(op.action);
      if (!(result[2] || result[3])) return result;
      const [observation, info] = env.reset();
      return [observation, result[1], result[2], result[3], info, [result[0], result[4]]];
    }
    default:
      throw valueError(`unknown operation ${describe(op.op)}`);
  }
}

/**
 * `{result}` of `run()`, or `{error}` if it throws.
 * @param {() => unknown} run
 * @returns {Outcome}
 */
function outcomeOf(run) {
  try {
    return { result: run() };
  } catch (error) {
    return { error };
  }
}

/** A next-step autoreset: the observation of a reset, reward 0, not done. */
const autoresetResult = (/** @type {[unknown, unknown]} */ [observation, info]) => [observation, 0, false, false, info];

/**
 * The dtype options (`rewardDtype`, `actionDtype`); another key is a TypeError.
 * @param {{ [option: string]: unknown }} options
 * @param {string} who
 */
function readVectorOptions(options, who) {
  const unknown = Object.keys(options).filter((k) => k !== 'rewardDtype' && k !== 'actionDtype');
  if (unknown.length) throw typeError(`${who}: unknown option ${JSON.stringify(unknown[0])}`);
  return readDtypes(options);
}

/**
 * @param {unknown} entry checked: a function, an environment, an id or {id, options}
 * @param {number} i
 * @returns {AnyEnv}
 */
function environmentOf(entry, i) {
  if (typeof entry === 'function') return requireEnv(entry(), `envFns[${i}]()`);
  if (isEnv(entry)) return entry;
  if (typeof entry === 'string') return make(entry);
  if (isPlainObject(entry) && typeof entry.id === 'string') return make(entry.id, entry.options);
  throw typeError(
    `envFns[${i}] must be a function returning an environment, an environment, an id or {id, options}, got ${describe(entry)}`,
  );
}

/**
 * @param {SpaceObject[]} spaces
 * @param {string} what
 */
function checkSameSpaces(spaces, what) {
  const first = spaces[0];
  spaces.forEach((s, i) => {
    if (!first.equals(s))
      throw valueError(`environment ${i} has the ${what} space ${s}, environment 0 ${first}: a vector environment batches equal spaces`);
  });
}

/**
 * N environments stepped one after another in this thread. `envFns`:
 * functions returning environments (or environments, ids, {id, options}).
 * Options: `autoresetMode` (AutoresetMode.NEXT_STEP by default).
 */
export class SyncVectorEnv extends VectorEnvBase {
  /**
   * @param {unknown} envFns checked: a non-empty array
   * @param {{ autoresetMode?: unknown, [option: string]: unknown }} [options]
   */
  constructor(envFns, { autoresetMode = AutoresetMode.NEXT_STEP, ...dtypes } = {}) {
    super();
    if (!Array.isArray(envFns) || envFns.length === 0)
      throw typeError(`SyncVectorEnv takes a non-empty array of environment functions, got ${describe(envFns)}`);
    readAutoresetMode(autoresetMode);
    const checked = readVectorOptions(dtypes, 'SyncVectorEnv');
    this.envs = envFns.map(environmentOf);
    checkSameSpaces(
      this.envs.map((e) => e.observationSpace),
      'observation',
    );
    checkSameSpaces(
      this.envs.map((e) => e.actionSpace),
      'action',
    );
    // checkSameSpaces found both spaces on every environment.
    this._setup(
      /** @type {AnyEnv & { observationSpace: SpaceObject, actionSpace: SpaceObject }} */ (this.envs[0]),
      this.envs.length,
      autoresetMode,
      checked,
    );
  }

  /**
   * seed: one for all (environment i gets seed + i), one per environment, or none.
   * @param {VectorResetArgs} [args]
   */
  reset(args) {
    if (this.closed) throw valueError('SyncVectorEnv is closed');
    const { seeds, options, mask } = readVectorReset(args, /** @type {number} */ (this.numEnvs));
    if (mask && this._last.some((x, i) => x === null && !mask[i]))
      throw valueError('reset: a partial reset before every environment was reset once');
    const outcomes = this.envs.map((env, i) => (mask && !mask[i] ? null : outcomeOf(() => env.reset({ seed: seeds[i], options }))));
    return this._gatherResets(outcomes);
  }

  /** @param {any} actions */
  step(actions) {
    const split = this._splitActions(actions);
    const outcomes = this.envs.map((env, i) => {
      const op = this._operation(i);
      if (op === 'reset') return outcomeOf(() => autoresetResult(env.reset()));
      return outcomeOf(() => runOperation(env, { op, action: split[i] }));
    });
    return this._gather(outcomes);
  }

  /**
   * `env[name](...args)` (or the value of `env[name]`) for every environment, via getWrapperAttr.
   * @param {string} name
   * @param {unknown[]} args
   */
  call(name, ...args) {
    return this.envs.map((env) => {
      const value = typeof env.getWrapperAttr === 'function' ? env.getWrapperAttr(name) : env[name];
      return typeof value === 'function' ? value.apply(env, args) : value;
    });
  }
  /** @param {string} name */
  getAttr(name) {
    return this.call(name);
  }
  /**
   * Sets `name` on every environment: one value for all, or an array of one per environment.
   * @param {string} name
   * @param {unknown} values
   */
  setAttr(name, values) {
    const list = Array.isArray(values) ? values : new Array(this.numEnvs).fill(values);
    if (list.length !== this.numEnvs) throw valueError(`setAttr: ${list.length} values for ${this.numEnvs} environments`);
    this.envs.forEach((env, i) => (typeof env.setWrapperAttr === 'function' ? env.setWrapperAttr(name, list[i]) : (env[name] = list[i])));
  }
  render() {
    return this.envs.map((env) => env.render());
  }
  close() {
    if (this.closed) return;
    this.envs.forEach((env) => env.close());
    this.closed = true;
  }
}

/**
 * An id for a worker: built-in ids go as they are; an id registered here
 * with a `{module, export}` entry point carries its registration, which the
 * worker replays; one registered with a function cannot reach a worker.
 * @param {string} id
 * @param {unknown} [options]
 */
function idSpec(id, options) {
  const registration = workerRegistration(id);
  return registration ? { id, options, registration } : { id, options };
}

/**
 * @param {unknown} entry checked: an id, {id, options} or {module, export, args}
 * @param {number} i
 */
function readSpec(entry, i) {
  if (typeof entry === 'string') return idSpec(entry);
  if (isPlainObject(entry) && typeof entry.id === 'string') return idSpec(entry.id, entry.options);
  if (isPlainObject(entry) && (typeof entry.module === 'string' || entry.module instanceof URL)) {
    return { module: moduleUrl(entry.module), export: entry.export ?? 'default', args: entry.args ?? [] };
  }
  const hint = typeof entry === 'function' ? ': a function cannot be sent to a worker' : '';
  throw typeError(`envs[${i}] must be an id, {id, options} or {module, export, args}, got ${describe(entry)}${hint}`);
}

/**
 * Splits `n` environments into `w` contiguous groups of near-equal size.
 * @param {number} n
 * @param {number} w
 */
function groups(n, w) {
  /** @type {number[][]} */
  const out = [];
  for (let k = 0, start = 0; k < w; k++) {
    const size = Math.floor(n / w) + (k < n % w ? 1 : 0);
    out.push(Array.from({ length: size }, (_, j) => start + j));
    start += size;
  }
  return out;
}

/**
 * N environments in workers (module Web Workers in a browser, worker
 * threads in Node), each worker running its share one after another; every
 * method returns a promise. `envs`: ids, {id, options}, or {module,
 * export, args} naming a module whose export makes the environment (for
 * plain-JS environments and wrapper stacks; functions cannot cross to a
 * worker). Options: `workers` (default: one per environment),
 * `autoresetMode`, `workerUrl` (default: compgym's worker.js).
 * The spaces are known once `ready` resolves (reset waits for it). One
 * call at a time, as in Gymnasium: a call made while another is pending
 * rejects with an AlreadyPendingCallError; idle workers do not keep Node
 * running; an environment that throws is reported after the others' results
 * are taken in (see VectorEnvBase._gather).
 */
export class AsyncVectorEnv extends VectorEnvBase {
  /**
   * @param {any[]} envs
   * @param {{ workers?: number, autoresetMode?: string, workerUrl?: string | URL, rewardDtype?: string, actionDtype?: string | null }} [options]
   */
  constructor(envs, { workers, autoresetMode = AutoresetMode.NEXT_STEP, workerUrl, ...dtypes } = {}) {
    super();
    if (!Array.isArray(envs) || envs.length === 0)
      throw typeError(`AsyncVectorEnv takes a non-empty array of environment specs, got ${describe(envs)}`);
    readAutoresetMode(autoresetMode);
    const checked = readVectorOptions(dtypes, 'AsyncVectorEnv');
    const specs = envs.map(readSpec);
    const w = workers ?? specs.length;
    if (!Number.isSafeInteger(w) || w < 1 || w > specs.length)
      throw valueError(`workers must be an integer in [1, ${specs.length}], got ${describe(w)}`);
    this.numEnvs = specs.length;
    this.numWorkers = w;
    this._groups = groups(specs.length, w);
    this._services = this._groups.map(() => connect(workerUrl));
    this.closed = false;
    /** @type {string | null} */
    this._pending = null;
    /** @type {Promise<void> | null} The close under way, once close() is called. */
    this._closing = null;
    this.ready = Promise.all(this._services.map((s, k) => s.call('Env.make', { envs: this._groups[k].map((i) => specs[i]) }))).then(
      (replies) => {
        const described = replies.flatMap((r) => r.envs);
        const observation = described.map((d) => Space.fromJSON(exactDescription(d.observationSpace)));
        const action = described.map((d) => Space.fromJSON(exactDescription(d.actionSpace)));
        checkSameSpaces(observation, 'observation');
        checkSameSpaces(action, 'action');
        const first = described[0];
        this._setup(
          {
            observationSpace: observation[0],
            actionSpace: action[0],
            metadata: first.metadata,
            renderMode: first.renderMode,
            spec: first.spec,
          },
          specs.length,
          autoresetMode,
          checked,
        );
        this.rewardRange = first.rewardRange;
        return this;
      },
    );
    // A failed construction stops the workers it started; the failure
    // surfaces where `ready` (or a method) is awaited, not as an unhandled rejection.
    this.ready.catch(() => {
      this.closed = true;
      this._stopWorkers();
    });
  }

  /**
   * Runs `body` as the one pending call: another reset, step, call or
   * setAttr before it settles is Gymnasium's AlreadyPendingCallError (it
   * would interleave with this one's autoreset bookkeeping).
   * @template T
   * @param {string} what
   * @param {() => Promise<T>} body
   * @returns {Promise<T>}
   */
  _exclusive(what, body) {
    if (this._pending) {
      return Promise.reject(
        namedError(
          'AlreadyPendingCallError',
          `calling ${what} while waiting for a pending call to ${this._pending} to complete: await it first`,
        ),
      );
    }
    this._pending = what;
    const run = (async () => {
      try {
        await this.ready;
        return await body();
      } finally {
        this._pending = null;
      }
    })();
    this._running = run.catch(() => {});
    return run;
  }

  /**
   * Runs one operation per listed environment, each worker its share at
   * once; outcomes ({result} or {error}) in environment order, once every
   * worker has answered.
   * @param {({ op: string, [field: string]: unknown } | null)[]} operations one per environment; null for none
   * @returns {Promise<(Outcome | null)[]>}
   */
  async _run(operations) {
    /** @type {(Outcome | null)[]} */
    const outcomes = new Array(this.numEnvs).fill(null);
    await Promise.all(
      this._groups.map(async (members, k) => {
        /** @type {{ env: number, index: number, [field: string]: unknown }[]} */
        const ops = [];
        for (const [local, i] of members.entries()) if (operations[i]) ops.push({ ...operations[i], env: local, index: i });
        if (!ops.length) return;
        try {
          const reply = await this._services[k].call('Env.run', { ops: ops.map(({ index, ...op }) => op) });
          reply.results.forEach((/** @type {any} */ r, /** @type {number} */ j) => {
            outcomes[ops[j].index] = r.error ? { error: namedError(r.error.name, r.error.message) } : { result: r.result };
          });
        } catch (error) {
          // The whole worker failed (it crashed, or a request could not be sent).
          for (const op of ops) outcomes[op.index] = { error };
        }
      }),
    );
    return outcomes;
  }

  /** @param {VectorResetArgs} [args] */
  reset(args) {
    return this._exclusive('reset', async () => {
      if (this.closed) throw valueError('AsyncVectorEnv is closed');
      const { seeds, options, mask } = readVectorReset(args, this.numEnvs);
      if (mask && this._last.some((x, i) => x === null && !mask[i]))
        throw valueError('reset: a partial reset before every environment was reset once');
      return this._gatherResets(await this._run(seeds.map((seed, i) => (mask && !mask[i] ? null : { op: 'reset', seed, options }))));
    });
  }

  /** @param {any} actions */
  step(actions) {
    return this._exclusive('step', async () => {
      const split = this._splitActions(actions);
      const ops = split.map((action, i) => {
        const op = this._operation(i);
        return op === 'reset' ? { op } : { op, action };
      });
      const outcomes = /** @type {Outcome[]} */ (await this._run(ops)); // every environment had an operation
      return this._gather(outcomes.map((o, i) => (ops[i].op === 'reset' && o.result ? { result: autoresetResult(o.result) } : o)));
    });
  }

  /**
   * `env[name](...args)` (or the value of `env[name]`) for every environment; arguments must be cloneable.
   * @param {string} name
   * @param {unknown[]} args
   */
  call(name, ...args) {
    return this._exclusive('call', async () => {
      const replies = await Promise.all(this._services.map((s) => s.call('Env.call', { name, args })));
      return replies.flatMap((r) => r.values);
    });
  }
  /** @param {string} name */
  getAttr(name) {
    return this.call(name);
  }
  /**
   * @param {string} name
   * @param {unknown} values
   */
  setAttr(name, values) {
    return this._exclusive('setAttr', async () => {
      const list = Array.isArray(values) ? values : new Array(this.numEnvs).fill(values);
      if (list.length !== this.numEnvs) throw valueError(`setAttr: ${list.length} values for ${this.numEnvs} environments`);
      await Promise.all(this._services.map((s, k) => s.call('Env.set', { name, values: this._groups[k].map((i) => list[i]) })));
    });
  }
  render() {
    return this.call('render');
  }

  /**
   * Closes the environments and stops the workers; safe to call twice.
   * As Gymnasium's, a close while a call is pending waits for that call first.
   */
  close() {
    if (this.closed && !this._closing) return Promise.resolve(); // closed, or never built
    this._closing ??= (async () => {
      await this._running;
      this.closed = true;
      try {
        await this.ready;
        await Promise.all(this._services.map((s) => s.call('Env.close', {})));
      } catch {
        // The workers stop below either way.
      } finally {
        await this._stopWorkers();
      }
    })();
    return this._closing;
  }

  _stopWorkers() {
    return Promise.all(this._services.map((s) => s.terminate()));
  }
}

/**
 * Gymnasium's `make_vec`: `numEnvs` copies of `id` (made with `options`) in
 * a SyncVectorEnv (`vectorizationMode: "sync"`, the default) or an
 * AsyncVectorEnv (`"async"`); `vectorOptions` go to the vector environment.
 * `mlReady: true` makes each environment ML-ready (see make) and the
 * vector environment batch rewards as a Float32Array and sample actions as
 * an Int32Array (`rewardDtype: "float32"`, `actionDtype: "int32"`).
 */
/**
 * @param {string} id
 * @param {{ numEnvs?: number, vectorizationMode?: string, options?: Record<string, any>, vectorOptions?: Record<string, any>, mlReady?: boolean }} [config]
 */
export function makeVec(id, { numEnvs = 1, vectorizationMode = 'sync', options = {}, vectorOptions = {}, mlReady = false } = {}) {
  if (!Number.isSafeInteger(numEnvs) || numEnvs < 1) throw valueError(`numEnvs must be a positive integer, got ${describe(numEnvs)}`);
  if (!isPlainObject(options)) throw typeError(`makeVec: options must be an object, got ${describe(options)}`);
  if (!isPlainObject(vectorOptions)) throw typeError(`makeVec: vectorOptions must be an object, got ${describe(vectorOptions)}`);
  if (readMlReady(mlReady, 'makeVec') || readMlReady(options.mlReady, 'makeVec')) {
    options = { ...options, mlReady: true };
    vectorOptions = { rewardDtype: 'float32', actionDtype: 'int32', ...vectorOptions };
  }
  if (vectorizationMode === 'sync') {
    return new SyncVectorEnv(
      Array.from({ length: numEnvs }, () => () => make(id, options)),
      vectorOptions,
    );
  }
  if (vectorizationMode === 'async') return new AsyncVectorEnv(new Array(numEnvs).fill({ id, options }), vectorOptions);
  throw valueError(`vectorizationMode must be "sync" or "async", got ${describe(vectorizationMode)}`);
}

keepNames({ VectorEnvBase, SyncVectorEnv, AsyncVectorEnv });
