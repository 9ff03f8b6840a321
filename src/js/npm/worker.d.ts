// Types of worker.js: the messages a compgym service worker speaks.
// The module itself exports nothing; start it as a worker
// (`new Worker(new URL('compgym/worker.js', import.meta.url), { type: 'module' })`,
// or `new Worker(url, { workerData: { compiler } })` from node:worker_threads).
import type { ServiceMethod, ServiceRequest } from './compgym.js';

/** compgym/gym's environment methods (gym/worker-envs.js answers them), which AsyncVectorEnv sends. */
export type EnvMethod = 'Env.make' | 'Env.run' | 'Env.call' | 'Env.set' | 'Env.close';

/** Sent to the worker: one RPC of the protocol, its request in proto3 JSON form (camelCase fields). */
export type WorkerRequest =
  | { [M in ServiceMethod]: { id: number | string; method: M; request?: ServiceRequest<M> } }[ServiceMethod]
  | { id: number | string; method: EnvMethod; request?: { [field: string]: unknown } };

/**
 * Sent back by the worker, with the id of the request it answers: the method's reply message
 * (ServiceReply<M>), or the error. Its `name` is one of the service's (an ErrorName) for a service
 * method; an `Env.*` method passes on the name of whatever the environment or its module threw.
 */
export type WorkerReply =
  { id: number | string; reply: { [field: string]: unknown } } | { id: number | string; error: { name: string; message: string } };

export {};
