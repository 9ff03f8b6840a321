// What a step did, side by side: the program before the step on the left,
// after it on the right, removed lines red, added lines green, aligned row
// by row. Long unchanged stretches fold to a line that unfolds on click.
import { diffLines } from 'diff';
import { h } from './format.js';
import { PASSES } from './glossary.js';

const CONTEXT = 3;

/** Rows `{kind: 'same' | 'changed', left, right}` (null: no line there) from two texts. */
export function sideBySide(before, after) {
  const rows = [];
  let removed = [];
  let added = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({ kind: 'changed', left: removed[i] ?? null, right: added[i] ?? null });
    }
    removed = [];
    added = [];
  };
  for (const change of diffLines(before, after)) {
    const lines = change.value.replace(/\n$/, '').split('\n');
    if (change.removed) removed.push(...lines);
    else if (change.added) added.push(...lines);
    else {
      flush();
      for (const line of lines) rows.push({ kind: 'same', left: line, right: line });
    }
  }
  flush();
  return rows;
}

/** Groups rows into shown rows and folds of long unchanged runs. */
function fold(rows) {
  const keep = rows.map((r) => r.kind !== 'same');
  rows.forEach((r, i) => {
    if (r.kind !== 'same') for (let d = -CONTEXT; d <= CONTEXT; d++) if (rows[i + d]) keep[i + d] = true;
  });
  const parts = [];
  for (let i = 0; i < rows.length; ) {
    if (keep[i]) {
      parts.push(rows[i++]);
      continue;
    }
    let j = i;
    while (j < rows.length && !keep[j]) j++;
    if (j - i < 4) parts.push(...rows.slice(i, j));
    else parts.push({ kind: 'fold', rows: rows.slice(i, j) });
    i = j;
  }
  return parts;
}

function pane(cls, lines) {
  return h('div', { class: `pane ${cls}` }, ...lines);
}

function line(text, kind) {
  return h('div', { class: `line ${kind}` }, text ?? '');
}

/** Renders the step into `host`: `node`'s program against its parent's. */
export function renderStepDiff(host, sentenceHost, episode, node) {
  const after = episode.observe(node, 'Ir');
  if (!node.parent) {
    host.replaceChildren(
      h('div', { class: 'heads' }, h('span', {}, 'the program as loaded')),
      h('div', { class: 'panes single' }, pane('after', after.replace(/\n$/, '').split('\n').map((l) => line(l, 'same')))),
    );
    sentenceHost.textContent = 'Choose a pass: the page then shows the program before and after it, side by side.';
    host.dataset.changedRows = '0';
    return;
  }
  const before = episode.observe(node.parent, 'Ir');
  const rows = sideBySide(before, after);
  const changed = rows.filter((r) => r.kind === 'changed');
  const left = [];
  const right = [];
  const addRows = (list) => {
    for (const part of list) {
      if (part.kind === 'fold') {
        const open = () => {
          leftFold.replaceWith(...part.rows.map((r) => line(r.left, 'same')));
          rightFold.replaceWith(...part.rows.map((r) => line(r.right, 'same')));
        };
        const label = `⋯ ${part.rows.length} unchanged lines`;
        const leftFold = h('button', { type: 'button', class: 'line fold', onclick: open }, label);
        const rightFold = h('button', { type: 'button', class: 'line fold', onclick: open, tabindex: '-1', 'aria-hidden': 'true' }, label);
        left.push(leftFold);
        right.push(rightFold);
      } else {
        left.push(line(part.left, part.kind === 'same' ? 'same' : part.left === null ? 'blank' : 'removed'));
        right.push(line(part.right, part.kind === 'same' ? 'same' : part.right === null ? 'blank' : 'added'));
      }
    }
  };
  addRows(fold(rows));
  host.replaceChildren(
    h('div', { class: 'heads' }, h('span', {}, node.parent.parent ? `before: after step ${node.depth - 1}` : 'before: as loaded'), h('span', {}, `after step ${node.depth}: ${node.flag}`)),
    h('div', { class: 'panes' }, pane('before', left), pane('after', right)),
  );
  // Show the first change, a few lines of context above it.
  const first = host.querySelector('.line.removed, .line.added');
  host.scrollTop = first ? Math.max(0, first.offsetTop - 4 * first.offsetHeight) : 0;
  const removedCount = changed.filter((r) => r.left !== null).length;
  const addedCount = changed.filter((r) => r.right !== null).length;
  host.dataset.changedRows = String(changed.length);
  sentenceHost.textContent = node.changed
    ? `${node.flag}: ${PASSES[node.flag] ?? ''} Here it removed ${removedCount} line(s) and added ${addedCount}.`
    : `${node.flag} changed nothing here. ${PASSES[node.flag] ?? ''}`;
}
