// Vector environments: SyncVectorEnv and AsyncVectorEnv (worker threads in
// Node, module Web Workers in Chromium), batched observations as typed
// arrays, Gymnasium 1.x's autoreset modes and info conventions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules, withGymPage } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space } = compgym;
const WALK = new URL('./fixtures/walk-env.mjs', import.meta.url).href;
const { makeWalk, makeFlaky: makeFlakyLocal } = await import(WALK);

const SUITE = { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 2 };
const autophase = (options = SUITE) => () => gym.make('bril-autophase-ic-v0', options);

const slice = (batch, i, size) => batch.subarray(i * size, (i + 1) * size);

test('SyncVectorEnv batches seeded resets and steps into typed arrays', () => {
  const envs = new gym.SyncVectorEnv([autophase(), autophase(), autophase()]);
  assert.equal(envs.numEnvs, 3);
  assert.equal(envs.metadata.autoresetMode, 'NextStep');
  const [observations, infos] = envs.reset({ seed: 10 });
  assert.ok(observations instanceof BigInt64Array && observations.length === 3 * 60);
  assert.ok(envs.observationSpace.contains(observations));
  assert.deepEqual(Array.from(infos._benchmark), [1, 1, 1]);
  for (let i = 0; i < 3; i++) {
    const single = gym.make('bril-autophase-ic-v0', SUITE);
    const [o, info] = single.reset({ seed: 10 + i });
    assert.deepEqual(slice(observations, i, 60), o, `environment ${i} was reset with seed ${10 + i}`);
    assert.equal(infos.benchmark[i], info.benchmark);
  }
  const actions = envs.actionSpace.sample();
  assert.ok(actions instanceof BigInt64Array && actions.length === 3);
  const [next, rewards, terminations, truncations, stepInfos] = envs.step(actions);
  assert.ok(envs.observationSpace.contains(next));
  assert.ok(rewards instanceof Float64Array && terminations instanceof Uint8Array && truncations instanceof Uint8Array);
  assert.ok(stepInfos.actionHadNoEffect instanceof Uint8Array);
  assert.deepEqual(Array.from(stepInfos._newActionSpace), [1, 1, 1]);
  envs.step([0, 1, 2]); // plain arrays work too
  envs.close();
  envs.close();
});

test('next-step autoreset: the step after an episode ends resets, with reward 0', () => {
  const envs = new gym.SyncVectorEnv([autophase(), autophase()]);
  envs.reset({ seed: 1 });
  envs.step([0, 0]);
  const [, , terminations, truncations, infos] = envs.step([0, 0]);
  assert.deepEqual([Array.from(terminations), Array.from(truncations)], [[0, 0], [1, 1]], 'the limit of 2 truncates');
  assert.equal(infos.finalObs, undefined, 'next-step mode has no final observations');
  const [observations, rewards, terms, truncs, resetInfos] = envs.step([5, 5]);
  assert.deepEqual([Array.from(rewards), Array.from(terms), Array.from(truncs)], [[0, 0], [0, 0], [0, 0]]);
  assert.deepEqual(Array.from(resetInfos._benchmark), [1, 1], 'the reset\'s info');
  const reference = gym.make('bril-autophase-ic-v0', SUITE);
  reference.reset({ seed: 1 });
  const [again] = reference.reset();
  assert.deepEqual(slice(observations, 0, 60), again, 'the autoreset is an unseeded reset');
  assert.deepEqual(envs.getAttr('actions'), [[], []], 'the action was not applied');
});

