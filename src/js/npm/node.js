// Entry point for Node: the module is compiled synchronously from the file
// beside this one, and the pretrained policies registered from theirs, so
// everything is usable right after `import`. The default export and
// `loadPretrained` are kept so code written for browsers (`await init()`,
// `await loadPretrained()`) runs unchanged.
import { readFileSync } from 'node:fs';
import { initSync, registerPretrained } from './api.js';
import { pretrainedUrls } from './pretrained.js';

initSync({ module: readFileSync(new URL('./compgym_bg.wasm', import.meta.url)) });
const pretrained = pretrainedUrls().map((url) => registerPretrained(readFileSync(url, 'utf8')));

export * from './api.js';
export default async function init() {}
/** The pretrained policies' tasks: registered on import already. */
export async function loadPretrained() {
  return pretrained;
}
