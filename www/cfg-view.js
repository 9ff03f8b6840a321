// Draws one function's control-flow graph (the `Cfg` observation) as SVG:
// blocks in layers by breadth-first depth from the entry, forward edges
// straight down, back edges (loops) curved along the right.

const SVG = 'http://www.w3.org/2000/svg';
const BOX_W = 150;
const BOX_H = 38;
const GAP_X = 24;
const GAP_Y = 34;
const PAD = 16;

function el(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Depth of every block from the entry; unreachable blocks go below the rest. */
function layers(blocks) {
  const depth = new Array(blocks.length).fill(-1);
  if (blocks.length === 0) return depth;
  depth[0] = 0;
  const queue = [0];
  while (queue.length) {
    const b = queue.shift();
    for (const s of blocks[b].successors) {
      if (depth[s] === -1) {
        depth[s] = depth[b] + 1;
        queue.push(s);
      }
    }
  }
  const below = Math.max(...depth) + 1;
  return depth.map((d) => (d === -1 ? below : d));
}

/** Replaces the contents of `container` with the CFG of `fn` (`{name, blocks}`). */
export function drawCfg(container, fn) {
  const depth = layers(fn.blocks);
  const rows = [];
  fn.blocks.forEach((_, b) => (rows[depth[b]] ??= []).push(b));
  const widest = Math.max(1, ...rows.map((r) => r?.length ?? 0));
  const width = PAD * 2 + widest * BOX_W + (widest - 1) * GAP_X + 40;
  const height = PAD * 2 + rows.length * BOX_H + Math.max(0, rows.length - 1) * GAP_Y;
  const position = [];
  rows.forEach((row = [], r) => {
    const rowWidth = row.length * BOX_W + (row.length - 1) * GAP_X;
    const left = (width - 40 - rowWidth) / 2;
    row.forEach((b, k) => (position[b] = { x: left + k * (BOX_W + GAP_X), y: PAD + r * (BOX_H + GAP_Y) }));
  });

  const svg = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'cfg' });
  svg.append(el('title', {}, `control-flow graph of @${fn.name}`));
  const defs = el('defs', {});
  const marker = el('marker', { id: 'cfg-arrow', viewBox: '0 0 8 8', refX: 8, refY: 4, markerWidth: 7, markerHeight: 7, orient: 'auto' });
  marker.append(el('path', { d: 'M0,0 L8,4 L0,8 z', class: 'cfg-arrowhead' }));
  defs.append(marker);
  svg.append(defs);

  fn.blocks.forEach((block, b) => {
    const from = position[b];
    block.successors.forEach((s, k) => {
      const to = position[s];
      const x1 = from.x + BOX_W / 2 + (block.successors.length > 1 ? (k ? 20 : -20) : 0);
      const y1 = from.y + BOX_H;
      let d;
      if (depth[s] > depth[b]) {
        d = `M${x1},${y1} L${to.x + BOX_W / 2},${to.y}`;
      } else {
        // A back edge: out of the right side, around, into the target's right side.
        const right = width - 30;
        d = `M${from.x + BOX_W},${from.y + BOX_H / 2} C${right},${from.y + BOX_H / 2} ${right},${to.y + BOX_H / 2} ${to.x + BOX_W},${to.y + BOX_H / 2}`;
      }
      svg.append(el('path', { d, class: depth[s] > depth[b] ? 'cfg-edge' : 'cfg-edge cfg-back', 'marker-end': 'url(#cfg-arrow)' }));
    });
  });

  fn.blocks.forEach((block, b) => {
    const { x, y } = position[b];
    const group = el('g', { class: 'cfg-block', 'data-block': b });
    group.append(el('title', {}, block.instrs.join('\n') || '(empty)'));
    group.append(el('rect', { x, y, width: BOX_W, height: BOX_H, rx: 5 }));
    const name = block.label === null ? `block ${b}` : `.${block.label}`;
    group.append(el('text', { x: x + 8, y: y + 15 }, name.length > 20 ? `${name.slice(0, 19)}…` : name));
    const count = block.instrs.length;
    group.append(el('text', { x: x + 8, y: y + 31, class: 'cfg-count' }, `${count} instruction${count === 1 ? '' : 's'}`));
    svg.append(group);
  });
  container.replaceChildren(svg);
}
