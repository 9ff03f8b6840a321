// The control-flow graph of one function at the current step: blocks laid
// out by dagre with their instructions inside, edges for jumps and branches,
// the blocks the step changed marked, and zoom and pan by @panzoom/panzoom
// (wheel, drag, pinch, or the buttons). Large functions start fitted to the
// width, at the top, and zoom in from there.
import Panzoom from '@panzoom/panzoom';
import { h, nextTask, plural } from './format.js';
import { layout, blockName, changedBlocks, LINE_H, PAD } from './cfg-layout.js';

/** Functions with more blocks are laid out in a worker, so the page never waits on dagre. */
const INLINE_BLOCKS = 60;
const LEGIBLE = 0.75; // the smallest first scale: 12 px text shows at 9 px

/** @typedef {import('./cfg-layout.js').CfgFunction} CfgFunction */
/** @typedef {import('./cfg-layout.js').Layout} Layout */

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Text made safe for SVG markup.
 * @param {unknown} text
 */
function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ENTITIES[c]);
}

/**
 * The SVG of a laid-out function, as markup, with its edges but not yet its
 * blocks (see `blockMarkup`): one string parsed once is many times faster
 * than thousands of createElementNS calls on a large function.
 * @param {CfgFunction} fn
 * @param {Layout} laid
 * @param {Set<number>} changed
 */
function svgMarkup(fn, laid, changed) {
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${laid.width}" height="${laid.height}" viewBox="0 0 ${laid.width} ${laid.height}" class="cfg-svg" role="img">`,
    `<title>control-flow graph of @${escape(fn.name)}: ${plural(fn.blocks.length, 'block')}, ${changed.size} changed by this step</title>`,
    '<defs><marker id="cfg-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" class="cfg-arrowhead"/></marker></defs>',
  ];
  for (const { from, to, points } of laid.edges) {
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const back = laid.nodes[to].y <= laid.nodes[from].y;
    out.push(`<path d="${d}" class="${back ? 'cfg-edge back' : 'cfg-edge'}" marker-end="url(#cfg-arrow)"/>`);
  }
  out.push('</svg>');
  return out.join('');
}

/**
 * Block `i` as markup: its box, its text, its full text as a tooltip.
 * @param {CfgFunction} fn
 * @param {Layout} laid
 * @param {Set<number>} changed
 * @param {number} i
 */
function blockMarkup(fn, laid, changed, i) {
  const block = fn.blocks[i];
  const node = laid.nodes[i];
  const x = node.x - node.width / 2;
  const y = node.y - node.height / 2;
  const text = node.lines
    .map(
      (line, k) =>
        `<text x="${x + PAD}" y="${(y + PAD + (k + 0.8) * LINE_H).toFixed(1)}" class="${k === 0 ? 'cfg-name' : 'cfg-instr'}">${escape(line)}</text>`,
    )
    .join('');
  return (
    `<g class="${changed.has(i) ? 'cfg-block changed' : 'cfg-block'}" data-block="${i}">` +
    `<title>${escape([blockName(block, i), ...block.instrs].join('\n'))}</title>` +
    `<rect x="${x}" y="${y}" width="${node.width}" height="${node.height}" rx="4"/>${text}</g>`
  );
}

