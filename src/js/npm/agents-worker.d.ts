// Types of agents-worker.js: the messages the agents' worker speaks.
// The module itself exports nothing; start it as a worker
// (`new Worker(new URL('compgym/agents-worker.js', import.meta.url), { type: 'module' })`,
// or `new Worker(url)` from node:worker_threads), or use compgym/agents.js.

/** Sent to the worker: a job, or the cancel of one. */
export type AgentsWorkerRequest =
  | { id: number | string; job: 'run' | 'train' | 'leaderboard'; options?: { [option: string]: unknown } }
  | { id: number | string; cancel: true }
  /** A browser worker's compiled module, sent before any job. */
  | { init: WebAssembly.Module };

/** Sent back: progress about every 100 ms, then one result or error. */
export type AgentsWorkerReply =
  | { id: number | string; progress: { [field: string]: unknown } }
  | { id: number | string; result: { [field: string]: unknown } }
  | { id: number | string; error: { name: string; message: string } };

export {};
