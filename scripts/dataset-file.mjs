// Writes a dataset the npm package ships as a file beside its module rather
// than inside it (src/bril/suite/large/file.rs reads it): every NAME.bril of
// the dataset's folder with its NAME.out, sorted by name.
// Usage: node scripts/dataset-file.mjs OUT.json
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/dataset-file.mjs OUT.json');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const folder = join(root, 'src/bril/suite/large');
const { version } = JSON.parse(readFileSync(join(root, 'pkg.json'), 'utf8'));
const benchmarks = readdirSync(folder)
  .filter((file) => file.endsWith('.bril'))
  .map((file) => file.slice(0, -'.bril'.length))
  .sort()
  .map((name) => ({
    name,
    source: readFileSync(join(folder, `${name}.bril`), 'utf8'),
    expected_output: readFileSync(join(folder, `${name}.out`), 'utf8'),
  }));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ format: 1, dataset: 'large-v0', compgym: version, benchmarks }));