test('same-step autoreset puts the last observation and info in finalObs and finalInfo', () => {
  const envs = new gym.SyncVectorEnv([autophase(), autophase({ ...SUITE, maxEpisodeSteps: 3 })], {
    autoresetMode: gym.AutoresetMode.SAME_STEP,
  });
  envs.reset({ seed: 4 });
  const [first] = envs.step([0, 0]);
  const [observations, , , truncations, infos] = envs.step([1, 1]);
  assert.deepEqual(Array.from(truncations), [1, 0]);
  assert.deepEqual(Array.from(infos._finalObs), [1, 0]);
  assert.equal(infos.finalObs[1], null);
  assert.ok(envs.singleObservationSpace.contains(infos.finalObs[0]));
  assert.notDeepEqual(infos.finalObs[0], slice(observations, 0, 60), 'the batch holds the new episode\'s first observation');
  assert.deepEqual(Array.from(infos.finalInfo._actionHadNoEffect), [1, 0], 'finalInfo is batched like infos');
  assert.deepEqual(Array.from(infos._benchmark), [1, 0], 'the reset\'s info for environment 0');
  assert.notDeepEqual(slice(first, 1, 60), undefined);
  envs.step([2, 2]);
  assert.deepEqual(envs.getAttr('actions')[0], [2], 'no next-step reset follows: the new episode stepped');
});

test('disabled autoreset: ended environments wait for a masked reset', () => {
  const envs = new gym.SyncVectorEnv([autophase(), autophase({ ...SUITE, maxEpisodeSteps: 4 })], {
    autoresetMode: gym.AutoresetMode.DISABLED,
  });
  const [start] = envs.reset({ seed: [3, null] });
  envs.step([0, 0]);
  const [ended] = envs.step([0, 0]);
  assert.throws(() => envs.step([1, 1]), { name: 'ValueError', message: /environment 0 ended/ });
  const [observations, infos] = envs.reset({ options: { resetMask: [true, false] } });
  assert.deepEqual(Array.from(infos._benchmark), [1, 0]);
  assert.deepEqual(envs.getAttr('actions')[1], [0, 0], 'environment 1 kept its episode');
  assert.deepEqual(slice(observations, 1, 60), slice(ended, 1, 60), 'the batch keeps environment 1\'s last observation');
  envs.step([1, 1]);
  assert.throws(() => envs.reset({ options: { resetMask: [false, false] } }), { name: 'ValueError' });
  assert.throws(() => envs.reset({ options: { resetMask: [true] } }), { name: 'ValueError' });
  assert.ok(start.length === 120);
});

test('bad arguments are typed errors and step nothing', () => {
  const envs = new gym.SyncVectorEnv([autophase(), autophase()]);
  envs.reset({ seed: 0 });
  assert.throws(() => envs.step([0]), { name: 'ValueError', message: /batch of 2/ });
  assert.throws(() => envs.step([0, 99]), { name: 'ValueError', message: /action 1/ });
  assert.throws(() => envs.step('dce'), { name: 'ValueError' });
  assert.throws(() => envs.reset({ seed: [1, 2, 3] }), { name: 'ValueError' });
  assert.throws(() => envs.reset({ seed: -1 }), { name: 'ValueError' });
  assert.throws(() => envs.reset(7), { name: 'TypeError' });
  assert.deepEqual(envs.getAttr('actions'), [[], []], 'nothing was applied');
  envs.step([0, 1]);
  assert.throws(() => new gym.SyncVectorEnv([]), { name: 'TypeError' });
  assert.throws(() => new gym.SyncVectorEnv([() => 3]), { name: 'TypeError' });
  assert.throws(() => new gym.SyncVectorEnv([autophase()], { autoresetMode: 'Sometimes' }), { name: 'ValueError' });
  assert.throws(
    () => new gym.SyncVectorEnv([autophase(), () => gym.make('bril-ic-v0')]),
    { name: 'ValueError', message: /observation space/ },
  );
  assert.throws(() => gym.makeVec('bril-ic-v0', { numEnvs: 0 }), { name: 'ValueError' });
  assert.throws(() => new gym.AsyncVectorEnv([() => gym.make('bril-ic-v0')]), { name: 'TypeError', message: /worker/ });
  assert.throws(() => new gym.AsyncVectorEnv(['bril-ic-v0'], { workers: 2 }), { name: 'ValueError' });
});

test('call, getAttr and setAttr reach every environment', () => {
  const envs = gym.makeVec('bril-ic-v0', { numEnvs: 2, options: { benchmark: 'benchmark://suite-v0/fib-iter' } });
  envs.reset();
  envs.step([0, 1]);
  assert.deepEqual(envs.call('commandline'), ['-dce', '-lvn']);
  assert.deepEqual(envs.getAttr('benchmark'), ['benchmark://suite-v0/fib-iter', 'benchmark://suite-v0/fib-iter']);
  envs.setAttr('tag', ['a', 'b']);
  assert.deepEqual(envs.getAttr('tag'), ['a', 'b']);
  assert.throws(() => envs.setAttr('tag', ['a']), { name: 'ValueError' });
  assert.equal(String(envs), 'SyncVectorEnv(bril-ic-v0, numEnvs=2)');
});

