// `npx compgym`: the package's CLI, installed from the packed tarball, gives
// byte for byte the native command's stdout, stderr and exit status, on
// every community benchmark and on bad input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const pkgDir = join(root, 'pkg');
// The community benchmarks, read in place (see tests/common/community.rs).
const benchDir = join(root, 'data/bril-community');
const native = join(root, 'target/debug/compgym');
let scratch;
let cli;

before(() => {
  // The native command as `cargo test` builds it (a no-op after the native layer).
  execFileSync('cargo', ['build', '--quiet', '--bin', 'compgym'], { cwd: root, stdio: 'inherit' });
  scratch = mkdtempSync(join(tmpdir(), 'compgym-cli-'));
  const tarball = execFileSync('npm', ['pack', pkgDir, '--pack-destination', scratch, '--silent'], {
    encoding: 'utf8',
  }).trim();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(scratch, tarball)], {
    cwd: scratch,
  });
  cli = join(scratch, 'node_modules/.bin/compgym');
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `command args` with `input` on stdin: `{stdout, stderr, status}` (strings). */
function execute(command, args, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: scratch });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), status }),
    );
    child.stdin.on('error', () => {}); // a command that exits before reading stdin
    child.stdin.end(input);
  });
}

/** The native usage text without the benchmark commands, which the package's command lacks. */
const withoutBench = (text) => text.replace(/\n {2}compgym bench-[^]*$/, '\n');

/** Both commands on the same arguments and input; asserts they agree and returns the native result. */
async function same(args, input = '') {
  const [want, got] = await Promise.all([execute(native, args, input), execute(cli, args, input)]);
  const expected = { ...want, stdout: withoutBench(want.stdout), stderr: withoutBench(want.stderr) };
  assert.deepEqual(got, expected, `compgym ${args.join(' ')}`);
  return want;
}

/** Runs `jobs` (functions returning promises) `width` at a time. */
async function pool(jobs, width) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

function benchmarks() {
  assert.ok(existsSync(benchDir), `benchmark folder ${benchDir} is missing`);
  const files = readdirSync(benchDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(benchDir, d.name))
        .filter((f) => f.endsWith('.bril'))
        .map((f) => join(benchDir, d.name, f)),
    )
    .sort();
  assert.ok(files.length >= 80, `expected the whole benchmark set, found ${files.length}`);
  return files;
}

/** The `# ARGS:` arguments of a Bril text file, as brili takes them on its command line. */
function argsLine(source) {
  const line = source.split('\n').find((l) => l.startsWith('# ARGS:'));
  return line ? line.slice('# ARGS:'.length).trim().split(/\s+/).filter(Boolean) : [];
}

test('every community benchmark: json, text, run -p, opt and features agree with the native command', async () => {
  const files = benchmarks();
  let ran = 0;
  const jobs = files.map((file, i) => async () => {
    const source = readFileSync(file, 'utf8');
    const { stdout: json } = await same(['json', file]);
    // The course pipeline: `bril2json < f.bril | brili -p ARGS`, program on stdin.
    await same(['text', '-'], json);
    const run = await same(['run', '-p', '-', ...argsLine(source)], json);
    if (run.status === 0) ran++;
    await same(['opt', '--passes', '-O2', file]);
    await same(['features', file]);
    // The rarer forms on every eighth program.
    if (i % 8 === 0) {
      await same(['run', '--passes', '-lvn -dce -Oz', '-p', file]);
      await same(['verify', file]);
      // Source positions, as `bril2json -p` and `-pp` give them.
      await same(['json', '-p', file]);
      await same(['json', '-pp', '-'], source);
      await same(['opt', '--passes', '-to-ssa -gvn', '--json', file]);
      await same(['features', '--dot', '-'], source);
    }
  });
  await pool(jobs, 3);
  assert.ok(ran >= files.length - 5, `only ${ran} of ${files.length} programs ran`);
});

test('the same usage, errors and exit statuses as the native command', async () => {
  const program = '# ARGS: 4\n@main(n: int) {\n  one: int = const 1;\n  m: int = add n one;\n  print m;\n}\n';
  const crash = '@main {\n  a: int = const 1;\n  print a;\n  z: int = const 0;\n  q: int = div a z;\n}\n';
  const cases = [
    [['run', '-p'], program],
    [['run', '-', '41', '-p'], program],
    [['run', '-p'], crash], // the output before the failure, then exit status 2
    [['run', '-'], '@main {\n  x: int = bogus;\n}'],
    [['run', '/nonexistent/file.bril'], ''],
    [['run', scratch], ''], // a folder
    [['run'], '@main(n: int) {\n  print n;\n}\n'], // no arguments for @main
    [['run', '-', 'x'], program], // a bad argument
    [['run', '--passes', '-nope'], program],
    [['verify'], '@main {\n  print nothing;\n}'],
    [['verify'], program],
    [['text'], Buffer.from([0x40, 0xff, 0xfe])], // not UTF-8
    [['opt', '--passes', '-lvn -dce', '--json'], program],
    [['opt', '--list'], ''],
    [['json', '-p', '-p'], program], // twice -p is -pp
    [['json', '-p'], '{"functions": [{"name": "main", "instrs": [{"op": "print", "args": []}]}]}'],
    [['features', '--dot'], program],
    [['help'], ''],
    [['--help'], ''],
    [['run', '--help'], ''],
    [['leaderboard', '--quick', '-h'], ''],
  ];
  for (const [args, input] of cases) await same(args, input);
});

