// The control-flow graph of one function at the current step: blocks laid
// out by dagre with their instructions inside, edges for jumps and branches,
// the blocks the step changed marked, and zoom and pan by @panzoom/panzoom
// (wheel, drag, pinch, or the buttons). Large functions start fitted to the
// width, at the top, and zoom in from there.
import dagre from '@dagrejs/dagre';
import Panzoom from '@panzoom/panzoom';
import { h } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const CHAR_W = 7.2; // 12px monospace
const LINE_H = 15;
const PAD = 8;
const MAX_LINES = 40;
const LEGIBLE = 0.75; // the smallest first scale: 12 px text shows at 9 px

function el(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A block's name: its label, or its position for the unlabeled entry. */
function blockName(block, index) {
  return block.label === null ? (index === 0 ? 'entry' : `block ${index}`) : `.${block.label}`;
}

/** Indices of the blocks of `fn` that differ from `before` (the same function one step earlier). */
export function changedBlocks(fn, before) {
  if (!before) return new Set();
  const key = (b, i) => (b.label === null ? `#${i}` : b.label);
  const old = new Map(before.blocks.map((b, i) => [key(b, i), b]));
  const changed = new Set();
  fn.blocks.forEach((b, i) => {
    const was = old.get(key(b, i));
    const same =
      was &&
      was.instrs.length === b.instrs.length &&
      was.instrs.every((x, k) => x === b.instrs[k]) &&
      was.successors.length === b.successors.length;
    if (!same) changed.add(i);
  });
  return changed;
}

/** `{width, height, nodes: [{x, y, width, height}], edges: [{from, to, points}]}` for `fn`. */
export function layout(fn) {
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 34, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  fn.blocks.forEach((block, i) => {
    const lines = [blockName(block, i), ...block.instrs.slice(0, MAX_LINES)];
    if (block.instrs.length > MAX_LINES) lines.push(`… ${block.instrs.length - MAX_LINES} more`);
    const width = Math.min(420, Math.max(90, ...lines.map((l) => l.length * CHAR_W))) + 2 * PAD;
    graph.setNode(String(i), { width, height: lines.length * LINE_H + 2 * PAD, lines });
  });
  fn.blocks.forEach((block, i) => block.successors.forEach((s, k) => graph.setEdge(String(i), String(s), {}, `${i}-${k}`)));
  dagre.layout(graph);
  const { width, height } = graph.graph();
  return {
    width,
    height,
    nodes: fn.blocks.map((_, i) => graph.node(String(i))),
    edges: graph.edges().map((e) => ({ from: Number(e.v), to: Number(e.w), points: graph.edge(e).points })),
  };
}

/** The SVG of a laid-out function. */
function drawSvg(fn, laid, changed) {
  const svg = el('svg', { width: laid.width, height: laid.height, viewBox: `0 0 ${laid.width} ${laid.height}`, class: 'cfg-svg', role: 'img' });
  svg.append(el('title', {}, `control-flow graph of @${fn.name}: ${fn.blocks.length} blocks, ${changed.size} changed by this step`));
  const defs = el('defs');
  const marker = el('marker', { id: 'cfg-arrow', viewBox: '0 0 8 8', refX: 8, refY: 4, markerWidth: 7, markerHeight: 7, orient: 'auto' });
  marker.append(el('path', { d: 'M0,0 L8,4 L0,8 z', class: 'cfg-arrowhead' }));
  defs.append(marker);
  svg.append(defs);
  for (const { from, to, points } of laid.edges) {
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const back = laid.nodes[to].y <= laid.nodes[from].y;
    svg.append(el('path', { d, class: back ? 'cfg-edge back' : 'cfg-edge', 'marker-end': 'url(#cfg-arrow)' }));
  }
  fn.blocks.forEach((block, i) => {
    const node = laid.nodes[i];
    const x = node.x - node.width / 2;
    const y = node.y - node.height / 2;
    const group = el('g', { class: changed.has(i) ? 'cfg-block changed' : 'cfg-block', 'data-block': i });
    group.append(el('title', {}, [blockName(block, i), ...block.instrs].join('\n')));
    group.append(el('rect', { x, y, width: node.width, height: node.height, rx: 4 }));
    node.lines.forEach((line, k) => {
      group.append(el('text', { x: x + PAD, y: y + PAD + (k + 0.8) * LINE_H, class: k === 0 ? 'cfg-name' : 'cfg-instr' }, line));
    });
    svg.append(group);
  });
  return svg;
}

export function mountCfg(app, $) {
  const { episode } = app;
  const host = $('cfg');
  const stage = h('div', { class: 'cfg-stage' });
  host.replaceChildren(stage);
  const panzoom = Panzoom(stage, { origin: '0 0', minScale: 0.005, maxScale: 4, step: 0.25, canvas: true, touchAction: 'none' });
  host.addEventListener('wheel', (event) => {
    event.preventDefault();
    panzoom.zoomWithWheel(event);
  }, { passive: false });
  let size = { width: 1, height: 1, nodes: [] };
  let shownKey = null;

  /** Shows the graph at `scale` from the top, centred across, or on the entry block if it is wider. */
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

  function render() {
    const node = episode.current;
    const cfg = JSON.parse(episode.observe(node, 'Cfg'));
    const select = $('cfg-function');
    const chosen = select.value;
    select.replaceChildren(...cfg.functions.map((f) => new Option(`@${f.name} (${f.blocks.length} blocks)`, f.name)));
    select.value = cfg.functions.some((f) => f.name === chosen) ? chosen : cfg.functions[0]?.name ?? '';
    const fn = cfg.functions.find((f) => f.name === select.value);
    if (!fn) {
      stage.replaceChildren(h('p', { class: 'hint' }, 'This program has no functions.'));
      return;
    }
    const before = node.parent ? JSON.parse(episode.observe(node.parent, 'Cfg')).functions.find((f) => f.name === fn.name) : null;
    const changed = node.parent ? changedBlocks(fn, before ?? { blocks: [] }) : new Set();
    const laid = layout(fn);
    stage.replaceChildren(drawSvg(fn, laid, changed));
    Object.assign(host.dataset, { blocks: String(fn.blocks.length), changed: String(changed.size), width: String(Math.round(laid.width)), height: String(Math.round(laid.height)) });
    $('cfg-legend').textContent = node.parent
      ? `${changed.size} of ${fn.blocks.length} blocks changed by ${node.flag} (outlined orange)`
      : `${fn.blocks.length} blocks`;
    const key = `${episode.root.id}/${fn.name}`;
    size = laid;
    if (key !== shownKey) fitWidth();
    shownKey = key;
  }

  $('cfg-function').addEventListener('change', render);
  $('cfg-zoom-in').addEventListener('click', () => panzoom.zoomIn());
  $('cfg-zoom-out').addEventListener('click', () => panzoom.zoomOut());
  $('cfg-fit').addEventListener('click', fit);
  episode.addEventListener('change', render);
  render();
  return { panzoom };
}
