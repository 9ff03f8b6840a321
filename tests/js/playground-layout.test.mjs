// End to end: the playground's layout and accessibility — one screen at
// 1440x900, one column with nothing off-screen at 390x844 (defect 9),
// touch targets, no axe-core violations, and a CFG of 250 blocks that
// stays legible (defect 12). Screenshots go to .tmp/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { start, open, press } from './playground-helpers.mjs';

const shots = new URL('../../.tmp/screenshots/', import.meta.url).pathname;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let env;

before(async () => {
  mkdirSync(shots, { recursive: true });
  env = await start();
});

after(async () => {
  await env?.close();
});

/** Elements that stick out of the viewport sideways without a clipping ancestor to scroll them. */
function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const { overflowX } = getComputedStyle(a);
        if (overflowX !== 'visible' && a.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    return [...document.body.querySelectorAll('*')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1 && !clipped(el);
      })
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className?.baseVal ?? el.className} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
}

async function axe(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

test('1440x900: program, passes, diff, charts and CFG on one screen, nothing wider than the window', async () => {
  const page = await open(env, { fragment: '#p=suite/dead-code&r=IrInstructionCount&s=-dce,-adce' });
  await page.waitForFunction(() => document.querySelector('#chart-counts').dataset.dynamicKnown === '3');
  await page.screenshot({ path: `${shots}desktop-1440x900.png` });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 1440);
  assert.deepEqual(await overflowing(page), []);
  const boxes = await page.evaluate(() =>
    Object.fromEntries(
      ['#editor', '#passes', '#history', '#diff', '#chart-counts canvas', '#chart-reward canvas', '#cfg', '#explain-diagram'].map((s) => [
        s,
        document.querySelector(s).getBoundingClientRect().toJSON(),
      ]),
    ),
  );
  for (const [selector, box] of Object.entries(boxes)) {
    assert.ok(box.top >= 0 && box.left >= 0 && box.right <= 1440, `${selector} is on screen: ${JSON.stringify(box)}`);
    const visible = Math.min(box.bottom, 900) - box.top;
    assert.ok(visible >= Math.min(box.height, 100), `${selector}: ${visible}px of ${box.height}px visible without scrolling`);
  }
  assert.ok(boxes['#diff'].height >= 150, 'the diff has room');
  assert.ok(boxes['#cfg'].height >= 200, 'the CFG has room');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('390x844: one column, nothing off-screen, tables and the graph inside the width (defect 9)', async () => {
  const page = await open(env, { width: 390, height: 844, fragment: '#p=suite/loop-invariant&r=IrInstructionCount&s=-licm,-dce' });
  await page.screenshot({ path: `${shots}mobile-390x844.png` });
  await page.screenshot({ path: `${shots}mobile-390x844-full.png`, fullPage: true });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  assert.deepEqual(await overflowing(page), []);
  const lefts = await page.$$eval('#program, #pipeline, #views, #agents, #spaces, #bandit', (els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
  assert.equal(new Set(lefts).size, 1, `one column: ${lefts}`);
  for (const selector of ['#cfg', '#diff', '#space-observations', '#history']) {
    const right = await page.$eval(selector, (e) => (e.closest('.table-scroll') ?? e).getBoundingClientRect().right);
    assert.ok(right <= 390, `${selector} ends at ${right}`);
  }
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('touch targets: at least 44 px on a touch screen, and axe finds no target too small', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(env.url);
  await page.waitForSelector('html[data-complete]');
  const small = await page.$$eval('button, select, input:not([type=checkbox]):not([type=file])', (els) =>
    els
      .filter((e) => e.offsetParent !== null && !e.closest('.diff, .cm-editor'))
      .map((e) => ({ id: e.id || e.textContent.slice(0, 20), h: e.getBoundingClientRect().height }))
      .filter((e) => e.h < 43.5),
  );
  assert.deepEqual(small, []);
  await context.close();
});

test('axe-core finds no accessibility violation, on a desktop and a phone, after steps', async () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    const page = await open(env, { width, height, fragment: '#p=suite/fib-iter&r=IrInstructionCount&s=-dce,-lvn' });
    await page.click('#share-csv');
    await page.click('#validate');
    await page.waitForFunction(() => document.querySelector('#validation').dataset.verdict === 'valid');
    await page.click('#run');
    await page.waitForFunction(() => document.querySelector('#run-status').dataset.state === 'ok');
    assert.deepEqual(await axe(page), [], `${width}x${height}`);
    await page.closeAll();
  }
});

test('a CFG of about 250 blocks: laid out, instructions inside, legible at first sight, zoom and pan (defect 12)', async () => {
  // Generated seed 1, size 1100: functions of 232, 262, 211 and 244 blocks.
  const page = await open(env, { fragment: '#p=gen/1/1100&r=IrInstructionCount' });
  const functions = await page.$$eval('#cfg-function option', (o) => o.map((x) => [x.value, Number(/\((\d+) blocks\)/.exec(x.textContent)[1])]));
  const [name, blocks] = functions.find(([, n]) => n >= 240 && n <= 260);
  const started = Date.now();
  await page.selectOption('#cfg-function', name);
  await page.waitForFunction((n) => document.querySelectorAll('#cfg .cfg-block').length === n, blocks);
  const layoutMs = Date.now() - started;
  const { width, height } = await page.$eval('#cfg', (c) => ({ width: Number(c.dataset.width), height: Number(c.dataset.height) }));
  assert.ok(height / width < 12, `laid out in two dimensions (${width}x${height}), not one long column`);
  const lines = await page.$$eval('#cfg .cfg-instr', (t) => t.length);
  assert.ok(lines > blocks, 'instructions are drawn inside the blocks');
  // Legible at first: the entry block's text is at least 9 px on screen and in view.
  const entry = await page.$eval('#cfg .cfg-block[data-block="0"] .cfg-instr', (t) => ({ ...t.getBoundingClientRect().toJSON(), host: t.closest('.cfg').getBoundingClientRect().toJSON() }));
  assert.ok(entry.height >= 9, `entry text ${entry.height.toFixed(1)} px high`);
  assert.ok(entry.left >= entry.host.left && entry.right <= entry.host.right + 1 && entry.top >= entry.host.top, 'the entry block is in view');
  await page.screenshot({ path: `${shots}cfg-250-blocks.png` });
  // Fit shows it all; drag pans.
  const first = await page.$eval('#cfg .cfg-stage', (s) => s.style.transform);
  await page.click('#cfg-fit');
  await page.waitForFunction((t) => document.querySelector('#cfg .cfg-stage').style.transform !== t, first);
  const fitted = await page.$eval('#cfg .cfg-svg', (s) => s.getBoundingClientRect().toJSON());
  const host = await page.$eval('#cfg', (c) => c.getBoundingClientRect().toJSON());
  assert.ok(fitted.width <= host.width + 1 && fitted.height <= host.height + 1, `fit: the whole graph in view: ${JSON.stringify([fitted, host])}`);
  await page.click('#cfg-zoom-in');
  await page.click('#cfg-zoom-in');
  await page.waitForTimeout(100);
  const before = await page.$eval('#cfg .cfg-stage', (s) => s.style.transform);
  await page.mouse.move(host.x + host.width / 2, host.y + host.height / 2);
  await page.mouse.down();
  await page.mouse.move(host.x + host.width / 2 - 80, host.y + host.height / 2 - 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((t) => document.querySelector('#cfg .cfg-stage').style.transform !== t, before);
  assert.match(await page.$eval('#cfg .cfg-stage', (s) => s.style.transform), /translate\(/, 'dragging pans');
  // Large work happens off the main thread: the layout, and the diff of a step on this program.
  assert.ok(await page.evaluate(() => window.compgymPlayground.lanes.layout.ids >= 1), 'laid out in a worker');
  await press(page, '-dce');
  await page.waitForFunction(() => document.querySelector('#diff').dataset.state === 'drawn');
  assert.ok(await page.evaluate(() => window.compgymPlayground.lanes.diff.ids >= 1), 'diffed in a worker');
  assert.ok(Number(await page.getAttribute('#diff', 'data-changed-rows')) > 0);
  assert.deepEqual(page.problems, []);
  console.log(`# CFG of ${blocks} blocks: layout and drawing in ${layoutMs} ms`);
  await page.closeAll();
});

test("every chart's vertical axes: wide enough for their tick labels, and more than one label", async () => {
  // A 4,000-instruction program (five-character ticks), and a small one whose counts span little.
  for (const fragment of ['#p=gen/1/1100&r=IrInstructionCount&s=-dce', '#p=suite/dead-code&r=IrInstructionCount&s=-dce,-adce']) {
    const page = await open(env, { fragment });
    await page.waitForFunction(() => Number(document.querySelector('#chart-counts').dataset.dynamicKnown) > 0, null, { timeout: 20_000 });
    const axes = await page.evaluate(() => {
      const measure = document.createElement('canvas').getContext('2d');
      return [...document.querySelectorAll('*')]
        .filter((host) => host.uplot)
        .flatMap((host) =>
          host.uplot.axes
            .filter((axis) => axis.side === 1 || axis.side === 3)
            .map((axis) => {
              measure.font = axis.font[0];
              const widest = Math.max(0, ...(axis._values ?? []).map((v) => measure.measureText(String(v)).width / devicePixelRatio));
              return { chart: host.id, label: axis.label, values: axis._values ?? [], size: axis._size, needed: Math.ceil(axis.ticks.size + axis.gap + widest) };
            }),
        );
    });
    for (const axis of axes) {
      const what = `${fragment} ${axis.chart} "${axis.label}": ${JSON.stringify(axis.values)}`;
      assert.ok(axis.size >= axis.needed, `${what} in ${axis.size} px (needs ${axis.needed})`);
      if (axis.chart === 'chart-counts' || axis.chart === 'chart-reward') assert.ok(axis.values.length >= 2, `${what}: one label`);
    }
    if (fragment.includes('gen/')) assert.ok(axes.some((a) => a.values.some((v) => String(v).length >= 5)), 'five-character ticks were drawn');
    await page.closeAll();
  }
});

test('the first step after loading: a pass click shows its result at once', async () => {
  const page = await open(env, { complete: false });
  await press(page, '-dce');
  assert.equal(await page.evaluate(() => window.compgymPlayground.episode.current.depth), 1);
  await page.closeAll();
});
