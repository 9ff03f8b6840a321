// The two policies a learned one must beat, on the same programs and
// episode length: uniform over the allowed actions (info.actionMask), and
// the best single pass repeated for the whole episode.
import { make } from 'compgym/gym';

/** The programs of `dataset`, by URI. */
export function benchmarksOf(id, dataset) {
  const env = make(id);
  const found = env.compilerEnv.datasets.find((d) => d.name === dataset);
  env.close();
  if (!found?.benchmarks) throw new Error(`${dataset} lists no benchmarks`);
  return found.benchmarks;
}

/** The return of one episode of `length` steps on `benchmark`, acting with `policy(observation, info, t)`. */
export function episodeReturn(env, benchmark, length, policy) {
  let [observation, info] = env.reset({ options: { benchmark } });
  let total = 0;
  for (let t = 0; t < length; t++) {
    const [next, reward, terminated, truncated, nextInfo] = env.step(policy(observation, info, t));
    total += reward;
    [observation, info] = [next, nextInfo];
    if (terminated || truncated) break;
  }
  return total;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Mean return of the masked random policy: `episodes` seeded episodes per program. */
export function randomReturn({ id, benchmarks, length, seed, episodes = 5 }) {
  const env = make(id, { mlReady: true });
  env.reset({ seed }); // seeds the environment and its action space
  const returns = [];
  for (let e = 0; e < episodes; e++) {
    for (const b of benchmarks) returns.push(episodeReturn(env, b, length, (_, info) => env.actionSpace.sample(info.actionMask)));
  }
  env.close();
  return mean(returns);
}

/** Each pass repeated for the whole episode on every program: the best mean return, and its pass. */
export function bestSinglePass({ id, benchmarks, length }) {
  const env = make(id, { mlReady: true });
  const names = env.actionSpace.names;
  let best = { pass: null, meanReturn: -Infinity };
  for (let action = 0; action < names.length; action++) {
    const m = mean(benchmarks.map((b) => episodeReturn(env, b, length, () => action)));
    if (m > best.meanReturn) best = { pass: names[action], meanReturn: m };
  }
  env.close();
  return best;
}
