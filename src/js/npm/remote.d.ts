// Types of remote.js: a compgym Service in a worker, called with promises.
// Requests and replies are the protocol's messages in their proto3 JSON
// form (camelCase fields; int64 values as numbers, or as decimal strings
// beyond 2^53; a BigInt is accepted wherever an integer is).

/** A plain object shaped like one of the protocol's messages. */
export type Message = { [field: string]: unknown };

/** The protocol's RPC names. */
export type Method =
  | 'GetVersion'
  | 'GetSpaces'
  | 'StartSession'
  | 'ForkSession'
  | 'EndSession'
  | 'Step'
  | 'AddBenchmark'
  | 'SendSessionParameter';

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
  call(method: Method | string, request?: Message): Promise<Message>;
  getVersion(request?: Message): Promise<{ serviceVersion: string; compilerVersion: string }>;
  getSpaces(request?: Message): Promise<{ actionSpaceList: Message[]; observationSpaceList: Message[] }>;
  startSession(request: Message): Promise<{ sessionId: number | string; observation: Message[] } & Message>;
  forkSession(request: { sessionId: number | string | bigint }): Promise<{ sessionId: number | string }>;
  endSession(request: { sessionId: number | string | bigint }): Promise<{ remainingSessions: number }>;
  step(request: Message): Promise<
    { endOfSession: boolean; actionHadNoEffect: boolean; observation: Message[] } & Message
  >;
  addBenchmark(request: { benchmark: Message[] }): Promise<{}>;
  sendSessionParameter(request: {
    sessionId: number | string | bigint;
    parameter: { key: string; value: string }[];
  }): Promise<{ reply: string[] }>;
  /** Stops the worker; calls still pending reject with a ServiceError. */
  terminate(): Promise<void>;
}

/**
 * Starts worker.js (or `workerOrUrl`, the URL of a worker script speaking
 * the same messages) in a module Web Worker, or in a worker thread under
 * Node, or adopts a Worker already running it.
 */
export function connectService(workerOrUrl?: string | URL | unknown, options?: ConnectOptions): RemoteService;
