// CompilerGym's wrappers (compiler_gym/wrappers), on Gymnasium's step API:
// CommandlineWithTerminalAction, ConstrainedCommandline, Counter,
// ForkOnStep, IterateOverBenchmarks, CycleOverBenchmarks,
// RandomOrderBenchmarks and ValidateBenchmarkAfterEveryStep. Each forwards
// what it does not change and forks with its own state copied (where
// CompilerGym differs, the class comment says so).
import { Rng, Space } from '../api.js';
import {
  ActionWrapper,
  Wrapper,
  callOptional,
  describe,
  entropySeed,
  lookupError,
  namedError,
  readResetArgs,
  readSeed,
  requireSpace,
  typeError,
  valueError,
  keepNames,
} from './core.js';

/** @import { CommandlineFlag, ResetArgs } from './index.js' */
/** @import { AnyEnv, SpaceObject } from './core.js' */

/**
 * @param {AnyEnv} env
 * @param {string} who
 */
function commandlineSpaceOf(env, who) {
  const space = requireSpace(env.actionSpace, `${who}: the action space`);
  if (space.type !== 'Commandline') {
    throw typeError(`${who} needs a Commandline action space, got a ${space.type} (${space.name})`);
  }
  return space;
}

/**
 * The `{name, flag, description}` entries of a Commandline space.
 * @param {SpaceObject} space
 * @returns {CommandlineFlag[]}
 */
function commandlineEntries(space) {
  const names = space.names;
  const flags = space.flags;
  const descriptions = space.descriptions;
  return names.map((name, i) => ({ name, flag: flags[i], description: descriptions[i] }));
}

/**
 * An info whose `actionMask` (over the wrapped action space) is replaced by
 * `remap(mask)` (over the wrapper's); as the core's, a mask never forbids
 * everything: all ones and `fixedPoint: true` instead.
 * @param {any} info the wrapped environment's, unchecked
 * @param {(mask: Uint8Array) => Uint8Array} remap
 */
function remapMask(info, remap) {
  if (!(info?.actionMask instanceof Uint8Array)) return info;
  const mask = remap(info.actionMask);
  const { fixedPoint, ...rest } = info;
  if (mask.every((x) => x === 0)) return { ...rest, actionMask: mask.fill(1), fixedPoint: true };
  return { ...rest, actionMask: mask, ...(fixedPoint && mask.every((x) => x === 1) ? { fixedPoint } : {}) };
}

/**
 * Adds a terminal action after the Commandline's flags (by default
 * `-end-of-episode`: this package's flags hold no spaces, so not
 * CompilerGym's `# end-of-episode`): stepping it, by index or by flag, runs
 * nothing and ends the episode (`terminated`, reward 0, the last
 * observation, `info.terminalAction = true`). The terminal action is
 * never masked in `info.actionMask`.
 */
export class CommandlineWithTerminalAction extends Wrapper {
  /**
   * @param {unknown} env
   * @param {CommandlineFlag} [terminal] checked by the core
   */
  constructor(env, terminal = { name: 'end-of-episode', flag: '-end-of-episode', description: 'End the episode' }) {
    super(env);
    const space = commandlineSpaceOf(this.env, 'CommandlineWithTerminalAction');
    const entries = commandlineEntries(space);
    this.actionSpace = Space.commandlineSpace([...entries, terminal], {
      name: `CommandlineWithTerminalAction<${space.name}>`,
    });
    this.terminalAction = entries.length;
    this.terminalFlag = terminal.flag;
    /** @type {unknown} */
    this._lastObservation = undefined;
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const [observation, info] = this.env.reset(args);
    this._lastObservation = observation;
    return [observation, this._info(info)];
  }
  /** @param {any} action */
  step(action) {
    if (action === this.terminalAction || action === this.terminalFlag) {
      if (this._lastObservation === undefined) throw namedError('SessionNotFound', 'step before reset: call reset() first');
      return [this._lastObservation, 0, true, false, { terminalAction: true }];
    }
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    this._lastObservation = observation;
    return [observation, reward, terminated, truncated, this._info(info)];
  }
  /** @param {unknown} info */
  _info(info) {
    return remapMask(info, (mask) => {
      const out = new Uint8Array(mask.length + 1);
      out.set(mask);
      out[mask.length] = 1;
      return out;
    });
  }
}