test('usage errors print the native usage without its benchmark commands', async () => {
  const cases = [[], ['frobnicate'], ['frobnicate', '--help'], ['\t"x"\\\n\u0001'], ['run', '--passes'], ['json', 'a', 'b']];
  for (const args of cases) {
    const { status, stderr } = await same(args);
    assert.equal(status, 1);
    assert.match(stderr, /^error: (missing command|unknown command "|expected at most one file|--passes needs)/);
    assert.match(stderr, /\n {2}compgym bench-env/);
  }
  const bench = await execute(cli, ['bench-interp']);
  assert.equal(bench.status, 1);
  assert.match(bench.stderr, /^error: unknown command "bench-interp"\nusage:\n/);
});

/** A table's rows without the column of seconds, which is each side's own time. */
const withoutSeconds = (table) => table.trimEnd().split('\n').map((row) => row.replace(/\| [\d.]+ \|$/, '|'));

test('leaderboard and train: the same table and the same trained policy as the native command', async () => {
  const args = ['leaderboard', '--quick', '--tasks', 'size', '--agents', 'greedy,explore,policy', '--suite', '3', '--large', '1', '--generated', '2'];
  const [want, got] = await Promise.all([execute(native, args), execute(cli, args)]);
  assert.equal(got.status, 0, got.stderr);
  assert.deepEqual(withoutSeconds(got.stdout), withoutSeconds(want.stdout));
  assert.equal(withoutSeconds(got.stdout).length, 2 + 3 * 3);
  assert.match(got.stderr, /^\[\d+\/18\]\n/);
  const json = await execute(cli, [...args, '--json']);
  const rows = JSON.parse(json.stdout);
  assert.deepEqual(rows.map((r) => r.agent), ['greedy', 'explore', 'policy', 'greedy', 'explore', 'policy', 'greedy', 'explore', 'policy']);

  // Training is the same arithmetic natively and in wasm: the same curve and the same weights.
  const train = (out) => ['train', '--updates', '4', '--batch', '2', '--episode-length', '6', '--hidden', '8', '--validate-every', '2', '--seed', '5', '--out', join(scratch, out)];
  const [nativeTrain, jsTrain] = await Promise.all([execute(native, train('native.json')), execute(cli, train('js.json'))]);
  assert.equal(jsTrain.status, 0, jsTrain.stderr);
  // Each line without its seconds; the saved file's size differs by the digits of its training seconds.
  const curve = (text) =>
    text.split('\n').map((line) => (line.startsWith('saved') ? line.replace(/\(\d+ bytes/, '(N bytes') : line.split(' ').filter((_, i) => i !== 3).join(' ')));
  assert.deepEqual(curve(jsTrain.stdout.replaceAll(join(scratch, 'js.json'), 'F')), curve(nativeTrain.stdout.replaceAll(join(scratch, 'native.json'), 'F')));
  const policy = (file) => {
    const p = JSON.parse(readFileSync(join(scratch, file), 'utf8'));
    delete p.training.seconds;
    return p;
  };
  assert.deepEqual(policy('js.json'), policy('native.json'));

  // Bad arguments: the native statuses and messages.
  for (const bad of [['leaderboard', '--agents', 'oracle'], ['leaderboard', '--steps', 'many'], ['leaderboard', '--policy', '/no/such/policy.json'], ['train', '--hidden', 'big'], ['train', '--batch', '0', '--updates', '1']]) {
    await same(bad);
  }
});

test('a closed pipe ends the output quietly, as for the native command', () => {
  const program = '@main {\n  i: int = const 0;\n  one: int = const 1;\n  n: int = const 20000;\n.loop:\n  print i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .loop .end;\n.end:\n}\n';
  writeFileSync(join(scratch, 'count.bril'), program);
  const out = execFileSync('sh', ['-c', `"${cli}" run count.bril | head -n 2`], { cwd: scratch, encoding: 'utf8' });
  assert.equal(out, '0\n1\n');
});
