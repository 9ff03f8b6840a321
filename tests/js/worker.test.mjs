// The service in a worker: the built package's worker.js and remote.js, in
// a module Web Worker in headless Chromium and in a Node worker thread.
// Round trips, typed errors, several calls in flight at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { execFileSync } from 'node:child_process';
import { withBlankPage } from './browser.mjs';

const pkgDir = new URL('../../pkg/', import.meta.url);

/**
 * Drives a RemoteService through every kind of call and returns what it saw
 * as plain data. It runs in Node and, as source text, in a page, so it
 * uses nothing but its argument.
 */
async function scenario(connectService) {
  const errorOf = (promise) =>
    promise.then(
      () => null,
      (e) => ({ name: e.name, message: e.message, isError: e instanceof Error }),
    );
  const out = {};
  const service = connectService();
  try {
    out.version = await service.getVersion();
    const spaces = await service.call('GetSpaces', {});
    const names = spaces.observationSpaceList.map((o) => o.name);
    const count = names.indexOf('IrInstructionCount');
    const dce = spaces.actionSpaceList[0].space.anyValue.name.indexOf('-dce');
    const started = await service.startSession({
      benchmark: { uri: 'benchmark://suite-v0/dead-code' },
      observationSpace: [count],
    });
    const id = started.sessionId;
    out.before = started.observation[0].int64Value;
    const stepped = await service.step({ sessionId: id, action: [{ int64Value: dce }], observationSpace: [count] });
    out.after = stepped.observation[0].int64Value;
    out.noEffect = stepped.actionHadNoEffect;

    out.errors = {
      unknownSession: await errorOf(service.step({ sessionId: 999 })),
      malformed: await errorOf(service.step({ sessionId: 'abc' })),
      unknownMethod: await errorOf(service.call('Compile', {})),
      unknownBenchmark: await errorOf(service.startSession({ benchmark: 'benchmark://suite-v0/nope' })),
      unknownParameter: await errorOf(
        service.sendSessionParameter({ sessionId: id, parameter: [{ key: 'nope', value: '' }] }),
      ),
      uncloneable: await errorOf(service.call('Step', { sessionId: id, f: () => 1 })),
    };

    // Calls in flight together: each promise gets its own reply.
    const forks = await Promise.all([0, 1, 2, 3].map(() => service.forkSession({ sessionId: id })));
    out.forkIds = forks.map((f) => f.sessionId);
    const lvn = spaces.actionSpaceList[0].space.anyValue.name.indexOf('-lvn');
    const steps = await Promise.all(
      forks.map((f, i) =>
        service.step({ sessionId: f.sessionId, action: i % 2 ? [{ int64Value: lvn }] : [], observationSpace: [count] }),
      ),
    );
    out.forkCounts = steps.map((s) => s.observation[0].int64Value);
    const mixed = await Promise.allSettled([
      service.getVersion(),
      service.step({ sessionId: 12345 }),
      service.endSession({ sessionId: forks[0].sessionId }),
      service.call('Step', null),
      service.addBenchmark({ benchmark: [{ uri: 'benchmark://user-v0/two', program: { contents: 'QG1haW4ge30=' } }] }),
      service.startSession({ benchmark: 'benchmark://user-v0/two' }),
    ]);
    out.mixed = mixed.map((r) => (r.status === 'fulfilled' ? 'ok' : r.reason.name));
    out.bigint = (await service.step({ sessionId: BigInt(id), observationSpace: [count] })).observation[0].int64Value;
    out.params = await service.sendSessionParameter({
      sessionId: id,
      parameter: [{ key: 'bril.args', value: '7' }],
    });
    out.end = await service.endSession({ sessionId: id });
  } finally {
    await service.terminate();
  }
  out.afterTerminate = await errorOf(service.getVersion());

  const toy = connectService(undefined, { compiler: 'toy' });
  out.toyVersion = (await toy.getVersion()).compilerVersion;
  await toy.terminate();
  const gcc = connectService(undefined, { compiler: 'gcc' });
  out.unknownCompiler = await errorOf(gcc.getVersion());
  await gcc.terminate();
  return out;
}

function check(out) {
  assert.match(out.version.compilerVersion, /^bril-compgym /);
  assert.ok(out.after < out.before, `${out.before} -> ${out.after}`);
  assert.equal(out.noEffect, false);
  const names = Object.fromEntries(Object.entries(out.errors).map(([k, e]) => [k, e && e.name]));
  assert.deepEqual(names, {
    unknownSession: 'SessionNotFound',
    malformed: 'ValueError',
    unknownMethod: 'LookupError',
    unknownBenchmark: 'BenchmarkInitError',
    unknownParameter: 'ValueError',
    uncloneable: 'TypeError',
  });
  assert.ok(Object.values(out.errors).every((e) => e.isError));
  assert.match(out.errors.malformed.message, /sessionId/);
  assert.match(out.errors.unknownSession.message, /999/);
  assert.equal(new Set(out.forkIds).size, 4);
  assert.deepEqual(out.forkCounts.map((c) => c <= out.after), [true, true, true, true]);
  assert.equal(out.forkCounts[0], out.after);
  assert.deepEqual(out.mixed, ['ok', 'SessionNotFound', 'ok', 'ValueError', 'ok', 'ok']);
  assert.equal(out.bigint, out.after);
  assert.deepEqual(out.params, { reply: ['7'] });
  // Four forks, one ended, one session on the added benchmark, then the original ended.
  assert.deepEqual(out.end, { remainingSessions: 4 });
  assert.equal(out.afterTerminate.name, 'ServiceError');
  assert.match(out.toyVersion, /^toy /);
  assert.equal(out.unknownCompiler.name, 'LookupError');
  assert.match(out.unknownCompiler.message, /bril, toy/);
}

