// compgym/remote.js under Node (the package's `node` export condition):
// `connectService()` starts worker-node.js in a worker thread and returns the
// same RemoteService as in browsers.
import { Worker } from 'node:worker_threads';
import { RemoteService } from './remote.js';

export { RemoteService };

/**
 * Starts a worker thread running `url` (a file: URL or a path, relative to the working directory).
 * @param {string | URL} url
 * @param {string | undefined} compiler
 */
function startWorker(url, compiler) {
  // A worker inherits Node's flags; --input-type (of `node -e`) would refuse a file.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  return new Worker(url, { workerData: { compiler }, execArgv });
}

/**
 * A RemoteService over `workerOrUrl`: a Worker already running worker-node.js,
 * or the URL or path of such a script (default: the one beside this file).
 * `compiler` picks the compiler of a worker this function starts ("bril" by default).
 * @type {typeof import('./remote.js').connectService}
 */
export function connectService(workerOrUrl, { compiler } = {}) {
  const isUrl = workerOrUrl === undefined || typeof workerOrUrl === 'string' || workerOrUrl instanceof URL;
  if (!isUrl) return new RemoteService(workerOrUrl);
  try {
    return new RemoteService(startWorker(workerOrUrl ?? new URL('./worker-node.js', import.meta.url), compiler));
  } catch (error) {
    return new RemoteService(Promise.reject(error));
  }
}
