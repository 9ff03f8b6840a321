// A line diff for showing what a pass changed: the longest common
// subsequence of the two texts' lines, walked into kept, added and removed
// lines. Quadratic, which is plenty for programs a person reads.

/**
 * The lines of `after` and the lines of `before` it dropped, in reading
 * order: `[{kind: 'same' | 'added' | 'removed', text}]`.
 */
export function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  // common[i][j]: length of the LCS of a[i..] and b[j..].
  const common = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      lines.push({ kind: 'same', text: b[j] });
      i++;
      j++;
    } else if (j < m && (i === n || common[i][j + 1] >= common[i + 1][j])) {
      lines.push({ kind: 'added', text: b[j++] });
    } else {
      lines.push({ kind: 'removed', text: a[i++] });
    }
  }
  return lines;
}

/** Renders a diff into `pre` with one span per line, marked + and -. */
export function renderDiff(pre, lines) {
  const marks = { same: '  ', added: '+ ', removed: '- ' };
  pre.replaceChildren(
    ...lines.map(({ kind, text }) => {
      const span = document.createElement('span');
      span.className = `diff-${kind}`;
      span.textContent = `${marks[kind]}${text}`;
      return span;
    }),
  );
}
