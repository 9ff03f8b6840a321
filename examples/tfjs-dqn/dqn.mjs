// A DQN written with TensorFlow.js (pure JS, CPU backend) against
// compgym/gym's ML-ready vector environments. compgym's arrays go straight
// into tensors: observations are Float32Arrays (log-scaled counts), rewards
// a Float32Array, action masks a Uint8Array of numEnvs × actions, and the
// actions an Int32Array, the dtype tf's argMax gives.
//
// Double DQN with a target network, a replay buffer, epsilon-greedy
// exploration that draws its random actions with
// `envs.actionSpace.sample(infos.actionMask)`, and actions known to do
// nothing masked out of both acting and the bootstrap target, except as
// the way to stop (see `choose`).
import * as tf from '@tensorflow/tfjs';
import { make, makeVec } from 'compgym/gym';

/** A small seeded generator for exploration and replay draws (mulberry32). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function qNetwork(inputs, actions, hidden, seed) {
  const init = (k) => tf.initializers.glorotUniform({ seed: seed * 16 + k });
  const model = tf.sequential();
  hidden.forEach((units, k) =>
    model.add(tf.layers.dense({ units, activation: 'relu', kernelInitializer: init(k), ...(k === 0 ? { inputShape: [inputs] } : {}) })),
  );
  model.add(tf.layers.dense({ units: actions, kernelInitializer: init(hidden.length) }));
  return model;
}

/** Q-values with the masked actions pushed far below any allowed one. */
function maskedQ(model, observations, masks, n, inputs, actions) {
  const q = model.predict(tf.tensor2d(observations, [n, inputs]));
  return q.add(tf.tensor2d(masks, [n, actions], 'float32').sub(1).mul(1e9));
}

/**
 * The policy's choice, as tensors: the allowed action of highest Q-value,
 * unless every allowed action is predicted to lose and some action is
 * masked. A masked action is known to do nothing, so taking it earns 0:
 * that is the policy's way to stop. Returns the actions and their values.
 */
function choose(model, observations, masks, n) {
  const [inputs, actions] = [model.inputs[0].shape[1], model.outputs[0].shape[1]];
  const q = maskedQ(model, observations, masks, n, inputs, actions);
  const best = q.max(1);
  const masked = tf.scalar(1).sub(tf.tensor2d(masks, [n, actions], 'float32'));
  const canStop = masked.max(1).greater(0);
  const stop = canStop.logicalAnd(best.less(0));
  return {
    actions: tf.where(stop, masked.argMax(1), q.argMax(1)),
    values: tf.where(stop, tf.zerosLike(best), best),
  };
}

/** The policy's actions for `n` observations, as an Int32Array. */
export function greedyActions(model, observations, masks, n) {
  return tf.tidy(() => choose(model, observations, masks, n).actions.dataSync());
}

