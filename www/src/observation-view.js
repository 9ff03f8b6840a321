// What the agent sees: the observation vectors (Autophase's 60 numbers or
// InstCount's 48) of every step of the current path as a heat strip, one
// row per step and one column per feature, coloured by how the step changed
// each feature; and, for the current step, the features it changed, named
// with their sentence. Drawn on a canvas: one element, however long the path.
import { h, count, nextTask, signed } from './format.js';
import { featureSentence } from './features.js';
import { OBSERVATIONS } from './glossary.js';

const ROWS = 40; // the last steps drawn
const ROW_H = 12;
const LISTED = 8; // changed features named
const UP = [29, 79, 145]; // an increase, in the charts' static-size blue
const DOWN = [180, 69, 31]; // a decrease, in their executed orange

/**
 * The features that differ from `before` to `after` (objects of name →
 * number, in the vector's order), largest change first.
 * @param {Record<string, number> | null | undefined} before
 * @param {Record<string, number>} after
 */
export function featureChanges(before, after) {
  return Object.keys(after)
    .filter((name) => before && before[name] !== after[name])
    .map((name) => {
      const was = /** @type {Record<string, number>} */ (before); // the filter kept names only where it is given
      return { name, before: was[name], after: after[name], delta: after[name] - was[name] };
    })
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
}

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountObservations(app, $) {
  const { episode } = app;
  const canvas = $('obs-strip');
  const context = canvas.getContext('2d');

  /**
   * @param {import('./episode.js').EpisodeNode | null} node
   * @returns {Record<string, number> | null}
   */
  function vector(node) {
    return node?.env ? episode.observe(node, `${$('obs-space').value}Dict`) : null;
  }

  let renders = 0;

  /** Draws after the step's own task, once for several changes in a row. */
  async function render() {
    const ticket = ++renders;
    await nextTask();
    if (ticket !== renders || !episode.current) return;
    const space = $('obs-space').value;
    const path = episode.path().slice(-ROWS);
    const rows = path.map((node) => ({ node, now: vector(node), before: vector(node.parent) }));
    const names = Object.keys(rows[0]?.now ?? {});
    const width = Math.max(240, Math.floor(canvas.parentElement.clientWidth));
    const ratio = globalThis.devicePixelRatio || 1;
    const cell = width / Math.max(1, names.length);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(rows.length * ROW_H * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${rows.length * ROW_H}px`;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = '#eef1ec';
    context.fillRect(0, 0, width, rows.length * ROW_H);
    rows.forEach(({ node, now, before }, r) => {
      if (!before) return;
      const values = /** @type {Record<string, number>} */ (now); // every state of the path has an environment
      names.forEach((name, c) => {
        const delta = values[name] - before[name];
        if (delta === 0) return;
        // Stronger for a larger change, relative to the feature's size.
        const strength = Math.min(1, 0.35 + Math.abs(delta) / Math.max(1, Math.abs(before[name]), Math.abs(values[name])));
        const [red, green, blue] = delta > 0 ? UP : DOWN;
        context.fillStyle = `rgba(${red}, ${green}, ${blue}, ${strength})`;
        context.fillRect(c * cell, r * ROW_H, Math.max(1, cell - 0.5), ROW_H - 1);
      });
      if (node === episode.current) {
        context.strokeStyle = '#1b1f24';
        context.strokeRect(0.5, r * ROW_H + 0.5, width - 1, ROW_H - 1);
      }
    });
    const current = rows.find((row) => row.node === episode.current) ?? rows[rows.length - 1];
    const changes = featureChanges(current?.before, current?.now ?? {});
    canvas.setAttribute(
      'aria-label',
      `${space} per step: ${names.length} features, ${rows.length} steps; the current step changed ${changes.length}`,
    );
    Object.assign($('obs').dataset, { space, rows: String(rows.length), features: String(names.length), changed: String(changes.length) });
    $('obs-sentence').textContent =
      `${OBSERVATIONS[space]} A row per step (the last ${ROWS}), a column per feature: blue where the step raised it, orange where it lowered it.`;
    const node = current?.node;
    $('obs-changes').replaceChildren(
      ...(!node?.parent
        ? [h('li', {}, 'The program as loaded: press a pass to see what it changes.')]
        : !changes.length
          ? [h('li', {}, `${node.flag} changed none of the ${names.length} features.`)]
          : [
              ...changes
                .slice(0, LISTED)
                .map((c) =>
                  h(
                    'li',
                    { dataset: { feature: c.name } },
                    h('code', {}, c.name),
                    ` ${count(c.before)} → ${count(c.after)} (${signed(c.delta)}): `,
                    h('span', { class: 'hint' }, featureSentence(space, c.name)),
                  ),
                ),
              changes.length > LISTED ? h('li', { class: 'hint' }, `and ${changes.length - LISTED} more`) : null,
            ]),
    );
  }

  $('obs-space').addEventListener('change', render);
  episode.addEventListener('change', render);
  new ResizeObserver(() => render()).observe(canvas.parentElement);
  render();
}
