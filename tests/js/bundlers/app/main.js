// The smallest app a user would write: load the wasm, step an environment,
// load the dataset shipped as a file and step on one of its programs, call
// the compiler service in a worker through compgym/remote.js (on such a
// program, which the worker loads itself), and run an agent in its worker
// through compgym/agents.js; and check that the
// package's guard still tells its classes apart, and the Gymnasium face names
// its wrappers, once bundled and minified.
// Every bundler test builds this same file; the page reads `window.result`.
import init, { CompilerBandit, LinUcb, Rng, Space, loadDataset, make, version } from 'compgym';
import { RecordEpisodeStatistics, make as makeGym } from 'compgym/gym';
import { connectService } from 'compgym/remote.js';
import { connectAgents } from 'compgym/agents.js';

async function main() {
  await init();
  const env = make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code' });
  env.reset();
  const { reward } = env.step('-dce');
  env.free();
  const large = make('bril-ic-v0', { benchmark: 'benchmark://large-v0/bignum' });
  const dataset = await loadDataset('large-v0');
  large.reset();
  const largeStep = typeof large.step('-dce').reward === 'number';
  large.free();

  const remote = connectService();
  try {
    const { compilerVersion } = await remote.getVersion();
    const { sessionId } = await remote.startSession({ benchmark: { uri: 'benchmark://large-v0/huffman' } });
    const step = await remote.step({ sessionId, action: [{ int64Value: 0 }] });
    let error = null;
    try {
      await remote.endSession({ sessionId: 999 });
    } catch (e) {
      error = e.name;
    }
    return { version: version(), reward, dataset, largeStep, compilerVersion, stepped: typeof step.endOfSession === 'boolean', error, guard: guard() };
  } finally {
    await remote.terminate();
  }
}

/**
 * A bundler renames classes and a minifier rewrites the glue's calls: the
 * guard must still refuse an object of one class where another is needed
 * (here a Space dressed as an Rng, which the wasm code would read as one),
 * name both as the package does, and tell the compiler bandit apart; and
 * classes and Gymnasium's wrappers keep the names they are written with.
 */
function guard() {
  const space = Space.discrete(5);
  const disguised = Space.discrete(7);
  Object.setPrototypeOf(disguised, Rng.prototype);
  let refused = 'accepted';
  try {
    space.sampleWith(disguised);
  } catch (e) {
    refused = `${e.name}: ${e.message}`;
  }
  Object.setPrototypeOf(disguised, Space.prototype);
  disguised.free();
  space.free();
  const bandit = new CompilerBandit({ seed: 3 });
  bandit.reset();
  const agent = new LinUcb(60 + bandit.numArms + bandit.propertyNames.length, 0.5);
  const arms = agent.act(bandit).length;
  agent.free();
  bandit.free();
  const gym = new RecordEpisodeStatistics(makeGym('bril-ic-v0', { maxEpisodeSteps: 5 }));
  const repr = String(gym);
  gym.close();
  const made = Space.discrete(2);
  const names = [Space.name, Rng.name, made.constructor.name];
  made.free();
  return { refused, banditArms: arms, repr, names };
}

/** The worker started for another compiler: the compiler's name reaches the bundled worker. */
async function toy() {
  const remote = connectService(undefined, { compiler: 'toy' });
  try {
    return (await remote.getVersion()).compilerVersion;
  } finally {
    await remote.terminate();
  }
}

/** An agent in the agents worker, which the bundler found beside compgym/agents.js. */
async function agent() {
  const agents = connectAgents();
  try {
    const reports = [];
    const found = await agents.run('greedy', { benchmark: 'benchmark://suite-v0/dead-code', steps: 100 }, { onProgress: (p) => reports.push(p) });
    return { agent: found.agent, smaller: found.cost < found.initialCost, reported: reports.length > 0 };
  } finally {
    await agents.terminate();
  }
}

Promise.all([main(), toy(), agent()]).then(
  ([result, toyVersion, agentRun]) => (window.result = { ...result, toyVersion, agentRun }),
  (e) => (window.result = { failure: `${e.name}: ${e.message}` }),
);
