// One function's control-flow graph laid out with dagre — a box per block,
// sized to its name and instructions (at most MAX_LINES shown), and the
// edges' routes — and the blocks a step changed. No DOM: the page runs it
// for small functions, a worker for large ones.
import dagre from '@dagrejs/dagre';

export const CHAR_W = 7.2; // 12px monospace
export const LINE_H = 15;
export const PAD = 8;
export const MAX_LINES = 40;

/**
 * The `Cfg` observation's parts: a function's blocks, each with its label
 * (null for an unlabeled entry), instructions as text and successors' indices.
 * @typedef {{ label: string | null, instrs: string[], successors: number[] }} CfgBlock
 * @typedef {{ name: string, blocks: CfgBlock[] }} CfgFunction
 */
/**
 * A laid-out function: its boxes (centres) and its edges' routes.
 * @typedef {{ x: number, y: number, width: number, height: number, lines: string[] }} LaidNode
 * @typedef {{ width: number, height: number, nodes: LaidNode[], edges: { from: number, to: number, points: { x: number, y: number }[] }[] }} Layout
 */

/** A block's name: its label, or its position for the unlabeled entry. */
/**
 * @param {CfgBlock} block
 * @param {number} index
 */
export function blockName(block, index) {
  return block.label === null ? (index === 0 ? 'entry' : `block ${index}`) : `.${block.label}`;
}

/** Indices of the blocks of `fn` that differ from `before` (the same function one step earlier). */
/**
 * @param {CfgFunction} fn
 * @param {{ blocks: CfgBlock[] } | null | undefined} before
 * @returns {Set<number>}
 */
export function changedBlocks(fn, before) {
  if (!before) return new Set();
  const key = (/** @type {CfgBlock} */ b, /** @type {number} */ i) => (b.label === null ? `#${i}` : b.label);
  const old = new Map(before.blocks.map((b, i) => [key(b, i), b]));
  /** @type {Set<number>} */
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

/** `{width, height, nodes: [{x, y, width, height, lines}], edges: [{from, to, points}]}` for `fn`. */
/**
 * @param {CfgFunction} fn
 * @returns {Layout}
 */
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
