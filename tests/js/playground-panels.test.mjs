// End to end: the agents panel (compgym's agents in the package's agents
// worker: progress, a live chart, stop, adopt), the spaces panel (samples drawn; defect 10) and the
// bandit panel (axes, legend, log scale, seed; defect 11).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, pathFlags, loadSuite, press } from './playground-helpers.mjs';
import { brilPasses } from '../../pkg/node.js';

let env;
let page;

before(async () => {
  env = await start();
  page = await open(env);
});

after(async () => {
  await env?.close();
});

/** A budget of `steps` environment steps and no time limit: the run is the same on any machine. */
async function budget(page, steps) {
  await page.fill('#agent-steps', String(steps));
  await page.fill('#agent-seconds', '');
}

test('greedy search finds a smaller program than the start, live, and adopt makes it the episode', async () => {
  await loadSuite(page, 'dead-code');
  await page.selectOption('#agent-name', 'greedy');
  await budget(page, 200);
  await page.click('#agent-run');
  await page.waitForFunction(() => document.querySelector('#agent-status').dataset.state === 'done', null, { timeout: 60_000 });
  const { best, start: startSize } = await page.$eval('#agent-status', (s) => ({ ...s.dataset }));
  assert.ok(Number(best) < Number(startSize), `greedy: ${startSize} → ${best}`);
  assert.equal(await page.$eval('#agent-progress', (p) => p.value), 1);
  const points = await page.$eval('#agent-chart', (c) => c.uplot.data[0].length);
  assert.ok(points >= 2, 'the chart shows the best size over time');
  await page.click('#agent-adopt');
  const flags = await pathFlags(page);
  assert.ok(flags.length >= 1);
  const size = await page.evaluate(() => window.compgymPlayground.episode.size(window.compgymPlayground.episode.current));
  assert.equal(size, Number(best), 'the adopted episode ends at the best size');
  assert.match(await page.textContent('#agent-status'), /^Adopted: the episode is now the \d+ passes found/);
});

test('a step budget: random search stops at its steps, and the same seed finds the same best twice', async () => {
  await loadSuite(page, 'trapezoid');
  await page.selectOption('#agent-name', 'random');
  await page.fill('#agent-seed', '7');
  const runs = [];
  for (let i = 0; i < 2; i++) {
    await budget(page, 150);
    await page.click('#agent-run');
    await page.waitForFunction(() => document.querySelector('#agent-status').dataset.state === 'done', null, { timeout: 60_000 });
    runs.push(await page.$eval('#agent-status', (s) => ({ ...s.dataset, passes: s.textContent.split(' passes: ')[1] })));
  }
  assert.equal(runs[0].steps, '150', 'the run used its whole budget');
  assert.deepEqual(runs[1], runs[0], 'a step budget repeats the run exactly');
  assert.equal(await page.$eval('#agent-chart', (c) => c.uplot.axes[0].label), 'steps');
  // A run needs some budget; a bad one is refused, and the panel still runs.
  await page.fill('#agent-steps', '');
  await page.click('#agent-run');
  assert.equal(await page.textContent('#agent-status'), 'ValueError: give a budget: steps, seconds or both.');
  await page.fill('#agent-steps', '2.5');
  await page.click('#agent-run');
  assert.equal(await page.textContent('#agent-status'), 'ValueError: steps must be a whole number from 1 to 1,000,000, got 2.5');
});

test('random search reports progress while it runs, can be stopped, and keeps the best so far', async () => {
  await page.selectOption('#agent-name', 'random');
  await budget(page, 1_000_000);
  await page.fill('#agent-seed', '4');
  await page.click('#agent-run');
  await page.waitForFunction(() => Number(document.querySelector('#agent-status').dataset.steps ?? 0) > 100, null, { timeout: 60_000 });
  const progress = await page.$eval('#agent-progress', (p) => p.value);
  assert.ok(progress > 0 && progress < 1, `progress ${progress}`);
  // The page stays responsive during the search: a step is taken and shown while it runs.
  await press(page, '-dce');
  assert.equal(await page.getAttribute('#agent-status', 'data-state'), 'running');
  await page.click('#agent-cancel');
  await page.waitForFunction(() => document.querySelector('#agent-status').dataset.state === 'stopped');
  assert.match(await page.textContent('#agent-status'), /^Stopped\. Best so far: /);
  assert.equal(await page.isDisabled('#agent-run'), false);
  if (!(await page.isDisabled('#agent-adopt'))) {
    await page.click('#agent-adopt');
    assert.match(await page.textContent('#agent-status'), /^Adopted/);
  }
});

