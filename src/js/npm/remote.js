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

const METHODS = {
  getVersion: 'GetVersion',
  getSpaces: 'GetSpaces',
  startSession: 'StartSession',
  forkSession: 'ForkSession',
  endSession: 'EndSession',
  step: 'Step',
  addBenchmark: 'AddBenchmark',
  sendSessionParameter: 'SendSessionParameter',
};

export class RemoteService {
  #worker;
  #pending = new Map();
  #nextId = 1;
  #failure = null;
  #stopListening = () => {};

  /**
   * `worker`: a Worker running worker.js, or a promise of one. Anything
   * else is a TypeError here, or, from a promise, the failure of every call.
   */
  constructor(worker) {
    requireWorker(worker, 'RemoteService');
    this.#worker = Promise.resolve(worker).then(
      (w) => {
        const problem = notAWorker(w);
        if (problem) {
          this.#fail('TypeError', `RemoteService: the promise gave no Worker: ${problem}`);
          return null;
        }
        if (this.#failure) {
          w.terminate();
        } else {
          this.#stopListening = listen(w, (data) => this.#onReply(data), (why) => this.#fail('ServiceError', why));
          this.#holdOpen(w);
        }
        return w;
      },
      (error) => {
        this.#fail(error?.name ?? 'ServiceError', error?.message ?? String(error));
        return null;
      },
    );
  }

  /** Node's Worker holds the event loop while a call waits for its reply, never while idle (browsers have no ref). */
  #holdOpen(worker) {
    const method = this.#pending.size > 0 ? 'ref' : 'unref';
    if (typeof worker?.[method] === 'function') worker[method]();
  }

  #onReply(data) {
    const call = this.#pending.get(data?.id);
    if (!call) return;
    this.#pending.delete(data.id);
    this.#worker.then((w) => this.#holdOpen(w));
    if (data.error) call.reject(namedError(data.error.name, data.error.message));
    else call.resolve(data.reply);
  }

  #fail(name, message) {
    this.#failure ??= { name, message };
    for (const call of this.#pending.values()) call.reject(namedError(name, message));
    this.#pending.clear();
  }

  /** Answers the RPC `method` with `request` (a plain object); a Promise of the reply. */
  async call(method, request = {}) {
    const worker = await this.#worker;
    if (this.#failure) throw namedError(this.#failure.name, this.#failure.message);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#holdOpen(worker);
      try {
        worker.postMessage({ id, method, request });
      } catch (error) {
        // A request that cannot be cloned (a function, say) never leaves.
        this.#pending.delete(id);
        reject(namedError('TypeError', `${method} request cannot be sent to the worker: ${error.message}`));
      }
    });
  }

  /** Stops the worker; calls still pending reject with a ServiceError. */
  async terminate() {
    this.#fail('ServiceError', 'the service was terminated');
    this.#stopListening();
    const worker = await this.#worker;
    await worker?.terminate();
  }
}

for (const [name, method] of Object.entries(METHODS)) {
  Object.defineProperty(RemoteService.prototype, name, {
    value(request) {
      return this.call(method, request);
    },
    writable: true,
    configurable: true,
  });
}

/** Starts a module Web Worker; the compiler travels in its name (see worker.js). */
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