/**
 * Restricts a Commandline action space to some of its flags: action `i`
 * of the new space is `flags[i]` of the old one. `actions` reads the
 * episode's actions back in the new space; `info.actionMask` is
 * restricted alike.
 */
export class ConstrainedCommandline extends ActionWrapper {
  /**
   * @param {unknown} env
   * @param {string[]} flags checked
   * @param {{ name?: string }} [options]
   */
  constructor(env, flags, { name } = {}) {
    super(env);
    const space = commandlineSpaceOf(this.env, 'ConstrainedCommandline');
    if (!Array.isArray(flags) || flags.length === 0)
      throw typeError(`ConstrainedCommandline: flags must be a non-empty array of flags, got ${describe(flags)}`);
    const entries = commandlineEntries(space);
    this.flags = flags.map((flag, i) => {
      if (typeof flag !== 'string') throw typeError(`ConstrainedCommandline: flags[${i}] must be a string, got ${describe(flag)}`);
      return flag;
    });
    if (new Set(this.flags).size !== this.flags.length) throw valueError('ConstrainedCommandline: flags must not repeat');
    this._forward = this.flags.map((flag) => {
      const [index] = space.fromCommandline(flag); // a LookupError for an unknown flag
      return index;
    });
    this._reverse = new Map(this._forward.map((outer, inner) => [outer, inner]));
    this.actionSpace = Space.commandlineSpace(
      this._forward.map((i) => entries[i]),
      { name: `ConstrainedCommandline<${name ?? space.name}, ${flags.length}>` },
    );
  }
  /** @param {any} action */
  /**
   * @param {any} action checked: a flag, an index or an array of them
   * @returns {number | number[]}
   */
  action(action) {
    if (Array.isArray(action)) return action.map((a) => /** @type {number} */ (this.action(a)));
    if (typeof action === 'string') {
      const i = this.flags.indexOf(action);
      if (i < 0) throw lookupError(`ConstrainedCommandline: ${JSON.stringify(action)} is not one of ${this.flags.join(' ')}`);
      return this._forward[i];
    }
    if (!Number.isInteger(action) || action < 0 || action >= this._forward.length) {
      throw valueError(`ConstrainedCommandline: action must be an integer in [0, ${this._forward.length}), got ${describe(action)}`);
    }
    return this._forward[action];
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const [observation, info] = this.env.reset(args);
    return [observation, this._info(info)];
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(this.action(action));
    return [observation, reward, terminated, truncated, this._info(info)];
  }
  /** @param {unknown} info */
  _info(info) {
    return remapMask(info, (mask) => Uint8Array.from(this._forward, (i) => mask[i]));
  }
  /** @param {any} action */
  /**
   * @param {any} action an index of the wrapped space, or an array of them
   * @returns {number | number[]}
   */
  reverseAction(action) {
    if (Array.isArray(action)) return action.map((a) => /** @type {number} */ (this.reverseAction(a)));
    const inner = this._reverse.get(action);
    if (inner === undefined)
      throw valueError(`ConstrainedCommandline: action ${describe(action)} of the wrapped space is not one of the constrained flags`);
    return inner;
  }
  /** The episode's actions in the constrained space. */
  get actions() {
    return this.reverseAction(this.env.actions);
  }
}

/**
 * Counts calls to close, reset, step and fork in `counters` (not reset by
 * reset). As in CompilerGym, `fork()` counts and returns the fork of the
 * wrapped environment, without a Counter around it.
 */
export class Counter extends Wrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    this.counters = { close: 0, reset: 0, step: 0, fork: 0 };
  }
  close() {
    this.counters.close += 1;
    return this.env.close();
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    this.counters.reset += 1;
    return this.env.reset(args);
  }
  /** @param {any} action */
  step(action) {
    this.counters.step += 1;
    return this.env.step(action);
  }
  fork() {
    this.counters.fork += 1;
    return callOptional(this.env, 'fork', [], String(this.env));
  }
}

