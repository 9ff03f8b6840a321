// End to end: the Train view (issue 26). A short seeded run whose curve
// rises, pause and one update, the same seed giving the same points, and
// "use this policy" playing the trained policy as an agent on the current
// program. Budgets are updates, never seconds. Screenshots of the view at
// both widths go to .tmp/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { start, open, loadSuite, watchLongTasks } from './playground-helpers.mjs';
import { PolicyTrainer, make } from '../../pkg/node.js';

/** The page's own module, over the page's copy of the package (www/pkg/), which it initialises. */
let isHeldOut;
let trainablePrograms;
let trainingSplit;
let encodePicks;
let decodePicks;
let decodeState;
let encodeState;

const shots = new URL('../../.tmp/screenshots/', import.meta.url).pathname;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const UPDATES = 20;
let env;
let page;
/** The first run's state, which the later tests compare with. */
let firstRun;

before(async () => {
  mkdirSync(shots, { recursive: true });
  const pagePackage = await import('../../www/pkg/index.js');
  await pagePackage.default({ module_or_path: readFileSync(new URL('../../www/pkg/compgym_bg.wasm', import.meta.url)) });
  ({ isHeldOut, trainablePrograms, trainingSplit, encodePicks, decodePicks } = await import('../../www/src/train-programs.js'));
  ({ decodeState, encodeState } = await import('../../www/src/share.js'));
  env = await start();
  page = await open(env);
});

after(async () => {
  await env?.close();
});

/** The view's status: state, update, held-out scores, and the curve the chart draws. */
async function trainState(page) {
  return page.evaluate(() => {
    const s = document.querySelector('#train-status');
    const [updates, returns, scores] = document.querySelector('#train-chart').uplot.data;
    return { ...s.dataset, text: s.textContent, updates: [...updates], returns: [...returns], scores: [...scores] };
  });
}

async function waitForState(page, states) {
  await page.waitForFunction((s) => s.includes(document.querySelector('#train-status').dataset.state), states, { timeout: 180_000 });
}

