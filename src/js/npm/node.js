// Entry point for Node: the module is compiled synchronously from the file
// beside this one, so everything is usable right after `import`. The default
// export is kept so code written for browsers (`await init()`) runs unchanged.
import { readFileSync } from 'node:fs';
import { initSync } from './api.js';

initSync({ module: readFileSync(new URL('./compgym_bg.wasm', import.meta.url)) });

export * from './api.js';
export default async function init() {}
