// checkEnv: Gymnasium's utils/env_checker.check_env and its passive
// checker for compgym/gym environments. It reports every problem it finds
// instead of stopping at the first, each as {check, severity, message}
// where the message says what to change. It returns the list (empty when
// the environment passes) and throws only when its argument is not an
// environment at all (a TypeError). Errors break Gymnasium's API; warnings
// are Gymnasium's warnings (advice, not breakage).
//
// It resets and steps the environment and, at the end, closes it twice
// (an environment must allow that); pass {skipCloseCheck: true} to keep it open.
import { dataEqual, describe, isPlainObject, isSpace, typeError } from './core.js';
import { make } from './envs.js';

/** @import { CheckName, CheckProblem } from './index.js' */
/** @import { AnyEnv, SpaceObject } from './core.js' */
/** @import { BoxDescription, SpaceDescription } from '../compgym.js' */

const SEED = 123;

/** @param {unknown} error */
function errorText(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Why `value` is not in `space`, as advice.
 * @param {SpaceObject} space
 * @param {unknown} value
 */
function outsideAdvice(space, value) {
  // The kinds with a dtype have it here or in their `space`.
  const description = /** @type {{ dtype?: string, space?: { dtype?: string } }} */ (space.toJSON());
  const dtype = description.dtype ?? description.space?.dtype;
  const parts = [`${describe(value)} is not in ${space}`];
  if (dtype && ArrayBuffer.isView(value)) parts.push(`return a typed array of the space's dtype (${dtype}), of length ${space.flatdim}`);
  else if (dtype) parts.push(`return values of the space's dtype (${dtype}) within its bounds`);
  else parts.push('return values the space contains (space.contains(x) must be true)');
  return parts.join(': ');
}

/**
 * @param {unknown} value
 * @returns {boolean}
 */
function hasNonFinite(value) {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value instanceof Float32Array || value instanceof Float64Array) return value.some((x) => !Number.isFinite(x));
  if (Array.isArray(value)) return value.some(hasNonFinite);
  if (isPlainObject(value)) return Object.values(value).some(hasNonFinite);
  return false;
}

/**
 * The Box descriptions inside a space description, with their paths.
 * @param {SpaceDescription} description
 * @param {string} path
 * @param {[string, BoxDescription][]} out
 */
function boxes(description, path, out) {
  if (description.type === 'Box') out.push([path, description]);
  if (description.type === 'Dict') for (const [k, d] of description.spaces) boxes(d, `${path}.${k}`, out);
  if (description.type === 'Tuple') description.spaces.forEach((d, i) => boxes(d, `${path}[${i}]`, out));
  return out;
}

const infinite = (/** @type {unknown} */ bound) =>
  (Array.isArray(bound) ? bound : [bound]).some((x) => x === null || !Number.isFinite(Number(x)));

/**
 * A Box's bounds, element by element (a shared bound repeated).
 * @param {BoxDescription} box
 * @returns {[number[], number[]]}
 */
function bounds(box) {
  const n = box.shape.reduce((a, b) => a * b, 1);
  const each = (/** @type {unknown} */ bound) => (Array.isArray(bound) ? bound.map(Number) : new Array(n).fill(Number(bound)));
  return [each(box.low), each(box.high)];
}

/**
 * Gymnasium's advice for Box action spaces of one dimension: a symmetric,
 * normalised range ([-1, 1] or [0, 1]) suits learning algorithms best.
 * @param {BoxDescription} box
 */
function normalised(box) {
  if (box.shape.length !== 1) return true;
  const [low, high] = bounds(box);
  return low.every((l, i) => (l === 0 || Math.abs(l) === Math.abs(high[i])) && l >= -1 && high[i] <= 1);
}

/**
 * The empty Dicts and Tuples inside a space description, with their paths (Gymnasium refuses them).
 * @param {SpaceDescription} description
 * @param {string} path
 * @param {[string, string][]} out
 */
function empties(description, path, out) {
  if ((description.type === 'Dict' || description.type === 'Tuple') && description.spaces.length === 0) out.push([path, description.type]);
  if (description.type === 'Dict') for (const [k, d] of description.spaces) empties(d, `${path}.${k}`, out);
  if (description.type === 'Tuple') description.spaces.forEach((d, i) => empties(d, `${path}[${i}]`, out));
  return out;
}

/**
 * The typed array a space's values are (Box, MultiDiscrete, MultiBinary), for advice on plain arrays.
 * @param {SpaceObject} space
 */
function arrayKind(space) {
  const d = space.toJSON();
  if (d.type === 'Box') return `a ${d.dtype} typed array`;
  if (d.type === 'MultiDiscrete' || d.type === 'MultiBinary') return 'a typed array';
  return null;
}