/** A screenshot of the Train view alone. */
async function shot(p, name) {
  await p.$eval('#train', (e) => e.scrollIntoView());
  await p.locator('#train').screenshot({ path: `${shots}${name}` });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('the page splits the programs as the core does: the same held-out score with its list as with the default', () => {
  const programs = trainablePrograms(make('bril-v0').datasets);
  const held = programs.filter((p) => p.heldOut).map((p) => p.uri);
  assert.equal(programs.length, 62);
  assert.equal(held.length, 15);
  assert.equal(isHeldOut('suite-v0/fib-iter'), isHeldOut('benchmark://suite-v0/fib-iter'));
  // The core's default validation set is its held-out side; the same untrained policy scores the same on ours.
  const options = { seed: 3, normalizerEpisodes: 1, validateEvery: 0 };
  const core = new PolicyTrainer(options);
  const ours = new PolicyTrainer({ ...options, validation: held });
  assert.equal(ours.validate(), core.validate());
  core.free();
  ours.free();
  assert.deepEqual(trainingSplit(programs, [programs[1].uri]), { train: [programs[1].uri], validation: held.filter((u) => u !== programs[1].uri) });
  assert.throws(() => trainingSplit(programs, []), { name: 'ValueError', message: /pick at least one program/ });
  assert.throws(() => trainingSplit(programs, held), { name: 'ValueError', message: /leave at least one held-out program/ });
});

test('a link holds the programs picked in a few characters, and its training run round-trips or is left out', () => {
  const programs = trainablePrograms(make('bril-v0').datasets);
  const trainSide = programs.filter((p) => !p.heldOut).map((p) => p.uri);
  assert.equal(encodePicks(programs, trainSide), 'train');
  assert.deepEqual(decodePicks(programs, 'train'), trainSide);
  const some = [programs[0].uri, programs[5].uri, programs[61].uri];
  const hex = encodePicks(programs, some);
  assert.equal(hex.length, 16, '62 programs, four to a hex digit');
  assert.deepEqual(decodePicks(programs, hex), some);
  assert.deepEqual(decodePicks(programs, encodePicks(programs, [])), []);
  assert.throws(() => decodePicks(programs, 'ffff'), { name: 'ValueError', message: /do not fit this page's 62 programs/ });
  assert.throws(() => decodePicks(programs, 'g'.repeat(16)), { name: 'ValueError' });
  const training = { seed: 7, every: 5, done: 12, total: 40, picks: hex };
  const state = { program: { kind: 'suite', name: 'fib-iter' }, args: null, reward: 'IrInstructionCountOz', actions: ['-dce'], training };
  assert.match(encodeState(state), /&t=7\.5\.12\.40\.[0-9a-f]{16}$/);
  assert.deepEqual(decodeState(encodeState(state)).training, training);
  // A damaged run is left out with the reason; the rest of the link still reads.
  for (const bad of ['t=1.5', 't=1.0.3.20.train', 't=1.5.30.20.train', 't=1.5.-1.20.train', 't=1.5..20.train']) {
    const back = decodeState(`p=suite/fib-iter&s=-dce&${bad}`);
    assert.equal(back.training, undefined, bad);
    assert.match(back.trainingProblem, /is not seed\.every\.done\.total\.picks/, bad);
    assert.deepEqual(back.actions, ['-dce']);
  }
});

test(`a seeded run of ${UPDATES} updates: the mean return and the held-out score rise`, async (t) => {
  const defaults = await page.$$eval('#train-program-list input', (boxes) => boxes.map((b) => b.checked));
  assert.equal(defaults.filter(Boolean).length, 47, 'the train side is picked by default');
  assert.match(await page.textContent('#train-programs-summary'), /training on 47, held-out score on 15/);
  await page.fill('#train-seed', '1');
  await page.fill('#train-updates', String(UPDATES));
  await page.fill('#train-every', '5');
  await watchLongTasks(page);
  // large-v0's programs are a file the lane's worker fetches when training starts (most of the train side).
  const datasetFetches = [];
  page.on('request', (request) => {
    if (request.url().includes('/datasets/')) datasetFetches.push(new URL(request.url()).pathname);
  });
  await page.click('#train-play');
  await waitForState(page, ['done', 'failed']);
  const run = await trainState(page);
  assert.deepEqual(datasetFetches, ['/datasets/large-v0.json']);
  // Reported, not asserted: a long task is wall-clock time, which a busy machine stretches.
  const long = await page.longTasks();
  t.diagnostic(`main-thread tasks over 50 ms while training: ${long.length}${long.length ? ` (longest ${Math.max(...long.map((l) => l.duration)).toFixed(0)} ms)` : ''}`);
  assert.equal(run.state, 'done', run.text);
  assert.equal(run.update, String(UPDATES));
  assert.deepEqual(run.updates, Array.from({ length: UPDATES + 1 }, (_, i) => i));
  const returns = run.returns.slice(1);
  const [early, late] = [mean(returns.slice(0, 5)), mean(returns.slice(-5))];
  assert.ok(late > early + 0.1, `mean return ${early.toFixed(3)} over the first 5 updates, ${late.toFixed(3)} over the last 5`);
  // The held-out score at updates 0, 5, 10, 15, 20 and nothing between.
  const scored = run.scores.map((s, i) => (s === null ? null : i)).filter((i) => i !== null);
  assert.deepEqual(scored, [0, 5, 10, 15, 20]);
  assert.ok(Number(run.validation) > Number(run.untrained) + 0.2, `held-out ${run.untrained} → ${run.validation}`);
  t.diagnostic(`mean return ${early.toFixed(3)} (updates 1-5) → ${late.toFixed(3)} (16-20); held-out ${Number(run.untrained).toFixed(3)}x → ${Number(run.validation).toFixed(3)}x -Oz`);
  assert.match(run.text, /^Done: update 20 of 20 · mean return [−+]?\d\.\d{3} .* held-out score \d\.\d{3}× -Oz \(untrained \d\.\d{3}×\)$/);
  assert.equal(await page.isDisabled('#train-use'), false);
  firstRun = run;
  await shot(page, 'train-1440x900.png');
  // The URL holds the run: seed 1, scored every 5, 20 of 20 updates, the train side.
  await page.waitForFunction(() => location.hash.includes('t=1.5.20.20.train'), null, { timeout: 10_000 });
});

test('opening a link with a training run retrains the same policy to where it was, paused there', async () => {
  const linked = await open(env, { fragment: '#s=-dce&t=1.5.3.20.train' });
  await waitForState(linked, ['paused', 'failed']);
  const restored = await trainState(linked);
  assert.equal(restored.state, 'paused', restored.text);
  assert.equal(restored.update, '3');
  assert.deepEqual(restored.returns, firstRun.returns.slice(0, 4), 'the same seed and programs: the same points');
  assert.equal(restored.untrained, firstRun.untrained);
  assert.equal(await linked.inputValue('#train-updates'), '20');
  assert.match(linked.url(), /s=-dce&t=1\.5\.3\.20\.train$/);
  // Going on from there continues the same run.
  await linked.click('#train-step');
  await linked.waitForFunction(() => document.querySelector('#train-status').dataset.update === '4' && document.querySelector('#train-status').dataset.state === 'paused', null, { timeout: 120_000 });
  assert.equal((await trainState(linked)).returns[4], firstRun.returns[4]);
  await linked.waitForFunction(() => location.hash.endsWith('t=1.5.4.20.train'), null, { timeout: 10_000 });
  assert.deepEqual(linked.problems, []);
  await linked.closeAll();
  // A damaged run is left out and said; the episode is restored all the same.
  const damaged = await open(env, { fragment: '#s=-dce&t=1.5.x' });
  assert.match(await damaged.textContent('#status'), /Left out the training run: "1\.5\.x" is not seed\.every\.done\.total\.picks/);
  assert.deepEqual(await damaged.evaluate(() => window.compgymPlayground.episode.actions()), ['-dce']);
  assert.equal((await trainState(damaged)).state, 'idle');
  await damaged.closeAll();
});

test('pause stops between updates and one update adds exactly one; the same seed gives the same points', async () => {
  // As many updates as the view takes, so that the run cannot end before the pause lands (a busy
  // machine may take seconds between two clicks; after the last update, pause has nothing to stop).
  await page.fill('#train-updates', '5000');
  await page.dispatchEvent('#train-updates', 'change');
  await page.click('#train-play');
  await page.waitForFunction((n) => Number(document.querySelector('#train-status').dataset.update) > n, UPDATES, { timeout: 120_000 });
  assert.equal(await page.textContent('#train-play'), 'Pause');
  assert.equal(await page.isDisabled('#train-step'), true, 'no single step while playing');
  await page.click('#train-play');
  await waitForState(page, ['paused']);
  const paused = Number((await trainState(page)).update);
  assert.ok(paused > UPDATES && paused < 5000, `paused at ${paused}`);
  await page.click('#train-step');
  await page.waitForFunction((n) => Number(document.querySelector('#train-status').dataset.update) === n + 1 && document.querySelector('#train-status').dataset.state === 'paused', paused, { timeout: 120_000 });
  const stepped = await trainState(page);
  assert.deepEqual(stepped.returns.slice(0, UPDATES + 1), firstRun.returns, 'going on keeps the points so far');
  // Start over, then one update: the same first point as the first run's.
  await page.click('#train-restart');
  assert.equal((await trainState(page)).state, 'idle');
  assert.equal((await trainState(page)).updates.length, 1);
  await page.click('#train-step');
  await page.waitForFunction(() => document.querySelector('#train-status').dataset.update === '1', null, { timeout: 180_000 });
  const again = await trainState(page);
  assert.equal(again.returns[1], firstRun.returns[1], 'a seed repeats its training bit for bit');
  assert.equal(again.untrained, firstRun.untrained);
});

test('use this policy: the agents panel plays the trained policy on the current program, and adopt replays it', async () => {
  await loadSuite(page, 'trapezoid');
  await page.click('#train-use');
  await page.waitForFunction(() => document.querySelector('#agent-name').value === 'trained', null, { timeout: 30_000 });
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#agent-status').dataset.state), null, { timeout: 60_000 });
  const { state, best, steps } = await page.$eval('#agent-status', (s) => ({ ...s.dataset }));
  assert.equal(state, 'done', await page.textContent('#agent-status'));
  assert.ok(Number(steps) > 0);
  assert.match(await page.textContent('#agent-status'), /its episode ends at/);
  assert.match(await page.textContent('#agent-description'), /trained in the Train view/);
  assert.match(await page.textContent('#train-status'), /handed to the agents panel/);
  await page.click('#agent-adopt');
  const size = await page.evaluate(() => window.compgymPlayground.episode.size(window.compgymPlayground.episode.current));
  assert.equal(size, Number(best));
});

test('bad settings are refused with their bounds, and the view still trains', async () => {
  await page.click('#train-restart');
  await page.fill('#train-seed', '-2');
  await page.click('#train-step');
  assert.equal(await page.textContent('#train-status'), 'ValueError: the seed must be a whole number from 0 to 2,147,483,648, got -2');
  await page.fill('#train-seed', '1');
  await page.dispatchEvent('#train-seed', 'change');
  await page.click('#train-programs-summary');
  await page.$$eval('#train-program-list input', (boxes) => boxes.forEach((b) => (b.checked = false)));
  await page.dispatchEvent('#train-program-list', 'change');
  await page.click('#train-step');
  assert.equal(await page.textContent('#train-status'), 'ValueError: pick at least one program to train on.');
  // One small program is enough to train on; dead-code is held out, so ticking it leaves it out of the score.
  await page.check('#train-program-list input[value="benchmark://suite-v0/dead-code"]');
  await page.click('#train-step');
  await page.waitForFunction(() => document.querySelector('#train-status').dataset.update === '1', null, { timeout: 180_000 });
  assert.match(await page.textContent('#train-programs-summary'), /training on 1, held-out score on 14/);
});

test('start over while playing forgets the run, and the next play trains a new one to its end', async () => {
  // From a fresh run: how many updates the pause test left depends on the machine's speed.
  await page.click('#train-restart');
  await page.fill('#train-updates', '4');
  await page.dispatchEvent('#train-updates', 'change');
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('#train-status').dataset.state === 'playing', null, { timeout: 180_000 });
  await page.click('#train-restart');
  const forgotten = await trainState(page);
  assert.equal(forgotten.state, 'idle');
  assert.equal(forgotten.update, '0');
  assert.equal(await page.textContent('#train-play'), 'Play');
  await page.click('#train-play');
  await waitForState(page, ['done', 'failed']);
  const run = await trainState(page);
  assert.equal(run.state, 'done', run.text);
  assert.deepEqual(run.updates, [0, 1, 2, 3, 4]);
});

test('use this policy while playing: the policy of the update under way goes over, and training goes on', async () => {
  const playing = await open(env);
  await playing.fill('#train-updates', '8');
  await playing.click('#train-play');
  await playing.waitForFunction(() => Number(document.querySelector('#train-status').dataset.update) >= 1, null, { timeout: 180_000 });
  assert.equal(await playing.isDisabled('#train-use'), false, 'usable while playing');
  await playing.click('#train-use');
  await playing.waitForFunction(() => document.querySelector('#agent-name').value === 'trained', null, { timeout: 60_000 });
  await waitForState(playing, ['done', 'failed']);
  const run = await trainState(playing);
  assert.equal(run.state, 'done', run.text);
  assert.deepEqual(run.updates, [0, 1, 2, 3, 4, 5, 6, 7, 8], 'training went on to its end');
  const handed = Number(/update (\d+)’s policy handed to the agents panel/.exec(run.text)?.[1]);
  assert.ok(handed >= 1 && handed <= 8, run.text);
  await playing.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#agent-status').dataset.state), null, { timeout: 60_000 });
  assert.equal(await playing.$eval('#agent-status', (e) => e.dataset.state), 'done', await playing.textContent('#agent-status'));
  assert.match(await playing.textContent('#agent-description'), /trained in the Train view/);
  assert.deepEqual(playing.problems, []);
  await playing.closeAll();
});

test('at 390 px the view trains, nothing in it is wider than the screen, and axe finds no violation in it', async () => {
  const narrow = await open(env, { width: 390, height: 844 });
  await narrow.fill('#train-updates', '3');
  await narrow.click('#train-play');
  await waitForState(narrow, ['done', 'failed']);
  assert.equal((await trainState(narrow)).state, 'done');
  await narrow.click('#train-programs-summary');
  const overflow = await narrow.$eval('#train', (e) => [...e.querySelectorAll('*')].filter((c) => c.getBoundingClientRect().right > window.innerWidth + 1).map((c) => c.id || c.className));
  assert.deepEqual(overflow, [], 'nothing wider than the screen');
  await narrow.addScriptTag({ path: axePath });
  const violations = await narrow.evaluate(async () => {
    const result = await window.axe.run('#train', { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(violations, []);
  await shot(narrow, 'train-390x844.png');
  assert.deepEqual(narrow.problems, []);
  await narrow.closeAll();
});

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
