// Types of remote.js: a compgym Service in a worker, called with promises.
// Requests and replies are the protocol's messages in their proto3 JSON
// form, typed per method in compgym.d.ts (ServiceMethods): camelCase
// fields; int64 values as numbers, or as decimal strings beyond 2^53; a
// BigInt is accepted wherever an integer is.
import type {
  AddBenchmarkReply,
  AddBenchmarkRequest,
  EndSessionReply,
  EndSessionRequest,
  ForkSessionReply,
  ForkSessionRequest,
  GetSpacesReply,
  GetSpacesRequest,
  GetVersionReply,
  GetVersionRequest,
  SendSessionParameterReply,
  SendSessionParameterRequest,
  ServiceMethod,
  ServiceReply,
  ServiceRequest,
  StartSessionReply,
  StartSessionRequest,
  StepReply,
  StepRequest,
} from './compgym.js';
import type { EnvMethod } from './worker.js';

/** The protocol's RPC names. */
export type Method = ServiceMethod;

export interface ConnectOptions {
  /** The compiler of a worker that connectService starts: "bril" (default) or "toy". */
  compiler?: string;
}

/**
 * A Service running in a worker. Calls may overlap; each promise settles
 * with its own reply. A failed call rejects with an `Error` whose `name`
 * is the service's error name (ValueError, LookupError, SessionNotFound,
 * BenchmarkInitError, ServiceError...); the service keeps working.
 */
export class RemoteService {
  /** `worker`: a Worker (browser or `node:worker_threads`) running worker.js, or a promise of one. */
  constructor(worker: unknown);
  /** Answers the RPC `method` with `request` (omitted: the empty message). */
  call<M extends ServiceMethod>(method: M, request?: ServiceRequest<M>): Promise<ServiceReply<M>>;
  /** compgym/gym's environment methods, which AsyncVectorEnv sends (see worker.d.ts). */
  call(method: EnvMethod, request?: { [field: string]: unknown }): Promise<{ [field: string]: unknown }>;
  getVersion(request?: GetVersionRequest): Promise<GetVersionReply>;
  getSpaces(request?: GetSpacesRequest): Promise<GetSpacesReply>;
  startSession(request?: StartSessionRequest): Promise<StartSessionReply>;
  forkSession(request?: ForkSessionRequest): Promise<ForkSessionReply>;
  endSession(request?: EndSessionRequest): Promise<EndSessionReply>;
  step(request?: StepRequest): Promise<StepReply>;
  addBenchmark(request?: AddBenchmarkRequest): Promise<AddBenchmarkReply>;
  sendSessionParameter(request?: SendSessionParameterRequest): Promise<SendSessionParameterReply>;
  /** Stops the worker; calls still pending reject with a ServiceError. */
  terminate(): Promise<void>;
}

/**
 * Starts worker.js (or `workerOrUrl`, the URL of a worker script speaking
 * the same messages) in a module Web Worker, or in a worker thread under
 * Node, or adopts a Worker already running it.
 */
export function connectService(workerOrUrl?: string | URL | unknown, options?: ConnectOptions): RemoteService;