test('every core agent is offered; beam, explore and the policy each find a sequence that adopt replays exactly', async () => {
  const offered = await page.$$eval('#agent-name option', (options) => options.map((o) => o.value));
  assert.deepEqual(offered, ['random', 'greedy', 'beam', 'explore', 'guided', 'policy']);
  await loadSuite(page, 'trapezoid');
  for (const agent of ['beam', 'explore', 'guided', 'policy']) {
    await page.selectOption('#agent-name', agent);
    assert.ok((await page.textContent('#agent-description')).length > 40, 'a sentence for each agent');
    await budget(page, 2000);
    await page.click('#agent-run');
    await page.waitForFunction(() => document.querySelector('#agent-status').dataset.state === 'done', null, { timeout: 60_000 });
    const { best, start: startSize, steps } = await page.$eval('#agent-status', (s) => ({ ...s.dataset }));
    assert.ok(Number(steps) > 0, agent);
    if (agent !== 'policy') assert.ok(Number(best) < Number(startSize), `${agent}: ${startSize} → ${best}`);
    assert.equal(await page.$eval('#agent-progress', (p) => p.value), 1);
    await page.click('#agent-adopt');
    const size = await page.evaluate(() => window.compgymPlayground.episode.size(window.compgymPlayground.episode.current));
    assert.equal(size, Number(best), `${agent}: the adopted episode ends at the size found`);
  }
});

test('spaces: histograms of bounded, half-bounded and unbounded Boxes, bars for Discrete, a drawn Graph, Text samples', async () => {
  const cards = await page.$$eval('#space-gallery .space-card', (c) => c.map((x) => ({ kind: x.dataset.kind, title: x.querySelector('strong').textContent })));
  assert.deepEqual(cards.map((c) => c.kind), ['histogram', 'histogram', 'histogram', 'histogram', 'bars', 'graph', 'text']);
  // The histograms differ in shape as the distributions do: uniform, exponential, mirrored, normal.
  const shapes = await page.$$eval('#space-gallery .space-card[data-kind="histogram"] .chart', (charts) =>
    charts.map((c) => {
      const [xs, ys] = c.uplot.data;
      const peak = ys.indexOf(Math.max(...ys));
      return { min: xs[0], max: xs[xs.length - 1], peakAt: peak / (ys.length - 1) };
    }),
  );
  const [bounded, below, above, normal] = shapes;
  assert.ok(bounded.min >= -1 && bounded.max <= 2);
  assert.ok(below.min >= 0 && below.peakAt < 0.2, 'bounded below: exponential from low');
  assert.ok(above.max <= 0 && above.peakAt > 0.8, 'bounded above: mirrored exponential up to high');
  assert.ok(normal.min < -2 && normal.max > 2 && normal.peakAt > 0.3 && normal.peakAt < 0.7, 'unbounded: normal');
  assert.equal(await page.$$eval('#space-gallery svg.sample-graph', (g) => g.length), 2);
  assert.ok((await page.$$eval('#space-gallery .texts li', (l) => l.length)) >= 5);
  // This environment's own spaces.
  assert.match(await page.textContent('#space-action .repr'), new RegExp(`^Commandline\\(passes, ${brilPasses().passes.length},`));
  const observations = await page.$$eval('#space-observations tbody th', (t) => t.map((x) => x.textContent));
  for (const name of ['Ir', 'IrInstructionCount', 'Autophase', 'Programl', 'Cfg']) assert.ok(observations.includes(name), name);
});

test('spaces: a huge Box is refused with a clear error and the module keeps working (defect 10)', async () => {
  await page.fill('#space-json', JSON.stringify({ type: 'Box', name: 'big', low: 0, high: 1, shape: [50000000] }));
  await page.click('#space-load');
  assert.match(await page.textContent('#space-error'), /^ValueError: the space\.shape \[50000000\] asks for 50,000,000 values; the page builds and samples at most 1,000,000/);
  await page.click('#passes button[data-flag="-lvn"]');
  assert.equal(await page.textContent('#step-error'), '', 'the compiler still works');
});

