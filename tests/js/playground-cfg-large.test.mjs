// End to end: issue 26's second round, defect 7. A generated program of
// size 2000 has functions of 400-odd blocks: their graph is laid out in a
// worker and drawn a batch per task, Fit shows the whole graph, a button
// centres the changed blocks, and the focused graph pans and zooms by keys.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, open, watchLongTasks } from './playground-helpers.mjs';

let env;

before(async () => {
  env = await start();
});

after(async () => {
  await env?.close();
});

/** The graph's box and the view's, in page pixels. */
function boxes(page) {
  return page.evaluate(() => {
    const view = document.querySelector('#cfg').getBoundingClientRect();
    const graph = document.querySelector('#cfg svg').getBoundingClientRect();
    return { view, graph };
  });
}

function transform(page) {
  return page.$eval('#cfg .cfg-stage', (s) => s.style.transform);
}

async function drawn(page, blocks) {
  await page.waitForSelector(`#cfg[data-state="drawn"][data-blocks="${blocks}"]`, { state: 'attached', timeout: 60_000 });
}

test('defect 7: a 457-block graph is drawn in batches, fits, jumps to its changes and moves by keys', async (t) => {
  const page = await open(env, { fragment: '#p=gen/1/2000&r=IrInstructionCount&s=-dce' });
  await drawn(page, 421); // @main
  await watchLongTasks(page);
  await page.selectOption('#cfg-function', 'f2');
  await drawn(page, 457);
  assert.ok(Number(await page.getAttribute('#cfg', 'data-height')) > 20_000, 'a graph far larger than its box');
  assert.equal(await page.$$eval('#cfg g.cfg-block:not(:has(text))', (g) => g.length), 0, 'every block\'s text is drawn');

  // Fit: the whole graph inside the box, its lines kept visible however small.
  await page.click('#cfg-fit');
  // Panzoom applies a transform on the next frame: wait for the state, then measure it.
  await page.waitForFunction(() => {
    const view = document.querySelector('#cfg').getBoundingClientRect();
    const graph = document.querySelector('#cfg svg').getBoundingClientRect();
    return graph.height < view.height + 1;
  });
  const fitted = await boxes(page);
  assert.ok(fitted.graph.top >= fitted.view.top - 1 && fitted.graph.bottom <= fitted.view.bottom + 1, `fits in height ${JSON.stringify(fitted)}`);
  assert.ok(fitted.graph.left >= fitted.view.left - 1 && fitted.graph.right <= fitted.view.right + 1, 'fits in width');
  assert.ok(fitted.graph.height > fitted.view.height * 0.9, 'and fills it');
  assert.equal(await page.$eval('#cfg .cfg-block rect', (r) => getComputedStyle(r).vectorEffect), 'non-scaling-stroke');

  // The changed blocks, one after another, centred and legible.
  const changed = Number(await page.getAttribute('#cfg', 'data-changed'));
  assert.ok(changed > 0, 'the step changed some blocks of @f2');
  assert.equal(await page.isDisabled('#cfg-changed'), false);
  await page.click('#cfg-changed');
  const first = await page.getAttribute('#cfg', 'data-centred');
  await page.waitForFunction((i) => {
    const b = document.querySelector(`#cfg g[data-block="${i}"] rect`).getBoundingClientRect();
    const v = document.querySelector('#cfg').getBoundingClientRect();
    return b.top > v.top && b.bottom < v.bottom;
  }, first);
  const block = await page.$eval(`#cfg g[data-block="${first}"]`, (g) => {
    const b = g.getBoundingClientRect();
    const v = document.querySelector('#cfg').getBoundingClientRect();
    return { changed: g.classList.contains('changed'), dx: Math.abs((b.left + b.right) / 2 - (v.left + v.right) / 2), dy: Math.abs((b.top + b.bottom) / 2 - (v.top + v.bottom) / 2), scale: g.querySelector('rect').getBoundingClientRect().width / g.querySelector('rect').width.baseVal.value };
  });
  assert.ok(block.changed, 'a changed block');
  assert.ok(block.dx < 2 && block.dy < 2, `centred (${block.dx}, ${block.dy})`);
  assert.ok(block.scale >= 0.99, `at full size (${block.scale})`);
  if (changed > 1) {
    await page.click('#cfg-changed');
    assert.notEqual(await page.getAttribute('#cfg', 'data-centred'), first, 'the next one');
  }

  // Keys on the focused graph: arrows pan, + and − zoom, 0 fits (each waited for as a state of the transform).
  await page.focus('#cfg');
  const moved = (from) => page.waitForFunction((t) => document.querySelector('#cfg .cfg-stage').style.transform !== t, from);
  const scaled = (than, sign) =>
    page.waitForFunction(
      ([s, k]) => Math.sign(Number(/scale\(([\d.]+)\)/.exec(document.querySelector('#cfg .cfg-stage').style.transform)[1]) - s) === k,
      [than, sign],
    );
  const scaleOf = (t) => Number(/scale\(([\d.]+)\)/.exec(t)[1]);
  let now = await transform(page);
  await page.keyboard.press('ArrowRight');
  await moved(now);
  now = await transform(page);
  await page.keyboard.press('ArrowDown');
  await moved(now);
  const scale = scaleOf(await transform(page));
  await page.keyboard.press('-');
  await scaled(scale, -1);
  await page.keyboard.press('=');
  await page.keyboard.press('=');
  await scaled(scale, 1);
  await page.keyboard.press('0');
  await page.waitForFunction(() => {
    const view = document.querySelector('#cfg').getBoundingClientRect();
    const graph = document.querySelector('#cfg svg').getBoundingClientRect();
    return graph.top >= view.top - 1 && graph.bottom <= view.bottom + 1;
  });
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the keys move the graph, not the page');

  // Reported, not asserted: a long task is wall-clock time, which a busy machine stretches.
  t.diagnostic(`long tasks while choosing, drawing, fitting and moving the graph: ${JSON.stringify(await page.longTasks())}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
