// The environment methods of compgym's worker.js, for AsyncVectorEnv: a
// worker holds the environments it was asked to make and runs operations
// on them. Requests and replies are structured-clone data:
//
//   Env.make  {envs: [{id, options, registration?} | {module, export, args}]}
//             -> {envs: [{observationSpace, actionSpace, metadata, renderMode, spec, rewardRange}]}
//   Env.run   {ops: [{env, op: "reset", seed, options} | {env, op: "step" | "stepReset", action}]}
//             -> {results: [{result: [observation, info] | [observation, reward, terminated, truncated, info, final?]}
//                           | {error: {name, message}}]}  (each operation runs, whatever the others do)
//   Env.call  {name, args} -> {values: [one per environment]}
//   Env.set   {name, values: [one per environment]} -> {}
//   Env.close {} -> {}
//
// A `registration` is the `{module, export}` registration of an id made
// with gym.register in the calling thread; the worker replays it once.
import { make, register, registeredIds } from './envs.js';
import { runOperation } from './vector.js';
import { describe, isPlainObject, lookupError, requireEnv, typeError, valueError } from './core.js';

/** @import { AnyEnv } from './core.js' */

/** @type {AnyEnv[]} */
let envs = [];
/**
 * Registrations replayed here, by id: each once, however many environments use it.
 * @type {Map<string, Promise<void> | void>}
 */
const replayed = new Map();

/** @param {{ id: string, [option: string]: any }} registration a registration as it travelled: checked by register */
function replay(registration) {
  if (!replayed.has(registration.id)) {
    const { id, ...options } = registration;
    replayed.set(id, registeredIds().includes(id) ? Promise.resolve() : register(id, options));
  }
  return replayed.get(registration.id);
}

/**
 * @param {any} spec an entry of `envs` as it travelled: checked here
 * @param {number} i
 * @returns {Promise<AnyEnv>}
 */
async function build(spec, i) {
  if (typeof spec?.id === 'string') {
    if (isPlainObject(spec.registration)) await replay({ ...spec.registration, id: spec.id });
    try {
      return make(spec.id, spec.options);
    } catch (/** @type {any} */ error) {
      if (error?.name === 'LookupError') {
        error.message += '; an id registered with gym.register reaches workers when its entryPoint is {module, export}';
      }
      throw error;
    }
  }
  if (typeof spec?.module === 'string') {
    // A module the user names at run time: bundlers must leave this import alone.
    const module = await import(/* webpackIgnore: true */ /* @vite-ignore */ spec.module);
    const factory = module[spec.export ?? 'default'];
    if (typeof factory !== 'function') {
      throw typeError(`${spec.module} has no function export ${JSON.stringify(spec.export ?? 'default')} to make an environment`);
    }
    return requireEnv(await factory(...(spec.args ?? [])), `${spec.module}'s ${spec.export ?? 'default'}()`);
  }
  throw typeError(`envs[${i}] must be {id, options} or {module, export, args}, got ${describe(spec)}`);
}

/**
 * A spec made plain (no functions) to travel back.
 * @param {{ [field: string]: unknown } | null | undefined} spec
 */
function plainSpec(spec) {
  if (!spec) return null;
  const { entryPoint, ...rest } = spec;
  return JSON.parse(JSON.stringify(rest));
}

/** @param {number} index */
function environment(index) {
  const env = envs[index];
  if (!env) throw valueError(`no environment ${index} in this worker (it holds ${envs.length}; call Env.make first)`);
  return env;
}

/**
 * @param {AnyEnv} env
 * @param {string} name
 * @param {unknown[]} args
 */
function valueOf(env, name, args) {
  const value = typeof env.getWrapperAttr === 'function' ? env.getWrapperAttr(name) : env[name];
  return typeof value === 'function' ? value.apply(env, args) : value;
}

/**
 * One operation's result, or its error as plain data (so the other operations' results still travel).
 * @param {any} op an operation as it travelled: checked by runOperation
 */
function outcome(op) {
  try {
    return { result: runOperation(environment(op.env), op) };
  } catch (/** @type {any} */ error) {
    return { error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } };
  }
}

/**
 * Answers one `Env.*` method; throws typed errors.
 * @param {string} method
 * @param {unknown} request checked here
 */
export async function answer(method, request) {
  if (!isPlainObject(request)) throw typeError(`${method} takes an object request, got ${describe(request)}`);
  switch (method) {
    case 'Env.make': {
      if (!Array.isArray(request.envs)) throw typeError(`Env.make: envs must be an array, got ${describe(request.envs)}`);
      const made = await Promise.all(request.envs.map(build));
      for (const env of envs) env.close();
      envs = made;
      return {
        envs: made.map((env) => ({
          observationSpace: env.observationSpace.toJSON(),
          actionSpace: env.actionSpace.toJSON(),
          metadata: env.metadata,
          renderMode: env.renderMode ?? null,
          spec: plainSpec(env.spec),
          rewardRange: env.rewardRange,
        })),
      };
    }
    case 'Env.run':
      if (!Array.isArray(request.ops)) throw typeError(`Env.run: ops must be an array, got ${describe(request.ops)}`);
      return { results: request.ops.map(outcome) };
    case 'Env.call':
      return { values: envs.map((env) => valueOf(env, request.name, request.args ?? [])) };
    case 'Env.set':
      envs.forEach((env, i) => {
        if (typeof env.setWrapperAttr === 'function') env.setWrapperAttr(request.name, request.values[i]);
        else env[request.name] = request.values[i];
      });
      return {};
    case 'Env.close':
      for (const env of envs) env.close();
      return {};
    default:
      throw lookupError(`unknown environment method ${JSON.stringify(method)} (known: Env.make, Env.run, Env.call, Env.set, Env.close)`);
  }
}