/**
 * Forks the environment before every step, so `undo()` steps back: it
 * closes the current environment and continues from the fork taken before
 * the last step (and returns it; null when there is nothing to undo).
 * reset and close drop the forks. Unlike CompilerGym (which cannot fork
 * this wrapper), `fork()` forks the environment and every fork on the stack.
 */
export class ForkOnStep extends Wrapper {
  /** @param {unknown} env */
  constructor(env) {
    super(env);
    /** @type {AnyEnv[]} */
    this.stack = [];
  }
  undo() {
    if (this.stack.length === 0) return null;
    this.env.close();
    this.env = /** @type {AnyEnv} */ (this.stack.pop());
    return this.env;
  }
  _dropStack() {
    for (const env of this.stack) env.close();
    this.stack = [];
  }
  close() {
    this._dropStack();
    return this.env.close();
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const result = this.env.reset(args);
    this._dropStack();
    return result;
  }
  /** @param {any} action */
  step(action) {
    const before = callOptional(this.env, 'fork', [], String(this.env));
    let result;
    try {
      result = this.env.step(action);
    } catch (error) {
      before.close();
      throw error;
    }
    this.stack.push(before);
    return result;
  }
  fork() {
    const copy = super.fork();
    copy.stack = this.stack.map((/** @type {AnyEnv} */ env) => env.fork());
    return copy;
  }
}

/**
 * `options.benchmark` is the wrapper's to choose.
 * @param {unknown} args
 * @param {string} who
 */
function readBenchmarkFreeReset(args, who) {
  const { seed, options } = readResetArgs(args, `${who}.reset`);
  if (options?.benchmark !== undefined) throw typeError(`a benchmark was passed to ${who}.reset(): the wrapper chooses it`);
  return { seed, options };
}

/**
 * Two iterators over what remains of `iterator`, each advancing on its own.
 * @param {Iterator<unknown>} iterator
 */
function tee(iterator) {
  /** @type {[unknown[], unknown[]]} */
  const buffers = [[], []];
  /** @type {(mine: 0 | 1) => IterableIterator<unknown>} */
  const branch = (mine) => ({
    next() {
      if (buffers[mine].length) return { value: buffers[mine].shift(), done: false };
      const item = iterator.next();
      if (!item.done) buffers[1 - mine].push(item.value);
      return item;
    },
    [Symbol.iterator]() {
      return this;
    },
  });
  return [branch(0), branch(1)];
}

/**
 * @param {any} benchmarks checked: an iterable, not a string
 * @param {string} who
 * @returns {IterableIterator<unknown>} as the iterators of built-in iterables and generators are
 */
function iteratorOf(benchmarks, who) {
  if (benchmarks === null || typeof benchmarks?.[Symbol.iterator] !== 'function' || typeof benchmarks === 'string') {
    throw typeError(`${who}: benchmarks must be an iterable of benchmark URIs, got ${describe(benchmarks)}`);
  }
  return benchmarks[Symbol.iterator]();
}

/**
 * Resets on the next benchmark of a (possibly endless) iterable on every
 * reset; a LookupError once it is exhausted. A fork advances on its own
 * copy of the iterator, or on the same one with `forkSharesIterator`.
 */
export class IterateOverBenchmarks extends Wrapper {
  /**
   * @param {unknown} env
   * @param {unknown} benchmarks checked: an iterable of benchmark URIs
   * @param {{ forkSharesIterator?: boolean }} [options]
   */
  constructor(env, benchmarks, { forkSharesIterator = false } = {}) {
    super(env);
    this._benchmarks = iteratorOf(benchmarks, new.target.name);
    this.forkSharesIterator = Boolean(forkSharesIterator);
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const { seed, options } = readBenchmarkFreeReset(args, this.constructor.name);
    const next = this._benchmarks.next();
    if (next.done) throw lookupError(`${this.constructor.name}: the benchmarks are exhausted (CycleOverBenchmarks repeats them)`);
    return this.env.reset({ seed, options: { ...options, benchmark: next.value } });
  }
  fork() {
    const copy = super.fork();
    if (!this.forkSharesIterator) [this._benchmarks, copy._benchmarks] = tee(this._benchmarks);
    return copy;
  }
}

