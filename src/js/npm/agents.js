// The agents in a worker, called with promises: `connectAgents()` starts
// agents-worker.js in a module Web Worker and returns a RemoteAgents whose
// `run`, `train` and `leaderboard` resolve with their results and report
// progress about every 100 ms on the way. Under Node, the package's `node`
// export condition picks agents-node.js instead, which starts a worker thread.
// A job stops early through its `signal` (an AbortSignal) or `cancel()`, and
// still resolves with what it found; a failed job rejects with an Error
// whose `name` is the typed error name (ValueError, LookupError...).
import { namedError } from './errors.js';
import { listen, notAWorker, requireWorker } from './worker-listen.js';

/**
 * Options as the worker can receive them: a Policy object travels as its JSON.
 * @param {{ [option: string]: unknown }} options
 */
function sendable(options) {
  const policy = /** @type {{ toJson?: unknown } | null | undefined} */ (options?.policy);
  if (policy && typeof policy === 'object' && typeof policy.toJson === 'function') {
    return { ...options, policy: policy.toJson() };
  }
  return options;
}

/** @import { AnyWorker } from './worker-listen.js' */
/** @import * as Declared from './agents.js' */
/** @import { AgentsWorkerRequest } from './agents-worker.js' */

/** @implements {Declared.RemoteAgents} */
export class RemoteAgents {
  /** @type {Promise<AnyWorker | null>} */
  #worker;
  /** @type {Map<number, { resolve(result: any): void, reject(error: Error): void, onProgress?: (progress: unknown) => void, signal?: AbortSignal, abort(): void }>} */
  #jobs = new Map();
  #nextId = 1;
  /** @type {{ name: string, message: string } | null} */
  #failure = null;
  #stopListening = () => {};

