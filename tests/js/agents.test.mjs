// The agents in a worker: the built package's agents.js and agents-worker.js,
// in a module Web Worker in headless Chromium and in a Node worker thread.
// Progress in chunks, cancellation mid-run, results that replay on a fresh
// environment, training and the leaderboard, typed errors. Every search
// asserted on has a step budget, never seconds: a busy machine changes how
// long a run takes, not what it finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { withBlankPage } from './browser.mjs';

const pkgDir = new URL('../../pkg/', import.meta.url);

/**
 * Drives RemoteAgents through every kind of job and returns what it saw as
 * plain data. It runs in Node and, as source text, in a page, so it uses
 * nothing but its arguments: `connectAgents`, and the package (`make`,
 * `Policy`) to replay results on a fresh environment.
 */
async function scenario(connectAgents, compgym, connectOptions) {
  const errorOf = (promise) =>
    promise.then(
      () => null,
      (e) => ({ name: e.name, message: e.message, isError: e instanceof Error }),
    );
  /** The cost a result's state replays to on a fresh environment, and its validation. */
  const replay = (result, source) => {
    const env = compgym.make('bril-v0');
    try {
      if (source) env.addBenchmark(result.benchmark, source);
      env.apply(result.state);
      const cost = Number(env.observation.get('IrInstructionCount'));
      const validation = env.validate(result.state);
      return { cost, okay: validation.okay };
    } finally {
      env.free();
    }
  };
  const out = {};
  const agents = connectAgents(undefined, connectOptions);
  try {
    // A run with progress, and the result replayed.
    const reports = [];
    const result = await agents.run(
      'explore',
      { benchmark: 'benchmark://suite-v0/trapezoid', steps: 400, seconds: null, seed: 1 },
      { onProgress: (p) => reports.push(p) },
    );
    out.run = {
      reports: reports.length,
      stepsRise: reports.every((p, i) => i === 0 || p.steps >= reports[i - 1].steps),
      steps: result.steps,
      fields: Object.keys(reports.at(-1)).sort(),
      bestFalls: reports.every((p, i) => i === 0 || p.bestCost <= reports[i - 1].bestCost),
      lastFraction: reports.at(-1).fraction,
      status: result.status,
      cost: result.cost,
      initialCost: result.initialCost,
      passes: result.passes.join(' ') === result.commandline,
      replay: replay(result),
      csv: result.csv.split('\n')[0],
    };

    // Cancel mid-run: a search with no limit stops and keeps its best.
    const controller = new AbortController();
    let seen = 0;
    const cancelled = await agents.run(
      'random',
      { benchmark: 'benchmark://suite-v0/histogram', steps: null, seconds: null },
      {
        signal: controller.signal,
        onProgress: (p) => {
          seen = p.steps;
          if (p.steps > 0) controller.abort();
        },
      },
    );
    out.cancel = {
      status: cancelled.status,
      steps: cancelled.steps,
      stepsSeen: seen,
      better: cancelled.cost <= cancelled.initialCost,
      replay: replay(cancelled),
    };
    // cancel() stops every job in flight.
    const pending = agents.run('random', { benchmark: 'benchmark://suite-v0/fib-iter', steps: null, seconds: null });
    setTimeout(() => agents.cancel(), 300);
    out.cancelAll = (await pending).status;

    // A program of one's own, and the policy's rollout.
    const source = '@main {\n  a: int = const 2;\n  b: int = const 3;\n  c: int = add a b;\n  d: int = mul a b;\n  print c;\n}\n';
    const own = await agents.run('greedy', { source, steps: 100 });
    out.own = { benchmark: own.benchmark, cost: own.cost, replay: replay(own, source) };
    await compgym.loadPretrained(); // a browser fetches them; under Node they came with the import
    const policy = compgym.Policy.pretrained();
    const rollout = await agents.run('policy', { benchmark: 'benchmark://suite-v0/trapezoid', policy });
    const local = policy.rollout({ benchmark: 'benchmark://suite-v0/trapezoid' }).run();
    out.policy = { same: rollout.commandline === local.commandline, steps: rollout.steps, replay: replay(rollout).cost === rollout.cost };
    policy.free();

    // Training in chunks, with its curve; the policy it gives plays.
    const points = [];
    const trained = await agents.train(
      { updates: 3, seed: 2, hidden: [8], batch: 2, episodeLength: 5, sizes: [10, 20], validateEvery: 2 },
      { onProgress: (p) => points.push(...p.points) },
    );
    const trainedPolicy = compgym.Policy.fromJson(trained.policy);
    out.train = {
      points: points.map((p) => p.update),
      curve: trained.curve.length,
      validated: trained.curve[1].validation > 0,
      episodeLength: trainedPolicy.episodeLength,
    };
    trainedPolicy.free();
    // Training with no limit, stopped: the policy trained so far.
    const stopTraining = new AbortController();
    const stopped = await agents.train(
      { seconds: null, seed: 2, hidden: [8], batch: 2, episodeLength: 5, sizes: [10, 20] },
      { signal: stopTraining.signal, onProgress: (p) => p.points.length && stopTraining.abort() },
    );
    out.trainStopped = { cancelled: stopped.cancelled, curve: stopped.curve.length > 0, policy: typeof stopped.policy };

    // The leaderboard, with its progress.
    const progress = [];
    const board = await agents.leaderboard(
      { tasks: ['size'], agents: ['greedy', 'explore'], suite: 2, large: 0, generated: 1, steps: 40 },
      { onProgress: (p) => progress.push(p.done) },
    );
    out.leaderboard = { rows: board.rows.length, lines: board.table.trimEnd().split('\n').length, finished: board.finished, last: progress.at(-1), valid: board.rows.every((r) => r.valid === r.programs.length) };
    // A leaderboard of 3 x 2,000 steps stopped at once: the rows done so far.
    const stopBoard = new AbortController();
    const partial = await agents.leaderboard(
      { tasks: ['size'], agents: ['explore'], suite: 2, large: 0, generated: 1, steps: 2000, seconds: null },
      { signal: stopBoard.signal, onProgress: () => stopBoard.abort() },
    );
    out.leaderboardStopped = { finished: partial.finished, some: partial.rows.reduce((n, r) => n + r.programs.length, 0) < 3 };

    // Typed errors; the worker keeps working after each.
    out.errors = {
      unknownAgent: await errorOf(agents.run('oracle', { benchmark: 'benchmark://suite-v0/fib-iter' })),
      noProgram: await errorOf(agents.run('greedy', {})),
      badSteps: await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter', steps: -3 })),
      unknownOption: await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter', stesp: 3 })),
      unknownBenchmark: await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/nope' })),
      uncloneable: await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter', seed: () => 1 })),
      badCallback: await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter' }, { onProgress: 3 })),
      badTraining: await errorOf(agents.train({ batch: 0, updates: 1 })),
      badBudget: await errorOf(agents.train({ seconds: -1 })),
      badLeaderboard: await errorOf(agents.leaderboard({ agents: ['oracle'] })),
    };
    out.afterErrors = (await agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter', steps: 200 })).status;

    // Jobs in flight together run one after another, each with its own result.
    const both = await Promise.all(
      ['greedy', 'beam'].map((name) => agents.run(name, { benchmark: 'benchmark://suite-v0/trapezoid', steps: 60 })),
    );
    out.concurrent = both.map((r) => r.agent);
  } finally {
    await agents.terminate();
  }
  out.afterTerminate = await errorOf(agents.run('greedy', { benchmark: 'benchmark://suite-v0/fib-iter' }));
  return out;
}

function check(out) {
  // At least the last report; how many more depends on the machine's speed.
  assert.ok(out.run.reports >= 1, `${out.run.reports} reports`);
  assert.ok(out.run.stepsRise);
  assert.equal(out.run.steps, 400);
  assert.deepEqual(out.run.fields, ['bestActions', 'bestCost', 'elapsed', 'episodes', 'fraction', 'initialCost', 'status', 'steps']);
  assert.ok(out.run.bestFalls);
  assert.equal(out.run.lastFraction, 1);
  assert.equal(out.run.status, 'out of budget');
  assert.ok(out.run.cost < out.run.initialCost, `${out.run.initialCost} -> ${out.run.cost}`);
  assert.ok(out.run.passes);
  assert.deepEqual(out.run.replay, { cost: out.run.cost, okay: true });
  assert.equal(out.run.csv, 'benchmark,reward,walltime,commandline');

  assert.equal(out.cancel.status, 'cancelled');
  assert.ok(out.cancel.steps >= out.cancel.stepsSeen && out.cancel.stepsSeen > 0, JSON.stringify(out.cancel));
  assert.ok(out.cancel.better);
  assert.equal(out.cancel.replay.okay, true);
  assert.equal(out.cancelAll, 'cancelled');

  assert.deepEqual(out.own, { benchmark: 'benchmark://user-v0/program', cost: 4, replay: { cost: 4, okay: true } });
  assert.deepEqual(out.policy, { same: true, steps: out.policy.steps, replay: true });
  assert.ok(out.policy.steps > 0);

  assert.deepEqual(out.train, { points: [1, 2, 3], curve: 3, validated: true, episodeLength: 5 });
  assert.deepEqual(out.trainStopped, { cancelled: true, curve: true, policy: 'string' });
  assert.deepEqual(out.leaderboard, { rows: 4, lines: 6, finished: true, last: 6, valid: true });
  assert.deepEqual(out.leaderboardStopped, { finished: false, some: true });

  const names = Object.fromEntries(Object.entries(out.errors).map(([k, e]) => [k, e && e.name]));
  assert.deepEqual(names, {
    unknownAgent: 'LookupError',
    noProgram: 'ValueError',
    badSteps: 'ValueError',
    unknownOption: 'TypeError',
    unknownBenchmark: 'BenchmarkInitError',
    uncloneable: 'TypeError',
    badCallback: 'TypeError',
    badTraining: 'ValueError',
    badBudget: 'ValueError',
    badLeaderboard: 'LookupError',
  });
  assert.ok(Object.values(out.errors).every((e) => e.isError));
  assert.match(out.errors.unknownOption.message, /stesp/);
  assert.equal(out.afterErrors, 'done');
  assert.deepEqual(out.concurrent, ['greedy', 'beam']);
  assert.equal(out.afterTerminate.name, 'ServiceError');
}

test('agents-worker.js (agents-worker-node.js under Node) answers raw job messages, and unknown jobs are LookupErrors', async () => {
  const worker = new Worker(new URL('agents-worker-node.js', pkgDir));
  const messages = [];
  const done = new Promise((resolve) =>
    worker.on('message', (m) => {
      messages.push(m);
      if (messages.filter((x) => !('progress' in x)).length === 2) resolve();
    }),
  );
  worker.postMessage({ id: 'a', job: 'run', options: { agent: 'greedy', benchmark: 'benchmark://suite-v0/fib-iter', steps: 30 } });
  worker.postMessage({ id: 'b', job: 'compile' });
  worker.postMessage({ id: 'c', cancel: true }); // no such job: nothing happens
  await done;
  await worker.terminate();
  assert.ok(messages.some((m) => m.id === 'a' && m.progress?.status === 'running'));
  const result = messages.find((m) => m.id === 'a' && 'result' in m).result;
  assert.equal(result.agent, 'greedy');
  assert.ok(result.steps <= 30);
  const error = messages.find((m) => m.id === 'b').error;
  assert.equal(error.name, 'LookupError');
  assert.match(error.message, /run, train and leaderboard/);
  assert.ok(!messages.some((m) => m.id === 'c'));
});

test('RemoteAgents over a Node worker thread', async () => {
  const { connectAgents } = await import(new URL('agents-node.js', pkgDir));
  const compgym = await import(new URL('node.js', pkgDir));
  check(await scenario(connectAgents, compgym));
});

test('RemoteAgents over a module Web Worker in Chromium, with and without the page\'s compiled module', async () => {
  await withBlankPage(pkgDir.pathname, 'agents', async (page) => {
    for (const shareModule of [false, true]) {
      const out = await page.evaluate(
        async ({ source, shareModule }) => {
          const { connectAgents } = await import('/agents.js');
          const compgym = await import('/index.js');
          const module = await WebAssembly.compileStreaming(fetch('/compgym_bg.wasm'));
          await compgym.default({ module_or_path: module });
          // eslint-disable-next-line no-eval
          return (0, eval)(`(${source})`)(connectAgents, compgym, shareModule ? { module } : {});
        },
        { source: scenario.toString(), shareModule },
      );
      check(out);
    }
  });
});
