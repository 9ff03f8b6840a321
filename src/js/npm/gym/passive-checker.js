// Gymnasium's passive checks (utils/passive_env_checker.py) for
// PassiveEnvChecker: they look at what an environment returns and warn
// (through warn.js) where it breaks Gymnasium's API, and never change or
// stop anything. Only a missing space is an error, as in Gymnasium: no
// wrapper can work without one.
import { describe, isPlainObject, isSpace, typeError } from './core.js';
import { typedArrayOf } from './space-values.js';
import { warn } from './warn.js';

/** @import { AnyEnv } from './core.js' */
/** @import { DescriptionBounds, DescriptionNumber, Space, SpaceDescription } from '../compgym.js' */

const asList = (/** @type {DescriptionBounds} */ bound) =>
  /** @type {DescriptionNumber[]} */ (Array.isArray(bound) ? /** @type {unknown[]} */ (bound).flat(Infinity) : [bound]);
const boundNumber = (/** @type {DescriptionNumber} */ x) => (x === 'inf' ? Infinity : x === '-inf' ? -Infinity : Number(x));

/**
 * Checks that `space` is a compgym Space (a TypeError otherwise) and warns
 * where a Box has equal bounds (`kind`: "action" or "observation").
 * @param {unknown} space
 * @param {'action' | 'observation'} kind
 */
export function checkSpace(space, kind) {
  if (!isSpace(space)) {
    throw typeError(`the ${kind} space must be a compgym Space (Space.discrete(n), Space.box({...}), ...), got ${describe(space)}`);
  }
  const visit = (/** @type {SpaceDescription} */ d) => {
    if (d.type === 'Box') {
      const low = asList(d.low).map(boundNumber);
      const high = asList(d.high).map(boundNumber);
      const n = Math.max(low.length, high.length);
      const at = (/** @type {number[]} */ list, /** @type {number} */ i) => list[list.length === 1 ? 0 : i];
      if (Array.from({ length: n }, (_, i) => at(low, i) === at(high, i)).some(Boolean)) {
        warn(`A Box ${kind} space maximum and minimum values are equal.`);
      }
    } else if (d.type === 'Dict') {
      for (const [, child] of d.spaces) visit(child);
    } else if (d.type === 'Tuple') {
      d.spaces.forEach(visit);
    }
  };
  visit(space.toJSON());
}

/**
 * Warns where `observation` is not what `space` holds (Gymnasium's check_obs).
 * @param {unknown} observation
 * @param {Space} space
 * @param {'reset' | 'step'} method
 */
export function checkObservation(observation, space, method) {
  const pre = `The obs returned by the \`${method}()\` method`;
  // Kinds are read from the space's description, children included.
  /**
   * @param {any} value unchecked: what the environment returned
   * @param {SpaceDescription} d
   */
  const walk = (value, d) => {
    switch (d.type) {
      case 'Discrete':
        if (typeof value !== 'number' && typeof value !== 'bigint') warn(`${pre} should be a number, actual type: ${describe(value)}`);
        break;
      case 'Box':
        if (d.shape.length > 0) {
          const Ctor = typedArrayOf(d.dtype);
          if (!ArrayBuffer.isView(value)) warn(`${pre} was expecting a typed array, actual type: ${describe(value)}`);
          else if (Ctor && !(value instanceof Ctor))
            warn(`${pre} was expecting a ${Ctor.name} (dtype ${d.dtype}), actual type: ${describe(value)}`);
        }
        break;
      case 'MultiBinary':
      case 'MultiDiscrete':
        if (!ArrayBuffer.isView(value)) warn(`${pre} was expecting a typed array, actual type: ${describe(value)}`);
        break;
      case 'Tuple':
        if (!Array.isArray(value)) {
          warn(`${pre} was expecting an array (a tuple), actual type: ${describe(value)}`);
        } else if (value.length !== d.spaces.length) {
          warn(`${pre} length is not same as the observation space length, obs length: ${value.length}, space length: ${d.spaces.length}`);
        } else {
          value.forEach((x, i) => walk(x, d.spaces[i]));
        }
        break;
      case 'Dict': {
        const keys = d.spaces.map(([key]) => key);
        if (!isPlainObject(value)) {
          warn(`${pre} must be a plain object, actual type: ${describe(value)}`);
        } else if (Object.keys(value).length !== keys.length || !keys.every((k) => Object.prototype.hasOwnProperty.call(value, k))) {
          warn(`${pre} observation keys is not same as the observation space keys, obs keys: ${Object.keys(value)}, space keys: ${keys}`);
        } else {
          for (const [key, child] of d.spaces) walk(value[key], child);
        }
        break;
      }
      default:
        break;
    }
  };
  walk(observation, space.toJSON());
  try {
    if (!space.contains(observation)) warn(`${pre} is not within the observation space.`);
  } catch (/** @type {any} */ error) {
    warn(`${pre} is not within the observation space with exception: ${error?.name}: ${error?.message}`);
  }
}

