// The playground's defects whose cause was in the core, checked against the
// package itself (the page also guards against each; see the playground
// tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { make, Space, version } from '../../pkg/node.js';

const A = '@main {\n  a: int = const 6;\n  b: int = const 7;\n  c: int = mul a b;\n  d: int = mul a b;\n  unused: int = add c d;\n  print c;\n}';
const B = '@main {\n  a: int = const 6;\n  b: int = mul a a;\n  c: int = mul a a;\n  print b;\n}';

function firstReward(env, uri, source) {
  env.addBenchmark(uri, source);
  env.reset({ benchmark: uri });
  return env.step('-dce').reward;
}

test('defect 1: a program added under a URI used before gets its own baselines', () => {
  const env = make('bril-v0', { rewardSpace: 'IrInstructionCountOz' });
  firstReward(env, 'benchmark://user-v0/same', A);
  const reused = firstReward(env, 'benchmark://user-v0/same', B);
  const fresh = firstReward(make('bril-v0', { rewardSpace: 'IrInstructionCountOz' }), 'benchmark://user-v0/other', B);
  assert.equal(reused, fresh);
});

test('defect 3: validate reports a program that never ends, divides by zero or lacks arguments', () => {
  const cases = [
    '@main {\n.l:\n  jmp .l;\n}',
    '@main {\n  a: int = const 1;\n  z: int = const 0;\n  c: int = div a z;\n  print c;\n}',
    '@main(n: int) {\n  print n;\n}',
  ];
  const env = make('bril-v0');
  cases.forEach((source, i) => {
    env.addBenchmark(`benchmark://user-v0/v${i}`, source);
    env.reset({ benchmark: `benchmark://user-v0/v${i}` });
    env.sendParam('bril.fuel', '100000');
    env.step('-dce');
    const result = env.validate();
    assert.equal(result.okay, false, source);
    assert.ok(result.errors.length > 0);
  });
});

test('defect 6: a missing ";" is named by the parser', () => {
  const env = make('bril-v0');
  assert.throws(() => env.addBenchmark('benchmark://user-v0/semi', '@main {\n  a: int = const 1\n  print a;\n}'), /expected ';' after the constant/);
});

test('defect 7: an empty program and one without @main are refused', () => {
  const env = make('bril-v0');
  assert.throws(() => env.addBenchmark('benchmark://user-v0/empty', ''));
  env.addBenchmark('benchmark://user-v0/nomain', '@f {\n  x: int = const 1;\n  print x;\n}');
  env.reset({ benchmark: 'benchmark://user-v0/nomain' });
  assert.equal(env.validate().okay, false);
});

test('defect 10: a Box of shape [50000000] is a typed error and the module keeps working', () => {
  assert.throws(() => Space.fromJSON({ type: 'Box', name: 'b', low: 0, high: 1, shape: [50000000] }), { name: /ValueError|LimitError/ });
  assert.ok(version());
});

test('defect 10: an unknown space type is named as such', () => {
  assert.throws(() => Space.fromJSON({ type: 'Nope' }), /Nope|unknown/i);
});