test('dict observations batch per key; plain-JS environments batch too', () => {
  const envs = gym.makeVec('bril-ic-v0', { numEnvs: 2, options: { observationSpace: 'AutophaseDict' } });
  const [observations] = envs.reset({ seed: 0 });
  assert.equal(envs.observationSpace.type, 'Dict');
  assert.ok(observations.TotalInsts instanceof BigInt64Array && observations.TotalInsts.length === 2);
  assert.ok(envs.observationSpace.contains(observations));
  const walks = new gym.SyncVectorEnv([() => makeWalk(4), () => makeWalk(4)]);
  const [positions, infos] = walks.reset({ seed: 1 });
  assert.ok(positions instanceof Int32Array && positions.length === 4);
  assert.ok(infos.target instanceof Float64Array);
  let ended = 0;
  for (let t = 0; t < 12; t++) ended += walks.step(Int32Array.of(1, 1))[2].reduce((a, b) => a + b, 0);
  assert.ok(ended >= 2);
});

/** One seeded run of a vector environment (sync, or async with its promises awaited). */
async function rollout(envs, steps) {
  const seen = [];
  const [observations] = await envs.reset({ seed: 21 });
  seen.push(Array.from(observations, Number));
  envs.actionSpace.seed(5);
  for (let t = 0; t < steps; t++) {
    const [o, r, te, tr, infos] = await envs.step(envs.actionSpace.sample());
    seen.push([Array.from(o, Number), Array.from(r), Array.from(te), Array.from(tr), Array.from(infos._benchmark ?? [])]);
  }
  return seen;
}

test('AsyncVectorEnv in Node worker threads matches SyncVectorEnv step for step', async () => {
  const specs = new Array(4).fill({ id: 'bril-autophase-ic-v0', options: SUITE });
  const sync = new gym.SyncVectorEnv(specs);
  const expected = await rollout(sync, 6);
  for (const workers of [1, 2, 4]) {
    const envs = new gym.AsyncVectorEnv(specs, { workers });
    assert.equal(envs.numWorkers, workers);
    await envs.ready;
    assert.ok(envs.observationSpace.equals(sync.observationSpace));
    assert.deepEqual(await rollout(envs, 6), expected, `${workers} workers`);
    assert.deepEqual(await envs.getAttr('benchmark'), sync.getAttr('benchmark'));
    await envs.close();
    await envs.close();
  }
});

test('AsyncVectorEnv: same-step mode, module environments, errors from the workers', async () => {
  const envs = new gym.AsyncVectorEnv(
    [0, 1].map(() => ({ module: WALK, export: 'makeWalk', args: [3] })),
    { autoresetMode: gym.AutoresetMode.SAME_STEP },
  );
  const sync = new gym.SyncVectorEnv([() => makeWalk(3), () => makeWalk(3)], { autoresetMode: gym.AutoresetMode.SAME_STEP });
  const [a] = await envs.reset({ seed: 8 });
  const [b] = sync.reset({ seed: 8 });
  assert.deepEqual(a, b);
  for (let t = 0; t < 8; t++) {
    const [ao, ar, , , ai] = await envs.step([1, 1]);
    const [so, sr, , , si] = sync.step([1, 1]);
    assert.deepEqual([ao, ar, ai], [so, sr, si], `step ${t}`);
  }
  await assert.rejects(envs.step([1, 7]), { name: 'ValueError' });
  await assert.rejects(envs.call('nope'), { name: 'LookupError' });
  assert.equal((await envs.step([1, 1]))[0].length, 4, 'still works');
  await envs.close();
  await assert.rejects(envs.step([1, 1]), { name: 'ValueError', message: /closed/ });

  const bad = new gym.AsyncVectorEnv([{ id: 'bril-ic-v0', options: { benchmark: 'benchmark://suite-v0/nope' } }]);
  await assert.rejects(bad.reset(), { name: 'BenchmarkInitError' });
  await bad.close();
  const unknown = new gym.AsyncVectorEnv(['bril-nope-v0']);
  await assert.rejects(unknown.ready, { name: 'LookupError' });
  await unknown.close();
  const missing = new gym.AsyncVectorEnv([{ module: WALK, export: 'nothing' }]);
  await assert.rejects(missing.reset(), { name: 'TypeError', message: /no function export/ });
  await missing.close();
});

