// The environment benchmark through the JS API, the same code in Node and in
// a page: `measure(compgym, {benchmark, episodeLength, coldUris, seconds})` returns
// {stepsPerSecond, firstVisitStepsPerSecond, resetUs, forkUs, autophaseUs, irUs}
// (see bench/env.mjs and src/compilers/bench.rs, which this mirrors).

const now = () => performance.now() / 1000;

/** Calls `f` in rounds of `batch` until `seconds` pass; returns seconds per call. */
function perCall(seconds, batch, f) {
  const start = now();
  let calls = 0;
  for (;;) {
    for (let i = 0; i < batch; i++) f();
    calls += batch;
    const elapsed = now() - start;
    if (elapsed >= seconds) return elapsed / calls;
  }
}

export function measure(compgym, { benchmark, episodeLength, coldUris, seconds }) {
  const env = compgym.make('bril-ic-v0', { benchmark, rewardSpace: 'IrInstructionCount' });
  const n = env.actionSpace.n;
  // The same 32-bit xorshift as src/env/bench.rs: every side applies the same passes.
  let state = 0x9e3779b9;
  const action = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const episode = perCall(seconds, 4, () => {
    env.reset();
    for (let i = 0; i < episodeLength; i++) env.step(action());
  });
  // First visits: each episode on a copy under one of `coldUris` rotating
  // URIs, more than the compiler remembers (`compgym-bench env --json` says
  // how many), each copy with a comment of its own (environments share what
  // they learnt of the same text), so every pass runs; resets are not timed.
  // Without `coldUris`, not measured.
  env.reset({ benchmark });
  const source = env.observation.get('Ir');
  let [busy, coldSteps] = [0, 0];
  for (let episode = 0; coldUris && (episode === 0 || busy < seconds); episode++) {
    const uri = `benchmark://bench-v0/first-visit-${episode % coldUris}`;
    env.addBenchmark(uri, `${source}# first visit ${episode}\n`);
    env.reset({ benchmark: uri });
    const start = now();
    for (let i = 0; i < episodeLength; i++) env.step(action());
    busy += now() - start;
    coldSteps += episodeLength;
  }
  env.reset({ benchmark });
  const reset = perCall(seconds, 10, () => env.reset());
  env.reset();
  for (let i = 0; i < episodeLength / 2; i++) env.step(action());
  // Forks are freed outside the timed part, 100 at a time.
  let [forkTime, forks] = [0, 0];
  while (forkTime < seconds) {
    const batch = [];
    const start = now();
    for (let i = 0; i < 100; i++) batch.push(env.fork());
    forkTime += now() - start;
    forks += 100;
    for (const f of batch) f.free();
  }
  const view = env.observation;
  const autophase = perCall(seconds, 10, () => view.get('Autophase'));
  const ir = perCall(seconds, 10, () => view.get('Ir'));
  view.free();
  env.free();
  return {
    stepsPerSecond: episodeLength / episode,
    firstVisitStepsPerSecond: coldUris ? coldSteps / busy : null,
    resetUs: reset * 1e6,
    forkUs: (forkTime / forks) * 1e6,
    autophaseUs: autophase * 1e6,
    irUs: ir * 1e6,
  };
}
