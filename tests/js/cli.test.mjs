// `npx compgym`, installed from the packed tarball: a shell over `runCli`,
// the same core command line as the native binary. It runs every community
// program as `brili` does, gives the native binary's bytes and status (by
// construction; one test shows it), and speaks Node's words for OS errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const pkgDir = join(root, 'pkg');
// The community programs with brili's outputs and counts beside them (see their README).
const community = join(root, 'data/bril-community');
const native = join(root, 'target/debug/compgym');
let scratch;
let cli;
let brili;

before(() => {
  // The native command as the native layer's `cargo test` builds it, with the
  // same features, so after that layer nothing is compiled (a `cargo build`
  // resolves the dependencies' features without the dev-dependencies, and
  // would compile the crate again).
  execFileSync('cargo', ['test', '--quiet', '--locked', '--no-run', '--features', 'fuzzing', '--test', 'cli'], {
    cwd: root,
    stdio: 'inherit',
  });
  scratch = mkdtempSync(join(tmpdir(), 'compgym-cli-'));
  const tarball = execFileSync('npm', ['pack', pkgDir, '--pack-destination', scratch, '--silent'], {
    encoding: 'utf8',
  }).trim();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(scratch, tarball)], {
    cwd: scratch,
  });
  cli = join(scratch, 'node_modules/.bin/compgym');
  brili = join(scratch, 'node_modules/.bin/brili'); // the package's second command
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `command args` in `cwd` with `input` on stdin: `{stdout, stderr, status}` (strings). */
function execute(command, args, input = '', cwd = scratch) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd });
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

/** Runs `jobs` (functions returning promises) `width` at a time. */
async function pool(jobs, width) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Every community program: `{file, args, out, prof, json}`, from the files beside it (`out`
 * and `prof` are null for the one program brili has no reference output for). */
function programs() {
  const files = readdirSync(community, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(community, d.name)).filter((f) => f.endsWith('.bril')).map((f) => join(community, d.name, f)))
    .sort();
  assert.ok(files.length >= 80, `expected the whole community set, found ${files.length}`);
  return files.map((file) => {
    const line = readFileSync(file, 'utf8').split('\n').find((l) => /^#\s*ARGS:/.test(l));
    const besides = (ext) => {
      const path = file.replace(/\.bril$/, ext);
      return existsSync(path) ? readFileSync(path, 'utf8') : null;
    };
    return {
      file,
      args: line ? line.replace(/^#\s*ARGS:/, '').trim().split(/\s+/).filter(Boolean) : [],
      out: besides('.out'),
      prof: besides('.prof'),
      json: besides('.json'),
    };
  });
}

test('every community program: bril2json, then brili -p ARGS on stdin, give the reference outputs', async () => {
  const all = programs();
  const jobs = all.map((p, i) => async () => {
    const json = await execute(cli, ['json', p.file]);
    assert.equal(json.status, 0, `${p.file}: ${json.stderr}`);
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(p.json), `${p.file}: the reference bril2json`);
    // The course pipeline, `bril2json < f.bril | brili -p ARGS`: through the package's
    // `brili` command, `compgym brili`, and `compgym run -` (which takes a file first).
    const command = [[brili, ['-p', ...p.args]], [cli, ['brili', '-p', ...p.args]], [cli, ['run', '-p', '-', ...p.args]]][i % 3];
    const run = await execute(command[0], command[1], json.stdout);
    if (p.out === null) {
      assert.equal(run.status, 0, `${p.file}: ${run.stderr}`);
      return;
    }
    assert.deepEqual(run, { stdout: p.out, stderr: p.prof, status: 0 }, p.file);
    if (i % 4 === 0) {
      // Optimised, from the file and its `# ARGS:` line: the same output.
      const optimised = await execute(cli, ['run', '--passes', '-O2', p.file]);
      assert.deepEqual(optimised, { stdout: p.out, stderr: '', status: 0 }, `${p.file} at -O2`);
    }
  });
  await pool(jobs, 2);
});