test('AsyncVectorEnv in Chromium Web Workers matches SyncVectorEnv', async () => {
  await withGymPage(async (run) => {
    const out = await run(async ({ gym }) => {
      const rollout = async (envs) => {
        const seen = [];
        const [observations] = await envs.reset({ seed: 21 });
        seen.push(Array.from(observations, Number));
        envs.actionSpace.seed(5);
        for (let t = 0; t < 5; t++) {
          const [o, r, te, tr] = await envs.step(envs.actionSpace.sample());
          seen.push([Array.from(o, Number), Array.from(r), Array.from(te), Array.from(tr)]);
        }
        return seen;
      };
      const specs = new Array(4).fill({ id: 'bril-autophase-ic-v0', options: { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 2 } });
      const expected = await rollout(new gym.SyncVectorEnv(specs));
      const results = {};
      for (const workers of [1, 2]) {
        const envs = new gym.AsyncVectorEnv(specs, { workers });
        results[workers] = JSON.stringify(await rollout(envs)) === JSON.stringify(expected);
        await envs.close();
      }
      let error = null;
      const bad = new gym.AsyncVectorEnv(['bril-ic-v0']);
      await bad.reset();
      try {
        await bad.step([99]);
      } catch (e) {
        error = e.name;
      }
      await bad.close();
      return { results, error, inBrowser: typeof window === 'object' };
    });
    assert.deepEqual(out, { results: { 1: true, 2: true }, error: 'ValueError', inBrowser: true });
  });
});

test('AsyncVectorEnv: a call while another is pending is an AlreadyPendingCallError; autoreset stays right', async () => {
  const envs = gym.makeVec('bril-ic-v0', { numEnvs: 2, vectorizationMode: 'async', options: { maxEpisodeSteps: 2 } });
  await envs.reset({ seed: 1 });
  const settled = await Promise.allSettled([envs.step([0, 0]), envs.step([1, 1]), envs.step([2, 2])]);
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'rejected'],
  );
  for (const s of settled.slice(1)) assert.equal(s.reason.name, 'AlreadyPendingCallError');
  assert.match(settled[1].reason.message, /pending call to step/);
  assert.deepEqual(await envs.getAttr('elapsedSteps'), [1, 1], 'only the first step ran');

  const pending = envs.step([1, 1]);
  await assert.rejects(envs.reset(), { name: 'AlreadyPendingCallError' });
  await assert.rejects(envs.call('render'), { name: 'AlreadyPendingCallError' });
  await assert.rejects(envs.setAttr('tag', 1), { name: 'AlreadyPendingCallError' });
  const [, , , truncations] = await pending;
  assert.deepEqual(Array.from(truncations), [1, 1], 'the second step ends the episodes');
  const [, rewards, , afterReset] = await envs.step([2, 2]);
  assert.deepEqual([Array.from(rewards), Array.from(afterReset)], [[0, 0], [0, 0]], 'the next step is the autoreset');
  assert.deepEqual(await envs.getAttr('elapsedSteps'), [0, 0]);

  // As Gymnasium's, close() during a pending call waits for it, then closes.
  const last = envs.step([1, 1]);
  await envs.close();
  assert.equal((await last)[0].length, 2 * 1);
  await assert.rejects(envs.step([1, 1]), { name: 'ValueError', message: /closed/ });
});

