// The datasets the package ships as files beside its module (datasets/*.json)
// rather than inside it: the module knows their benchmarks' names, and
// `loadDataset(name)` fetches the programs and registers them, once; under
// Node, node.js registers them from disk on import. The workers load them
// before their first message.
import { registerDataset } from './compgym.js';
import { lookupError, typeError } from './errors.js';
import { baseOption, fetchShipped } from './shipped.js';

/**
 * Each shipped dataset's file. Each URL is written out whole, so bundlers
 * that copy the files `new URL(..., import.meta.url)` names find them.
 * @returns {Record<import('./compgym.js').ShippedDataset, URL>}
 */
export function datasetUrls() {
  return { 'large-v0': new URL('./datasets/large-v0.json', import.meta.url) };
}

/**
 * Why `name` cannot be loaded, or null if it names a shipped dataset: a
 * TypeError for what is not a string (described by its type alone: a hostile
 * value's getters are not run), a LookupError for another name.
 * @param {unknown} name
 * @returns {Error | null}
 */
export function nameError(name) {
  if (typeof name !== 'string') return typeError(`loadDataset: the name must be a string, got ${name === null ? 'null' : typeof name}`);
  const urls = datasetUrls();
  if (Object.hasOwn(urls, name)) return null;
  return lookupError(
    `loadDataset: ${JSON.stringify(name)} is not a dataset shipped as a file (${Object.keys(urls).join(', ')}); the others are in the module`,
  );
}

/** @type {Map<string, Promise<import('./compgym.js').ShippedDataset>>} */
const loading = new Map();

/**
 * Fetches the shipped dataset `name` and loads it for every environment,
 * service and agent of this instance; resolves to its name. Idempotent;
 * after a failure, the next call tries again. A name the package does not
 * ship as a file is a LookupError. `base`: the folder the files are served
 * from, if not the package's own; options that are not `{ base }` are a
 * TypeError.
 * @param {import('./compgym.js').ShippedDataset} name
 * @param {{ base?: string | URL }} [options]
 * @returns {Promise<import('./compgym.js').ShippedDataset>}
 */
export function loadDataset(name, options) {
  const urls = datasetUrls();
  const refused = nameError(name);
  if (refused) return Promise.reject(refused);
  let base;
  try {
    base = baseOption(options, 'loadDataset');
  } catch (error) {
    return Promise.reject(error);
  }
  const key = /** @type {import('./compgym.js').ShippedDataset} */ (name);
  let promise = loading.get(key);
  if (!promise) {
    promise = fetchShipped(urls[key], { base, caller: 'loadDataset', what: `the ${key} dataset` })
      .then((text) => /** @type {import('./compgym.js').ShippedDataset} */ (registerDataset(text)))
      .catch((error) => {
        loading.delete(key);
        throw error;
      });
    loading.set(key, promise);
  }
  return promise;
}

/**
 * What a worker does before its first message: loads every shipped dataset,
 * and serves without one that cannot be fetched (a bundle that left its
 * file out), saying so on the console; a reset to one of its programs is
 * then the BenchmarkInitError that says it is not loaded. Resolves to the
 * names loaded.
 */
export async function loadDatasetsInWorker() {
  const names = /** @type {import('./compgym.js').ShippedDataset[]} */ (Object.keys(datasetUrls()));
  const results = await Promise.allSettled(names.map((name) => loadDataset(name)));
  results.forEach((result, i) => {
    if (result.status === 'rejected') {
      const reason = result.reason?.message ?? String(result.reason);
      console.warn(
        `compgym: the worker serves without ${names[i]}'s programs: ${reason} (copy the package's datasets/ folder beside the worker)`,
      );
    }
  });
  return names.filter((_, i) => results[i].status === 'fulfilled');
}
