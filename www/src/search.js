// Search agents that run in a worker against the environment: each plays
// episodes from the program's start state through `fork` (the compiler
// remembers transitions it has made, so revisited states cost nothing), keeps
// the shortest program it finds, and reports progress as it goes.
//
// The objective is code size, CompilerGym's leaderboard task: the fewest
// instructions (the `IrInstructionCount` observation) over all states visited.
// The panel only needs `agentJob`'s messages, so agents written in the core
// can replace these by name.
import { make, Rng } from '../pkg/index.js';

/**
 * The agents the panel offers, in its order: `search(start, options, report)`
 * plays from the environment `start` and offers every state it reaches to
 * `report`. An agent from the core joins the list with a `search` that
 * calls it and relays its progress to `report`.
 */
export const AGENTS = [
  {
    name: 'random',
    label: 'random search',
    description:
      'Random search: plays episodes of random passes from the start, each ended after 12 steps without a new best; keeps the best state seen.',
    search: randomSearch,
  },
  {
    name: 'greedy',
    label: 'greedy search',
    description:
      'Greedy search: tries every pass from the current state, takes the one that shrinks the program most, and stops when none shrinks it.',
    search: greedySearch,
  },
];

/**
 * Runs `agent` on `benchmark` (with `source` for the user's own program) for
 * at most `seconds`: progress `{elapsed, fraction, steps, episodes,
 * bestSize, bestActions, startSize}` at most every 100 ms and on every new
 * best; the result is the last progress.
 */
export function agentJob({ agent, benchmark, source, seconds = 5, seed = 0, episodeLength = 40, patience = 12 }, progress) {
  const search = AGENTS.find((a) => a.name === agent)?.search;
  if (!search) throw Object.assign(new Error(`unknown agent ${JSON.stringify(agent)}`), { name: 'LookupError' });
  const env = make('bril-v0', { observationSpace: 'IrInstructionCount' });
  try {
    if (source !== undefined) env.addBenchmark(benchmark, source);
    const startSize = Number(env.reset({ benchmark }));
    const started = performance.now();
    const deadline = started + seconds * 1000;
    let lastReport = 0;
    const state = { steps: 0, episodes: 0, bestSize: startSize, bestActions: [], startSize, curve: [[0, startSize]] };
    const snapshot = () => {
      const elapsed = (performance.now() - started) / 1000;
      return { ...state, elapsed, fraction: Math.min(1, elapsed / seconds) };
    };
    const report = {
      timeUp: () => performance.now() >= deadline,
      step() {
        state.steps++;
        const now = performance.now();
        if (now - lastReport > 100) {
          lastReport = now;
          progress(snapshot());
        }
      },
      offer(size, actions) {
        if (size >= state.bestSize) return false;
        state.bestSize = size;
        state.bestActions = actions.slice();
        state.curve.push([(performance.now() - started) / 1000, size]);
        progress(snapshot());
        return true;
      },
      episode() {
        state.episodes++;
      },
    };
    search(env, { seed, episodeLength, patience, actions: env.actionSpace.n }, report);
    const result = snapshot();
    result.curve.push([result.elapsed, result.bestSize]);
    return result;
  } finally {
    env.free();
  }
}

/** The size after one step, or null if the step failed. */
function sizeAfter(env, action) {
  const { observation, terminated, info } = env.step(action);
  if (terminated && info.error) return null;
  return Number(observation);
}

function randomSearch(start, { seed, episodeLength, patience, actions }, report) {
  const rng = new Rng(seed);
  while (!report.timeUp()) {
    const env = start.fork();
    const taken = [];
    let sinceBest = 0;
    while (taken.length < episodeLength && sinceBest < patience && !report.timeUp()) {
      const action = Number(rng.integers(0, actions));
      taken.push(action);
      const size = sizeAfter(env, action);
      report.step();
      if (size === null) break;
      sinceBest = report.offer(size, taken) ? 0 : sinceBest + 1;
    }
    env.free();
    report.episode();
  }
  rng.free();
}

function greedySearch(start, { actions }, report) {
  let env = start.fork();
  let size = Number(env.observation.get('IrInstructionCount'));
  const taken = [];
  while (!report.timeUp()) {
    let best = null;
    for (let action = 0; action < actions && !report.timeUp(); action++) {
      const trial = env.fork();
      const after = sizeAfter(trial, action);
      report.step();
      if (after !== null && after < (best?.size ?? size)) {
        best?.env.free();
        best = { action, size: after, env: trial };
      } else {
        trial.free();
      }
    }
    if (!best) break;
    env.free();
    env = best.env;
    size = best.size;
    taken.push(best.action);
    report.offer(size, taken);
    report.episode();
  }
  env.free();
}