test('spaces: contains is cleared on switching, the default value fits each space, bad input gets clear errors (defect 10)', async () => {
  await page.fill('#space-json', JSON.stringify({ type: 'Discrete', name: 'd', n: 5, start: 0 }));
  await page.click('#space-load');
  await page.click('#space-contains');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → true', 'the default value is a sample of the space');
  await page.fill('#space-json', JSON.stringify({ type: 'Text', name: 't', min_length: 1, max_length: 4, charset: 'ab' }));
  assert.equal(await page.textContent('#space-contains-result'), '', 'switching clears the old result');
  await page.click('#space-load');
  await page.click('#space-contains');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → true');
  await page.fill('#space-value', '"abba"');
  await page.click('#space-contains');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → true');
  await page.fill('#space-value', '"zzzzz"');
  await page.click('#space-contains');
  assert.equal(await page.textContent('#space-contains-result'), 'contains → false');

  await page.fill('#space-json', '{"type":"Nope"}');
  await page.click('#space-load');
  assert.match(await page.textContent('#space-error'), /^LookupError: unknown space type "Nope": the types are Box, Discrete/);
  await page.fill('#space-seed', '-1');
  await page.click('#space-resample');
  assert.equal(await page.textContent('#space-error'), 'ValueError: the seed must be a whole number 0 or more, got -1');
  await page.fill('#space-seed', '42');
  await page.click('#space-resample');
  assert.equal(await page.textContent('#space-error'), '');
});

test('bandit: regret with axes, a legend and a log scale; the seed is an input; bad step counts are refused, not clamped (defect 11)', async (t) => {
  await page.fill('#bandit-steps', '600');
  await page.fill('#bandit-seed', '5');
  await page.click('#bandit-run');
  await page.waitForFunction(() => document.querySelector('#bandit-result').dataset.linucb !== undefined, null, { timeout: 30_000 });
  const { linucb, random, steps, firstTenth, lastTenth } = await page.$eval('#bandit-result', (e) => ({ ...e.dataset }));
  assert.equal(steps, '600');
  assert.ok(Number(linucb) < 0.5 * Number(random), `LinUCB ${linucb} vs random ${random}`);
  // Learning is visible: the regret added over the last tenth is well under the first tenth's.
  assert.ok(Number(lastTenth) < 0.5 * Number(firstTenth), `LinUCB's regret grew ${firstTenth} then ${lastTenth}`);
  t.diagnostic(`600 steps, seed 5: LinUCB ${linucb} (first tenth +${firstTenth}, last tenth +${lastTenth}), random ${random}`);
  const curve = await page.$eval('#bandit-chart', (c) => Array.from(c.uplot.data[1]));
  assert.equal(curve.length, 600);
  assert.ok(curve[59] > 10, `regret ${curve[59]} after 60 steps: not learnt at once (defect: flat after 3 steps)`);
  const chart = await page.$eval('#bandit-chart', (c) => ({
    axes: c.uplot.axes.map((a) => a.label),
    series: c.uplot.series.map((s) => s.label),
    distr: c.uplot.scales.y.distr,
    legend: [...c.querySelectorAll('.u-legend .u-label')].map((l) => l.textContent),
  }));
  assert.deepEqual(chart.axes, ['step', 'cumulative regret (log scale)']);
  assert.equal(chart.distr, 3, 'log scale');
  assert.ok(chart.legend.includes('LinUCB') && chart.legend.includes('random'));
  await page.uncheck('#bandit-log');
  assert.equal(await page.$eval('#bandit-chart', (c) => c.uplot.scales.y.distr), 1);
  // Another seed, other numbers.
  await page.fill('#bandit-seed', '6');
  await page.click('#bandit-run');
  await page.waitForFunction((l) => document.querySelector('#bandit-result').dataset.linucb !== l, linucb, { timeout: 30_000 });
  // Out of range: refused with the bounds.
  await page.fill('#bandit-steps', '50000');
  await page.click('#bandit-run');
  assert.equal(await page.textContent('#bandit-result'), 'ValueError: steps must be a whole number from 10 to 20,000, got 50000');
});

test('no page error, console error or failed request', () => {
  assert.deepEqual(page.problems, []);
});
