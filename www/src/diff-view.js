// What a step did, side by side: the program before the step on the left,
// after it on the right, removed lines red, added lines green, aligned row
// by row, the changed words inside a changed line marked (jsdiff's
// diffWords); long unchanged stretches fold to a line that unfolds on
// click. Or the whole episode: the program as loaded against the current
// state. Large programs are diffed in a worker and drawn a screenful at a
// time.
import { diffWords } from 'diff';
import { count, h, nextTask, plural } from './format.js';
import { PASSES } from './glossary.js';
import { stepDiff } from './diff-rows.js';

/** Programs with more characters than this are diffed in a worker. */
const INLINE_CHARS = 40_000;
/** Rows drawn at first; the rest come with a click. */
const PAGE_ROWS = 1500;
/** Rows drawn per task: a screenful's worth of layout, so the page answers between batches. */
const ROWS_PER_TASK = 150;

/** @typedef {import('./diff-rows.js').Part} Part */
/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */

/**
 * @param {string | null} text
 * @param {string} kind
 */
function line(text, kind) {
  return h('div', { class: `line ${kind}` }, text ?? '');
}

/** A changed row whose two sides are both lines: each side with the words that differ marked. */
/**
 * @param {string} left
 * @param {string} right
 */
function wordLines(left, right) {
  const changes = diffWords(left, right);
  /** @type {(skip: 'added' | 'removed', mark: 'added' | 'removed') => (HTMLElement | string)[]} */
  const side = (skip, mark) =>
    changes.filter((c) => !c[skip]).map((c) => (c[mark] ? h('span', { class: `word ${mark}` }, c.value) : c.value));
  return [h('div', { class: 'line removed' }, ...side('added', 'removed')), h('div', { class: 'line added' }, ...side('removed', 'added'))];
}

/**
 * Draws `parts` into the two panes, PAGE_ROWS at a time, ROWS_PER_TASK per
 * task; stops, returning false, once `stale()` says a later state is drawn.
 * @param {HTMLElement} left
 * @param {HTMLElement} right
 * @param {Part[]} parts
 * @returns {Promise<boolean>}
 */
async function fill(left, right, parts, stale = () => false) {
  let drawn = 0;
  let i = 0;
  for (; i < parts.length && drawn < PAGE_ROWS; i++, drawn++) {
    if (drawn && drawn % ROWS_PER_TASK === 0) {
      await nextTask();
      if (stale()) return false;
    }
    const part = parts[i];
    if (part.kind === 'fold') {
      const label = `⋯ ${part.rows.length} unchanged lines`;
      const open = () => {
        leftFold.replaceWith(...part.rows.map((r) => line(r.left, 'same')));
        rightFold.replaceWith(...part.rows.map((r) => line(r.right, 'same')));
      };
      const leftFold = h('button', { type: 'button', class: 'line fold', onclick: open }, label);
      const rightFold = h('button', { type: 'button', class: 'line fold', onclick: open, tabindex: '-1', 'aria-hidden': 'true' }, label);
      left.append(leftFold);
      right.append(rightFold);
    } else if (part.kind === 'changed' && part.left !== null && part.right !== null) {
      const [removed, added] = wordLines(part.left, part.right);
      left.append(removed);
      right.append(added);
    } else {
      left.append(line(part.left, part.kind === 'same' ? 'same' : part.left === null ? 'blank' : 'removed'));
      right.append(line(part.right, part.kind === 'same' ? 'same' : part.right === null ? 'blank' : 'added'));
    }
  }
  if (i < parts.length) {
    const rest = parts.slice(i);
    const label = `⋯ ${rest.length} more rows: show them`;
    const more = () => {
      leftMore.remove();
      rightMore.remove();
      fill(left, right, rest);
    };
    const leftMore = h('button', { type: 'button', class: 'line fold', onclick: more }, label);
    const rightMore = h('button', { type: 'button', class: 'line fold', onclick: more, tabindex: '-1', 'aria-hidden': 'true' }, label);
    left.append(leftMore);
    right.append(rightMore);
  }
  return true;
}

/**
 * @param {HTMLElement} host
 * @param {HTMLElement} sentenceHost
 * @param {EpisodeNode} node a step: it has a parent
 * @param {import('./diff-rows.js').StepDiff} diff
 * @param {boolean} whole
 * @param {() => boolean} stale
 */
