// The message loop of the agents' worker, shared by agents-worker.js
// (browsers) and agents-worker-node.js (Node). A job arrives as
// `{id, job, options}`: `job` is "run" (an agent on a program), "train" (a
// policy) or "leaderboard". It works in chunks of about 100 ms, posting
// `{id, progress}` after each, and ends with `{id, result}` or
// `{id, error: {name, message}}`. `{id, cancel: true}` stops a job between
// chunks; it still ends with a result: the best found so far, the policy
// trained so far, the rows done so far. Jobs run one at a time, in arrival
// order; a cancel is read as soon as it arrives.

import { typeError } from './errors.js';
import { describe, replyInOrder } from './worker-host.js';

/**
 * A job: the package's exports, the job's options as they arrived, where
 * its progress goes and whether it was cancelled; resolves with its result.
 * @callback Job
 * @param {typeof import('./compgym.js')} compgym
 * @param {any} options unchecked: the core reads and checks them
 * @param {(report: unknown) => void} progress
 * @param {() => boolean} cancelled
 * @returns {Promise<object>}
 */

/** Seconds of work between progress messages. */
export const CHUNK_SECONDS = 0.1;

/** Lets messages in (a cancel) between chunks. */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

/** @type {{ run: Job, train: Job, leaderboard: Job }} */
const JOBS = {
  /** `options`: `{agent, ...AgentOptions}` (a policy as its JSON). */
  async run(compgym, options, progress, cancelled) {
    const { agent: name, ...rest } = options ?? {};
    if (typeof name !== 'string') throw typeError(`options.agent must name the agent (${compgym.agentNames().join(', ')})`);
    const agent = new compgym.SearchAgent(/** @type {import('./compgym.js').AgentName} */ (name), rest);
    try {
      progress(agent.progress);
      while (agent.status === 'running') {
        if (cancelled()) {
          agent.cancel();
          break;
        }
        progress(agent.runChunk(CHUNK_SECONDS));
        await breathe();
      }
      return agent.result();
    } finally {
      agent.free();
    }
  },

  /**
   * `options`: `PolicyTrainerOptions` and the training's budget, `seconds`
   * (default 60 unless `updates` is given; null for no limit) and/or
   * `updates`. Progress: `{points, elapsed}`, the curve's new points; result:
   * `{policy: its JSON, curve, validation, cancelled}`.
   */
  async train(compgym, options, progress, cancelled) {
    const { seconds, updates, ...rest } = options ?? {};
    const budget = seconds === undefined ? (updates === undefined ? 60 : null) : seconds;
    if (budget !== null && !(Number.isFinite(budget) && budget >= 0))
      throw new RangeError(`seconds must be a number of seconds, got ${seconds}`);
    if (updates !== undefined && !(Number.isSafeInteger(updates) && updates >= 0))
      throw new RangeError(`updates must be a whole number, got ${updates}`);
    const trainer = new compgym.PolicyTrainer(rest);
    try {
      let done = 0;
      while (!cancelled() && (budget === null || trainer.elapsed < budget) && (updates === undefined || done < updates)) {
        const points = updates === undefined ? trainer.trainFor(CHUNK_SECONDS) : [trainer.trainBatch()];
        done += points.length;
        progress({ points, elapsed: trainer.elapsed });
        await breathe();
      }
      const policy = trainer.policy();
      try {
        return { policy: policy.toJson(), curve: trainer.curve, validation: trainer.validate(), cancelled: cancelled() };
      } finally {
        policy.free();
      }
    } finally {
      trainer.free();
    }
  },

  /** `options`: `LeaderboardOptions` (a policy as its JSON). Progress: `{done, total}`. */
  async leaderboard(compgym, options, progress, cancelled) {
    const board = new compgym.Leaderboard(options ?? {});
    try {
      let state = board.progress;
      progress(state);
      while (!state.finished && !cancelled()) {
        state = board.runChunk(CHUNK_SECONDS);
        progress(state);
        await breathe();
      }
      return { rows: board.rows, table: board.table, finished: state.finished };
    } finally {
      board.free();
    }
  },
};

/**
 * RangeErrors of the budget read as ValueErrors, as the core names them.
 * @param {unknown} error
 */
function typed(error) {
  if (error instanceof RangeError) return { name: 'ValueError', message: error.message };
  return describe(error);
}

/**
 * Answers job messages. `listen(listener)` subscribes to incoming
 * messages, `post(message)` sends one back, and `load(message)` returns a
 * promise of the package's exports (it sees each message first: a browser
 * worker takes its compiled module from an `{init}` message).
 * @param {(listener: (message: any) => void) => void} listen
 * @param {(message: any) => void} post
 * @param {(message?: unknown) => Promise<any>} load
 */
export function serveAgents(listen, post, load) {
  /** @type {Set<unknown>} */
  const pending = new Set();
  /** @type {Set<unknown>} */
  const cancelled = new Set();
  const enqueue = replyInOrder(post);
  /**
   * @param {{ id: number | string, job: any, options?: unknown }} request unchecked: `job` may name no job
   */
  const answer = async ({ id, job, options }) => {
    try {
      const compgym = await load();
      const run = Object.hasOwn(JOBS, job) ? JOBS[/** @type {keyof typeof JOBS} */ (job)] : null;
      if (!run) {
        const error = new Error(`no job named ${JSON.stringify(job)}: the jobs are run, train and leaderboard`);
        error.name = 'LookupError';
        throw error;
      }
      const progress = (/** @type {unknown} */ report) => post({ id, progress: report });
      return { id, result: await run(compgym, options, progress, () => cancelled.has(id)) };
    } catch (error) {
      return { id, error: typed(error) };
    } finally {
      pending.delete(id);
      cancelled.delete(id);
    }
  };
  listen((message) => {
    const loading = load(message);
    loading.catch(() => {}); // a module that cannot load fails each job with its error
    if (!message || typeof message !== 'object' || 'init' in message) return;
    if (message.cancel) {
      if (pending.has(message.id)) cancelled.add(message.id);
      return;
    }
    pending.add(message.id);
    enqueue(() => answer(message));
  });
}
