// The docs' code blocks: which Markdown files hold them, how to read them
// out, and how to run JS ones verbatim in Node, as a reader who pasted them
// into a fresh ES-module project with the built package installed would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('../../', import.meta.url).pathname;

/** README.md and every guide in docs/, as paths relative to the repository: a new guide is found, not registered. */
export function docFiles() {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/**
 * The fenced code blocks of Markdown `text`: `{lang, code, line, skip}`,
 * `line` being the first line of code (1-based) and `skip` the reason of a
 * `<!-- types: skip (why) -->` comment on the line before the fence.
 */
export function codeBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    // As CommonMark reads a fence: a backtick fence's info string has no backtick.
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open || (open[2][0] === '`' && open[3].includes('`'))) continue;
    const [, indent, fence, info] = open;
    const lang = info.trim().split(/\s+/)[0];
    const skip = /^<!-- types: skip \((.+)\) -->$/.exec(lines[i - 1]?.trim() ?? '');
    let end = i + 1;
    while (end < lines.length && !(lines[end].trim().startsWith(fence) && lines[end].trim().replace(/[`~]/g, '') === '')) end++;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    blocks.push({ lang, code: code + '\n', line: i + 2, skip: skip?.[1] });
    i = end;
  }
  return blocks;
}

/** The blocks of one language in a file of the repository (`docs/gym.md`). */
export function blocksOf(file, lang) {
  return codeBlocks(readFileSync(join(root, file), 'utf8')).filter((b) => b.lang === lang);
}

/**
 * Writes each source of `blocks` into a scratch project whose `compgym`
 * is `pkgDir`, runs it with Node, and hands `check(i, lines)` what it
 * printed; the project is removed afterwards.
 */
export function runExamples(pkgDir, blocks, check) {
  const scratch = mkdtempSync(join(tmpdir(), 'compgym-docs-'));
  try {
    mkdirSync(join(scratch, 'node_modules'));
    symlinkSync(pkgDir, join(scratch, 'node_modules', 'compgym'), 'dir');
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    blocks.forEach((source, i) => {
      const file = join(scratch, `example-${i + 1}.mjs`);
      writeFileSync(file, source);
      const out = execFileSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      check(i, out.trimEnd().split('\n'));
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
