// Builds the documentation site (`make docs`) into one folder that
// scripts/serve.mjs serves at /docs/:
//   index.html, NAME.html   the guides of docs/ (docs/README.md is the index),
//                           and the repository's README, ARCHITECTURE and
//                           CHANGELOG, rendered with markdown-it; links between
//                           them point at the rendered pages
//   js/                     the JS reference: TypeDoc over the package's
//                           declarations (pkg/, from `make build`)
//   rust/                   the Rust reference: `cargo doc --no-deps --lib`
// Usage: node scripts/site/build.mjs [--out DIR] [--no-rust]   (default .tmp/site)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import { Application, LogLevel } from 'typedoc';

const root = new URL('../../', import.meta.url).pathname;
const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const out = process.argv.includes('--out') ? resolve(arg('--out')) : join(root, '.tmp/site');
const withRust = !process.argv.includes('--no-rust');

/** The package's entry points with their declarations, as a user imports them. */
const ENTRY_POINTS = ['compgym.d.ts', 'gym/index.d.ts', 'remote.d.ts', 'worker.d.ts', 'agents.d.ts', 'agents-worker.d.ts'];

function fail(message) {
  console.error(`make docs: ${message}`);
  process.exit(1);
}

/** Repository path of each Markdown file rendered, to the page it becomes. */
function pages() {
  const map = new Map([
    ['README.md', 'readme.html'],
    ['ARCHITECTURE.md', 'architecture.html'],
    ['CHANGELOG.md', 'changelog.html'],
  ]);
  for (const name of readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).sort()) {
    map.set(`docs/${name}`, name === 'README.md' ? 'index.html' : name.replace(/\.md$/, '.html'));
  }
  return map;
}

/** GitHub's anchor of a heading, so links written for GitHub land on the same headings here. */
function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * A Markdown renderer for the file at repository path `file`: headings get
 * GitHub's ids, links to rendered files point at their pages, and links to
 * anything else of the repository (source files, guides not written yet) keep
 * their text and lose the link, since the site does not hold those files.
 */
function renderer(file, pageOf) {
  const md = new MarkdownIt({ html: true, linkify: false });
  const seen = new Map();
  md.core.ruler.push('github_ids_and_links', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].type === 'heading_open') {
        const base = slug(tokens[i + 1].children.map((t) => t.content).join(''));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        tokens[i].attrSet('id', n ? `${base}-${n}` : base);
      }
      if (tokens[i].type !== 'inline') continue;
      const children = tokens[i].children;
      for (let j = 0; j < children.length; j++) {
        if (children[j].type !== 'link_open') continue;
        const href = children[j].attrGet('href');
        if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) continue;
        const [path, anchor] = href.split('#');
        const page = pageOf.get(normalize(join(dirname(file), decodeURIComponent(path))));
        if (page) {
          children[j].attrSet('href', anchor ? `${page}#${anchor}` : page);
          continue;
        }
        // Unlink: drop the link's open and its matching close, keep what is between.
        let depth = 0;
        for (let k = j; k < children.length; k++) {
          if (children[k].type === 'link_open') depth++;
          if (children[k].type === 'link_close' && --depth === 0) {
            children.splice(k, 1);
            break;
          }
        }
        children.splice(j, 1);
        j--;
      }
    }
  });
  return md;
}

function page(title, body, rust) {
  const nav = [
    ['index.html', 'Guides'],
    ['js/index.html', 'JS reference'],
    ...(rust ? [['rust/compgym/index.html', 'Rust reference']] : []),
    ['changelog.html', 'Changelog'],
    ['../', 'Playground'],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — compgym</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<nav>${nav.map(([href, text]) => `<a href="${href}">${text}</a>`).join('\n')}</nav>
<main>
${body}
</main>
</body>
</html>
`;
}

const STYLE = `body { margin: 0; font: 16px/1.55 system-ui, sans-serif; color: #1d2329; background: #fff; }
nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0.75rem 1.5rem; background: #1d2329; }
nav a { color: #e8edf2; text-decoration: none; font-weight: 600; }
nav a:hover, nav a:focus { text-decoration: underline; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
a { color: #0b5cad; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f1f3f5; padding: 0.1em 0.25em; border-radius: 3px; }
pre { background: #f6f8fa; padding: 0.75rem 1rem; overflow-x: auto; border-radius: 4px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1rem 0; }
th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; vertical-align: top; }
th { background: #f6f8fa; }
h1, h2, h3 { line-height: 1.25; }
`;

function renderGuides(rust) {
  const pageOf = pages();
  for (const [file, name] of pageOf) {
    const text = readFileSync(join(root, file), 'utf8');
    const title = /^# (.+)$/m.exec(text)?.[1].replace(/`/g, '') ?? name;
    writeFileSync(join(out, name), page(title, renderer(file, pageOf).render(text), rust));
  }
  writeFileSync(join(out, 'style.css'), STYLE);
  return pageOf.size;
}

/** TypeDoc over the declarations in pkg/, into js/; fails on any error TypeDoc reports. */
async function jsReference() {
  const pkg = join(root, 'pkg');
  const missing = ENTRY_POINTS.filter((f) => !existsSync(join(pkg, f)));
  if (missing.length) fail(`pkg/ lacks ${missing.join(', ')}: run make build first`);
  const scratch = mkdtempSync(join(tmpdir(), 'compgym-typedoc-'));
  try {
    const tsconfig = join(scratch, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['esnext', 'dom'], types: [] },
        files: ENTRY_POINTS.map((f) => join(pkg, f)),
      }),
    );
    const app = await Application.bootstrapWithPlugins({
      name: 'compgym',
      entryPoints: ENTRY_POINTS.map((f) => join(pkg, f)),
      entryPointStrategy: 'resolve',
      tsconfig,
      readme: 'none',
      disableSources: true,
      // The site is served at /docs/ (scripts/serve.mjs), whatever the depth of a reference page.
      navigationLinks: { Guides: '/docs/', 'Rust reference': '/docs/rust/compgym/', Playground: '/' },
      excludeExternals: true,
      logLevel: LogLevel.Warn,
      // Declarations the reference mentions but does not export are not an error.
      validation: { notExported: false, invalidLink: true, notDocumented: false },
    });
    const project = await app.convert();
    if (!project || app.logger.hasErrors()) fail('TypeDoc could not read the declarations');
    app.validate(project);
    await app.generateDocs(project, join(out, 'js'));
    if (app.logger.hasErrors()) fail('TypeDoc reported errors');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `cargo doc --no-deps` of the crate's library, copied into rust/. */
function rustReference() {
  const target = process.env.CARGO_TARGET_DIR ? normalize(join(root, process.env.CARGO_TARGET_DIR)) : join(root, 'target');
  execFileSync('cargo', ['doc', '--no-deps', '--lib', '--quiet'], { cwd: root, stdio: 'inherit' });
  cpSync(join(target, 'doc'), join(out, 'rust'), { recursive: true });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await jsReference();
if (withRust) rustReference();
const guides = renderGuides(withRust);
const shown = relative(process.cwd(), out);
console.log(`built ${shown.startsWith('..') ? out : shown}/: ${guides} pages, the JS reference${withRust ? ' and the Rust reference' : ''}`);
