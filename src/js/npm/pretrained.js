// The pretrained policies ship as files beside the package's module
// (policies/*.json), not inside it: a page that never plays them never
// downloads them. `loadPretrained()` fetches and registers them, once; under
// Node, node.js registers them from disk on import. The agents' worker
// loads them before its first job.
import { registerPretrained } from './compgym.js';
import { baseOption, fetchShipped } from './shipped.js';

/**
 * Where the package keeps them. Each URL is written out whole, so bundlers
 * that copy the files `new URL(..., import.meta.url)` names find them.
 * @returns {URL[]}
 */
export function pretrainedUrls() {
  return [new URL('./policies/pretrained-size.json', import.meta.url), new URL('./policies/pretrained-runtime.json', import.meta.url)];
}

/** @type {Promise<import('./compgym.js').PolicyTask[]> | null} */
let loading = null;

/**
 * Fetches the pretrained policies and registers them for `Policy.pretrained()`
 * and the agents that play or search with them; resolves to their tasks.
 * Idempotent; after a failure, the next call tries again. `base`: the folder
 * they are served from, if not the package's own (with a bundler that does
 * not copy the files `new URL(..., import.meta.url)` names); options that
 * are not `{ base }` are a TypeError.
 * @param {{ base?: string | URL }} [options]
 * @returns {Promise<import('./compgym.js').PolicyTask[]>}
 */
export function loadPretrained(options) {
  let base;
  try {
    base = baseOption(options, 'loadPretrained');
  } catch (error) {
    return Promise.reject(error);
  }
  loading ??= Promise.all(
    pretrainedUrls().map(async (packaged) =>
      registerPretrained(await fetchShipped(packaged, { base, caller: 'loadPretrained', what: 'the pretrained policy' })),
    ),
  ).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}
