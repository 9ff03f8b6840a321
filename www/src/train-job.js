// The Train view's worker side. One PolicyTrainer lives in the train lane's
// worker between jobs, so the page drives it an update at a time: playing
// sends the next update when the last one arrives, pausing sends none, a
// step sends one. Each job is short (one PPO update: a batch of episodes),
// so nothing long runs on the page. If the lane ends the worker (a time
// limit, a new start), the trainer is gone and an update says so.
import { PolicyTrainer, loadDataset } from '../pkg/index.js';
import { lookupError } from '../pkg/errors.js';

/** @type {import('../pkg/compgym.js').PolicyTrainer | null} */
let trainer = null;

/**
 * A new trainer from PolicyTrainer `options`; `{validation}`: the untrained policy's held-out score.
 * Fetches large-v0's programs first, once (the package's module has only their names; the view trains on some by default).
 * @param {import('../pkg/compgym.js').PolicyTrainerOptions} options checked by the core
 */
export async function trainStartJob(options) {
  trainer?.free();
  trainer = null;
  await loadDataset('large-v0');
  const created = new PolicyTrainer(options);
  trainer = created;
  return { validation: created.validate() };
}

/** One update; its point of the curve (with `validation` when the trainer's `validateEvery` is due). */
export function trainUpdateJob() {
  if (!trainer) throw lookupError('no training in progress: start one');
  return trainer.trainBatch();
}

/** The policy trained so far, as JSON (`Policy.fromJson`, or an agent's `policy` option). */
export function trainPolicyJob() {
  if (!trainer) throw lookupError('no training in progress: start one');
  const policy = trainer.policy();
  try {
    return policy.toJson();
  } finally {
    policy.free();
  }
}
