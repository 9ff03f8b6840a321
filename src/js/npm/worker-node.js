// Hosts a compgym Service in a Node worker thread (`new Worker(url, {
// workerData: { compiler } })` from node:worker_threads), speaking the same
// messages as worker.js. `connectService()` from compgym/remote.js starts it.
import { Service } from './node.js';
import { parentPort, workerData } from 'node:worker_threads';
import { serve } from './worker-host.js';

const port = parentPort;
if (!port) throw new Error('compgym/worker.js runs in a worker thread, not on the main thread');

serve(
  // A service that cannot start (an unknown compiler) fails every call with its error.
  new Promise((resolve) => resolve(new Service(workerData?.compiler))),
  (listener) => port.on('message', listener),
  (message) => port.postMessage(message),
);
