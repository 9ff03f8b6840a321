// A static file server for www/ (or another folder): correct MIME types for
// wasm and ES modules, nothing outside the root, no dependencies.
// Usage: node scripts/serve.mjs [--root DIR] [--port N]   (port 0: any free port)
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ts': 'text/plain; charset=utf-8',
  '.bril': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Starts serving `root`; resolves to the server once it listens. */
export function serve(root, port = 8080, host = '127.0.0.1') {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': size,
        'cache-control': 'no-cache',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
    }
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
  const root = arg('--root', new URL('../www', import.meta.url).pathname);
  const port = Number(arg('--port', process.env.PORT ?? 8080));
  serve(root, port, process.env.HOST ?? '127.0.0.1').then(
    (server) => console.log(`compgym playground: http://localhost:${server.address().port}/`),
    (err) => {
      console.error(`cannot serve on port ${port}: ${err.message}`);
      process.exit(1);
    },
  );
}
