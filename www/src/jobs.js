// Work that may take long — running a program, validating, searching, the
// bandit — runs in a module worker, so the page never freezes. A lane runs
// its jobs one at a time in its own worker; cancelling a job or passing its
// time limit terminates the worker (the only way to stop wasm mid-run), and
// the lane's next job starts a fresh one.
import { fullModule } from './wasm.js';
import { namedError } from '../pkg/errors.js';

const WORKER_URL = new URL('worker.js', document.baseURI);

/** @typedef {{ resolve(result: any): void, reject(error: Error): void, onProgress?: (report: any) => void, timer?: ReturnType<typeof setTimeout> }} Job a job sent to a lane's worker, not yet answered */

export class Lane {
  /**
   * `name` labels errors ("run", "validate", "agent"...).
   * @param {string} name
   */
  constructor(name) {
    this.name = name;
    /** @type {Worker | null} */
    this.worker = null;
    this.ids = 0;
    /** @type {Map<number, Job>} */
    this.pending = new Map();
  }

  get busy() {
    return this.pending.size > 0;
  }

  /**
   * Runs job `kind` with `payload` in the worker. Resolves to the job's
   * result; rejects with the job's typed error, a `TimeoutError` after
   * `timeLimitMs` (counted from when the package's module is there: fetching
   * it is not the job's time), or a `CancelledError` after `cancel()`.
   * `onProgress` receives the job's progress reports.
   * @param {string} kind
   * @param {unknown} payload
   * @param {{ timeLimitMs?: number, onProgress?: (report: any) => void }} [options]
   * @returns {Promise<any>}
   */
  run(kind, payload, { timeLimitMs = 10_000, onProgress } = {}) {
    const worker = this.start();
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      /** @type {Job} */
      const job = { resolve, reject, onProgress };
      this.pending.set(id, job);
      fullModule().then(
        () => {
          if (this.pending.get(id) !== job) return; // answered, cancelled or stopped meanwhile
          job.timer = setTimeout(() => {
            this.stop(namedError('TimeoutError', `stopped after the time limit of ${seconds(timeLimitMs)}`));
          }, timeLimitMs);
        },
        () => {},
      ); // a module that does not come stops the lane (see start)
      worker.postMessage({ id, kind, payload });
    });
  }

  /** Stops every job of the lane with a CancelledError. */
  cancel() {
    if (this.busy) this.stop(namedError('CancelledError', 'cancelled'));
  }

  start() {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_URL, { type: 'module', name: `compgym-${this.name}` });
    worker.addEventListener('message', ({ data }) => this.receive(data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.stop(namedError('WorkerError', event.message || 'the worker failed'));
    });
    this.worker = worker;
    fullModule().then(
      (module) => worker.postMessage({ init: module }),
      (error) => {
        if (this.worker === worker) this.stop(namedError('WorkerError', `the package's module could not be loaded: ${error.message}`));
      },
    );
    return worker;
  }

  /** @param {{ id: number, progress?: unknown, result?: unknown, error?: { name: string, message: string } }} reply the worker's (worker.js) */
  receive({ id, progress, result, error }) {
    const job = this.pending.get(id);
    if (!job) return;
    if (progress !== undefined) {
      job.onProgress?.(progress);
      return;
    }
    clearTimeout(job.timer);
    this.pending.delete(id);
    if (error) job.reject(namedError(error.name, error.message));
    else job.resolve(result);
  }

  /**
   * Terminates the worker and rejects every pending job with `error`.
   * @param {Error} error
   */
  stop(error) {
    this.worker?.terminate();
    this.worker = null;
    for (const job of this.pending.values()) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    this.pending.clear();
  }
}

/** @param {number} ms */
function seconds(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
