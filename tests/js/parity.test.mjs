// Where the JS face answers as Gymnasium and CompilerGym do (issue 25):
// CompilerGym's view indexing, Gymnasium's Box membership of nested arrays,
// Graph spaces of Discretes, shapes as plain arrays, renderMode null, and
// numpy Generator's choice, permutation and shuffle on Rng.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeModules } from './gym-page.mjs';

const { gym, compgym } = await nodeModules();
const { Space, Rng, make } = compgym;

test('env.observation[name] and env.reward[name] compute what .get(name) computes', () => {
  const env = make('bril-ic-v0', { benchmark: 'benchmark://suite-v0/fib-iter' });
  env.reset();
  assert.deepEqual(env.observation['Autophase'], env.observation.get('Autophase'));
  assert.equal(env.observation.IrInstructionCount, env.observation.get('IrInstructionCount'));
  env.step(0);
  assert.equal(typeof env.reward['IrInstructionCountOz'], 'number');
  assert.ok('Autophase' in env.observation && !('Nope' in env.observation));
  assert.equal(env.observation.Nope, undefined, 'an undeclared name is a missing property, as any other');
  assert.equal(env.observation.then, undefined, 'so a view is no thenable');
  // The view is the object the package made (no wrapper): its methods take it as `this`.
  assert.equal(env.observation.spaces.length > 0, true);
  assert.equal(env.observation.constructor, compgym.ObservationView);
  assert.equal(compgym.RewardView.prototype.get.call(env.reward, 'IrInstructionCountOz'), 0);
  assert.equal(typeof env.observation.get, 'function', 'a prototype member keeps its meaning');
  env.observation.addDerivedSpace('Twice', 'IrInstructionCount', (n) => 2 * n, { space: Space.scalar({ min: 0, dtype: 'int64' }) });
  assert.equal(env.observation.Twice, 2 * env.observation.IrInstructionCount, 'a space added later indexes too');
  env.close();
  assert.throws(() => env.observation.Autophase, { name: 'SessionNotFound' });
});

test('Box.contains takes nested arrays of its shape, as Gymnasium does', () => {
  const box = Space.box({ low: 0, high: 1, shape: [2, 2] });
  assert.equal(box.contains([[0, 0], [0, 0]]), true);
  assert.equal(box.contains([Float32Array.of(0, 1), [1, 0.5]]), true);
  assert.equal(box.contains([0, 0, 0, 0]), true, 'the flat form still works');
  assert.equal(box.contains([[0, 0], [0]]), false, 'a ragged row');
  assert.equal(box.contains([[0, 0], [0, 0], [0, 0]]), false);
  assert.equal(box.contains([[0, 2], [0, 0]]), false, 'out of bounds');
  const ints = Space.box({ low: -5, high: 5, shape: [2, 1, 2], dtype: 'int64' });
  assert.equal(ints.contains([[[1, 2]], [[3, BigInt(-5)]]]), true);
  assert.deepEqual(box.shape, [2, 2]);
  assert.ok(Array.isArray(box.shape), 'a shape is a plain array, as Gymnasium\'s tuple');
});

test('a Graph space takes Discrete node and edge spaces', () => {
  const graph = Space.graph({ nodeSpace: Space.discrete(3), edgeSpace: Space.discrete(2, { start: 5 }), maxNodes: 4, maxEdges: 3 });
  assert.match(String(graph), /Discrete\(Discrete, 3\), Discrete\(Discrete, 2, start=5\)/);
  assert.ok(Space.fromJSON(graph.toJSON()).equals(graph));
  graph.seed(1);
  for (let i = 0; i < 10; i++) {
    const sample = graph.sample();
    assert.ok(graph.contains(sample));
    const { nodes, edges } = sample;
    assert.ok([...nodes].every((x) => x >= 0n && x < 3n));
    assert.ok([...edges].every((x) => x === 5n || x === 6n));
  }
  assert.throws(() => Space.graph({ nodeSpace: Space.multiBinary(2) }), { name: 'TypeError', message: /Box or a Discrete/ });
});

test('renderMode is null when there is none; fromCommandline gives a plain array', () => {
  assert.equal(gym.make('bril-ic-v0').renderMode, null);
  assert.equal(gym.make('bril-ic-v0', { renderMode: 'ansi' }).renderMode, 'ansi');
  const flags = Space.commandlineSpace([{ name: 'dce', flag: '-dce', description: 'Dead code elimination' }]);
  assert.deepEqual(flags.fromCommandline('-dce'), [0]);
});

test('Rng has numpy Generator\'s choice, permutation and shuffle, seeded as natively', () => {
  // The same order as the core's pinned test (src/rng.rs): one generator, natively and in wasm.
  assert.deepEqual(new Rng(42).permutation(10), [9, 1, 4, 2, 8, 7, 6, 5, 3, 0]);
  const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
  assert.deepEqual(new Rng(42).permutation(letters), [9, 1, 4, 2, 8, 7, 6, 5, 3, 0].map((i) => letters[i]));
  const typed = new Rng(42).permutation(Int32Array.from({ length: 10 }, (_, i) => i));
  assert.ok(typed instanceof Int32Array);
  assert.deepEqual([...typed], [9, 1, 4, 2, 8, 7, 6, 5, 3, 0]);
  const inPlace = [...letters];
  assert.equal(new Rng(42).shuffle(inPlace), undefined);
  assert.deepEqual(inPlace, new Rng(42).permutation(letters), 'shuffle orders as permutation does');

  const rng = new Rng(7);
  const picks = Array.from({ length: 200 }, () => rng.choice(['x', 'y', 'z']));
  assert.deepEqual(new Set(picks), new Set(['x', 'y', 'z']));
  assert.ok(Number.isInteger(new Rng(1).choice(5)) && new Rng(1).choice(5) < 5);
  const draws = new Rng(3).choice(4, 6);
  assert.equal(draws.length, 6);
  assert.deepEqual(draws, new Rng(3).choice(4, 6), 'seeded');
  assert.throws(() => new Rng(1).choice([]), { name: 'ValueError' });
  assert.throws(() => new Rng(1).shuffle(5), { name: 'TypeError' });
  assert.throws(() => new Rng(1).permutation('abc'), { name: 'TypeError' });
  assert.throws(() => new Rng(1).permutation(2 ** 40), { name: /^(LimitError|ValueError)$/ }, 'past the budget (or the address space)');
});
