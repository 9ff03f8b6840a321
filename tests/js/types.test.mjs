// The package's TypeScript declarations, held to what the package does by
// the TypeScript compiler (pinned in package.json), against the packed
// tarball as users install it:
// - no declaration is `any` (the wasm module's raw exports aside);
// - every example of README.md, of the guides in docs/ and of the package
//   page type-checks: ```js blocks and the module scripts of ```html ones as
//   JavaScript under `checkJs` and `strict`, ```ts blocks as TypeScript, in
//   which a line ending in a `// ✗` comment must be an error (an example
//   after a `<!-- types: skip (why) -->` line is left out: fragments only);
// - types/usage.ts, a strict project using the whole public API, compiles
//   with `tsc --strict`, each of its @ts-expect-error lines is an error the
//   declarations catch, and it runs;
// - the values the API returns have the declared types (types/shapes.mjs
//   writes them as TypeScript literals of those types).
// One compiler run checks all three; each test reads its files' errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { typescript as shapesTypeScript } from './types/shapes.mjs';
import { codeBlocks, docFiles } from './doc-examples.mjs';

const root = new URL('../../', import.meta.url).pathname;
const tsc = new URL('./node_modules/typescript/bin/tsc', import.meta.url).pathname;
/** Markdown files whose examples are checked; the package page as packed (node_modules/compgym/README.md). */
const DOCS = [
  ...docFiles().map((name) => ({ name, path: join(root, name) })),
  { name: 'the package page', path: null },
];
/** Fragments the docs may leave out in all; more than this means examples stopped being programs. */
const MAX_SKIPPED = 2;

let scratch;
let pkg;
let diagnostics = [];
const examples = [];
const skipped = [];

/**
 * The examples of Markdown `text` as files to compile: `{code, ext, line,
 * skip}`, `line` being where the code starts in the Markdown. A ```ts block's
 * lines that end in a `// ✗` comment get a `// @ts-expect-error` line before
 * them (an error not found is then itself an error); an ```html block gives
 * its module scripts.
 */
function examplesIn(text) {
  const out = [];
  for (const { lang, code, line, skip } of codeBlocks(text)) {
    if (lang === 'js') out.push({ code, ext: 'mjs', line, skip, map: null });
    if (lang === 'ts') {
      // map[i]: the Markdown offset of the compiled file's line i, so errors point into the guide.
      const lines = [];
      const map = [];
      code.split('\n').forEach((l, i) => {
        if (/\/\/ ✗/.test(l)) {
          lines.push('// @ts-expect-error');
          map.push(i);
        }
        lines.push(l);
        map.push(i);
      });
      out.push({ code: lines.join('\n'), ext: 'mts', line, skip, map });
    }
    if (lang === 'html') {
      // A page imports the package by path; its types are those of the package's entry point
      // (`compgym.d.ts`, whose default export is `init`), which a bare `compgym` resolves to.
      const scripts = /<script type="module">\n([\s\S]*?)<\/script>/g;
      for (const m of code.matchAll(scripts)) {
        const offset = code.slice(0, m.index).split('\n').length;
        const script = m[1].replaceAll("'./node_modules/compgym/index.js'", "'compgym'");
        out.push({ code: script, ext: 'mjs', line: line + offset, skip, map: null });
      }
    }
  }
  return out;
}

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'compgym-types-'));
  pkg = join(scratch, 'node_modules', 'compgym');
  mkdirSync(pkg, { recursive: true });
  const tarball = execFileSync('npm', ['pack', join(root, 'pkg'), '--pack-destination', scratch, '--silent'], {
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', join(scratch, tarball), '-C', pkg, '--strip-components=1']);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));

  DOCS.at(-1).path = join(pkg, 'README.md');
  for (const [k, doc] of DOCS.entries()) {
    for (const example of examplesIn(readFileSync(doc.path, 'utf8'))) {
      if (example.skip) {
        skipped.push(`${doc.name} line ${example.line}: ${example.skip}`);
        continue;
      }
      const file = `example-${k}-${example.line}.${example.ext}`;
      writeFileSync(join(scratch, file), example.code);
      examples.push({ file, doc: doc.name, line: example.line, map: example.map });
    }
  }

  copyFileSync(new URL('./types/usage.ts', import.meta.url), join(scratch, 'usage.ts'));
  const c = await import(pathToFileURL(join(pkg, 'node.js')).href);
  const classes = Object.fromEntries(Object.entries(c).filter(([, v]) => typeof v === 'function' && /^[A-Z]/.test(v.name)));
  writeFileSync(join(scratch, 'shapes.ts'), shapesTypeScript(c, classes));

  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        allowJs: true,
        checkJs: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['esnext', 'dom'],
        // The project sees the package's declarations and nothing else (no Node types).
        types: [],
        outDir: 'out',
      },
      files: ['usage.ts', 'shapes.ts', ...examples.map((e) => e.file)],
    }),
  );
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', '.', '--pretty', 'false'], { cwd: scratch, encoding: 'utf8' });
  } catch (e) {
    output = `${e.stdout}${e.stderr}`;
  }
  // Each diagnostic starts a line with `file(line,col): error`; continuation lines follow it.
  diagnostics = output.split(/\n(?=\S)/).filter((d) => d.trim());
});

