// The agents in a Node worker thread (`new Worker(url)` from
// node:worker_threads), speaking the same messages as agents-worker.js.
// `connectAgents()` from compgym/agents.js starts it.
import * as compgym from './node.js';
import { parentPort } from 'node:worker_threads';
import { serveAgents } from './agents-worker-host.js';

const port = parentPort;
if (!port) throw new Error('compgym/agents-worker.js runs in a worker thread, not on the main thread');

const loaded = Promise.resolve(compgym);
serveAgents(
  (listener) => port.on('message', listener),
  (message) => port.postMessage(message),
  () => loaded,
);
