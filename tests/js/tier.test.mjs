// The compiling tier from the package in Node: `runBril`'s `tier` option on
// every community program (both tiers print and count as brili does), the
// fallback for uncovered programs and errors, and a bad option's typed error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runBril } from '../../pkg/node.js';

const community = new URL('../../data/bril-community/', import.meta.url).pathname;

/** Every `.bril` program with its `.out` and `.prof` beside it. */
function programs() {
  const found = [];
  for (const folder of readdirSync(community, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = join(community, folder.name);
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.bril')) continue;
      const base = join(dir, file.slice(0, -5));
      let out, prof;
      try {
        out = readFileSync(`${base}.out`, 'utf8');
        prof = readFileSync(`${base}.prof`, 'utf8');
      } catch {
        continue;
      }
      const count = Number(/total_dyn_inst:\s*(\d+)/.exec(prof)?.[1]);
      found.push({ name: `${folder.name}/${file}`, source: readFileSync(`${base}.bril`, 'utf8'), out, count });
    }
  }
  return found;
}

test('every community program runs compiled as brili runs it', () => {
  const all = programs();
  assert.ok(all.length > 60, `${all.length} programs`);
  let compiled = 0;
  for (const { name, source, out, count } of all) {
    const run = runBril(source, null, null, { tier: 'compiled' });
    assert.equal(run.stdout, out, name);
    assert.equal(run.dynInst, count, name);
    compiled += run.tier === 'compiled' ? 1 : 0;
  }
  assert.ok(compiled > 60, `only ${compiled} compiled`);
});

test('auto leaves short runs to the interpreter and compiles long ones', () => {
  const loop =
    '@main(n: int) { one: int = const 1; i: int = const 0;\n.l: i: int = add i one; b: bool = lt i n; br b .l .e;\n.e: print i; }';
  const short = runBril(loop, ['10'], null);
  assert.deepEqual(short, { stdout: '10\n', dynInst: 33, tier: 'interpreter' });
  const long = runBril(loop, ['2000000'], null, { tier: 'auto' });
  assert.deepEqual(long, { stdout: '2000000\n', dynInst: 6000003, tier: 'compiled' });
  assert.deepEqual(runBril(loop, ['2000000'], null, { tier: 'interpreter' }), { ...long, tier: 'interpreter' });
});

test('errors are the interpreter’s, with its output and count', () => {
  const source = '@main { a: int = const 7; print a; z: int = const 0; q: int = div a z; print q; }';
  for (const tier of ['compiled', 'interpreter', 'auto']) {
    assert.throws(
      () => runBril(source, [], null, { tier }),
      (e) => e.name === 'RuntimeError' && e.stdout === '7\n' && e.dynInst === 4 && e.tier === 'interpreter',
    );
  }
  const forever = '@main { one: int = const 1; x: int = const 0;\n.top: x: int = add x one; jmp .top; }';
  assert.throws(
    () => runBril(forever, [], null, { tier: 'compiled' }),
    (e) => e.name === 'LimitError' && e.dynInst > 1e9 && e.tier === 'interpreter',
  );
});

test('uncovered programs run on the interpreter', () => {
  const undef = '@main { x: int = undef; y: int = id x; print; }';
  assert.deepEqual(runBril(undef, [], null, { tier: 'compiled' }), { stdout: '\n', dynInst: 3, tier: 'interpreter' });
});

test('a bad tier option is a typed error and the module keeps working', () => {
  const source = '@main { a: int = const 1; print a; }';
  assert.throws(() => runBril(source, [], null, { tier: 'jit' }), { name: 'ValueError' });
  assert.throws(() => runBril(source, [], null, { tier: 3 }), { name: 'TypeError' });
  assert.throws(() => runBril(source, [], null, { speed: 'fast' }), { name: 'TypeError' });
  assert.throws(() => runBril(source, [], null, 'compiled'), { name: 'TypeError' });
  assert.equal(runBril(source, [], null, { tier: 'compiled' }).stdout, '1\n');
});
