// Spaces, seen: each example space sampled a few thousand times and drawn —
// histograms for Boxes (bounded: uniform; half-bounded: shifted exponential;
// unbounded: normal), bars for Discrete, a drawn Graph, Text samples — then
// this environment's own action and observation spaces, and a description
// to try with `Space.fromJSON` and `contains`.
import uPlot from 'uplot';
import { Space, catalog } from '../pkg/index.js';
import { lookupError, valueError } from '../pkg/errors.js';
import { describe, h, show, count } from './format.js';
import { isTypedArray } from '../pkg/gym/arrays.js';
import { fitTicks, lineChart } from './charts.js';
import { OBSERVATIONS } from './glossary.js';

/** The most values the page draws or builds at once. */
export const MAX_VALUES = 1_000_000;
const SVG = 'http://www.w3.org/2000/svg';

/** @typedef {import('../pkg/compgym.js').Space} SpaceObject */
/** @typedef {'histogram' | 'bars' | 'graph' | 'text'} Drawing how a card draws its samples */

const EXAMPLES = [
  {
    title: 'Box, bounded',
    note: 'low and high both finite: uniform between them.',
    make: () => Space.box({ low: -1, high: 2, shape: [1], dtype: 'float64', name: 'bounded' }),
    draw: 'histogram',
  },
  {
    title: 'Box, bounded below',
    note: 'high is +inf: low plus an exponential draw.',
    make: () => Space.box({ low: 0, high: Infinity, shape: [1], dtype: 'float64', name: 'below' }),
    draw: 'histogram',
  },
  {
    title: 'Box, bounded above',
    note: 'low is −inf: high minus an exponential draw.',
    make: () => Space.box({ low: -Infinity, high: 0, shape: [1], dtype: 'float64', name: 'above' }),
    draw: 'histogram',
  },
  {
    title: 'Box, unbounded',
    note: 'both infinite: a standard normal draw.',
    make: () => Space.box({ low: -Infinity, high: Infinity, shape: [1], dtype: 'float64', name: 'unbounded' }),
    draw: 'histogram',
  },
  {
    title: 'Discrete(6)',
    note: 'one of n integers, each equally likely.',
    make: () => Space.discrete(6, { name: 'die' }),
    draw: 'bars',
  },
  {
    title: 'Graph',
    note: 'nodes with Box features, edges between random pairs.',
    make: () =>
      Space.graph({
        nodeSpace: Space.box({ low: 0, high: 1, shape: [2], name: 'node' }),
        minNodes: 3,
        maxNodes: 8,
        minEdges: 2,
        maxEdges: 10,
        name: 'graph',
      }),
    draw: 'graph',
  },
  {
    title: 'Text',
    note: 'strings of 1 to 12 characters from a charset.',
    make: () => Space.text({ minLength: 1, maxLength: 12, charset: 'acgt', name: 'dna' }),
    draw: 'text',
  },
];

/**
 * Plain JSON for a sampled value (typed arrays → arrays, BigInt → number).
 * @param {unknown} value
 * @returns {unknown}
 */
export function toJson(value) {
  if (isTypedArray(value)) return Array.from(/** @type {ArrayLike<unknown>} */ (value), toJson);
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'bigint') return Number(value);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return value;
}

/**
 * Refuses a space description that would make the page build or draw more
 * than MAX_VALUES values (a Box of shape [50000000] exhausts the wasm
 * memory before the package can refuse it). Throws a ValueError naming the
 * field.
 * @param {unknown} description
 * @returns {void}
 */
export function checkDescriptionSize(description, path = 'the space') {
  if (Array.isArray(description)) {
    description.forEach((d, i) => checkDescriptionSize(d, `${path}[${i}]`));
    return;
  }
  if (!description || typeof description !== 'object') return;
  for (const [key, value] of Object.entries(description)) {
    if (Array.isArray(value) && /shape|nvec/.test(key) && value.every((x) => typeof x === 'number')) {
      const size = value.reduce((a, b) => a * b, 1);
      if (size > MAX_VALUES) throw tooBig(`${path}.${key} [${value.join(', ')}]`, size);
    } else if (typeof value === 'number' && /^max_|_high$/.test(key) && value > MAX_VALUES) {
      throw tooBig(`${path}.${key}`, value);
    } else if (key === 'size_range' && Array.isArray(value) && value[1] > MAX_VALUES) {
      throw tooBig(`${path}.size_range`, value[1]);
    } else {
      checkDescriptionSize(value, `${path}.${key}`);
    }
  }
}

/**
 * @param {string} what
 * @param {number} size
 */
function tooBig(what, size) {
  return Object.assign(
    new Error(
      `${what} asks for ${count(size)} values; the page builds and samples at most ${count(MAX_VALUES)} at once, so that the WebAssembly memory cannot run out`,
    ),
    { name: 'ValueError' },
  );
}