test('AsyncVectorEnv: idle workers and failed constructions let Node exit without close()', async () => {
  const { spawn } = await import('node:child_process');
  const script = `
    const gym = await import(${JSON.stringify(new URL('gym/node.js', new URL('../../pkg/', import.meta.url)).href)});
    // Exits 3 only if something still holds the event loop once the work below is done.
    setTimeout(() => { console.log('still alive'); process.exit(3); }, 60000).unref();
    const envs = gym.makeVec('bril-ic-v0', { numEnvs: 2, vectorizationMode: 'async' });
    await envs.reset({ seed: 1 });
    await envs.step([0, 1]);
    const unknown = new gym.AsyncVectorEnv(['nope-v0']);
    try { await unknown.reset(); } catch (error) { console.log(error.name); }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(out.trim(), 'LookupError');
  assert.equal(code, 0, 'the process exited by itself');
});

test('AsyncVectorEnv: ids from gym.register reach workers when registered as {module, export}', async () => {
  const loaded = gym.register('test/ModuleWalk-v0', { entryPoint: { module: WALK, export: 'walkFromOptions' }, maxEpisodeSteps: 3, kwargs: { size: 4 } });
  assert.ok(loaded instanceof Promise, 'a module entry point loads first');
  await loaded;
  const sync = gym.makeVec('test/ModuleWalk-v0', { numEnvs: 2 });
  const envs = gym.makeVec('test/ModuleWalk-v0', { numEnvs: 2, vectorizationMode: 'async' });
  const expected = [sync.reset({ seed: 3 })[0]];
  const got = [(await envs.reset({ seed: 3 }))[0]];
  for (let t = 0; t < 5; t++) {
    expected.push(sync.step([1, 1]).slice(0, 4));
    got.push((await envs.step([1, 1])).slice(0, 4));
  }
  assert.deepEqual(got, expected);
  assert.deepEqual(await envs.getAttr('size'), [4, 4], 'the registration kwargs');
  await envs.close();

  gym.register('test/ClosureWalk-v0', { entryPoint: () => makeWalk(3) });
  assert.equal(gym.make('test/ClosureWalk-v0').unwrapped.size, 3, 'sync make still takes a function');
  assert.throws(() => gym.makeVec('test/ClosureWalk-v0', { numEnvs: 1, vectorizationMode: 'async' }), {
    name: 'LookupError',
    message: /entryPoint: \{module, export\}/,
  });
  const unknown = new gym.AsyncVectorEnv(['test/Nowhere-v0']);
  await assert.rejects(unknown.ready, { name: 'LookupError', message: /\{module, export\}/ });
  await assert.rejects(gym.register('test/Missing-v0', { entryPoint: { module: WALK, export: 'nothing' } }), { name: 'TypeError' });
  assert.ok(!gym.registeredIds().includes('test/Missing-v0'), 'a registration that cannot load is taken back');
});

test('a failing environment: the others are taken in, the error comes after, the next step resets it', async () => {
  const flaky = () => ({ module: WALK, export: 'makeFlaky' });
  for (const workers of [1, 2]) {
    const envs = new gym.AsyncVectorEnv([flaky(), flaky()], { workers });
    const sync = new gym.SyncVectorEnv([() => new (class extends gym.Wrapper {})(makeFlakyLocal()), () => makeFlakyLocal()]);
    const [a] = await envs.reset({ seed: 8 });
    const [b] = sync.reset({ seed: 8 });
    assert.deepEqual(a, b);
    const asyncError = await envs.step([1, 2]).catch((e) => e);
    let syncError = null;
    try {
      sync.step([1, 2]);
    } catch (e) {
      syncError = e;
    }
    for (const error of [asyncError, syncError]) {
      assert.equal(error.name, 'ValueError');
      assert.match(error.message, /environment 1 failed in step: action 2 always fails; .*next step resets it/);
      assert.equal(error.envIndex, 1);
    }
    const [ao, ar, at, au] = await envs.step([1, 1]);
    const [so, sr, st, su] = sync.step([1, 1]);
    assert.deepEqual([ao, ar, at, au], [so, sr, st, su], `${workers} workers: both vector envs agree after the error`);
    assert.deepEqual([ao[2], ar[1]], [0, 0], 'environment 1 was reset (position 0, reward 0)');
    assert.ok(ao[0] === 2 || at[0] || ar[0] === 0, 'environment 0 kept the step it took when 1 failed');
    await envs.close();
  }
});
