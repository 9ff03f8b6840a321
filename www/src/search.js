// The agents the panel offers: compgym's own (the package's SearchAgent,
// run by compgym/agents.js in a worker of its own), with the label and
// sentence of the core's registry, in its order. Every search lowers the
// program's instruction count from the program as loaded; the policy plays
// one episode it was trained for, without searching; guided search searches
// where the policy points. The fixed-sequence ablation is the leaderboard's:
// it first searches the training programs for its sequences.
//
// Only the agents panel imports this module, as a view loaded once the
// package is ready, so the registry can be read when it is evaluated.
import { catalog } from '../pkg/index.js';

/** `{name, label, description}` of each agent the panel offers. */
export const AGENTS = catalog().agents.filter((agent) => agent.name !== 'fixed');
