// A step's diff as rows for a side-by-side view: jsdiff's line diff of the
// program before and after, removed and added lines paired row by row, and
// long unchanged runs folded. No DOM: the page runs it for small programs,
// a worker for large ones.
import { diffLines } from 'diff';

const CONTEXT = 3;

/** @typedef {{ kind: 'same' | 'changed', left: string | null, right: string | null }} Row a row: null where a side has no line */
/** @typedef {Row | { kind: 'fold', rows: Row[] }} Part a row, or a folded run of unchanged ones */
/** @typedef {{ parts: Part[], removed: number, added: number, changedRows: number }} StepDiff */

/** Rows `{kind: 'same' | 'changed', left, right}` (null: no line there) from two texts. */
/**
 * @param {string} before
 * @param {string} after
 * @returns {Row[]}
 */
export function sideBySide(before, after) {
  /** @type {Row[]} */
  const rows = [];
  /** @type {string[]} */
  let removed = [];
  /** @type {string[]} */
  let added = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({ kind: 'changed', left: removed[i] ?? null, right: added[i] ?? null });
    }
    removed = [];
    added = [];
  };
  // A diff that takes over 5 s is cut short by jsdiff (the result is still a valid diff).
  for (const change of diffLines(before, after, { timeout: 5000 }) ?? []) {
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

/** Rows with runs of over four unchanged rows away from changes folded into `{kind: 'fold', rows}`. */
/**
 * @param {Row[]} rows
 * @returns {Part[]}
 */
export function fold(rows) {
  const keep = rows.map((r) => r.kind !== 'same');
  rows.forEach((r, i) => {
    if (r.kind !== 'same') for (let d = -CONTEXT; d <= CONTEXT; d++) if (rows[i + d]) keep[i + d] = true;
  });
  /** @type {Part[]} */
  const parts = [];
  for (let i = 0; i < rows.length;) {
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

/** `{parts, removed, added, changedRows}` for a step from `before` to `after`. */
/**
 * @param {string} before
 * @param {string} after
 * @returns {StepDiff}
 */
export function stepDiff(before, after) {
  const rows = sideBySide(before, after);
  let removed = 0;
  let added = 0;
  let changedRows = 0;
  for (const r of rows) {
    if (r.kind !== 'changed') continue;
    changedRows++;
    if (r.left !== null) removed++;
    if (r.right !== null) added++;
  }
  return { parts: fold(rows), removed, added, changedRows };
}