/** Space kinds `Space.fromJSON` reads, by their `type` (the core's registry; read when first needed). */
/** @type {string[] | null} */
let kinds = null;
const spaceKinds = () => (kinds ??= catalog().spaceKinds.map((kind) => kind.name));

/**
 * A space from a JSON description, refusing unknown kinds and oversized ones with typed errors.
 * @param {string} text
 */
export function spaceFromDescription(text) {
  let description;
  try {
    description = JSON.parse(text);
  } catch (/** @type {any} */ error) {
    throw valueError(`the description is not JSON: ${error.message}`);
  }
  /** @param {any} d a part of the description, any JSON */
  const unknown = (d) => {
    if (!d || typeof d !== 'object') return;
    if (!Array.isArray(d) && 'type' in d && !spaceKinds().includes(d.type)) {
      throw lookupError(`unknown space type ${JSON.stringify(d.type)}: the types are ${spaceKinds().join(', ')}`);
    }
    Object.values(d).forEach(unknown);
  };
  unknown(description);
  checkDescriptionSize(description);
  return Space.fromJSON(named(description, 'space'));
}

/**
 * The description with a `name` on every space that lacks one (compgym's
 * spaces are named, Gymnasium's are not: `{"type":"Discrete","n":5}` is a
 * whole description there). A nested space is named after its key.
 * @param {any} description any JSON
 * @param {string} name
 * @returns {any} the same JSON, named
 */
function named(description, name) {
  if (Array.isArray(description)) return description.map((d, i) => named(d, `${name}[${i}]`));
  if (!description || typeof description !== 'object') return description;
  /** @type {{ [key: string]: unknown }} */
  const out = {};
  for (const [key, value] of Object.entries(description)) out[key] = named(value, key);
  if (spaceKinds().includes(description.type) && !('name' in description)) out.name = name;
  return out;
}

/**
 * @param {ArrayLike<number>} values
 * @returns {[number[], number[]]}
 */
function histogram(values, bins = 30) {
  const finite = Array.from(values)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  // Trim the far tails so a few outliers do not squash the picture.
  const lo = finite[Math.floor(finite.length * 0.002)];
  const hi = finite[Math.ceil(finite.length * 0.998) - 1];
  const width = (hi - lo) / bins || 1;
  /** @type {number[]} */
  const counts = new Array(bins).fill(0);
  for (const v of finite) {
    if (v < lo || v > hi) continue;
    counts[Math.min(bins - 1, Math.floor((v - lo) / width))]++;
  }
  return [counts.map((_, i) => lo + (i + 0.5) * width), counts];
}

/**
 * @param {HTMLElement} host
 * @param {number[]} xs
 * @param {number[]} ys
 * @param {{ xLabel?: string, values?: (u: any, ticks: number[]) => any[], rotate?: number, integers?: boolean }} [options]
 */
function barChart(host, xs, ys, { xLabel = 'value', values, rotate = 0, integers = false } = {}) {
  // Half a bar of room at each end, so the first and last bars show whole.
  const half = xs.length > 1 ? (xs[1] - xs[0]) / 2 : 0.5;
  return lineChart(
    host,
    {
      height: rotate ? 220 : 130,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: () => [xs[0] - half, xs[xs.length - 1] + half] }, y: { range: (u, min, max) => [0, max * 1.1] } },
      axes: [
        {
          label: xLabel,
          size: rotate ? 96 : 34,
          rotate,
          ...(integers ? { incrs: [1, 2, 3, 5, 10], space: rotate ? 16 : 30 } : {}),
          values: values ?? ((u, ticks) => ticks.map((t) => +t.toFixed(2))),
        },
        { label: 'samples', size: fitTicks(36) },
      ],
      series: [
        {},
        {
          stroke: '#1d4f91',
          fill: 'rgba(29,79,145,0.35)',
          width: 1,
          paths: /** @type {NonNullable<typeof uPlot.paths.bars>} */ (uPlot.paths.bars)({ size: [0.9, 60] }),
          points: { show: false },
        },
      ],
    },
    [xs, ys],
  );
}

