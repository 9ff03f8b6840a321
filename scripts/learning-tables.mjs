// The tables of docs/learning.md from `scripts/learning.sh`'s outputs: the
// zero-shot policy per task and dataset (each seed's geometric mean against
// the baseline, their mean and worst, the largest share of programs a seed
// made worse), then the fixed sequence and the searches at equal steps.
//
//   node scripts/learning-tables.mjs DIR
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.tmp/learning';
const read = (file) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const x = (v) => `${v.toFixed(3)}x`;
const pct = (v) => `${Math.round(100 * v)}%`;

const boards = readdirSync(dir).filter((f) => /^policy-.*\.json\.board$/.test(f)).sort();
const rows = new Map();
for (const file of boards) {
  const seed = Number(file.match(/-(\d+)\.json\.board$/)?.[1]);
  for (const row of read(file)) {
    const key = `${row.task} | ${row.dataset} | ${row.baseline}`;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push({ seed, geomean: row.geomean, worse: row.worse / Math.max(1, row.valid), programs: row.valid });
  }
}
console.log('| task | programs | vs | seed 1 | seed 2 | seed 3 | mean | worst | most made worse |');
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
for (const [key, seeds] of rows) {
  seeds.sort((a, b) => a.seed - b.seed);
  const [task, dataset, baseline] = key.split(' | ');
  const means = seeds.map((s) => s.geomean);
  const mean = Math.exp(means.reduce((t, g) => t + Math.log(g), 0) / means.length);
  const cells = seeds.map((s) => x(s.geomean));
  while (cells.length < 3) cells.push('');
  const worse = Math.max(...seeds.map((s) => s.worse));
  console.log(`| ${task} | ${dataset} (${seeds[0].programs}) | ${baseline} | ${cells.join(' | ')} | ${x(mean)} | ${x(Math.min(...means))} | ${pct(worse)} |`);
}

const searches = readdirSync(dir).filter((f) => /^searches-.*\.json$/.test(f)).sort();
if (searches.length > 0) {
  console.log('\n| task | programs | agent | vs | geomean | better | worse |');
  console.log('|---|---|---|---|---:|---:|---:|');
  for (const file of searches) {
    for (const r of read(file)) {
      console.log(`| ${r.task} | ${r.dataset} (${r.valid}) | ${r.agent} | ${r.baseline} | ${x(r.geomean)} | ${r.better} | ${r.worse} |`);
    }
  }
}
