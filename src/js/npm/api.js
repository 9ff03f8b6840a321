// The package's exports, shared by both entry points (`index.js`, `node.js`):
// the bindings' functions as they are, and in place of each class and of
// `init` and `initSync`, the guarded ones of guard.js. The classes are named
// here because exports are static; a class missing from the list would be
// exported raw, so loading fails if one is.
import * as bindings from './compgym.js';
import * as self from './api.js';
import { guardBindings } from './guard.js';

const guarded = guardBindings(bindings);

export * from './compgym.js';
export const {
  CompilerBandit,
  CompilerEnv,
  CompilerTimeStepEnvironment,
  GymFace,
  Leaderboard,
  LinUcb,
  ObservationSpaceSpec,
  ObservationView,
  Policy,
  PolicyPlayer,
  PolicyTrainer,
  RewardView,
  Rng,
  SearchAgent,
  Service,
  Space,
  StationaryStochasticPerArmEnvironment,
  initSync,
} = guarded;
export default guarded.default;

const raw = Object.keys(guarded).filter((name) => self[name] !== guarded[name]);
if (raw.length) throw new Error(`compgym: api.js does not export the guarded ${raw.join(', ')}`);
