// A compgym Service in a worker, called with promises: `connectService()`
// starts `worker.js` in a module Web Worker and returns a RemoteService whose
// methods mirror Service's. Under Node, the package's `node` export condition
// picks remote-node.js instead, which starts a worker thread.
// Calls may overlap; each resolves with its own reply, and a failed call
// rejects with an Error whose `name` is the service's typed error name
// (ValueError, SessionNotFound...). A Node worker thread holds the process
// open only while a call is pending: an idle one is unref'd, so a script
// that forgets terminate() still exits.
import { namedError } from './errors.js';
import { listen, notAWorker, requireWorker } from './worker-listen.js';

/** @import { AnyWorker } from './worker-listen.js' */
/** @import * as Declared from './remote.js' */
/** @import { WorkerRequest } from './worker.js' */

/** @implements {Declared.RemoteService} */
export class RemoteService {
  /** @type {Promise<AnyWorker | null>} */
  #worker;
  /** @type {Map<number, { resolve(reply: any): void, reject(error: Error): void }>} */
  #pending = new Map();
  #nextId = 1;
  /** @type {{ name: string, message: string } | null} */
  #failure = null;
  #stopListening = () => {};

  /**
   * `worker`: a Worker running worker.js, or a promise of one. Anything
   * else is a TypeError here, or, from a promise, the failure of every call.
   */
  /** @param {unknown} worker */
  constructor(worker) {
    requireWorker(worker, 'RemoteService');
    this.#worker = Promise.resolve(/** @type {AnyWorker | Promise<AnyWorker>} */ (worker)).then(
      (w) => {
        const problem = notAWorker(w);
        if (problem) {
          this.#fail('TypeError', `RemoteService: the promise gave no Worker: ${problem}`);
          return null;
        }
        if (this.#failure) {
          w.terminate();
        } else {
          this.#stopListening = listen(
            w,
            (data) => this.#onReply(data),
            (why) => this.#fail('ServiceError', why),
          );
          this.#holdOpen(w);
        }
        return w;
      },
      (/** @type {any} */ error) => {
        this.#fail(error?.name ?? 'ServiceError', error?.message ?? String(error));
        return null;
      },
    );
  }

  /**
   * Node's Worker holds the event loop while a call waits for its reply, never while idle (browsers have no ref).
   * @param {any} worker
   */
  #holdOpen(worker) {
    const method = this.#pending.size > 0 ? 'ref' : 'unref';
    if (typeof worker?.[method] === 'function') worker[method]();
  }

  /** @param {any} data a reply: `{id, reply}` or `{id, error: {name, message}}` */
  #onReply(data) {
    const call = this.#pending.get(data?.id);
    if (!call) return;
    this.#pending.delete(data.id);
    this.#worker.then((w) => this.#holdOpen(w));
    if (data.error) call.reject(namedError(data.error.name, data.error.message));
    else call.resolve(data.reply);
  }

  /**
   * @param {string} name
   * @param {string} message
   */
  #fail(name, message) {
    this.#failure ??= { name, message };
    for (const call of this.#pending.values()) call.reject(namedError(name, message));
    this.#pending.clear();
  }

  /**
   * Answers the RPC `method` with `request` (a plain object); a Promise of the reply.
   * @param {WorkerRequest['method']} method
   * @param {any} [request] the method's request (remote.d.ts types each)
   */
  async call(method, request = {}) {
    const worker = await this.#worker;
    // No worker means a failure.
    if (this.#failure || !worker) throw namedError(this.#failure?.name ?? 'ServiceError', this.#failure?.message ?? 'no worker');
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#holdOpen(worker);
      try {
        worker.postMessage(/** @satisfies {WorkerRequest} */ ({ id, method, request }));
      } catch (/** @type {any} */ error) {
        // A request that cannot be cloned (a function, say) never leaves.
        this.#pending.delete(id);
        reject(namedError('TypeError', `${method} request cannot be sent to the worker: ${error.message}`));
      }
    });
  }

  // One method per RPC, as Service has.
  /** @type {Declared.RemoteService['getVersion']} */
  getVersion(request) {
    return this.call('GetVersion', request);
  }
  /** @type {Declared.RemoteService['getSpaces']} */
  getSpaces(request) {
    return this.call('GetSpaces', request);
  }
  /** @type {Declared.RemoteService['startSession']} */
  startSession(request) {
    return this.call('StartSession', request);
  }
  /** @type {Declared.RemoteService['forkSession']} */
  forkSession(request) {
    return this.call('ForkSession', request);
  }
  /** @type {Declared.RemoteService['endSession']} */
  endSession(request) {
    return this.call('EndSession', request);
  }
  /** @type {Declared.RemoteService['step']} */
  step(request) {
    return this.call('Step', request);
  }
  /** @type {Declared.RemoteService['addBenchmark']} */
  addBenchmark(request) {
    return this.call('AddBenchmark', request);
  }
  /** @type {Declared.RemoteService['sendSessionParameter']} */
  sendSessionParameter(request) {
    return this.call('SendSessionParameter', request);
  }

  /** Stops the worker; calls still pending reject with a ServiceError. */
  async terminate() {
    this.#fail('ServiceError', 'the service was terminated');
    this.#stopListening();
    const worker = await this.#worker;
    await worker?.terminate();
  }
}

/**
 * Starts a module Web Worker; the compiler travels in its name (see worker.js).
 * @param {string | URL | undefined} url
 * @param {string | undefined} compiler
 */
function startWorker(url, compiler) {
  if (typeof Worker !== 'function') {
    throw namedError('TypeError', 'this environment has no Web Worker; in Node, import compgym/remote.js by package name');
  }
  const name = `compgym:${compiler ?? 'bril'}`;
  if (url === undefined) {
    // Written out in full, options too, so bundlers (webpack, Vite) find worker.js and bundle it.
    return new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });
  }
  // Relative URLs are relative to the page, as for `new Worker(url)`.
  return new Worker(new URL(url, globalThis.location?.href), { type: 'module', name });
}

/**
 * A RemoteService over `workerOrUrl`: a Worker already running worker.js,
 * or the URL of worker.js (default: the one beside this file). `compiler`
 * picks the compiler of a worker this function starts ("bril" by default).
 * @type {typeof import('./remote.js').connectService}
 */
export function connectService(workerOrUrl, { compiler } = {}) {
  const isUrl = workerOrUrl === undefined || typeof workerOrUrl === 'string' || workerOrUrl instanceof URL;
  if (!isUrl) return new RemoteService(workerOrUrl);
  try {
    return new RemoteService(startWorker(workerOrUrl, compiler));
  } catch (error) {
    return new RemoteService(Promise.reject(error));
  }
}
