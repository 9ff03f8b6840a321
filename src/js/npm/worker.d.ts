// Types of worker.js: the messages a compgym service worker speaks.
// The module itself exports nothing; start it as a worker
// (`new Worker(new URL('compgym/worker.js', import.meta.url), { type: 'module' })`,
// or `new Worker(url, { workerData: { compiler } })` from node:worker_threads).

/** Sent to the worker: one RPC of the protocol. */
export interface WorkerRequest {
  id: number | string;
  /** "GetVersion", "GetSpaces", "StartSession", "ForkSession", "EndSession", "Step", "AddBenchmark" or "SendSessionParameter"; or an environment method of compgym/gym ("Env.make", "Env.run", "Env.call", "Env.set", "Env.close"). */
  method: string;
  /** The request message in proto3 JSON form (camelCase fields). */
  request?: { [field: string]: unknown };
}

/** Sent back by the worker, with the id of the request it answers. */
export type WorkerReply =
  | { id: number | string; reply: { [field: string]: unknown } }
  | { id: number | string; error: { name: string; message: string } };

export {};
