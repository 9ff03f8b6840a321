// Hosts a compgym Service in a browser module worker. It answers each message
// `{id, method, request}` with `{id, reply}` or `{id, error: {name, message}}`,
// in the order the messages arrive. Under Node, the package's `node` export
// condition picks worker-node.js instead, which speaks the same messages.
//
// The compiler is "bril" unless the worker was started with another: the
// `compiler` search parameter of this file's URL (`worker.js?compiler=toy`),
// or a worker name `compgym:toy` (`new Worker(url, { type: 'module', name })`,
// what `connectService()` in remote.js does, so bundlers can rewrite the URL).
// Methods named `Env.*` are compgym/gym's environment methods (see gym/worker-envs.js).
import init, { Service } from './index.js';
import { loadDatasetsInWorker } from './datasets.js';
import { serve } from './worker-host.js';

const NAME_PREFIX = 'compgym:';
/** The worker's name (`self.name`), which the DOM's types leave out. */
const workerName = /** @type {{ name?: string }} */ (globalThis).name;
const named = workerName?.startsWith(NAME_PREFIX) ? workerName.slice(NAME_PREFIX.length) : undefined;
const compiler = new URL(import.meta.url).searchParams.get('compiler') ?? named;

serve(
  // The datasets shipped as files, so every benchmark resets as under Node.
  init()
    .then(() => loadDatasetsInWorker())
    .then(() => new Service(compiler)),
  (listener) => globalThis.addEventListener('message', (event) => listener(event.data)),
  (message) => globalThis.postMessage(message),
);
