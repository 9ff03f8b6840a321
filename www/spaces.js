// The spaces panel: build a space from an example or an edited description,
// sample it (seeded or functionally), and check values against it.
import { Space, Rng } from './pkg/index.js';
import { describe, show } from './format.js';

const EXAMPLES = {
  'Box float32 [4]': () => Space.box({ low: -1, high: 1, shape: [4], name: 'features' }),
  'Discrete(124)': () => Space.discrete(124, { name: 'action' }),
  'NamedDiscrete': () => Space.namedDiscrete(['dce', 'lvn', 'licm'], { name: 'passes' }),
  'Commandline': () =>
    Space.commandlineSpace(
      [
        { name: 'dce', flag: '-dce', description: 'Dead code elimination' },
        { name: 'lvn', flag: '-lvn', description: 'Local value numbering' },
      ],
      { name: 'flags' },
    ),
  'Dict': () =>
    Space.dict({
      action: Space.discrete(4, { name: 'action' }),
      features: Space.box({ low: 0, high: 1, shape: [3], name: 'features' }),
    }),
  'Text(1..8, "acgt")': () => Space.text({ minLength: 1, maxLength: 8, charset: 'acgt', name: 'dna' }),
  'Permutation 1..5': () =>
    Space.permutation(Space.scalar({ min: 1, max: 5, dtype: 'int64', name: 'range' }), { name: 'order' }),
  'Graph': () =>
    Space.graph({
      nodeSpace: Space.box({ low: 0, high: 1, shape: [2], name: 'node' }),
      minNodes: 2,
      maxNodes: 5,
      minEdges: 1,
      maxEdges: 6,
      name: 'graph',
    }),
  'Union': () => Space.union([Space.discrete(3, { name: 'small' }), Space.text({ maxLength: 3, name: 'word' })]),
  'DynamicBox': () =>
    Space.dynamicBox({ low: 0, high: 9, shapeLow: [1], shapeHigh: [5], dtype: 'int32', name: 'ragged' }),
};

export function wireSpaces($) {
  let space = null;
  let rng = new Rng(0);

  const select = $('space-example');
  for (const name of Object.keys(EXAMPLES)) select.add(new Option(name, name));

  function use(newSpace) {
    space = newSpace;
    $('space-repr').textContent = space.toString();
    $('space-json').value = JSON.stringify(space.toJSON(), null, 2);
    $('space-error').textContent = '';
    $('space-samples').textContent = '';
  }

  function guard(fn) {
    try {
      $('space-error').textContent = '';
      fn();
    } catch (error) {
      $('space-error').textContent = describe(error);
    }
  }

  select.addEventListener('change', () => guard(() => use(EXAMPLES[select.value]())));
  $('space-load-json').addEventListener('click', () => guard(() => use(Space.fromJSON($('space-json').value))));
  $('space-seed').addEventListener('click', () =>
    guard(() => {
      const seeds = space.seed(BigInt($('space-seed-value').value || '0'));
      rng = new Rng(BigInt($('space-seed-value').value || '0'));
      $('space-samples').textContent = `seed → [${seeds.join(', ')}]\n`;
    }),
  );
  $('space-sample').addEventListener('click', () =>
    guard(() => {
      const value = space.sample();
      $('space-samples').textContent += `${show(value)}   contains: ${space.contains(value)}\n`;
    }),
  );
  $('space-sample-with').addEventListener('click', () =>
    guard(() => {
      const [next, value] = space.sampleWith(rng);
      $('space-samples').textContent += `sampleWith(rng ${rng.state.slice(0, 8)}…) → ${show(value)}\n`;
      rng = next;
    }),
  );
  $('space-contains').addEventListener('submit', (event) => {
    event.preventDefault();
    guard(() => {
      const value = JSON.parse($('space-value').value);
      $('space-contains-result').textContent = `contains → ${space.contains(value)}`;
    });
  });

  use(EXAMPLES[select.value]());
}