  /**
   * `worker`: a Worker running agents-worker.js, or a promise of one.
   * `module`: a compiled WebAssembly.Module of the package, sent to a
   * browser worker so it need not fetch and compile its own.
   */
  /**
   * @param {unknown} worker
   * @param {import('./agents.js').ConnectAgentsOptions} [options]
   */
  constructor(worker, { module } = {}) {
    requireWorker(worker, 'RemoteAgents');
    this.#worker = Promise.resolve(/** @type {AnyWorker | Promise<AnyWorker>} */ (worker)).then(
      (w) => {
        const problem = notAWorker(w);
        if (problem) {
          this.#fail('TypeError', `RemoteAgents: the promise gave no Worker: ${problem}`);
          return null;
        }
        if (this.#failure) {
          w.terminate();
          return w;
        }
        this.#stopListening = listen(
          w,
          (data) => this.#onMessage(data),
          (why) => this.#fail('ServiceError', why),
        );
        if (module) w.postMessage(/** @satisfies {AgentsWorkerRequest} */ ({ init: module }));
        return w;
      },
      (/** @type {any} */ error) => {
        this.#fail(error?.name ?? 'ServiceError', error?.message ?? String(error));
        return null;
      },
    );
  }

  /** @param {any} data a reply (`AgentsWorkerReply`), unchecked: the worker may run any script */
  #onMessage(data) {
    const job = this.#jobs.get(data?.id);
    if (!job) return;
    if ('progress' in data) {
      try {
        job.onProgress?.(data.progress);
      } catch {
        // A throwing progress callback must not stop the job's other messages.
      }
      return;
    }
    this.#finish(data.id);
    if (data.error) job.reject(namedError(data.error.name, data.error.message));
    else job.resolve(data.result);
  }

  /** @param {number} id */
  #finish(id) {
    const job = this.#jobs.get(id);
    this.#jobs.delete(id);
    job?.signal?.removeEventListener('abort', job.abort);
  }

  /**
   * @param {string} name
   * @param {string} message
   */
  #fail(name, message) {
    this.#failure ??= { name, message };
    for (const id of [...this.#jobs.keys()]) {
      const job = this.#jobs.get(id);
      this.#finish(id);
      job?.reject(namedError(name, message));
    }
  }

  /**
   * @param {'run' | 'train' | 'leaderboard'} job
   * @param {{ [option: string]: unknown }} options
   * @param {import('./agents.js').JobCallbacks<any>} callbacks the progress each job reports
   */
  async #start(job, options, { onProgress, signal } = {}) {
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw namedError('TypeError', 'onProgress must be a function');
    }
    const worker = await this.#worker;
    // No worker means a failure.
    if (this.#failure || !worker) throw namedError(this.#failure?.name ?? 'ServiceError', this.#failure?.message ?? 'no worker');
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const abort = () => this.#cancel(id);
      this.#jobs.set(id, { resolve, reject, onProgress, signal, abort });
      try {
        worker.postMessage(/** @satisfies {AgentsWorkerRequest} */ ({ id, job, options: sendable(options) }));
      } catch (/** @type {any} */ error) {
        // Options that cannot be cloned (a function, say) never leave.
        this.#finish(id);
        reject(namedError('TypeError', `${job} options cannot be sent to the worker: ${error.message}`));
        return;
      }
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** @param {number} id */
  #cancel(id) {
    if (!this.#jobs.has(id)) return;
    this.#worker.then((w) => w?.postMessage(/** @satisfies {AgentsWorkerRequest} */ ({ id, cancel: true })));
  }

  /**
   * Runs agent `agent` ("random", "greedy", "beam", "explore", "guided", "policy", "fixed") with
   * `options` (SearchAgent's: `benchmark` or `source`, `seed`, `steps`,
   * `seconds`, ...). `onProgress(progress)` about every 100 ms; resolves
   * with the result (status "cancelled" after a cancel).
   * @type {Declared.RemoteAgents['run']}
   */
  run(agent, options = {}, callbacks = {}) {
    return this.#start('run', { ...options, agent }, callbacks);
  }

  /**
   * Trains a policy (PolicyTrainer's options, and `seconds`, default 60
   * unless `updates` is given, null for no limit, and/or `updates`). `onProgress({points, elapsed})` with the curve's new
   * points; resolves with `{policy, curve, validation, cancelled}`, `policy`
   * being its JSON (`Policy.fromJson`).
   */
  train(options = {}, callbacks = {}) {
    return this.#start('train', options, callbacks);
  }

  /**
   * Runs the leaderboard (`leaderboard()`'s options). `onProgress({done,
   * total, finished})`; resolves with `{rows, table, finished}`.
   */
  leaderboard(options = {}, callbacks = {}) {
    return this.#start('leaderboard', options, callbacks);
  }

  /** Stops every job in flight; each still resolves with what it found. */
  cancel() {
    for (const id of this.#jobs.keys()) this.#cancel(id);
  }

  /** Stops the worker; jobs still pending reject with a ServiceError. */
  async terminate() {
    this.#fail('ServiceError', 'the agents worker was terminated');
    this.#stopListening();
    const worker = await this.#worker;
    await worker?.terminate();
  }
}

/**
 * Starts a module Web Worker running agents-worker.js.
 * @param {string | URL | undefined} url
 */
function startWorker(url) {
  if (typeof Worker !== 'function') {
    throw namedError('TypeError', 'this environment has no Web Worker; in Node, import compgym/agents.js by package name');
  }
  if (url === undefined) {
    // Written out in full, options too, so bundlers (webpack, Vite) find the worker and bundle it.
    return new Worker(new URL('./agents-worker.js', import.meta.url), { type: 'module', name: 'compgym-agents' });
  }
  // Relative URLs are relative to the page, as for `new Worker(url)`.
  return new Worker(new URL(url, globalThis.location?.href), { type: 'module', name: 'compgym-agents' });
}

/**
 * A RemoteAgents over `workerOrUrl`: a Worker already running
 * agents-worker.js, or its URL (default: the one beside this file).
 * `module`: see RemoteAgents.
 */
/** @type {typeof import('./agents.js').connectAgents} */
export function connectAgents(workerOrUrl, { module } = {}) {
  const isUrl = workerOrUrl === undefined || typeof workerOrUrl === 'string' || workerOrUrl instanceof URL;
  if (!isUrl) return new RemoteAgents(workerOrUrl, { module });
  try {
    return new RemoteAgents(startWorker(workerOrUrl), { module });
  } catch (error) {
    return new RemoteAgents(Promise.reject(error));
  }
}