/** @param {{ nodes: ArrayLike<number>, edgeLinks: ArrayLike<number | bigint> }} sample a Graph space's */
function drawGraph(sample) {
  const nodes = sample.nodes.length / 2;
  const size = 150;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('class', 'sample-graph');
  svg.setAttribute('role', 'img');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `a sampled graph: ${nodes} nodes, ${sample.edgeLinks.length / 2} edges`;
  svg.append(title);
  const at = (/** @type {number} */ i) => [
    size / 2 + 55 * Math.cos((2 * Math.PI * i) / nodes),
    size / 2 + 55 * Math.sin((2 * Math.PI * i) / nodes),
  ];
  for (let e = 0; e < sample.edgeLinks.length; e += 2) {
    const [x1, y1] = at(Number(sample.edgeLinks[e]));
    const [x2, y2] = at(Number(sample.edgeLinks[e + 1]));
    const line = document.createElementNS(SVG, x1 === x2 && y1 === y2 ? 'circle' : 'line');
    if (x1 === x2 && y1 === y2)
      Object.entries({ cx: x1 + 8, cy: y1, r: 8, class: 'edge' }).forEach(([k, v]) => line.setAttribute(k, String(v)));
    else Object.entries({ x1, y1, x2, y2, class: 'edge' }).forEach(([k, v]) => line.setAttribute(k, String(v)));
    svg.append(line);
  }
  for (let i = 0; i < nodes; i++) {
    const [cx, cy] = at(i);
    const circle = document.createElementNS(SVG, 'circle');
    // The node's first feature (in [0, 1]) shades it.
    const shade = Math.round(235 - 160 * sample.nodes[2 * i]);
    Object.entries({ cx, cy, r: 9, class: 'node', fill: `rgb(${shade},${shade + 10},255)` }).forEach(([k, v]) =>
      circle.setAttribute(k, String(v)),
    );
    svg.append(circle);
  }
  return svg;
}

/**
 * Draws `samples` draws of `space` into a new card.
 * @param {{ title: string, note: string, space: SpaceObject, draw: Drawing, samples: number, seed: number }} card
 */
