// Listening to a worker the same way in browsers and in Node: replies, and
// the worker's failures (a load error, a crash, an exit, a reply that cannot
// be read). Shared by remote.js and agents.js, as is the check that what
// they were given is a worker at all.

import { typeError } from './errors.js';

/**
 * A browser Worker or a Node worker thread, as far as remote.js and
 * agents.js use one (`notAWorker` tells whether a value is one).
 * @typedef {{ postMessage(message: unknown): void, terminate(): unknown, ref?(): void, unref?(): void }} AnyWorker
 */

/**
 * Whether `value` can be awaited (reading `then` may run a getter that throws).
 * @param {any} value
 */
function isThenable(value) {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof value.then === 'function';
}

/**
 * Why `value` is not a browser Worker or a Node Worker, or null if it is one.
 * @param {any} value
 * @returns {string | null}
 */
export function notAWorker(value) {
  try {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null)
      return `got ${value === null ? 'null' : typeof value}`;
    if (typeof value.postMessage !== 'function' || typeof value.terminate !== 'function')
      return 'it has no postMessage and terminate methods';
    if (typeof value.addEventListener !== 'function' && (typeof value.on !== 'function' || typeof value.off !== 'function')) {
      return 'it has neither addEventListener nor on and off methods';
    }
    return null;
  } catch (/** @type {any} */ error) {
    return `reading it threw ${error?.name ?? typeof error}`;
  }
}

/**
 * Throws a TypeError unless `worker` is a Worker or something to await (a
 * promise, checked when it settles); `what` names the constructor.
 * @param {unknown} worker
 * @param {string} what
 */
export function requireWorker(worker, what) {
  let thenable;
  try {
    thenable = isThenable(worker);
  } catch (/** @type {any} */ error) {
    throw typeError(`${what}: worker must be a Worker or a promise of one: reading its then threw ${error?.name ?? typeof error}`);
  }
  if (thenable) return;
  const problem = notAWorker(worker);
  if (problem) throw typeError(`${what}: worker must be a Worker or a promise of one: ${problem}`);
}

/**
 * Listens to a browser Worker or a Node Worker; returns a function that stops listening.
 * @param {any} worker
 * @param {(data: any) => void} onReply
 * @param {(why: string) => void} onFailure
 * @returns {() => void}
 */
export function listen(worker, onReply, onFailure) {
  if (typeof worker.addEventListener === 'function') {
    const message = (/** @type {MessageEvent} */ event) => onReply(event.data);
    const error = (/** @type {ErrorEvent} */ event) => onFailure(event.message || 'the worker failed to load or crashed');
    const messageError = () => onFailure('a reply could not be deserialised');
    worker.addEventListener('message', message);
    worker.addEventListener('error', error);
    worker.addEventListener('messageerror', messageError);
    return () => {
      worker.removeEventListener('message', message);
      worker.removeEventListener('error', error);
      worker.removeEventListener('messageerror', messageError);
    };
  }
  const error = (/** @type {any} */ e) => onFailure(e?.message ?? String(e));
  const exit = (/** @type {number} */ code) => onFailure(`the worker exited with code ${code}`);
  worker.on('message', onReply);
  worker.on('error', error);
  worker.on('exit', exit);
  return () => {
    worker.off('message', onReply);
    worker.off('error', error);
    worker.off('exit', exit);
  };
}
