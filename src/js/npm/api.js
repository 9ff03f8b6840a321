// The package's exports, shared by both entry points (`index.js`, `node.js`):
// the bindings' functions as they are, and in place of each class and of
// `init` and `initSync`, the guarded ones of guard.js. The classes are named
// here because exports are static; a class missing from the list would be
// exported raw, so loading fails if one is.
import * as bindings from './compgym.js';
import * as self from './api.js';
import { guardBindings, isLiveOf } from './guard.js';

// The names below are the guarded classes (values); Glue.X is the type of their objects.
/** @import * as Glue from './compgym.js' */

const guarded = guardBindings(bindings);

export * from './compgym.js';
export { loadPretrained } from './pretrained.js';
export { loadDataset } from './datasets.js';
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

// LinUcb.act takes either per-arm bandit; a glue method takes one class of
// argument, so the compiler bandit's goes through a method kept out of sight.
{
  /** @type {Glue.LinUcb & { actCompilerBandit?(env: Glue.CompilerBandit): number }} */
  const proto = LinUcb.prototype;
  const { act: actStationary, actCompilerBandit } = proto;
  delete proto.actCompilerBandit;
  Object.defineProperty(proto, 'act', {
    /**
     * @this {Glue.LinUcb}
     * @param {unknown} env either bandit (the glue checks it)
     */
    value: function act(env) {
      // The brand, not `instanceof`: a hostile Proxy's traps must not run here.
      return isLiveOf(env, 'CompilerBandit')
        ? /** @type {NonNullable<typeof actCompilerBandit>} */ (actCompilerBandit).call(this, /** @type {Glue.CompilerBandit} */ (env))
        : actStationary.call(this, /** @type {Glue.StationaryStochasticPerArmEnvironment} */ (env));
    },
    writable: true,
    configurable: true,
  });
}

// CompilerGym's indexing: env.observation["Autophase"] and
// env.reward["IrInstructionCountOz"] compute what .get(name) computes. The
// view env.observation or env.reward returns is the object the module made
// (so guard.js's checks hold), given a prototype that adds a getter per
// declared name over the class's own (get, spaces... keep their meaning).
// That prototype is kept per environment until a space is added anywhere.
let spacesAdded = 0;
/** @typedef {'observation' | 'reward'} ViewKey */
/** @type {WeakMap<Glue.CompilerEnv, { added: number, observation?: object, reward?: object }>} */
const indexing = new WeakMap(); // the prototypes of an environment's views
const NAMES = {
  observation: (/** @type {Glue.ObservationView} */ view) =>
    view.spaces.map((spec) => {
      const { id } = spec;
      spec.free();
      return id;
    }),
  reward: (/** @type {Glue.RewardView} */ view) => view.spaces.map((info) => info.name),
};

/**
 * @param {object} view
 * @param {string[]} names
 * @returns {object}
 */
function indexingPrototype(view, names) {
  const proto = Object.getPrototypeOf(view);
  /** @type {PropertyDescriptorMap} */
  const getters = {};
  for (const name of names) {
    if (!(name in proto)) {
      getters[name] = {
        /** @this {{ get(name: string): unknown }} */
        get() {
          return this.get(name);
        },
        configurable: true,
      };
    }
  }
  return Object.create(proto, getters);
}

/**
 * @param {Glue.CompilerEnv} env
 * @param {ViewKey} key
 * @param {any} view the view of `key`: an ObservationView or a RewardView
 */
function withIndexing(env, key, view) {
  let known = indexing.get(env);
  if (!known || known.added !== spacesAdded) indexing.set(env, (known = { added: spacesAdded }));
  known[key] ??= indexingPrototype(view, NAMES[key](view));
  return Object.setPrototypeOf(view, known[key]);
}

for (const key of /** @type {ViewKey[]} */ (Object.keys(NAMES))) {
  const { get } = /** @type {PropertyDescriptor & { get(): unknown }} */ (Object.getOwnPropertyDescriptor(CompilerEnv.prototype, key));
  Object.defineProperty(CompilerEnv.prototype, key, {
    /** @this {Glue.CompilerEnv} */
    get() {
      return withIndexing(this, key, get.call(this));
    },
    configurable: true,
    enumerable: false,
  });
}
/** @type {[{ [method: string]: any }, string][]} the prototypes whose methods add a space */
const counting = [
  [ObservationView.prototype, 'addDerivedSpace'],
  [ObservationView.prototype, 'addSpace'],
  [RewardView.prototype, 'addSpace'],
];
for (const [proto, method] of counting) {
  const add = proto[method];
  const counted = {
    /**
     * @this {unknown}
     * @param {unknown[]} args
     */
    [method](...args) {
      const out = add.apply(this, args);
      spacesAdded++;
      return out;
    },
  }[method];
  Object.defineProperty(counted, 'length', { value: add.length });
  Object.defineProperty(proto, method, { value: counted, writable: true, configurable: true, enumerable: false });
}

const raw = Object.keys(guarded).filter(
  (name) => /** @type {{ [name: string]: unknown }} */ (self)[name] !== /** @type {{ [name: string]: unknown }} */ (guarded)[name],
);
if (raw.length) throw new Error(`compgym: api.js does not export the guarded ${raw.join(', ')}`);
