// compgym/gym's wrappers against Gymnasium's: the same deterministic
// environment, wrapper stack and actions on both sides (Gymnasium's in
// bench/gym_wrappers_trace.py), then every observation, reward and flag
// compared. Single: TimeLimit, TimeAwareObservation (normalized),
// FrameStackObservation (zero padding), RescaleAction, ClipReward and
// Autoreset; vector: SyncVectorEnv, RecordEpisodeStatistics,
// NormalizeObservation and NormalizeReward.
//
//   scripts/build.sh && scripts/setup.sh bench && node bench/gym-wrappers-trace.mjs
import { execFileSync } from 'node:child_process';
import * as gym from '../pkg/gym/node.js';
import { Space } from '../pkg/node.js';

const root = new URL('..', import.meta.url).pathname;

/** Gymnasium's test environment: position += speed × action; observes [position, steps]; reward = position. */
class Line extends gym.Env {
  constructor(speed = 1) {
    super();
    this.speed = speed;
    this.observationSpace = Space.box({ low: -100, high: 100, shape: [2], dtype: 'float32' });
    this.actionSpace = Space.box({ low: -1, high: 1, shape: [1], dtype: 'float32' });
  }
  reset(args) {
    super.reset(args);
    this.position = 0;
    this.t = 0;
    return [Float32Array.of(0, 0), {}];
  }
  step(action) {
    this.position += this.speed * Number(action[0]);
    this.t += 1;
    return [Float32Array.of(this.position, this.t), this.position, Math.abs(this.position) >= 3, false, {}];
  }
}

const plain = (x) => (ArrayBuffer.isView(x) ? Array.from(x, Number) : typeof x === 'boolean' ? x : Number(x));

function compgymTrace() {
  let env = new gym.TimeAwareObservation(new gym.TimeLimit(new Line(), 6), { normalizeTime: true });
  env = new gym.FrameStackObservation(env, 3, { paddingType: 'zero' });
  env = new gym.Autoreset(new gym.ClipReward(new gym.RescaleAction(env, 0, 2), { minReward: -1, maxReward: 2 }));
  const single = [plain(env.reset({ seed: 0 })[0])];
  for (const a of [1.7, 0.3, 2.0, 1.1, 0.9, 1.9, 0.2, 1.3, 0.05, 1.99]) {
    const [o, r, te, tr] = env.step(Float32Array.of(a));
    single.push([plain(o), plain(r), te, tr]);
  }
  let envs = new gym.SyncVectorEnv([() => new gym.TimeLimit(new Line(1), 4), () => new gym.TimeLimit(new Line(0.5), 4)]);
  envs = new gym.vector.RecordEpisodeStatistics(envs);
  envs = new gym.vector.NormalizeReward(new gym.vector.NormalizeObservation(envs), { gamma: 0.9 });
  const vector = [plain(envs.reset({ seed: 0 })[0])];
  for (const [a, b] of [[0.5, -1], [1, 1], [-0.25, 0.75], [1, 1], [0.1, 0.2], [-1, 0.5], [0.3, 0.3]]) {
    const [o, r, te, tr, info] = envs.step(Float32Array.of(a, b));
    const episode = info.episode ? { r: plain(info.episode.r), l: plain(info.episode.l) } : null;
    vector.push([plain(o), plain(r), plain(te).map(Boolean), plain(tr).map(Boolean), episode]);
  }
  return { single, vector };
}

/** Compares two traces: the same shape and flags, and the largest relative difference of their numbers. */
function compare(ours, theirs, path = '', worst = { difference: 0, path: '', count: 0 }) {
  if (Array.isArray(ours) || Array.isArray(theirs)) {
    if (!Array.isArray(ours) || !Array.isArray(theirs) || ours.length !== theirs.length) throw new Error(`${path}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    ours.forEach((x, i) => compare(x, theirs[i], `${path}[${i}]`, worst));
  } else if (ours !== null && typeof ours === 'object') {
    for (const key of Object.keys(ours)) compare(ours[key], theirs?.[key], `${path}.${key}`, worst);
  } else if (typeof ours === 'number' && typeof theirs === 'number') {
    const difference = Math.abs(ours - theirs) / Math.max(1, Math.abs(theirs));
    worst.count += 1;
    if (difference > worst.difference) Object.assign(worst, { difference, path });
  } else if (ours !== theirs) {
    throw new Error(`${path}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
  }
  return worst;
}

const python = `${root}.tmp/bench-venv/bin/python`;
const theirs = JSON.parse(execFileSync(python, [`${root}bench/gym_wrappers_trace.py`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const ours = compgymTrace();
for (const part of ['single', 'vector']) {
  const { difference, path, count } = compare(ours[part], theirs[part]);
  console.log(`${part}: ${count} numbers and every flag compared; largest relative difference ${difference.toExponential(2)}${path ? ` (${part}${path})` : ''}`);
}
