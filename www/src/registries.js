// The core's registries (`catalog()`: passes, rewards, observations...) for
// the page's modules that describe them. The package's by default (as the
// Node tests use these modules); the page, which starts on the first-step
// module, reads that module's copy, built by the same core function, from
// its first step on (main.js).
import { catalog as packageCatalog } from '../pkg/index.js';

/** @type {() => any} */
let source = packageCatalog;

/**
 * Reads the registries from `read` from now on.
 * @param {() => any} read
 */
export function readCatalogFrom(read) {
  source = read;
}

/** @returns {import('../pkg/index.js').Catalog} */
export function catalog() {
  return source();
}
