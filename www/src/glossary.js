// Plain sentences for the words the page uses: the reinforcement-learning
// terms here, and every pass, reward and observation from the core's
// registry.
import { catalog } from './registries.js';

/** @type {Record<string, string>} */
export const TERMS = {
  agent: 'Whoever chooses the actions: you, pressing passes, or a program such as the search agents below.',
  action: 'One choice the agent makes. Here an action is one optimisation pass, applied to the whole program.',
  environment: 'The world the agent acts on. Here it is the Bril compiler holding one program; it applies each pass and reports back.',
  observation:
    'What the environment shows the agent after each action: here the program text, its size, its control-flow graph, its features.',
  reward: 'A number saying how good the last action was. The agent tries to collect as much reward as possible over an episode.',
  episode: 'Everything from a reset (the program as written) to the last action. Its reward is the sum of the step rewards.',
  step: 'One action and what follows from it: a new observation and a reward.',
  space: 'The set of values an action or observation can take, such as "one of 32 passes" or "48 counts, each 0 or more".',
  policy: "The agent's rule for choosing an action from what it observes.",
  regret: "The reward a policy gave up compared with always choosing the best action. A learning policy's regret grows ever slower.",
};

/**
 * A table `{name: sentence}` of one of the core's registries (`catalog()`),
 * read on first use: the views run once the package is ready, and so the
 * sentences are written once, beside the code they describe.
 * @param {keyof import('../pkg/index.js').Catalog} list
 * @param {string} [field]
 * @returns {Record<string, string>}
 */
export function fromCatalog(list, field = 'description') {
  /** @type {Record<string | symbol, string> | null} */
  let table = null;
  // An entry's fields are read by name: `field` is one the list's entries have.
  const load = () => (table ??= Object.fromEntries(catalog()[list].map((/** @type {any} */ entry) => [entry.name, entry[field]])));
  return new Proxy(
    {},
    {
      get: (_, key) => load()[key],
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(load(), key),
    },
  );
}

/** What each pass does, for a student meeting it for the first time. */
export const PASSES = fromCatalog('passes', 'sentence');

/** The rewards, as CompilerGym defines them. */
export const REWARDS = fromCatalog('rewards');

/** The observations the page shows. */
export const OBSERVATIONS = fromCatalog('observations');

/**
 * A sentence for `name` from any of the tables, or null.
 * @param {string} name
 */
export function sentence(name) {
  return TERMS[name] ?? PASSES[name] ?? REWARDS[name] ?? OBSERVATIONS[name] ?? null;
}