function sampleCard({ title, note, space, draw, samples, seed }) {
  space.seed(seed);
  const chart = h('div', { class: 'chart small' });
  const card = h(
    'figure',
    { class: 'space-card', dataset: { kind: draw } },
    h('figcaption', {}, h('strong', {}, title), ' ', h('span', { class: 'hint' }, note)),
    h('code', { class: 'repr' }, space.toString()),
    chart,
  );
  requestAnimationFrame(() => {
    if (draw === 'histogram') {
      const [xs, ys] = histogram(/** @type {ArrayLike<number>} */ (space.sampleBatch(samples))); // a one-element Box's batch
      barChart(chart, xs, ys);
    } else if (draw === 'bars') {
      const n = /** @type {number} */ (space.n); // a Discrete space's
      /** @type {number[]} */
      const counts = new Array(n).fill(0);
      for (const v of /** @type {Iterable<unknown>} */ (space.sampleBatch(samples))) counts[Number(v)]++;
      barChart(
        chart,
        counts.map((_, i) => i),
        counts,
        { xLabel: 'action', integers: true },
      );
    } else if (draw === 'graph') {
      const graph = () => /** @type {{ nodes: Float32Array, edgeLinks: Int32Array }} */ (space.sample()); // a Graph space's
      chart.replaceChildren(drawGraph(graph()), drawGraph(graph()));
      chart.classList.add('graphs');
    } else {
      chart.replaceChildren(
        h('ul', { class: 'texts' }, ...Array.from({ length: 8 }, () => h('li', {}, h('code', {}, JSON.stringify(space.sample()))))),
      );
    }
  });
  card.dataset.samples = String(samples);
  return card;
}

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountSpaces(app, $) {
  const { episode } = app;
  /** @type {SpaceObject | null} */
  let custom = null;
  /** @type {string | null} */
  let customText = null; // the description `custom` was made from

  function settings() {
    const samples = Number($('space-count').value);
    const seed = Number($('space-seed').value);
    if (!Number.isSafeInteger(samples) || samples < 1 || samples > 100_000) {
      throw valueError(`samples must be a whole number from 1 to 100,000, got ${$('space-count').value}`);
    }
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw valueError(`the seed must be a whole number 0 or more, got ${$('space-seed').value}`);
    }
    return { samples, seed };
  }

  /** @param {() => void} fn */
  function guard(fn) {
    return () => {
      try {
        $('space-error').textContent = '';
        fn();
      } catch (error) {
        $('space-error').textContent = describe(error);
      }
    };
  }

  function renderExamples() {
    const { samples, seed } = settings();
    $('space-gallery').replaceChildren(
      ...EXAMPLES.map((e) => sampleCard({ ...e, draw: /** @type {Drawing} */ (e.draw), space: e.make(), samples, seed })),
    );
  }

  function renderEnvironment() {
    const env = /** @type {import('../pkg/compgym.js').CompilerEnv} */ (
      /** @type {import('./episode.js').EpisodeNode} */ (episode.root).env
    ); // loaded
    const actions = env.actionSpace;
    const { samples, seed } = settings();
    actions.seed(seed);
    const flags = actions.flags;
    const counts = new Array(flags.length).fill(0);
    for (let i = 0; i < Math.min(samples, 20_000); i++) counts[Number(actions.sample())]++;
    const chart = h('div', { class: 'chart small' });
    const actionCard = h(
      'figure',
      { class: 'space-card wide', id: 'space-action' },
      h(
        'figcaption',
        {},
        h('strong', {}, 'The action space'),
        ' ',
        h('span', { class: 'hint' }, `one of ${flags.length} passes; a random agent picks each equally often.`),
      ),
      h('code', { class: 'repr' }, actions.toString()),
      chart,
    );
    const shorten = (/** @type {string} */ text) => (text.length > 110 ? `${text.slice(0, 109)}…` : text);
    const rows = env.observation.spaces.map((spec) =>
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, spec.id),
        h('td', {}, OBSERVATIONS[spec.id] ?? '', h('code', {}, shorten(spec.space.toString()))),
      ),
    );
    const table = h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'observation spaces' },
      h(
        'table',
        { class: 'obs', id: 'space-observations' },
        h('caption', {}, `The ${rows.length} observation spaces`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'name'), h('th', { scope: 'col' }, 'what it is, and its space'))),
        h('tbody', {}, ...rows),
      ),
    );
    $('space-env').replaceChildren(actionCard, table);
    requestAnimationFrame(() =>
      barChart(
        chart,
        counts.map((_, i) => i),
        counts,
        {
          xLabel: 'pass',
          // Turned so each name ends at its bar: names run down to the left,
          // into the room under the y axis, never past the chart's right edge.
          rotate: 40,
          integers: true,
          values: (u, ticks) => ticks.map((t) => (Number.isInteger(t) ? (flags[t] ?? '') : '')),
        },
      ),
    );
  }

  function loadCustom() {
    const { samples, seed } = settings();
    // A description that fails leaves no space behind to answer for it.
    custom = null;
    /** @type {string} */
    const text = $('space-json').value;
    customText = text;
    custom = spaceFromDescription(text);
    $('space-contains-result').textContent = '';
    const flat = (() => {
      try {
        return /** @type {SpaceObject} */ (custom).flatdim;
      } catch {
        return null;
      }
    })();
    const isBox = /^Box\(/.test(custom.toString()) && flat === 1;
    const draw = isBox ? 'histogram' : /^Discrete\(/.test(custom.toString()) ? 'bars' : 'text';
    const n = flat && flat * samples > MAX_VALUES ? Math.max(1, Math.floor(MAX_VALUES / flat)) : samples;
    if (draw === 'text') {
      custom.seed(seed);
      const values = Array.from({ length: 5 }, () => /** @type {SpaceObject} */ (custom).sample());
      $('space-custom').replaceChildren(
        h(
          'figure',
          { class: 'space-card wide' },
          h('figcaption', {}, h('strong', {}, 'Your space'), ' ', h('span', { class: 'hint' }, 'five samples')),
          h('code', { class: 'repr' }, custom.toString()),
          h('ul', { class: 'texts' }, ...values.map((v) => h('li', {}, h('code', {}, show(v))))),
        ),
      );
      $('space-value').value = JSON.stringify(toJson(values[0]));
    } else {
      $('space-custom').replaceChildren(
        sampleCard({ title: 'Your space', note: `${count(n)} samples`, space: custom, draw, samples: n, seed }),
      );
      custom.seed(seed);
      $('space-value').value = JSON.stringify(toJson(custom.sample()));
    }
  }

  function contains() {
    $('space-contains-result').textContent = '';
    delete $('space-contains-result').dataset.result;
    // The answer is for the description as it stands: an edited one is built first (and its error shown).
    if (!custom || customText !== $('space-json').value) loadCustom();
    let value;
    try {
      value = JSON.parse($('space-value').value);
    } catch (/** @type {any} */ error) {
      throw valueError(`the value is not JSON: ${error.message}`);
    }
    const inside = /** @type {SpaceObject} */ (custom).contains(value); // loadCustom made it, or threw
    $('space-contains-result').textContent = `contains → ${inside}`;
    $('space-contains-result').dataset.result = String(inside);
  }

  $('space-json').value = JSON.stringify({ type: 'Box', name: 'features', low: 0, high: 1, shape: [3], dtype: 'float32' });
  $('space-json').addEventListener('input', () => ($('space-contains-result').textContent = ''));
  $('space-resample').addEventListener(
    'click',
    guard(() => (renderExamples(), renderEnvironment())),
  );
  $('space-load').addEventListener('click', guard(loadCustom));
  $('space-contains').addEventListener('click', guard(contains));
  guard(() => {
    renderExamples();
    renderEnvironment();
    loadCustom();
  })();
}
