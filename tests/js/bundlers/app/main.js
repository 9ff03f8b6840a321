// The smallest app a user would write: load the wasm, step an environment,
// and call the compiler service in a worker through compgym/remote.js.
// Every bundler test builds this same file; the page reads `window.result`.
import init, { make, version } from 'compgym';
import { connectService } from 'compgym/remote.js';

async function main() {
  await init();
  const env = make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/dead-code' });
  env.reset();
  const { reward } = env.step('-dce');
  env.free();

  const remote = connectService();
  try {
    const { compilerVersion } = await remote.getVersion();
    const { sessionId } = await remote.startSession({ benchmark: { uri: 'benchmark://suite-v0/fib-iter' } });
    const step = await remote.step({ sessionId, action: [{ int64Value: 0 }] });
    let error = null;
    try {
      await remote.endSession({ sessionId: 999 });
    } catch (e) {
      error = e.name;
    }
    return { version: version(), reward, compilerVersion, stepped: typeof step.endOfSession === 'boolean', error };
  } finally {
    await remote.terminate();
  }
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

Promise.all([main(), toy()]).then(
  ([result, toyVersion]) => (window.result = { ...result, toyVersion }),
  (e) => (window.result = { failure: `${e.name}: ${e.message}` }),
);
