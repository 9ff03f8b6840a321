// Types of agents.js: the agents in a worker, called with promises.
import type {
  AgentName,
  AgentOptions,
  AgentProgress,
  AgentResult,
  CurvePoint,
  LeaderboardOptions,
  LeaderboardProgress,
  LeaderboardResult,
  Policy,
  PolicyTrainerOptions,
} from './compgym.js';

/** How a job reports and stops. */
export interface JobCallbacks<P> {
  /** Called about every 100 ms with the job's progress. */
  onProgress?: (progress: P) => void;
  /** Aborting it stops the job; its promise still resolves with what it found. */
  signal?: AbortSignal;
}

/** `run`'s options: SearchAgent's, a policy as a Policy or its JSON. */
export type RemoteAgentOptions = AgentOptions;

/** `train`'s options: PolicyTrainer's, and the training's budget. */
export interface RemoteTrainOptions extends PolicyTrainerOptions {
  /** Seconds of training (default 60, unless `updates` is given; null: until cancelled or `updates`). */
  seconds?: number | null;
  /** Updates of training. */
  updates?: number;
}

export interface TrainProgress {
  /** The curve's new points. */
  points: CurvePoint[];
  /** Seconds of training so far. */
  elapsed: number;
}

export interface TrainResult {
  /** The trained policy's JSON: `Policy.fromJson(result.policy)`. */
  policy: string;
  curve: CurvePoint[];
  /** Its validation, `-Oz / final` over the validation programs. */
  validation: number;
  /** The training was stopped early. */
  cancelled: boolean;
}

export interface RemoteLeaderboardResult extends LeaderboardResult {
  /** False when the leaderboard was stopped early: the rows done so far. */
  finished: boolean;
}

export interface ConnectAgentsOptions {
  /** The package's compiled WebAssembly.Module, sent to a browser worker so it need not fetch and compile its own. */
  module?: WebAssembly.Module;
}

/**
 * The agents in a worker. Jobs run one at a time, in the order they were
 * started. A failed job rejects with an `Error` whose `name` is the typed
 * error name (ValueError, LookupError, TypeError, BenchmarkInitError...).
 */
export class RemoteAgents {
  /** `worker`: a Worker (browser or `node:worker_threads`) running agents-worker.js, or a promise of one. */
  constructor(worker: unknown, options?: ConnectAgentsOptions);
  run(agent: AgentName, options: RemoteAgentOptions, callbacks?: JobCallbacks<AgentProgress>): Promise<AgentResult>;
  train(options?: RemoteTrainOptions, callbacks?: JobCallbacks<TrainProgress>): Promise<TrainResult>;
  leaderboard(options?: LeaderboardOptions, callbacks?: JobCallbacks<LeaderboardProgress>): Promise<RemoteLeaderboardResult>;
  /** Stops every job in flight; each still resolves with what it found. */
  cancel(): void;
  /** Stops the worker; jobs still pending reject with a ServiceError. */
  terminate(): Promise<void>;
}

/**
 * Starts agents-worker.js (or `workerOrUrl`, the URL of a worker script
 * speaking the same messages) in a module Web Worker, or in a worker
 * thread under Node, or adopts a Worker already running it.
 */
export function connectAgents(workerOrUrl?: string | URL | unknown, options?: ConnectAgentsOptions): RemoteAgents;