after(() => rmSync(scratch, { recursive: true, force: true }));

const errorsIn = (file) => diagnostics.filter((d) => d.startsWith(`${file}(`) || d.startsWith(`${file}:`));

test('no public declaration is `any`', () => {
  const found = [];
  for (const file of ['compgym.d.ts', 'remote.d.ts', 'worker.d.ts', 'gym/index.d.ts']) {
    const text = readFileSync(join(pkg, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1}: ${text.split('\n')[line].trim()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(found, []);
});

test('every example of the docs type-checks under strict, and each line marked ✗ is an error', () => {
  assert.ok(examples.length >= 20, `only ${examples.length} examples found`);
  assert.ok(examples.some((e) => e.file.endsWith('.mts')), 'a ```ts example is checked');
  assert.ok(skipped.length <= MAX_SKIPPED, `examples left out:\n${skipped.join('\n')}`);
  // Each error is placed in its Markdown file: `docs/gym.md:49:72: error TS2365: ...`.
  const failures = examples.flatMap(({ file, doc, line, map }) =>
    errorsIn(file).map((d) =>
      d.replace(/^[^(]+\((\d+),(\d+)\)/, (_, row, col) => `${doc}:${line + (map ? map[Number(row) - 1] : Number(row) - 1)}:${col}`),
    ),
  );
  assert.deepEqual(failures, []);
});

test('a strict project using the whole public API compiles, rejects its mistakes, and runs', () => {
  assert.deepEqual(errorsIn('usage.ts'), []);
  // An unused @ts-expect-error is itself an error above, so every marked mistake was caught.
  const mistakes = readFileSync(join(scratch, 'usage.ts'), 'utf8').match(/@ts-expect-error/g).length;
  assert.ok(mistakes >= 25, `${mistakes} mistakes checked`);
  execFileSync(process.execPath, [join(scratch, 'out', 'usage.js')], { cwd: scratch, encoding: 'utf8' });
});

test('the values the package returns have the types it declares', () => {
  const shapes = readFileSync(join(scratch, 'shapes.ts'), 'utf8').match(/^export const/gm).length;
  assert.ok(shapes > 250, `${shapes} values checked`);
  assert.deepEqual(errorsIn('shapes.ts'), []);
  // Nothing else went wrong (a declaration file that does not compile, say).
  const elsewhere = diagnostics.filter((d) => !/^(usage\.ts|shapes\.ts|example-[\d-]+\.m[jt]s)[(:]/.test(d));
  assert.deepEqual(elsewhere, []);
});
