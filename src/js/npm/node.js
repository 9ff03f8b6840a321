// Entry point for Node: the module is compiled synchronously from the file
// beside this one, and the pretrained policies and shipped datasets
// registered from theirs, so everything is usable right after `import`. The
// default export, `loadPretrained` and `loadDataset` are kept so code written
// for browsers (`await init()`, `await loadPretrained()`) runs unchanged.
import { readFileSync } from 'node:fs';
import { initSync, registerDataset, registerPretrained } from './api.js';
import { pretrainedUrls } from './pretrained.js';
import { datasetUrls, nameError } from './datasets.js';
import { baseOption } from './shipped.js';

initSync({ module: readFileSync(new URL('./compgym_bg.wasm', import.meta.url)) });
const pretrained = pretrainedUrls().map((url) => registerPretrained(readFileSync(url, 'utf8')));
for (const url of Object.values(datasetUrls())) registerDataset(readFileSync(url, 'utf8'));

export * from './api.js';
export default async function init() {}
/**
 * The pretrained policies' tasks: registered on import already. The options
 * are checked as in a browser, so code that runs here runs there.
 * @param {unknown} [options]
 */
export async function loadPretrained(options) {
  baseOption(options, 'loadPretrained');
  return pretrained;
}
/**
 * A shipped dataset's name: registered on import already.
 * @param {unknown} name
 * @param {unknown} [options]
 */
export async function loadDataset(name, options) {
  const refused = nameError(name);
  if (refused) throw refused;
  baseOption(options, 'loadDataset');
  return /** @type {string} */ (name);
}