/** @param {Iterator<unknown>} iterator */
function* cycle(iterator) {
  /** @type {unknown[]} */
  const seen = [];
  for (let item = iterator.next(); !item.done; item = iterator.next()) {
    seen.push(item.value);
    yield item.value;
  }
  if (seen.length === 0) return;
  for (;;) yield* seen;
}

/** Cycles through the benchmarks, one per reset, forever. */
export class CycleOverBenchmarks extends IterateOverBenchmarks {
  /**
   * @param {unknown} env
   * @param {unknown} benchmarks checked: an iterable of benchmark URIs
   * @param {{ forkSharesIterator?: boolean }} [options]
   */
  constructor(env, benchmarks, options) {
    super(env, cycle(iteratorOf(benchmarks, 'CycleOverBenchmarks')), options);
  }
}

/**
 * Resets on a benchmark drawn uniformly from the list with its own seeded
 * generator (`seed`, default: fresh); reset({seed}) reseeds that
 * generator too, so a seeded reset replays the draws. A fork draws from a
 * copy of the generator (CompilerGym's fork iterates the list in order).
 */
export class RandomOrderBenchmarks extends Wrapper {
  /**
   * @param {unknown} env
   * @param {Iterable<string>} benchmarks checked
   * @param {{ seed?: number | bigint }} [options]
   */
  constructor(env, benchmarks, { seed } = {}) {
    super(env);
    this.benchmarks = [...iteratorOf(benchmarks, 'RandomOrderBenchmarks')];
    if (this.benchmarks.length === 0) throw valueError('RandomOrderBenchmarks: benchmarks must not be empty');
    this.rng = new Rng(readSeed(seed, 'RandomOrderBenchmarks: seed') ?? entropySeed());
  }
  /** @param {ResetArgs} [args] */
  reset(args) {
    const { seed, options } = readBenchmarkFreeReset(args, 'RandomOrderBenchmarks');
    const rng = seed === null ? this.rng.clone() : new Rng(seed);
    const benchmark = this.benchmarks[Number(rng.integers(0, this.benchmarks.length))];
    const result = this.env.reset({ seed, options: { ...options, benchmark } });
    this.rng = rng;
    return result;
  }
  fork() {
    const copy = super.fork();
    copy.rng = this.rng.clone();
    return copy;
  }
}

/**
 * Validates the benchmark (runs it and compares its behaviour with the
 * original's) after every step that does not end the episode; a failure
 * ends it with reward `rewardPenalty` and the first error in
 * `info.errorDetails`.
 */
export class ValidateBenchmarkAfterEveryStep extends Wrapper {
  /**
   * @param {unknown} env
   * @param {{ rewardPenalty?: number }} [options] checked
   */
  constructor(env, { rewardPenalty = -1e3 } = {}) {
    super(env);
    if (typeof rewardPenalty !== 'number' || !Number.isFinite(rewardPenalty)) {
      throw valueError(`ValidateBenchmarkAfterEveryStep: rewardPenalty must be a finite number, got ${describe(rewardPenalty)}`);
    }
    this.rewardPenalty = rewardPenalty;
  }
  /** @param {any} action */
  step(action) {
    const [observation, reward, terminated, truncated, info] = this.env.step(action);
    if (terminated || truncated) return [observation, reward, terminated, truncated, info];
    const result = callOptional(this.env, 'validate', [], String(this.env));
    if (result?.okay !== false) return [observation, reward, terminated, truncated, info];
    const errorDetails = result.errors?.[0] ?? { kind: 'Validation failed', details: '' };
    return [observation, this.rewardPenalty, true, truncated, { ...info, errorDetails }];
  }
}

keepNames({
  CommandlineWithTerminalAction,
  ConstrainedCommandline,
  Counter,
  ForkOnStep,
  IterateOverBenchmarks,
  CycleOverBenchmarks,
  RandomOrderBenchmarks,
  ValidateBenchmarkAfterEveryStep,
});
