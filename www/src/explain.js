// Reinforcement learning's loop drawn over the live episode: the agent sends
// an action to the environment, which answers with an observation and a
// reward; a sentence says what just happened in those words. Also the
// glossary: every term, pass, reward and observation the page shows.
import { h, signed, count } from './format.js';
import { TERMS, PASSES, REWARDS, OBSERVATIONS } from './glossary.js';

const SVG = 'http://www.w3.org/2000/svg';

/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */

/**
 * @param {string} name
 * @param {{ [attribute: string]: string | number }} [attributes] numbers are written as their text
 * @param {string} [text]
 */
function el(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, /** @type {string} */ (v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * @param {number} x
 * @param {number} width
 * @param {string} title
 * @param {string} subtitle
 * @param {string} id
 */
function box(x, width, title, subtitle, id) {
  const g = el('g', { class: 'box' });
  g.append(el('rect', { x, y: 18, width, height: 66, rx: 8 }));
  g.append(el('text', { x: x + width / 2, y: 45, class: 'title', 'text-anchor': 'middle' }, title));
  g.append(el('text', { x: x + width / 2, y: 66, class: 'sub', 'text-anchor': 'middle', id }, subtitle));
  return g;
}

/**
 * The loop, drawn 1:1 or larger where it can: wide, the three labels ride
 * on the arrows between the boxes; narrow (one column), they go under the
 * boxes, so that the text is not shrunk with a 600-unit-wide drawing.
 * @param {boolean} narrow
 */
function diagram(narrow) {
  const width = narrow ? 360 : 600;
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${narrow ? 156 : 104}`,
    class: `loop${narrow ? ' narrow' : ''}`,
    role: 'img',
    'aria-labelledby': 'loop-title',
  });
  svg.append(
    el('title', { id: 'loop-title' }, 'The agent sends an action to the environment, which answers with an observation and a reward.'),
  );
  const defs = el('defs');
  const marker = el('marker', { id: 'loop-arrow', viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 8, markerHeight: 8, orient: 'auto' });
  marker.append(el('path', { d: 'M0,0 L8,4 L0,8 z' }));
  defs.append(marker);
  svg.append(defs);
  const boxWidth = narrow ? 130 : 150;
  const right = width - 6 - boxWidth;
  svg.append(box(6, boxWidth, 'Agent', 'you, or a search', 'loop-agent'));
  svg.append(box(right, boxWidth, 'Environment', 'bril-v0', 'loop-env'));
  svg.append(el('path', { d: `M${8 + boxWidth},36 L${right - 4},36`, class: 'arrow action', 'marker-end': 'url(#loop-arrow)' }));
  svg.append(el('path', { d: `M${right - 4},68 L${8 + boxWidth},68`, class: 'arrow answer', 'marker-end': 'url(#loop-arrow)' }));
  const labelY = narrow ? [106, 126, 146] : [28, 60, 88];
  ['loop-action', 'loop-observation', 'loop-reward'].forEach((id, i) =>
    svg.append(el('text', { x: width / 2, y: labelY[i], 'text-anchor': 'middle', id, class: 'label' }, id.slice(5))),
  );
  return svg;
}

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountExplain(app, $) {
  const { episode } = app;
  const narrow = matchMedia('(max-width: 699.98px)');
  /** @type {Element | null} */
  let svg = null;
  // The diagram's text of that id, once the diagram is built.
  const label = (/** @type {string} */ id) => /** @type {Element} */ (/** @type {Element} */ (svg).querySelector(`#${id}`));
  const text = (/** @type {string} */ id, /** @type {string} */ value) => (label(id).textContent = value);

  function build() {
    svg = diagram(narrow.matches);
    $('explain-diagram').replaceChildren(svg);
    render();
  }

  function render() {
    const node = /** @type {EpisodeNode} */ (episode.current); // loaded
    const failed = episode.failure;
    const size = episode.size(node);
    const env = `bril-v0 · ${app.label}`;
    const room = narrow.matches ? 20 : 26;
    text('loop-env', env.length > room ? `${env.slice(0, room - 1)}…` : env);
    const rewardSpace = /** @type {string} */ (episode.rewardSpace);
    const digits = /Count$/.test(rewardSpace) ? 0 : 3;
    if (failed) {
      text('loop-action', `action ${failed.action}: ${failed.flag}`);
      text('loop-observation', 'the step failed');
      const error = /** @type {{ name: string }} */ (failed.error);
      text('loop-reward', error.name);
      $('explain-sentence').textContent =
        `The agent chose ${failed.flag}, and the environment could not complete the step (${error.name}). ` +
        `The episode goes on from the last good state, ${count(size)} instructions.`;
    } else if (!node.parent) {
      text('loop-action', `action: one of ${episode.flags.length} passes`);
      text('loop-observation', `observation: ${count(size)} instructions`);
      text('loop-reward', `reward: ${episode.rewardSpace}`);
      $('explain-sentence').textContent =
        `Reset: the environment holds ${app.label} as written, ${count(size)} instructions. You are the agent: ` +
        `press a pass (try ${episode.flags[0]}) to take an action, and the environment answers with an observation and a reward.`;
    } else {
      const before = episode.size(node.parent);
      text('loop-action', `action ${node.action}: ${node.flag}`);
      text('loop-observation', `observation: ${count(size)} instructions`);
      text(
        'loop-reward',
        node.pending ? 'reward: running the program…' : `reward: ${signed(node.reward, digits)} (total ${signed(node.total, digits)})`,
      );
      const reward = node.pending
        ? `the reward comes once the program has run. ${episode.rewardSpace}: ${REWARDS[rewardSpace] ?? ''}`
        : `the reward is ${signed(node.reward, digits)}: under ${episode.rewardSpace}, ${lowerFirst(REWARDS[rewardSpace] ?? '')} ` +
          `The episode reward so far is ${signed(node.total, digits)}.`;
      $('explain-sentence').textContent =
        `The agent chose action ${node.action}, ${node.flag}. The environment ran the pass: the program went from ` +
        `${count(before)} to ${count(size)} instructions (the observation), and ${reward}`;
    }
  }

  episode.addEventListener('change', render);
  app.addEventListener('program', render);
  narrow.addEventListener('change', build);
  build();
  renderGlossary($('glossary'), episode);
}

const lowerFirst = (/** @type {string} */ text) => text.replace(/^./, (c) => c.toLowerCase());

/**
 * @param {string} title
 * @param {[string, string][]} entries
 */
function list(title, entries) {
  return h(
    'details',
    { class: 'terms' },
    h('summary', {}, title),
    h('dl', {}, ...entries.flatMap(([term, text]) => [h('dt', {}, term), h('dd', {}, text)])),
  );
}

/**
 * @param {HTMLElement} host
 * @param {import('./episode.js').Episode} episode
 */
function renderGlossary(host, episode) {
  /** @type {[string, string][]} */
  const passes = episode.flags.map((flag, i) => [flag, `${PASSES[flag] ?? ''} (${episode.descriptions[i]})`]);
  const terms = list('Reinforcement learning', Object.entries(TERMS));
  terms.open = true;
  host.replaceChildren(
    terms,
    list(`The ${passes.length} passes (the actions)`, passes),
    list('The rewards', Object.entries(REWARDS)),
    list('The observations shown here', Object.entries(OBSERVATIONS)),
  );
}
