// compgym/agents.js under Node (the package's `node` export condition):
// `connectAgents()` starts agents-worker-node.js in a worker thread and
// returns the same RemoteAgents as in browsers.
import { Worker } from 'node:worker_threads';
import { RemoteAgents } from './agents.js';

export { RemoteAgents };

/**
 * Starts a worker thread running `url` (a file: URL or a path, relative to the working directory).
 * @param {string | URL} url
 */
function startWorker(url) {
  // A worker inherits Node's flags; --input-type (of `node -e`) would refuse a file.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  return new Worker(url, { execArgv });
}

/**
 * A RemoteAgents over `workerOrUrl`: a Worker already running
 * agents-worker-node.js, or the URL or path of such a script (default: the
 * one beside this file).
 * @type {typeof import('./agents.js').connectAgents}
 */
export function connectAgents(workerOrUrl, options = {}) {
  const isUrl = workerOrUrl === undefined || typeof workerOrUrl === 'string' || workerOrUrl instanceof URL;
  if (!isUrl) return new RemoteAgents(workerOrUrl, options);
  try {
    return new RemoteAgents(startWorker(workerOrUrl ?? new URL('./agents-worker-node.js', import.meta.url)), options);
  } catch (error) {
    return new RemoteAgents(Promise.reject(error));
  }
}
