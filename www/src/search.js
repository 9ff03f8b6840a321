// The agents the panel offers: compgym's own (the package's SearchAgent,
// run by compgym/agents.js in a worker of its own), in the panel's order,
// with a label and a sentence each. Every search lowers the program's
// instruction count from the program as loaded; the policy plays one
// episode it was trained for, without searching; guided search searches
// where the policy points.
export const AGENTS = [
  {
    name: 'random',
    label: 'random search',
    description:
      'Random search: plays episodes of up to 60 random passes, each ended after 20 passes without a new best, and keeps the best state seen.',
  },
  {
    name: 'greedy',
    label: 'greedy search',
    description:
      'Greedy search: tries every pass from the current state, takes the one that shrinks the program most, and stops when none shrinks it.',
  },
  {
    name: 'beam',
    label: 'beam search',
    description:
      'Beam search: every pass from each of the 8 smallest distinct programs of the previous level, keeping the 8 smallest new ones, level after level.',
  },
  {
    name: 'explore',
    label: 'explore (archive search)',
    description:
      'Explore: keeps an archive of the distinct programs found, returns to a small one (a fork costs nothing) and walks a few random passes from it; the strongest search here.',
  },
  {
    name: 'guided',
    label: 'guided search (policy + explore)',
    description:
      'Guided search: the learned policy ranks the passes to try before -Oz, the most promising prefixes are finished with -Oz, and explore walks on from the best of them.',
  },
  {
    name: 'policy',
    label: 'learned policy (zero-shot)',
    description:
      'The learned policy: a small network trained with PPO on hand-written and generated programs picks a few passes from the program’s features (or none), then -Oz runs; one episode, no search.',
  },
];