/**
 * reset through the checks: its result, unchanged.
 * @param {AnyEnv} env
 * @param {unknown} args
 */
export function checkReset(env, args) {
  const result = env.reset(args);
  if (!Array.isArray(result)) {
    warn(
      `The result returned by \`env.reset()\` was not an array of the form [obs, info], where obs is an observation and info an object of additional information. Actual type: ${describe(result)}`,
    );
  } else if (result.length !== 2) {
    warn(`The result returned by \`env.reset()\` should be [obs, info], got ${describe(result)}.`);
  } else {
    checkObservation(result[0], env.observationSpace, 'reset');
    if (!isPlainObject(result[1]))
      warn(`The second element returned by \`env.reset()\` was not a plain object, actual type: ${describe(result[1])}`);
  }
  return result;
}

/** step through the checks (the action is not checked: some environments take any): its result, unchanged. */
/**
 * @param {AnyEnv} env
 * @param {unknown} action
 */
export function checkStep(env, action) {
  const result = env.step(action);
  if (!Array.isArray(result) || result.length !== 5) {
    warn(`Expected \`Env.step\` to return [obs, reward, terminated, truncated, info], got ${describe(result)}.`);
    return result;
  }
  const [observation, reward, terminated, truncated, info] = result;
  if (typeof terminated !== 'boolean') warn(`Expects \`terminated\` signal to be a boolean, actual type: ${describe(terminated)}`);
  if (typeof truncated !== 'boolean') warn(`Expects \`truncated\` signal to be a boolean, actual type: ${describe(truncated)}`);
  checkObservation(observation, env.observationSpace, 'step');
  if (typeof reward !== 'number') {
    warn(`The reward returned by \`step()\` must be a number, actual type: ${describe(reward)}`);
  } else if (Number.isNaN(reward)) {
    warn('The reward is a NaN value.');
  } else if (!Number.isFinite(reward)) {
    warn('The reward is an inf value.');
  }
  if (!isPlainObject(info)) warn(`The \`info\` returned by \`step()\` must be a plain object, actual type: ${describe(info)}`);
  return result;
}

/** What each render mode returns, as a test of the frame. */
/** @type {{ [mode: string]: [(frame: unknown) => boolean, string] }} */
const FRAME_CHECKS = {
  human: [(frame) => frame === null || frame === undefined, 'Human rendering should return null'],
  rgb_array: [
    (frame) => frame instanceof Uint8Array || frame instanceof Uint8ClampedArray,
    'RGB-array rendering should return a Uint8Array',
  ],
  ansi: [(frame) => typeof frame === 'string', 'ANSI/ASCII rendering should produce a string'],
  ascii: [(frame) => typeof frame === 'string', 'ANSI/ASCII rendering should produce a string'],
};

/**
 * @param {string} mode
 * @param {unknown} frame
 */
function checkFrame(mode, frame) {
  if (mode.endsWith('_list')) {
    if (!Array.isArray(frame)) warn(`Render mode \`${mode}\` should produce an array, got ${describe(frame)}`);
    else for (const item of frame) checkFrame(mode.slice(0, -'_list'.length), item);
    return;
  }
  const check = FRAME_CHECKS[mode];
  if (check && !check[0](frame)) warn(`${check[1]}, got ${describe(frame)}`);
}

/**
 * render through the checks: the render modes and frame rate the metadata
 * declares, and the frame of the render mode. `renderFps: null` declares
 * no frame rate (a text render has none), so only a missing one warns.
 * @param {AnyEnv} env
 */
export function checkRender(env) {
  const metadata = env.metadata;
  const modes = metadata?.renderModes;
  if (modes === undefined || modes === null) {
    warn(
      'No render modes was declared in the environment (env.metadata.renderModes is null or not defined), you may have trouble when calling `.render()`.',
    );
  } else if (!Array.isArray(modes)) {
    warn(`Expects the renderModes to be an array, actual type: ${describe(modes)}`);
  } else {
    if (!modes.every((m) => typeof m === 'string')) warn(`Expects all render modes to be strings, got ${JSON.stringify(modes)}`);
    const fps = metadata.renderFps;
    if (modes.length > 0 && fps === undefined) {
      warn(
        'No render fps was declared in the environment (env.metadata.renderFps is not defined; null declares none), rendering may occur at inconsistent fps.',
      );
    } else if (fps !== undefined && fps !== null && !(typeof fps === 'number' && fps > 0)) {
      warn(`Expects env.metadata.renderFps to be a positive number, actual value: ${describe(fps)}`);
    }
    const mode = env.renderMode ?? null;
    if (mode !== null && !modes.includes(mode)) {
      warn(
        `The environment was initialized successfully however with an unsupported render mode. Render mode: ${mode}, modes: ${JSON.stringify(modes)}`,
      );
    }
  }
  const frame = env.render();
  if (typeof env.renderMode === 'string') checkFrame(env.renderMode, frame);
  return frame;
}