/** Whether two results share an object (an array, typed array or plain object), as a reused buffer would. */
const sameObject = (/** @type {unknown} */ a, /** @type {unknown} */ b) => typeof a === 'object' && a !== null && a === b;

/**
 * Checks `env` against Gymnasium's API; returns every problem found (an
 * empty array when there is none). Options: `skipRenderCheck`,
 * `skipCloseCheck`.
 * @param {any} env checked: what it has is what the checks report on
 * @param {{ skipRenderCheck?: boolean, skipCloseCheck?: boolean }} [options]
 * @returns {CheckProblem[]}
 */
export function checkEnv(env, { skipRenderCheck = false, skipCloseCheck = false } = {}) {
  if (env === null || typeof env !== 'object') throw typeError(`checkEnv checks an environment object, got ${describe(env)}`);
  /** @type {CheckProblem[]} */
  const problems = [];
  const error = (/** @type {CheckName} */ check, /** @type {string} */ message) => problems.push({ check, severity: 'error', message });
  const warning = (/** @type {CheckName} */ check, /** @type {string} */ message) => problems.push({ check, severity: 'warning', message });

  if (typeof env.reset !== 'function' || typeof env.step !== 'function') {
    error(
      'api',
      `the environment needs reset({seed, options}) and step(action) methods (got reset: ${typeof env.reset}, step: ${typeof env.step}); extend compgym/gym's Env`,
    );
    return problems;
  }
  if (env.unwrapped !== undefined && env.unwrapped !== env) {
    warning('wrapped', `${env} is wrapped: the checks see the wrappers too; check env.unwrapped to check the environment alone`);
  }

  // ---- spaces ----------------------------------------------------------------
  /** @type {{ action?: SpaceObject, observation?: SpaceObject }} */
  const spaces = {};
  /** @type {['actionSpace' | 'observationSpace', 'action' | 'observation'][]} */
  const kinds = [
    ['actionSpace', 'action'],
    ['observationSpace', 'observation'],
  ];
  for (const [name, kind] of kinds) {
    let space;
    try {
      space = env[name];
    } catch (e) {
      error(`${kind}-space`, `reading env.${name} threw ${errorText(e)}; make it a plain property`);
      continue;
    }
    if (!isSpace(space)) {
      error(
        `${kind}-space`,
        `env.${name} is ${describe(space)}; set it to a compgym Space (Space.discrete(n), Space.box({low, high, shape, dtype}), ...) in the constructor`,
      );
      continue;
    }
    spaces[kind] = space;
    for (const [path, box] of boxes(space.toJSON(), name, [])) {
      if (infinite(box.low) || infinite(box.high))
        warning(`${kind}-space-bounds`, `${path} is a Box with infinite bounds; give it finite ones if the values have them`);
      const [low, high] = bounds(box);
      if (low.some((l, i) => l === high[i]))
        warning(
          `${kind}-space-bounds`,
          `${path} is a Box whose minimum and maximum are equal somewhere; an element that cannot vary carries nothing`,
        );
      if (kind === 'action' && !infinite(box.low) && !infinite(box.high) && !normalised(box)) {
        warning(
          'action-space-normalized',
          `${path} is a Box action space of range [${box.low}, ${box.high}]; a symmetric, normalised range ([-1, 1] or [0, 1]) suits learning algorithms best: rescale actions in step (or with TransformAction)`,
        );
      }
    }
    for (const [path, type] of empties(space.toJSON(), name, [])) {
      error(`${kind}-space`, `${path} is an empty ${type} space, which Gymnasium does not allow; give it at least one member`);
    }
  }
  if (spaces.action) {
    const sample = spaces.action.sample();
    if (!spaces.action.contains(sample))
      error('action-space', `env.actionSpace.sample() gave ${describe(sample)}, which it does not contain; the space is inconsistent`);
  }

  const range = env.rewardRange;
  if (!(
    Array.isArray(range) &&
    range.length === 2 &&
    range.every((x) => typeof x === 'number' && !Number.isNaN(x)) &&
    range[0] <= range[1]
  )) {
    error(
      'reward-range',
      `env.rewardRange is ${describe(range)}; make it [min, max], two numbers with min <= max ([-Infinity, Infinity] if unbounded)`,
    );
  }
  const metadata = env.metadata;
  const modes = metadata?.renderModes;
  if (!isPlainObject(metadata) || !Array.isArray(modes) || !modes.every((m) => typeof m === 'string')) {
    error(
      'metadata',
      `env.metadata.renderModes is ${describe(modes)}; set metadata = {renderModes: [...mode names], renderFps: null | number}`,
    );
  } else if (
    metadata.renderFps !== undefined &&
    metadata.renderFps !== null &&
    !(typeof metadata.renderFps === 'number' && metadata.renderFps > 0)
  ) {
    error('metadata', `env.metadata.renderFps is ${describe(metadata.renderFps)}; make it a positive number or null`);
  }
  const modesValid = Array.isArray(modes) && modes.every((m) => typeof m === 'string');
  const renderMode = env.renderMode ?? null;
  const renderModeValid = renderMode === null || (modesValid && modes.includes(renderMode));
  if (modesValid && !renderModeValid) {
    error(
      'render-mode',
      `env.renderMode is ${JSON.stringify(renderMode)}, not one of metadata.renderModes (${JSON.stringify(modes)}); add it there or use another`,
    );
  }
  const observationSpace = spaces.observation;
  if (!observationSpace) return problems; // nothing below can be judged without it

  // ---- reset -----------------------------------------------------------------
  /**
   * @param {'reset-observation' | 'step-observation'} check
   * @param {string} what
   * @param {unknown} observation
   */
  const observe = (check, what, observation) => {
    if (!observationSpace.contains(/** @type {import('../compgym.js').SpaceValue} */ (observation))) {
      error(check, `the observation of ${what}: ${outsideAdvice(observationSpace, observation)}`);
      return false;
    }
    if (hasNonFinite(observation))
      warning(`${check}-finite`, `the observation of ${what} holds NaN or infinity; agents rarely cope with them`);
    const kind = arrayKind(observationSpace);
    if (kind && Array.isArray(observation)) {
      warning(
        `${check}-type`,
        `the observation of ${what} is a plain array; return ${kind} (as Gymnasium expects a numpy array), which batches and learns without conversion`,
      );
    }
    return true;
  };
  /**
   * @param {unknown} args
   * @param {string} what
   * @returns {unknown[] | null}
   */
  const reset = (args, what) => {
    let result;
    try {
      result = env.reset(args);
    } catch (e) {
      error('reset-raises', `${what} threw ${errorText(e)}; reset must accept {seed, options}`);
      return null;
    }
    if (!Array.isArray(result) || result.length !== 2) {
      error('reset-return', `${what} returned ${describe(result)}; return [observation, info]`);
      return null;
    }
    const [observation, info] = result;
    observe('reset-observation', what, observation);
    if (!isPlainObject(info))
      error('reset-info', `the info of ${what} is ${describe(info)}; return a plain object ({} when there is nothing to say)`);
    return result;
  };
  const first = reset(undefined, 'reset()');
  if (!first) return problems;

  const seeded = reset({ seed: SEED }, `reset({seed: ${SEED}})`);
  // Gymnasium's check that returned data is not reused: an agent keeping a result must not see it change.
  /**
   * @param {'reset-data-reused' | 'step-data-reused'} check
   * @param {unknown[]} a
   * @param {unknown[]} b
   * @param {string} what
   */
  const reused = (check, a, b, what) => {
    /** @type {[number, string][]} */
    const parts = [
      [0, 'observation'],
      [a.length - 1, 'info'],
    ];
    for (const [i, name] of parts) {
      if (sameObject(a[i], b[i])) {
        error(
          check,
          `${what} returned the same ${name} object both times; return a new one each call (copy a buffer you reuse), or an agent that keeps one sees it change`,
        );
      }
    }
  };
  if (seeded) reused('reset-data-reused', first, seeded, 'reset() then reset({seed})');
  const unwrapped = env.unwrapped ?? env;
  if (seeded && 'npRandomSeed' in unwrapped && unwrapped.npRandomSeed !== SEED) {
    error(
      'reset-seed-rng',
      `after reset({seed: ${SEED}}), env.unwrapped.npRandomSeed is ${describe(unwrapped.npRandomSeed)}; call super.reset({seed}) at the start of reset`,
    );
  }
  const afterSeed = seeded && reset(undefined, `reset() after reset({seed: ${SEED}})`);
  const reseeded = seeded && reset({ seed: SEED }, `reset({seed: ${SEED}}) again`);
  const afterReseed = reseeded && reset(undefined, `reset() after reset({seed: ${SEED}}) again`);
  const deterministic = !(env.spec?.nondeterministic ?? false);
  let resetsReplay = true;
  if (deterministic && seeded && reseeded) {
    if (!dataEqual(seeded[0], reseeded[0])) {
      resetsReplay = false;
      error(
        'reset-seed',
        `reset({seed: ${SEED}}) twice gave different observations; draw every random choice of reset from this.npRandom (seeded by super.reset({seed}))`,
      );
    } else if (afterSeed && afterReseed && !dataEqual(afterSeed[0], afterReseed[0])) {
      resetsReplay = false;
      error(
        'reset-seed',
        `reset() after reset({seed: ${SEED}}) gave different observations each time; unseeded resets must keep drawing from this.npRandom`,
      );
    }
  }
  try {
    env.reset({ options: {} });
  } catch (e) {
    error('reset-options', `reset({options: {}}) threw ${errorText(e)}; reset must accept an options object`);
  }

  // ---- step ------------------------------------------------------------------
  /**
   * @param {unknown} action
   * @param {string} what
   * @returns {unknown[] | null}
   */
  const step = (action, what) => {
    let result;
    try {
      result = env.step(action);
    } catch (e) {
      error('step-raises', `${what} threw ${errorText(e)}; every action of the action space must be accepted`);
      return null;
    }
    if (!Array.isArray(result) || result.length !== 5) {
      error('step-return', `${what} returned ${describe(result)}; return [observation, reward, terminated, truncated, info]`);
      return null;
    }
    const [observation, reward, terminated, truncated, info] = result;
    observe('step-observation', what, observation);
    if (typeof reward !== 'number') error('step-reward', `the reward of ${what} is ${describe(reward)}; return a number`);
    else if (!Number.isFinite(reward)) error('step-reward', `the reward of ${what} is ${reward}; return a finite number`);
    if (typeof terminated !== 'boolean') error('step-terminated', `terminated of ${what} is ${describe(terminated)}; return true or false`);
    if (typeof truncated !== 'boolean') error('step-truncated', `truncated of ${what} is ${describe(truncated)}; return true or false`);
    if (!isPlainObject(info))
      error('step-info', `the info of ${what} is ${describe(info)}; return a plain object ({} when there is nothing to say)`);
    return result;
  };
  if (spaces.action && reset({ seed: SEED }, `reset({seed: ${SEED}})`)) {
    spaces.action.seed(SEED);
    const action = spaces.action.sample();
    const once = step(action, `step(${describe(action)}) after reset({seed: ${SEED}})`);
    if (once && once[3] === true && deterministic) {
      error(
        'step-truncates',
        `the first step after reset({seed: ${SEED}}) truncated the episode; an episode must last more than one step (is maxEpisodeSteps 1, or truncated inverted?)`,
      );
    }
    // Step determinism assumes seeded resets replay (reported above when they do not).
    if (once && deterministic && resetsReplay && reset({ seed: SEED }, `reset({seed: ${SEED}})`)) {
      const twice = step(action, `step(${describe(action)}) after reset({seed: ${SEED}}) again`);
      if (twice) reused('step-data-reused', once, twice, `step(${describe(action)}) twice`);
      if (twice) {
        const names = ['observation', 'reward', 'terminated', 'truncated', 'info'];
        const differing = names.filter((_, i) => !dataEqual(once[i], twice[i]));
        if (differing.length) {
          error(
            'step-determinism',
            `the same seed and action gave a different ${differing.join(', ')}; draw randomness only from this.npRandom, or set spec.nondeterministic`,
          );
        }
      }
    }
  }

  // ---- render and close ------------------------------------------------------
  if (!skipRenderCheck && renderMode !== null && renderModeValid) {
    let frame;
    try {
      frame = env.render();
      const expected = /** @type {{ [mode: string]: string }} */ ({ ansi: 'string', human: 'undefined or null' })[renderMode];
      if (renderMode === 'ansi' && typeof frame !== 'string')
        error('render', `render() in mode "ansi" returned ${describe(frame)}; return the text`);
      if (renderMode === 'human' && frame !== undefined && frame !== null)
        error('render', `render() in mode "human" returned ${describe(frame)}; draw and return ${expected}`);
      if (renderMode === 'rgb_array' && !(frame instanceof Uint8Array || frame instanceof Uint8ClampedArray)) {
        error('render', `render() in mode "rgb_array" returned ${describe(frame)}; return a Uint8Array of height x width x 3 values`);
      }
    } catch (e) {
      error('render', `render() in mode ${JSON.stringify(renderMode)} threw ${errorText(e)}`);
    }
  }
  if (!skipRenderCheck && env.spec?.id && modesValid) {
    for (const mode of modes.filter((m) => m !== renderMode)) {
      try {
        const other = make(env.spec.id, { ...env.spec.kwargs, renderMode: mode });
        other.reset();
        const frame = other.render();
        if (mode === 'ansi' && typeof frame !== 'string')
          error(
            'render',
            `render() in mode "ansi" (made with make(${JSON.stringify(env.spec.id)}, {renderMode: "ansi"})) returned ${describe(frame)}; return the text`,
          );
        other.close();
      } catch (e) {
        error(
          'render',
          `make(${JSON.stringify(env.spec.id)}, {renderMode: ${JSON.stringify(mode)}}) then render() threw ${errorText(e)}; support every mode of metadata.renderModes`,
        );
      }
    }
  }
  if (!skipCloseCheck) {
    try {
      env.close();
      env.close();
    } catch (e) {
      error('close', `close() on a closed environment threw ${errorText(e)}; closing twice must be allowed`);
    }
  }
  return problems;
}
