// Files the package ships beside its module rather than inside it (the
// pretrained policies, the larger datasets), so that only those who use them
// download them: where each is, and fetching one.
import { namedError, typeError } from './errors.js';

/**
 * The `base` option of `caller`'s options (undefined when there is none),
 * read without trusting them: options that are not an object, have another
 * key, or cannot be read (a throwing getter, a revoked Proxy) are a TypeError
 * naming `caller`, thrown here rather than by the engine or the getter.
 * @param {unknown} options
 * @param {string} caller
 * @returns {unknown}
 */
export function baseOption(options, caller) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object') throw typeError(`${caller}: options must be an object like { base }, got ${typeof options}`);
  let keys, base;
  try {
    keys = Object.keys(options);
    base = /** @type {{ base?: unknown }} */ (options).base;
  } catch (error) {
    throw typeError(`${caller}: the options could not be read: ${error instanceof Error ? error.message : typeof error}`);
  }
  const unknown = keys.find((key) => key !== 'base');
  if (unknown !== undefined) throw typeError(`${caller}: unknown option ${JSON.stringify(unknown)} (the one option is base)`);
  return base;
}

/**
 * `url`'s file in the folder `base` (absolute, or relative to the page).
 * @param {URL} url
 * @param {unknown} base
 * @param {string} caller the function whose option `base` is, for the error
 */
function inFolder(url, base, caller) {
  if (typeof base !== 'string' && !(base instanceof URL)) throw typeError(`${caller}: base must be a string or a URL`);
  const folder = String(base).endsWith('/') ? String(base) : `${base}/`;
  const file = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return new URL(file, new URL(folder, globalThis.location?.href ?? import.meta.url));
}

/**
 * The text of the shipped file `packaged` (its URL beside the package's
 * module), or of the file of the same name in the folder `base` if given; a
 * LookupError when it cannot be fetched.
 * @param {URL} packaged
 * @param {{ base?: unknown, caller: string, what: string }} options `what`: the file, for the error
 * @returns {Promise<string>}
 */
export async function fetchShipped(packaged, { base, caller, what }) {
  const url = base === undefined ? packaged : inFolder(packaged, base, caller);
  const response = await fetch(url);
  if (!response.ok) throw namedError('LookupError', `could not fetch ${what} ${url}: HTTP ${response.status}`);
  return response.text();
}
