// The pretrained policies ship as files beside the package's module
// (policies/*.json), not inside it: a page that never plays them never
// downloads them. `loadPretrained()` fetches and registers them, once; under
// Node, node.js registers them from disk on import. The agents' worker
// loads them before its first job.
import { registerPretrained } from './compgym.js';
import { namedError, typeError } from './errors.js';

/**
 * Where the package keeps them. Each URL is written out whole, so bundlers
 * that copy the files `new URL(..., import.meta.url)` names find them.
 * @returns {URL[]}
 */
export function pretrainedUrls() {
  return [new URL('./policies/pretrained-size.json', import.meta.url), new URL('./policies/pretrained-runtime.json', import.meta.url)];
}

/**
 * `url`'s file in the folder `base` (absolute, or relative to the page).
 * @param {URL} url
 * @param {string | URL} base
 */
function inFolder(url, base) {
  if (typeof base !== 'string' && !(base instanceof URL)) throw typeError('loadPretrained: base must be a string or a URL');
  const folder = String(base).endsWith('/') ? String(base) : `${base}/`;
  const file = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return new URL(file, new URL(folder, globalThis.location?.href ?? import.meta.url));
}

/** @type {Promise<string[]> | null} */
let loading = null;

/**
 * Fetches the pretrained policies and registers them for `Policy.pretrained()`
 * and the agents that play or search with them; resolves to their tasks.
 * Idempotent; after a failure, the next call tries again. `base`: the folder
 * they are served from, if not the package's own (with a bundler that does
 * not copy the files `new URL(..., import.meta.url)` names).
 * @param {{ base?: string | URL }} [options]
 * @returns {Promise<string[]>}
 */
export function loadPretrained({ base } = {}) {
  loading ??= Promise.all(
    pretrainedUrls().map(async (packaged) => {
      const url = base === undefined ? packaged : inFolder(packaged, base);
      const response = await fetch(url);
      if (!response.ok) throw namedError('LookupError', `could not fetch the pretrained policy ${url}: HTTP ${response.status}`);
      return registerPretrained(await response.text());
    }),
  ).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}