/** Lines of text put in the graph per task: the browser lays out each batch in a few milliseconds. */
const TEXT_LINES_PER_TASK = 150;

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountCfg(app, $) {
  const { episode } = app;
  const host = $('cfg');
  const stage = h('div', { class: 'cfg-stage' });
  host.replaceChildren(stage);
  const panzoom = Panzoom(stage, { origin: '0 0', minScale: 0.005, maxScale: 4, step: 0.25, canvas: true, touchAction: 'none' });
  host.addEventListener(
    'wheel',
    (/** @type {WheelEvent} */ event) => {
      event.preventDefault();
      panzoom.zoomWithWheel(event);
    },
    { passive: false },
  );
  /** @type {{ width: number, height: number, nodes: { x: number, y: number }[] }} */
  let size = { width: 1, height: 1, nodes: [] };
  /** @type {string | null} */
  let shownKey = null;
  /** @type {number[]} */
  let changedList = [];
  let nextChanged = 0;

  /** Shows the graph at `scale` from the top, centred across, or on the entry block if it is wider. */
  /** @param {number} scale */
  function place(scale) {
    panzoom.zoom(scale, { animate: false });
    const room = host.clientWidth / scale;
    const x = room >= size.width ? (room - size.width) / 2 : Math.min(0, room / 2 - (size.nodes[0]?.x ?? 0));
    panzoom.pan(x, 0, { animate: false });
  }

  /** The whole graph in view. */
  function fit() {
    place(Math.min(1, host.clientWidth / size.width, host.clientHeight / size.height));
  }

  /** The graph's width in view, but never so small the text cannot be read: the rest is a drag away. */
  function fitWidth() {
    place(Math.max(LEGIBLE, Math.min(1, host.clientWidth / size.width)));
  }

  /** Centres block `i` at a scale where its text can be read. */
  /** @param {number} i */
  function centre(i) {
    const node = size.nodes[i];
    if (!node) return;
    const scale = Math.max(1, panzoom.getScale());
    panzoom.zoom(scale, { animate: false });
    panzoom.pan(host.clientWidth / (2 * scale) - node.x, host.clientHeight / (2 * scale) - node.y, { animate: false });
    host.dataset.centred = String(i);
  }

  /** The next block the step changed, in the function's order, round and round. */
  function jumpToChange() {
    if (!changedList.length) return;
    centre(changedList[nextChanged % changedList.length]);
    nextChanged++;
  }

  /** The keys of a focused graph: arrows pan a fifth of the view, + and − zoom, 0 fits. */
  /** @param {KeyboardEvent} event */
  function key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const scale = panzoom.getScale();
    const dx = host.clientWidth / 5 / scale;
    const dy = host.clientHeight / 5 / scale;
    /** @type {Record<string, [number, number]>} */
    const moves = { ArrowLeft: [dx, 0], ArrowRight: [-dx, 0], ArrowUp: [0, dy], ArrowDown: [0, -dy] };
    if (moves[event.key]) panzoom.pan(...moves[event.key], { relative: true, animate: false });
    else if (event.key === '+' || event.key === '=') panzoom.zoomIn({ animate: false });
    else if (event.key === '-' || event.key === '−') panzoom.zoomOut({ animate: false });
    else if (event.key === '0') fit();
    else return;
    event.preventDefault();
  }

  let renders = 0;

  /** Draws the chosen function of the current state; a large one is laid out in a worker. */
  async function render() {
    const ticket = ++renders;
    // Not in the task of the step itself: the step's other views come first.
    await nextTask();
    if (ticket !== renders || !episode.current) return;
    const node = episode.current;
    const cfg = JSON.parse(episode.observe(node, 'Cfg'));
    const select = $('cfg-function');
    const chosen = select.value;
    /** @type {CfgFunction[]} */
    const functions = cfg.functions;
    select.replaceChildren(...functions.map((f) => new Option(`@${f.name} (${plural(f.blocks.length, 'block')})`, f.name)));
    select.value = functions.some((f) => f.name === chosen) ? chosen : (functions[0]?.name ?? '');
    const fn = functions.find((f) => f.name === select.value);
    if (!fn) {
      stage.replaceChildren(h('p', { class: 'hint' }, 'This program has no functions.'));
      return;
    }
    const before = node.parent
      ? JSON.parse(episode.observe(node.parent, 'Cfg')).functions.find((/** @type {CfgFunction} */ f) => f.name === fn.name)
      : null;
    const changed = node.parent ? changedBlocks(fn, before ?? { blocks: [] }) : new Set();
    changedList = [...changed].sort((a, b) => a - b);
    nextChanged = 0;
    $('cfg-changed').disabled = changedList.length === 0;
    let laid;
    if (fn.blocks.length <= INLINE_BLOCKS) {
      laid = layout(fn);
    } else {
      $('cfg-legend').textContent = `laying out ${plural(fn.blocks.length, 'block')}…`;
      host.dataset.state = 'layout';
      try {
        laid = await app.lanes.layout.run('layout', { fn }, { timeLimitMs: 60_000 });
      } catch (/** @type {any} */ error) {
        if (ticket === renders) $('cfg-legend').textContent = `The graph could not be laid out: ${error.name}: ${error.message}`;
        return;
      }
      if (ticket !== renders) return; // a later state or function is being drawn
    }
    // The edges first, then the blocks a batch per task: a large function's
    // thousands of lines would hold the page for a second at once.
    host.dataset.state = 'drawing';
    stage.innerHTML = svgMarkup(fn, laid, changed);
    const key = `${/** @type {import('./episode.js').EpisodeNode} */ (episode.root).id}/${fn.name}`; // loaded
    size = laid;
    if (key !== shownKey) fitWidth();
    shownKey = key;
    const svg = /** @type {Element} */ (stage.firstElementChild); // the svg just written
    for (let i = 0; i < fn.blocks.length;) {
      await nextTask();
      if (ticket !== renders) return;
      const batch = [];
      for (let lines = 0; i < fn.blocks.length && lines < TEXT_LINES_PER_TASK; i++) {
        batch.push(blockMarkup(fn, laid, changed, i));
        lines += laid.nodes[i].lines.length;
      }
      svg.insertAdjacentHTML('beforeend', batch.join(''));
    }
    Object.assign(host.dataset, {
      state: 'drawn',
      blocks: String(fn.blocks.length),
      changed: String(changed.size),
      width: String(Math.round(laid.width)),
      height: String(Math.round(laid.height)),
    });
    $('cfg-legend').textContent = node.parent
      ? `${changed.size} of ${plural(fn.blocks.length, 'block')} changed by ${node.flag} (outlined orange)`
      : plural(fn.blocks.length, 'block');
  }

  $('cfg-function').addEventListener('change', render);
  $('cfg-zoom-in').addEventListener('click', () => panzoom.zoomIn());
  $('cfg-zoom-out').addEventListener('click', () => panzoom.zoomOut());
  $('cfg-fit').addEventListener('click', fit);
  $('cfg-changed').addEventListener('click', jumpToChange);
  host.addEventListener('keydown', key);
  episode.addEventListener('change', render);
  render();
  return { panzoom };
}
