// compgym/gym for Node: loads the wasm module (compgym's node.js) first,
// so everything is usable right after `import`.
import '../node.js';
import { connectService } from '../remote-node.js';
import { useConnect } from './vector.js';

export * from './index.js';

// Workers are Node worker threads running worker-node.js.
useConnect(connectService);
