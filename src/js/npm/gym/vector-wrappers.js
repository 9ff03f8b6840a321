// gymnasium.wrappers.vector, which compgym/gym exports as `vector`: the
// vectorized transforms and the stateful vector wrappers, by Gymnasium's names.
export * from './vector-transform.js';
export * from './vector-stateful.js';