test('the npx shell and the native binary print the same bytes and exit with the same status', async () => {
  const program = '# ARGS: 4\n@main(n: int) {\n  one: int = const 1;\n  m: int = add n one;\n  print m;\n}\n';
  const crash = '@main {\n  a: int = const 1;\n  print a;\n  z: int = const 0;\n  q: int = div a z;\n}\n';
  const file = join(community, 'mem/fib.bril');
  const cases = [
    [['run', '-p'], program],
    [['run', '-p'], crash], // the output before the failure, then exit status 2
    [['brili', '-p', '4'], program],
    [['brili', '2'], '@main(x: int) {\n  y: bool = add x x;\n  print y;\n  jmp .e;\n.d:\n  print nowhere;\n.e:\n}\n'],
    [['brili'], '@main {\n  x: int = const 1;\n  b: bool = not x;\n}\n'],
    [['--version'], ''],
    [['run', '-'], '@main {\n  x: int = bogus;\n}'],
    [['run', '-', 'x'], program],
    [['verify'], '@main {\n  print nothing;\n}'],
    [['text'], Buffer.from([0x40, 0xff, 0xfe])], // not UTF-8
    [['opt', '--passes', '-lvn -dce -nope'], program],
    [['opt', '--list'], ''],
    [['opt', '--passes', '-to-ssa -gvn', '--json', file], ''],
    [['features', file], ''],
    [['features', '--dot', '-'], program],
    [['json', '-pp', file], ''],
    [[], ''],
    [['\t"x"\\\n\u0001'], ''],
    [['bench-interp'], ''],
    [['leaderboard', '--agents', 'oracle'], ''],
    [['train', '--hidden', 'big'], ''],
    [['--help'], ''],
  ];
  for (const [args, input] of cases) {
    const [want, got] = await Promise.all([execute(native, args, input), execute(cli, args, input)]);
    assert.deepEqual(got, want, `compgym ${args.join(' ')}`);
  }
});

/** A table's rows without the column of seconds, which is each side's own time. */
const withoutSeconds = (table) => table.trimEnd().split('\n').map((row) => row.replace(/\| [\d.]+ \|$/, '|'));