/** Transitions kept in flat typed arrays, the oldest overwritten first. */
class Replay {
  constructor(capacity, inputs, actions) {
    Object.assign(this, { capacity, inputs, actions, size: 0, next: 0 });
    this.observations = new Float32Array(capacity * inputs);
    this.nextObservations = new Float32Array(capacity * inputs);
    this.nextMasks = new Uint8Array(capacity * actions);
    this.actionsTaken = new Int32Array(capacity);
    this.rewards = new Float32Array(capacity);
    this.dones = new Float32Array(capacity);
  }
  add(observation, action, reward, nextObservation, nextMask, done) {
    const i = this.next;
    this.observations.set(observation, i * this.inputs);
    this.nextObservations.set(nextObservation, i * this.inputs);
    this.nextMasks.set(nextMask, i * this.actions);
    this.actionsTaken[i] = action;
    this.rewards[i] = reward;
    this.dones[i] = done ? 1 : 0;
    this.next = (i + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }
  /** `k` transitions drawn with `random`, as batches. */
  sample(k, random) {
    const pick = Int32Array.from({ length: k }, () => Math.floor(random() * this.size));
    const rows = (source, width) => {
      const out = new source.constructor(k * width);
      pick.forEach((j, r) => out.set(source.subarray(j * width, (j + 1) * width), r * width));
      return out;
    };
    return {
      observations: rows(this.observations, this.inputs),
      nextObservations: rows(this.nextObservations, this.inputs),
      nextMasks: rows(this.nextMasks, this.actions),
      actions: rows(this.actionsTaken, 1),
      rewards: rows(this.rewards, 1),
      dones: rows(this.dones, 1),
    };
  }
}

/**
 * Trains a Q-network on `id` over `dataset` for `steps` vector steps of
 * `numEnvs` environments, episodes of `episodeLength` steps. Everything
 * random is seeded by `seed`. Returns the trained model.
 */
export async function trainDqn({
  id = 'bril-autophase-ic-v0',
  dataset = 'benchmark://suite-v0',
  episodeLength = 10,
  numEnvs = 8,
  steps = 1500,
  seed = 1,
  hidden = [64, 64],
  gamma = 0.5,
  batchSize = 64,
  learningRate = 1e-3,
  targetEvery = 50,
  epsilonSteps = 1000,
  log = () => {},
} = {}) {
  await tf.setBackend('cpu');
  const envs = makeVec(id, { numEnvs, mlReady: true, options: { dataset, maxEpisodeSteps: episodeLength } });
  const inputs = envs.singleObservationSpace.shape[0];
  const actions = envs.singleActionSpace.n;
  const online = qNetwork(inputs, actions, hidden, seed);
  const target = qNetwork(inputs, actions, hidden, seed);
  target.setWeights(online.getWeights());
  const optimizer = tf.train.adam(learningRate);
  const replay = new Replay(20000, inputs, actions);
  const random = generator(seed);

  let [observations, infos] = envs.reset({ seed });
  envs.actionSpace.seed(seed);
  let restarting = new Uint8Array(numEnvs); // the next step resets these (next-step autoreset)
  for (let t = 0; t < steps; t++) {
    const epsilon = Math.max(0.05, 1 - t / epsilonSteps);
    const greedy = greedyActions(online, observations, infos.actionMask, numEnvs);
    const explore = envs.actionSpace.sample(infos.actionMask);
    const chosen = greedy.map((a, i) => (random() < epsilon ? explore[i] : a));
    const [next, rewards, terminations, truncations, nextInfos] = envs.step(chosen);
    for (let i = 0; i < numEnvs; i++) {
      if (restarting[i]) continue; // that step only reset environment i
      const row = (batch, width) => batch.subarray(i * width, (i + 1) * width);
      const done = terminations[i] || truncations[i];
      replay.add(row(observations, inputs), chosen[i], rewards[i], row(next, inputs), row(nextInfos.actionMask, actions), done);
    }
    restarting = terminations.map((x, i) => x | truncations[i]);
    [observations, infos] = [next, nextInfos];

    if (replay.size >= batchSize) {
      const b = replay.sample(batchSize, random);
      const loss = tf.tidy(() => {
        // Double DQN: the online network picks the next action (or stops), the target network values it.
        const next = choose(online, b.nextObservations, b.nextMasks, batchSize);
        const targetQ = target
          .predict(tf.tensor2d(b.nextObservations, [batchSize, inputs]))
          .mul(tf.oneHot(next.actions, actions))
          .sum(1);
        const nextValue = tf.where(next.values.equal(0), tf.zerosLike(targetQ), targetQ);
        // Rewards are log-scaled, sign(r) ln(1 + |r|): a pass that bloats a program can cost
        // dozens of times what -Oz saves. A short horizon (gamma 0.5) keeps such a bloat a loss
        // even where later passes win part of it back.
        const raw = tf.tensor1d(b.rewards);
        const y = raw.sign().mul(raw.abs().log1p()).add(nextValue.mul(tf.scalar(1).sub(tf.tensor1d(b.dones))).mul(gamma));
        const taken = tf.oneHot(tf.tensor1d(b.actions, 'int32'), actions);
        return optimizer.minimize(
          () => tf.losses.huberLoss(y, online.predict(tf.tensor2d(b.observations, [batchSize, inputs])).mul(taken).sum(1)),
          true,
        );
      });
      if (t % 100 === 0) log(`step ${t}: loss ${loss.dataSync()[0].toFixed(4)}, epsilon ${epsilon.toFixed(2)}`);
      loss.dispose();
    }
    if (t % targetEvery === 0) target.setWeights(online.getWeights());
  }
  envs.close();
  target.dispose();
  return online;
}

/** Mean return of greedy episodes of `episodeLength` steps, one per program of `benchmarks`. */
export function greedyReturn(model, { id = 'bril-autophase-ic-v0', benchmarks, episodeLength = 10 }) {
  const env = make(id, { mlReady: true });
  let total = 0;
  for (const benchmark of benchmarks) {
    let [observation, info] = env.reset({ options: { benchmark } });
    for (let t = 0; t < episodeLength; t++) {
      const [action] = greedyActions(model, observation, info.actionMask, 1);
      const [next, reward, terminated, truncated, nextInfo] = env.step(action);
      total += reward;
      [observation, info] = [next, nextInfo];
      if (terminated || truncated) break;
    }
  }
  env.close();
  return total / benchmarks.length;
}
