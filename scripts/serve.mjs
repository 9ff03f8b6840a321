// A static file server for the playground (www/dist/, or another folder):
// correct MIME types for wasm and ES modules, nothing outside the root,
// compression (a precompressed `.br`/`.gz` beside a file when there is one,
// else compressed once and kept), and ETag validators so a reload costs a
// 304 per file. Folders may be mounted under a prefix: the playground's
// server mounts the documentation site (`make docs`, .tmp/site/) at /docs/.
// No dependencies.
// Usage: node scripts/serve.mjs [--root DIR] [--docs DIR] [--port N]   (port 0: any free port)
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ts': 'text/plain; charset=utf-8',
  '.bril': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.wasm', '.svg', '.ts', '.bril', '.txt']);

/**
 * Bodies by encoding, computed once per file version (path, size, mtime):
 * `{identity, br, gzip}`, each `{body, etag}`.
 */
const cache = new Map();

function variants(file, stat) {
  const key = `${file}\0${stat.size}\0${stat.mtimeMs}`;
  const cached = cache.get(file);
  if (cached?.key === key) return cached;
  const body = readFileSync(file);
  const tag = createHash('sha1').update(body).digest('base64url').slice(0, 20);
  const entry = { key, identity: { body, etag: `"${tag}"` } };
  if (COMPRESSIBLE.has(extname(file)) && body.length > 512) {
    entry.br = { body: sibling(file, '.br') ?? brotli(body), etag: `"${tag}-br"` };
    entry.gzip = { body: sibling(file, '.gz') ?? gzipSync(body, { level: 6 }), etag: `"${tag}-gz"` };
  }
  cache.set(file, entry);
  return entry;
}

/** A precompressed copy beside `file` that is at least as new as it. */
function sibling(file, suffix) {
  try {
    if (statSync(file + suffix).mtimeMs >= statSync(file).mtimeMs) return readFileSync(file + suffix);
  } catch {}
  return null;
}

function brotli(body) {
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** Encodings the client accepts (q > 0), from an Accept-Encoding header. */
function accepted(header = '') {
  const names = new Set();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
  return names;
}

/** The best encoding the client accepts among those the file has. */
function pick(entry, acceptEncoding) {
  const accepts = accepted(acceptEncoding);
  if (entry.br && accepts.has('br')) return ['br', entry.br];
  if (entry.gzip && accepts.has('gzip')) return ['gzip', entry.gzip];
  return [null, entry.identity];
}

/**
 * Starts serving `root`, and each folder of `mounts` (`{'/docs/': dir}`)
 * under its prefix; resolves to the server once it listens.
 */
export function serve(root, port = 8080, host = '127.0.0.1', { mounts = {} } = {}) {
  const folders = Object.entries(mounts).map(([prefix, dir]) => [prefix, resolve(dir)]);
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    let base = resolve(root);
    for (const [prefix, dir] of folders) {
      // `/docs` is `/docs/`, so that the site's relative links resolve inside it.
      if (path === prefix.slice(0, -1)) {
        res.writeHead(301, { location: prefix }).end();
        return;
      }
      if (path.startsWith(prefix)) {
        if (!existsSync(dir)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end(`not built: run make docs (${prefix} serves ${dir})`);
          return;
        }
        base = dir;
        path = path.slice(prefix.length - 1);
        break;
      }
    }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let entry;
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      entry = variants(file, statSync(file));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
      return;
    }
    const [encoding, { body, etag }] = pick(entry, req.headers['accept-encoding']);
    const headers = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      etag,
      vary: 'accept-encoding',
    };
    if (encoding) headers['content-encoding'] = encoding;
    const matches = (req.headers['if-none-match'] ?? '').split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
    if (matches) {
      res.writeHead(304, headers).end();
      return;
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const root = arg('--root', new URL('../www/dist', import.meta.url).pathname);
  const docs = arg('--docs', new URL('../.tmp/site', import.meta.url).pathname);
  const port = Number(arg('--port', process.env.PORT ?? 8080));
  serve(root, port, process.env.HOST ?? '127.0.0.1', { mounts: { '/docs/': docs } }).then(
    (server) => {
      const url = `http://localhost:${server.address().port}/`;
      console.log(`compgym playground: ${url}`);
      console.log(`documentation: ${url}docs/${existsSync(docs) ? '' : ' (not built yet: make docs)'}`);
    },
    (err) => {
      console.error(`cannot serve on port ${port}: ${err.message}`);
      process.exit(1);
    },
  );
}