test('leaderboard and train take every flag in npx too: own programs, a split, PPO options', async () => {
  const own = ['--programs', `${community}/mixed,${community}/long`];
  const args = ['leaderboard', '--quick', '--tasks', 'size', '--agents', 'greedy,policy', '--suite', '2', '--large', '0', '--generated', '1', ...own];
  const [want, got] = await Promise.all([execute(native, args, '', root), execute(cli, args, '', root)]);
  assert.equal(got.status, 0, got.stderr);
  const rows = withoutSeconds(got.stdout);
  assert.deepEqual(rows, withoutSeconds(want.stdout));
  assert.deepEqual(rows.slice(2).map((r) => r.split('|')[2].trim()), ['suite-v0', 'suite-v0', 'mixed', 'mixed', 'long', 'long', 'random-v1, size 40', 'random-v1, size 40']);
  assert.match(got.stderr, /^\[1\/14\] code size suite-v0 greedy benchmark:\/\/suite-v0\//);
  const split = await execute(cli, ['leaderboard', '--quick', '--tasks', 'size', '--agents', 'greedy', '--split', 'sideways']);
  assert.equal(split.status, 1, 'a usage error');
  assert.match(split.stderr, /^error: leaderboard: unknown split "sideways"; the splits are train, held-out and dev\nusage:/);

  // Training is the same arithmetic natively and in wasm: the same curve and the same weights.
  const train = (out) => ['train', '--task', 'runtime', '--updates', '2', '--batch', '2', '--episode-length', '4', '--hidden', '8', '--epochs', '1', '--minibatch', '4', '--validate-every', '1', '--seed', '5', '--own', `${community}/mixed`, '--dev', '--out', join(scratch, out)];
  const [nativeTrain, jsTrain] = await Promise.all([execute(native, train('native.json')), execute(cli, train('js.json'))]);
  assert.equal(jsTrain.status, 0, jsTrain.stderr);
  // Each line without its seconds; the saved file's size differs by the digits of its training seconds.
  const curve = (text, file) =>
    text
      .replaceAll(join(scratch, file), 'F')
      .split('\n')
      .map((line) => (line.startsWith('saved') ? line.replace(/\(\d+ bytes/, '(N bytes') : line.split(' ').filter((_, i) => i !== 3).join(' ')));
  assert.deepEqual(curve(jsTrain.stdout, 'js.json'), curve(nativeTrain.stdout, 'native.json'));
  assert.match(jsTrain.stdout, /validation \(the development quarter\) [\d.]+x the pipeline\n$/);
  const policy = (file) => {
    const p = JSON.parse(readFileSync(join(scratch, file), 'utf8'));
    delete p.training.seconds;
    return p;
  };
  assert.deepEqual(policy('js.json'), policy('native.json'));
});

test('brili’s errors and statuses, the version and unknown agents', async () => {
  const crash = '@main {\n  a: int = const 1;\n  print a;\n  z: int = const 0;\n  q: int = div a z;\n}\n';
  assert.deepEqual(await execute(brili, [], crash), { stdout: '1\n', stderr: 'error: division by zero\n', status: 2 });
  const arity = await execute(brili, ['-p', '1', '2'], '@main(x: int) {\n}\n');
  assert.deepEqual(arity, { stdout: '', stderr: 'error: mismatched main argument arity: expected 1; got 2\n', status: 2 });
  const hint = await execute(cli, ['run', '-p', '5'], crash); // brili's command line given to run
  assert.match(hint.stderr, /^error: 5: no such file or directory \(ENOENT\)\n\(for brili's command line, with the program on stdin: compgym brili \[-p\] ARGS\.\.\.\)\n$/);
  const { version } = JSON.parse(readFileSync(join(scratch, 'node_modules/compgym/package.json'), 'utf8'));
  assert.deepEqual(await execute(cli, ['--version']), { stdout: `compgym ${version}\n`, stderr: '', status: 0 });
  const agents = await execute(cli, ['leaderboard', '--agents', 'nope']);
  assert.equal(agents.status, 1, 'a usage error');
  assert.match(agents.stderr, /^error: leaderboard: unknown agent "nope"; the agents are random, greedy, beam, explore, guided, policy, fixed\nusage:/);
});

test('OS errors are in the host’s words; a missing file is bad input', async () => {
  const missing = await execute(cli, ['run', '/nonexistent/file.bril']);
  assert.deepEqual(missing, { stdout: '', stderr: 'error: /nonexistent/file.bril: no such file or directory (ENOENT)\n', status: 1 });
  const folder = await execute(cli, ['text', scratch]);
  assert.equal(folder.stderr, `error: ${scratch}: illegal operation on a directory (EISDIR)\n`);
  const unwritable = await execute(cli, ['train', '--updates', '1', '--batch', '1', '--episode-length', '2', '--hidden', '4', '--out', '/nonexistent/p.json']);
  assert.equal(unwritable.status, 1);
  assert.match(unwritable.stderr, /^error: \/nonexistent\/p\.json: no such file or directory \(ENOENT\)\n$/);
});

test('a closed pipe ends the output quietly', () => {
  const program = '@main {\n  i: int = const 0;\n  one: int = const 1;\n  n: int = const 20000;\n.loop:\n  print i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .loop .end;\n.end:\n}\n';
  writeFileSync(join(scratch, 'count.bril'), program);
  const out = execFileSync('sh', ['-c', `"${cli}" run count.bril | head -n 2`], { cwd: scratch, encoding: 'utf8' });
  assert.equal(out, '0\n1\n');
});

test('runCli streams a running program to its host and refuses a host it cannot use', async () => {
  const { runCli } = await import(join(scratch, 'node_modules/compgym/node.js'));
  const program = '@main {\n  i: int = const 0;\n  one: int = const 1;\n  n: int = const 5000;\n.loop:\n  print i;\n  i: int = add i one;\n  c: bool = lt i n;\n  br c .loop .end;\n.end:\n}\n';
  const files = new Map([['count.bril', program]]);
  const pieces = [];
  let errors = '';
  const fail = () => {
    throw new Error('no such thing');
  };
  const host = {
    readFile: (path) => (files.has(path) ? files.get(path) : fail()),
    readStdin: () => new Uint8Array(),
    writeFile: (path, text) => files.set(path, text),
    listFolder: fail,
    isFolder: () => false,
    realPath: fail,
    stdout: (text) => pieces.push(text),
    stderr: (text) => (errors += text),
  };
  assert.equal(runCli(['run', '-p', 'count.bril'], host), 0);
  assert.ok(pieces.length > 2, `output in pieces as it is printed, not at the end: ${pieces.length}`);
  assert.equal(pieces.join('').split('\n').length, 5001);
  assert.equal(errors, 'total_dyn_inst: 20003\n');
  errors = '';
  assert.equal(runCli(['verify', 'gone.bril'], host), 1);
  assert.equal(errors, 'error: gone.bril: no such thing\n');

  assert.throws(() => runCli(['verify', 'count.bril'], { ...host, stdout: undefined }), { name: 'TypeError', message: /host\.stdout must be a function/ });
  assert.throws(() => runCli('verify', host), { name: 'TypeError' });
  assert.throws(() => runCli(['verify', 'count.bril'], { ...host, readFile: () => 42 }), { name: 'TypeError', message: /Uint8Array or a string/ });
  assert.equal(runCli(['verify', 'count.bril'], host), 0, 'the instance keeps working');
});
