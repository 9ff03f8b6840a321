// The docs hold up: README.md stays a short front door, every relative link
// of README.md, CHANGELOG.md and docs/*.md reaches a file (and a heading, where
// it names one), and every code block is of a language some test checks.
// Examples in JS, TS and HTML are type-checked by types.test.mjs (and some run
// by gym-guide and agents-guide); Rust ones are doc tests, so here their file
// must be included in src/lib.rs; shell commands must name what exists; Bril
// must parse and verify; JSON must parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { codeBlocks, docFiles, root } from './doc-examples.mjs';

/** What the front door may weigh. */
const README_MAX_BYTES = 12_000;
/**
 * Guides other changes are adding (see docs/README.md): links to them may
 * point nowhere until those land. Empty this once they have.
 */
const PENDING = new Set(['docs/learning.md', 'docs/generator.md', 'docs/limits.md', 'docs/compiler.md', 'docs/cli.md']);
/** The languages of code blocks, each checked by some test (python: run by python/tests/test_docs.py). */
const CHECKED = new Set(['js', 'ts', 'html', 'rust', 'sh', 'bril', 'json', 'python']);

const files = [...docFiles(), 'CHANGELOG.md'];
const read = (file) => readFileSync(join(root, file), 'utf8');

/** Markdown `text` without its fenced blocks and code spans, which hold no links. */
function prose(text) {
  const lines = text.split('\n');
  for (const { line, code } of codeBlocks(text)) {
    const n = code.split('\n').length - 1;
    for (let i = line - 2; i <= line - 1 + n; i++) lines[i] = '';
  }
  return lines.join('\n').replace(/(`+)[\s\S]*?\1/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function anchorsOf(file) {
  const text = readFileSync(file, 'utf8');
  const headings = prose(text.replace(/`/g, '\u0000'))
    .replace(/\u0000/g, '')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l));
  return new Set(headings.map((h) => slug(h.replace(/^#+ /, ''))));
}

test('README.md is a front door of at most 12 KB', () => {
  const bytes = statSync(join(root, 'README.md')).size;
  assert.ok(bytes <= README_MAX_BYTES, `README.md is ${bytes} bytes; move what a guide says at length into docs/`);
  // The two commands, exactly as its first lines have always said them.
  assert.match(read('README.md'), /^# compgym\n\n```sh\nmake serve {3}# .*\nmake test {4}# .*\n```\n/);
});

test('every relative link of the README, the changelog and the guides reaches a file and a heading', () => {
  const broken = [];
  for (const file of files) {
    for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
      if (PENDING.has(resolved) && !existsSync(join(root, resolved))) continue;
      if (!existsSync(join(root, resolved))) {
        broken.push(`${file}: ${target} (no ${resolved})`);
      } else if (anchor && resolved.endsWith('.md') && !anchorsOf(join(root, resolved)).has(anchor)) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('every code block of the docs is of a language some test checks', () => {
  const unchecked = files.flatMap((file) =>
    codeBlocks(read(file))
      .filter((b) => !CHECKED.has(b.lang))
      .map((b) => `${file}:${b.line - 1}: a block of ${b.lang ? `"${b.lang}"` : 'no language'}`),
  );
  assert.deepEqual(unchecked, [], `fence each block as one of ${[...CHECKED].join(', ')}`);
});

test("the guides' Rust examples are doc tests: their files are included in src/lib.rs", () => {
  const lib = readFileSync(join(root, 'src/lib.rs'), 'utf8');
  const withRust = files.filter((file) => codeBlocks(read(file)).some((b) => b.lang === 'rust'));
  assert.ok(withRust.length >= 2, `Rust examples in ${withRust}`);
  const missing = withRust.filter((file) => !lib.includes(`include_str!("../${file}")`));
  assert.deepEqual(missing, [], 'add #[doc = include_str!("../FILE")] to the guides module of src/lib.rs');
});

/** What the shell blocks may name. */
function known() {
  const makeTargets = new Set([...readFileSync(join(root, 'Makefile'), 'utf8').matchAll(/^([\w-]+):/gm)].map((m) => m[1]));
  // The command line's usage is the core's (src/cli/); the benchmark drivers are compgym-bench's.
  const sources = (dir) =>
    readdirSync(join(root, dir), { recursive: true })
      .filter((f) => String(f).endsWith('.rs'))
      .map((f) => readFileSync(join(root, dir, String(f)), 'utf8'))
      .join('\n');
  const cli = sources('src/cli') + sources('src/bin');
  const commands = new Set([...cli.matchAll(/\bcompgym ([a-z][a-z0-9-]*)/g)].map((m) => m[1]));
  const benchCommands = new Set([...cli.matchAll(/\bcompgym-bench ([a-z][a-z0-9-]*)/g)].map((m) => m[1]));
  return { makeTargets, cli, commands, benchCommands };
}

/** The words of one shell command, quotes removed, redirections and their files dropped. */
function words(command) {
  const out = [];
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out.filter((w, i) => !/^[<>]/.test(w) && !/^[<>]$/.test(out[i - 1] ?? ''));
}

/** The simple commands of a shell block: continuations joined, comments cut, split at pipes and lists. */
function commandsOf(code) {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .flatMap(splitList)
    .filter(Boolean);
}

/** One line split at pipes and lists (`|`, `||`, `&&`, `;`) outside quotes. */
function splitList(line) {
  const parts = [];
  let current = '';
  for (const m of line.matchAll(/"[^"]*"|'[^']*'|\|\||&&|[|;]|[^"'|&;]+|./g)) {
    if (['|', '||', '&&', ';'].includes(m[0])) {
      parts.push(current.trim());
      current = '';
    } else current += m[0];
  }
  return [...parts, current.trim()];
}

/** Problems with one command: a make target, CLI command or option, or file that does not exist. */
function checkCommand(command, names) {
  const { makeTargets, cli, commands, benchCommands } = names;
  const w = words(command);
  while (/^[A-Z_]+=/.test(w[0] ?? '')) w.shift();
  const problems = [];
  const exists = (path) => existsSync(join(root, path)) || problems.push(`no file ${path}`);
  const compgym = (args, known = commands) => {
    if (!known.has(args[0])) problems.push(`no compgym command ${args[0]}`);
    for (const a of args.slice(1)) {
      const option = /^--[a-z][a-z0-9-]*/.exec(a)?.[0];
      if (option && !cli.includes(`${option}`)) problems.push(`compgym has no option ${option}`);
      if (!option && /^[\w.-]+\/[\w./-]+$/.test(a)) exists(a);
    }
  };
  const [head, ...rest] = w;
  if (head === 'make') rest.filter((t) => !t.includes('=')).forEach((t) => makeTargets.has(t) || problems.push(`no make target ${t}`));
  else if (head === 'compgym' || head === 'target/release/compgym') compgym(rest);
  else if (head === 'compgym-bench' || head === 'target/release/compgym-bench') compgym(rest, benchCommands);
  else if (head === 'npx' && rest[0] === 'compgym') compgym(rest.slice(1));
  else if (['echo', 'printf', 'dot'].includes(head)) return problems; // the shell's and Graphviz's
  else if (head === 'valgrind') return checkCommand(rest.slice(rest.findIndex((t) => !t.startsWith('-'))).join(' '), names); // its options, then what it runs
  else if (head === 'npm') ['i', 'install', 'ci'].includes(rest[0]) || problems.push(`npm ${rest[0]}`);
  else if (head === 'node' || head === 'python3') rest.filter((t) => !t.startsWith('-') && /\.(m?js|py)$/.test(t)).forEach(exists);
  else if (head === 'cargo') {
    const args = rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length);
    const after = rest.slice(args.length + 1);
    if (!['build', 'test', 'run', 'doc', 'fuzz', 'install'].includes(args[0])) problems.push(`cargo ${args[0]}`);
    const testName = args[args.indexOf('--test') + 1];
    if (args.includes('--test')) exists(`tests/${testName}.rs`);
    if (args[0] === 'fuzz' && args[1] === 'run' && !args[2].startsWith('<')) exists(`fuzz/fuzz_targets/${args[2]}.rs`);
    if (args[0] === 'run' && args.includes('compgym')) compgym(after);
    if (args[0] === 'run' && args.includes('compgym-bench')) compgym(after, benchCommands);
  } else if (/^(\.\/)?scripts\//.test(head ?? '')) exists(head);
  else problems.push(`a command no test knows: ${head}`);
  return problems;
}

test('every shell command of the docs names a make target, a compgym command and option, or a file that exists', () => {
  const names = known();
  assert.ok(names.commands.has('run') && names.commands.has('leaderboard'), 'the CLI usage was read');
  const problems = [];
  for (const file of files) {
    for (const block of codeBlocks(read(file)).filter((b) => b.lang === 'sh')) {
      for (const command of commandsOf(block.code)) {
        for (const p of checkCommand(command, names)) problems.push(`${file}:${block.line}: ${command}: ${p}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  // The checker is not blind: what does not exist is caught.
  assert.ok(checkCommand('make no-such-target', names).length > 0);
  assert.ok(checkCommand('compgym leaderboard --no-such-option', names).length > 0);
  assert.ok(checkCommand('compgym-bench no-such-bench', names).length > 0);
  assert.ok(checkCommand('cargo test --test no_such_test', names).length > 0);
  assert.ok(checkCommand('brili -p 10', names).length > 0);
});

test('every Bril block of the docs parses and verifies, every JSON block parses', async () => {
  const { verifyBril } = await import(new URL('../../pkg/node.js', import.meta.url).href);
  const failures = [];
  for (const file of files) {
    for (const { lang, code, line } of codeBlocks(read(file))) {
      try {
        if (lang === 'json') JSON.parse(code);
        // A fragment with no function is read as the body of @main.
        if (lang === 'bril') verifyBril(/^\s*@/m.test(code) ? code : `@main {\n${code}}\n`);
      } catch (e) {
        failures.push(`${file}:${line}: ${e instanceof Error ? `${e.name}: ${e.message}` : e}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
