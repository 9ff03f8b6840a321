// The agents in a browser module worker: answers `{id, job, options}` with
// progress and a result (see agents-worker-host.js). Under Node, the
// package's `node` export condition picks agents-worker-node.js instead,
// which speaks the same messages. A page that has compiled the module
// already can send it first as `{init: module}` (what `connectAgents(url,
// { module })` does), so the worker neither fetches nor compiles it again.
import init, * as compgym from './index.js';
import { serveAgents } from './agents-worker-host.js';
import { loadDatasetsInWorker } from './datasets.js';

// The module, then the pretrained policies the policy and guided agents play
// and the datasets the trainer and the leaderboard use (files beside the
// module, fetched once; see pretrained.js and datasets.js).
let loading = null;
const load = (/** @type {unknown} */ message) =>
  (loading ??= init(message && typeof message === 'object' && 'init' in message ? { module_or_path: message.init } : undefined)
    .then(() => Promise.all([compgym.loadPretrained(), loadDatasetsInWorker()]))
    .then(() => compgym));

serveAgents(
  (listener) => globalThis.addEventListener('message', (event) => listener(event.data)),
  (message) => globalThis.postMessage(message),
  load,
);
