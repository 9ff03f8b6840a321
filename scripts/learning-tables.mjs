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

// The searches, one file per task and search seed: each agent's geometric
// mean per seed, their mean and worst, and how many programs ended better
// (the fewest of any seed) and worse (the most).
const searches = readdirSync(dir).filter((f) => /^searches-.*-\d+\.json$/.test(f)).sort();
const agents = new Map();
for (const file of searches) {
  const seed = Number(file.match(/-(\d+)\.json$/)?.[1]);
  for (const r of read(file)) {
    const key = `${r.task} | ${r.dataset} (${r.valid}) | ${r.agent} | ${r.baseline}`;
    if (!agents.has(key)) agents.set(key, []);
    agents.get(key).push({ seed, ...r });
  }
}
if (agents.size > 0) {
  console.log('\n| task | programs | agent | vs | seed 0 | seed 1 | seed 2 | mean | worst | better (fewest) | worse (most) |');
  console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [key, runs] of agents) {
    runs.sort((a, b) => a.seed - b.seed);
    const means = runs.map((r) => r.geomean);
    const mean = Math.exp(means.reduce((t, g) => t + Math.log(g), 0) / means.length);
    const cells = [0, 1, 2].map((seed) => runs.find((r) => r.seed === seed)).map((r) => (r ? x(r.geomean) : ''));
    const better = Math.min(...runs.map((r) => r.better));
    const worse = Math.max(...runs.map((r) => r.worse));
    console.log(`| ${key} | ${cells.join(' | ')} | ${x(mean)} | ${x(Math.min(...means))} | ${better} | ${worse} |`);
  }
}