test('the in-process Service keeps working after a request whose reading throws', async () => {
  const { Service } = await import(new URL('node.js', pkgDir));
  const service = new Service();
  const throwing = {
    get sessionId() {
      throw new Error('boom');
    },
  };
  assert.throws(() => service.step(throwing), { name: 'TypeError', message: /boom/ });
  assert.throws(() => service.call('Step', { sessionId: 1 }), { name: 'SessionNotFound' });
  assert.match(service.getVersion().compilerVersion, /^bril-compgym /);
  assert.equal(service.sessionCount, 0);
  service.free();
});

test('worker.js (worker-node.js under Node) answers raw {id, method, request} messages in a Node worker thread', async () => {
  const worker = new Worker(new URL('worker-node.js', pkgDir));
  const replies = new Map();
  const done = new Promise((resolve) =>
    worker.on('message', (m) => {
      replies.set(m.id, m);
      if (replies.size === 3) resolve();
    }),
  );
  worker.postMessage({ id: 'a', method: 'GetVersion', request: {} });
  worker.postMessage({ id: 7, method: 'EndSession', request: { sessionId: 3 } });
  worker.postMessage({ id: 'c', method: 'GetVersion' });
  await done;
  await worker.terminate();
  assert.match(replies.get('a').reply.compilerVersion, /^bril-compgym /);
  assert.deepEqual(replies.get(7), { id: 7, error: { name: 'SessionNotFound', message: 'session 3 does not exist' } });
  assert.deepEqual(replies.get('c').reply, replies.get('a').reply);
});

test("an Env.* method's error reply names what was thrown, which need not be an ErrorName", async () => {
  // worker.d.ts declared every error reply's name an ErrorName; a module that does not load is an "Error".
  const worker = new Worker(new URL('worker-node.js', pkgDir));
  const reply = new Promise((resolve) => worker.once('message', resolve));
  worker.postMessage({ id: 1, method: 'Env.make', request: { envs: [{ module: 'file:///nonexistent/env.js', export: 'default', args: [] }] } });
  const { id, error } = await reply;
  await worker.terminate();
  assert.equal(id, 1);
  assert.equal(error.name, 'Error');
  assert.match(error.message, /nonexistent/);
});

test('RemoteService over a Node worker thread', async () => {
  const { connectService } = await import(new URL('remote-node.js', pkgDir));
  check(await scenario(connectService));
});

test('RemoteService and RemoteAgents given no worker are TypeErrors, and the process lives on', () => {
  // Run apart: an uncaught error in a promise callback would end the process.
  const script = `
    import { RemoteService, connectService } from ${JSON.stringify(new URL('remote-node.js', pkgDir).href)};
    import { RemoteAgents, connectAgents } from ${JSON.stringify(new URL('agents-node.js', pkgDir).href)};
    const seen = [];
    const record = (f) => { try { f(); seen.push('returned'); } catch (e) { seen.push(e.name + ': ' + e.message); } };
    for (const bad of [{}, null, 42, undefined, { postMessage() {}, terminate() {} }, { get then() { throw new Error('x'); } }]) {
      record(() => new RemoteService(bad));
      record(() => new RemoteAgents(bad));
    }
    record(() => connectService({}));
    record(() => connectAgents(42));
    // A promise that gives no worker fails the calls instead.
    const late = new RemoteService(Promise.resolve({}));
    seen.push(await late.getVersion().then(() => 'resolved', (e) => e.name + ': ' + e.message));
    const lateAgents = new RemoteAgents(Promise.resolve(null));
    seen.push(await lateAgents.run({ agent: 'random' }).then(() => 'resolved', (e) => e.name + ': ' + e.message));
    await new Promise((resolve) => setTimeout(resolve, 50));
    console.log(JSON.stringify(seen));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const seen = JSON.parse(out);
  assert.equal(seen.length, 16);
  for (const line of seen) assert.match(line, /^TypeError: Remote(Service|Agents)/);
  assert.match(seen[0], /worker must be a Worker or a promise of one: it has no postMessage/);
  assert.match(seen[2], /got null/);
  assert.match(seen[14], /the promise gave no Worker/);
});

test('RemoteService over a module Web Worker in Chromium', async () => {
  await withBlankPage(pkgDir.pathname, 'worker', async (page) => {
    const out = await page.evaluate(async (source) => {
      const { connectService } = await import('/remote.js');
      // eslint-disable-next-line no-eval
      return (0, eval)(`(${source})`)(connectService);
    }, scenario.toString());
    check(out);
    const relative = await page.evaluate(async () => {
      const { connectService } = await import('/remote.js');
      const service = connectService('worker.js', { compiler: 'toy' });
      const { compilerVersion } = await service.getVersion();
      await service.terminate();
      return compilerVersion;
    });
    assert.match(relative, /^toy /);
  });
});