async function draw(host, sentenceHost, node, diff, whole, stale) {
  const left = h('div', { class: 'pane before' });
  const right = h('div', { class: 'pane after' });
  const before = whole || !(/** @type {EpisodeNode} */ (node.parent).parent) ? 'before: as loaded' : `before: after step ${node.depth - 1}`;
  host.dataset.state = 'drawing';
  host.replaceChildren(
    h('div', { class: 'heads' }, h('span', {}, before), h('span', {}, `after step ${node.depth}: ${node.flag}`)),
    h('div', { class: 'panes' }, left, right),
  );
  if (!(await fill(left, right, diff.parts, stale))) return;
  // Show the first change, removed or added (the left pane comes first in
  // the document, but lines hoisted above may be added higher up), with a
  // few lines of context above it.
  const firsts = /** @type {HTMLElement[]} */ ([left.querySelector('.line.removed'), right.querySelector('.line.added')].filter(Boolean));
  const top = Math.min(...firsts.map((l) => l.offsetTop));
  host.scrollTop = firsts.length ? Math.max(0, top - 4 * firsts[0].offsetHeight) : 0;
  host.dataset.changedRows = String(diff.changedRows);
  host.dataset.state = 'drawn';
  host.dataset.whole = String(whole);
  sentenceHost.textContent = whole
    ? `Over the whole episode, ${plural(node.depth, 'step')}, the passes removed ${plural(diff.removed, 'line')} and added ${count(diff.added)}.`
    : node.changed
      ? `${node.flag}: ${PASSES[/** @type {string} */ (node.flag)] ?? ''} Here it removed ${plural(diff.removed, 'line')} and added ${count(diff.added)}.`
      : `${node.flag} changed nothing here. ${PASSES[/** @type {string} */ (node.flag)] ?? ''}`;
}

/**
 * Keeps the diff view on the current state of `app`'s episode.
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountDiff(app, $) {
  const { episode } = app;
  const host = $('diff');
  const sentenceHost = $('diff-sentence');
  let renders = 0;

  async function render() {
    const ticket = ++renders;
    const stale = () => ticket !== renders;
    // Not in the task of the step itself, and once for several changes in a row.
    await nextTask();
    if (stale() || !episode.current) return;
    const node = episode.current;
    const after = episode.observe(node, 'Ir');
    if (!node.parent) {
      const lines = after.replace(/\n$/, '').split('\n');
      const pane = h('div', { class: 'pane after' });
      host.dataset.state = 'drawing';
      host.replaceChildren(h('div', { class: 'heads' }, h('span', {}, 'the program as loaded')), h('div', { class: 'panes single' }, pane));
      if (
        !(await fill(
          pane,
          h('div'),
          lines.map((/** @type {string} */ l) => ({ kind: /** @type {const} */ ('same'), left: l, right: l })),
          stale,
        ))
      )
        return;
      host.dataset.changedRows = '0';
      host.dataset.state = 'drawn';
      sentenceHost.textContent = 'Choose a pass: the page then shows the program before and after it, side by side.';
      return;
    }
    const whole = $('diff-whole').checked;
    const before = episode.observe(/** @type {EpisodeNode} */ (whole ? episode.root : node.parent), 'Ir'); // loaded, and a step
    /** @type {import('./diff-rows.js').StepDiff} */
    let diff;
    if (before.length + after.length <= INLINE_CHARS) {
      diff = stepDiff(before, after);
    } else {
      host.dataset.state = 'diffing';
      sentenceHost.textContent = `Comparing ${before.length.toLocaleString('en-US')} characters of program before and after ${node.flag}…`;
      try {
        diff = await app.lanes.diff.run('diff', { before, after }, { timeLimitMs: 30_000 });
      } catch (/** @type {any} */ error) {
        if (ticket === renders) sentenceHost.textContent = `The diff could not be computed: ${error.name}: ${error.message}`;
        return;
      }
      if (ticket !== renders) return;
    }
    await draw(host, sentenceHost, node, diff, whole, stale);
  }

  episode.addEventListener('change', render);
  $('diff-whole').addEventListener('change', render);
  render();
}
