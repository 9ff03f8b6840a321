// compgym/gym for Node: loads the wasm module (compgym's node.js) first,
// so everything is usable right after `import`.
import '../node.js';

export * from './index.js';
