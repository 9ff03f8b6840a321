// The core's registry (`catalog()`) is the one list of passes, observations,
// rewards, agents, space kinds and Autophase features: the package's
// TypeScript unions, the vector batcher, the agents' worker and the
// playground's glossary must agree with it, so adding an entry in the core
// is enough (docs/compiler.md, "How to add ...").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { catalog, agentNames, make, Space } from '../../pkg/node.js';
import { batcher } from '../../pkg/gym/vector.js';

const root = new URL('../../', import.meta.url);
const names = (list) => list.map((entry) => entry.name);

/** The string literals of `export type NAME = "a" | "b" ...;` in the package's declarations. */
function union(name) {
  const dts = readFileSync(new URL('pkg/compgym.d.ts', root), 'utf8');
  const match = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(match, `compgym.d.ts declares ${name}`);
  return [...match[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

test('every entry has a name and a sentence', () => {
  const lists = catalog();
  assert.deepEqual(Object.keys(lists).sort(), ['agents', 'autophase', 'observations', 'passes', 'rewards', 'spaceKinds']);
  for (const [list, entries] of Object.entries(lists)) {
    assert.ok(entries.length > 0, list);
    for (const entry of entries) {
      assert.equal(typeof entry.name, 'string', list);
      assert.ok(entry.description.length > 5, `${list}/${entry.name}`);
    }
  }
});

test('the TypeScript unions are the registry\'s lists', () => {
  const lists = catalog();
  assert.deepEqual(union('AgentName'), names(lists.agents));
  assert.deepEqual([...union('SpaceType')].sort(), names(lists.spaceKinds).sort());
  assert.deepEqual(union('Batching').sort(), [...new Set(lists.spaceKinds.map((k) => k.batching))].sort());
  assert.deepEqual(agentNames(), names(lists.agents));
});

test('the registry lists what an environment offers', () => {
  const env = make('bril-v0');
  try {
    assert.deepEqual(names(catalog().passes), env.actionSpace.flags);
    assert.deepEqual(names(catalog().rewards), env.reward.spaces.map((info) => info.name));
    env.reset();
    assert.deepEqual(names(catalog().autophase), Object.keys(env.observation.get('AutophaseDict')));
  } finally {
    env.free();
  }
});

test('the vector batcher batches every kind as the registry says', () => {
  const kinds = {
    Box: Space.box({ low: 0, high: 1, shape: [2], dtype: 'float32' }),
    MultiBinary: Space.multiBinary(3),
    Discrete: Space.discrete(4),
    Scalar: Space.scalar({ dtype: 'bool' }),
    Reward: Space.reward({ name: 'r' }),
    Dict: Space.dict({ a: Space.discrete(2) }),
    Text: Space.text({ maxLength: 3 }),
  };
  const batching = Object.fromEntries(catalog().spaceKinds.map((k) => [k.name, k.batching]));
  for (const [type, space] of Object.entries(kinds)) {
    const b = batcher(space, 2);
    const batch = b.concatenate([space.sample(), space.sample()]);
    const shape = { stack: 'typed', gather: 'typed', parts: 'object', list: 'array' }[batching[type]];
    const seen = ArrayBuffer.isView(batch) ? 'typed' : Array.isArray(batch) ? 'array' : 'object';
    assert.equal(seen, shape, `${type} (${batching[type]})`);
    assert.equal(b.length(batch), 2, type);
    if (space.batchDtype) assert.ok(ArrayBuffer.isView(batch), type);
  }
  assert.equal(Space.multiBinary(3).batchDtype, 'int8');
  assert.equal(Space.text({ maxLength: 3 }).batchDtype, null);
});

test('the playground\'s glossary and feature sentences are the registry\'s', async () => {
  // The page's modules import the browser entry, ready once initialised.
  const web = await import(new URL('www/pkg/index.js', root));
  web.initSync({ module: readFileSync(new URL('www/pkg/compgym_bg.wasm', root)) });
  const { PASSES, REWARDS, OBSERVATIONS, sentence } = await import('../../www/src/glossary.js');
  const { AUTOPHASE } = await import('../../www/src/features.js');
  const lists = catalog();
  assert.deepEqual(Object.keys(PASSES), names(lists.passes));
  assert.deepEqual(Object.values(PASSES), lists.passes.map((p) => p.sentence));
  assert.deepEqual(Object.keys(REWARDS), names(lists.rewards));
  assert.deepEqual(Object.keys(OBSERVATIONS), names(lists.observations));
  assert.deepEqual(Object.keys(AUTOPHASE), names(lists.autophase));
  assert.equal(sentence('-dce'), lists.passes[0].sentence);
  assert.equal('-lvn' in PASSES, true);
});
