// The space benchmark: compgym's JS API (the built package, wasm in Node),
// compgym's Rust core natively, and Gymnasium in Python, in one run on one
// machine. Prints rates and the ratios that matter.
//
// The three sides run in turn, ROUNDS times, and each rate is the best of its
// rounds: on a shared machine, load that comes and goes then slows every side
// alike instead of whichever side happened to run during it.
//
//   make bench-spaces            (builds the package and sets up Gymnasium first)
//   node bench/spaces.mjs [seconds-per-measurement] [rounds]
import { execFileSync } from 'node:child_process';
import { Space } from '../pkg/node.js';

const SECONDS = Number(process.argv[2] ?? 0.5);
const ROUNDS = Number(process.argv[3] ?? 3);
const root = new URL('..', import.meta.url).pathname;

/** Calls per second of `fn`, measured for about SECONDS. */
function rate(fn, unitsPerCall = 1) {
  fn();
  let calls = 0;
  let chunk = 1;
  const start = performance.now();
  for (;;) {
    for (let i = 0; i < chunk; i++) fn();
    calls += chunk;
    const elapsed = (performance.now() - start) / 1000;
    if (elapsed >= SECONDS) return (calls * unitsPerCall) / elapsed;
    chunk = Math.min(chunk * 2, 1 << 20);
  }
}

function compgymRates() {
  const discrete = Space.discrete(124);
  const box = Space.box({ low: 0, high: 1, shape: [64], name: 'box' });
  const dict = Space.dict({
    action: Space.discrete(124, { name: 'action' }),
    features: Space.box({ low: -1, high: 1, shape: [8], name: 'features' }),
    flag: Space.discrete(2, { name: 'flag' }),
  });
  const text = Space.text({ minLength: 1, maxLength: 16 });
  for (const s of [discrete, box, dict, text]) s.seed(0);
  const member = box.sample();
  const rows = 1024;
  return {
    'Discrete(124).sample': rate(() => discrete.sample()),
    'Box(float32,[64]).sample': rate(() => box.sample()),
    'Dict(Discrete,Box,Discrete).sample': rate(() => dict.sample()),
    'Text(16).sample': rate(() => text.sample()),
    'Box(float32,[64]).contains': rate(() => box.contains(member)),
    'Box(float32,[64]).sample_batch': rate(() => box.sampleBatch(rows), rows * 64),
  };
}

function run(command, args) {
  return JSON.parse(execFileSync(command, args, { cwd: root, encoding: 'utf8' }));
}

/** The best rate of each operation over the rounds. */
function best(all) {
  const out = {};
  for (const rates of all) for (const [k, v] of Object.entries(rates)) out[k] = Math.max(out[k] ?? 0, v);
  return out;
}

const rounds = { js: [], native: [], gym: [] };
let gym;
for (let r = 0; r < ROUNDS; r++) {
  rounds.js.push(compgymRates());
  rounds.native.push(run(`${root}target/release/compgym-bench`, ['spaces', '--seconds', String(SECONDS), '--json']));
  gym = run(`${root}.tmp/bench-venv/bin/python`, ['bench/gym_spaces.py', String(SECONDS)]);
  rounds.gym.push(gym.rates);
}
const js = best(rounds.js);
const native = best(rounds.native);
gym.rates = best(rounds.gym);

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : `${(x / 1e3).toFixed(0)} k`);
console.log(`Gymnasium ${gym.gymnasium} (numpy ${gym.numpy}, Python ${gym.python}), Node ${process.version}, ${SECONDS}s per measurement, best of ${ROUNDS} rounds\n`);
console.log('| operation | compgym JS (wasm) /s | compgym native /s | Gymnasium /s | JS ÷ Gymnasium | wasm ÷ native |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, ours] of Object.entries(js)) {
  const theirs = gym.rates[name];
  const unit = name.endsWith('sample_batch') ? ' values' : '';
  console.log(
    `| ${name} | ${fmt(ours)}${unit} | ${fmt(native[name])}${unit} | ${fmt(theirs)}${unit} | ${(ours / theirs).toFixed(1)}× | ${(ours / native[name]).toFixed(2)} |`,
  );
}
