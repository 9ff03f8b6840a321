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

// LinUcb.act takes either per-arm bandit; a glue method takes one class of
// argument, so the compiler bandit's goes through a method kept out of sight.
{
  const proto = LinUcb.prototype;
  const { act: actStationary, actCompilerBandit } = proto;
  delete proto.actCompilerBandit;
  Object.defineProperty(proto, 'act', {
    value: function act(env) {
      return env instanceof CompilerBandit ? actCompilerBandit.call(this, env) : actStationary.call(this, env);
    },
    writable: true,
    configurable: true,
  });
}

// CompilerGym's indexing: env.observation["Autophase"] and
// env.reward["IrInstructionCountOz"] compute what .get(name) computes. The
// view comes wrapped in a Proxy that runs every method on the view itself (so
// guard.js's checks see the real object); a name the view does not declare
// reads as any missing property does (undefined), so `then` or `toJSON`
// lookups stay harmless.
function indexed(view, namesOf) {
  let names = new Set();
  const declared = (key) => {
    if (typeof key !== 'string') return false;
    if (!names.has(key)) names = new Set(namesOf(view)); // spaces added since are seen
    return names.has(key);
  };
  return new Proxy(view, {
    get(target, key) {
      if (key in target) {
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' && key !== 'constructor' ? value.bind(target) : value;
      }
      return declared(key) ? target.get(key) : undefined;
    },
    has: (target, key) => key in target || declared(key),
  });
}

for (const [key, namesOf] of [
  ['observation', (view) => view.spaces.map((spec) => spec.id)],
  ['reward', (view) => view.spaces.map((info) => info.name)],
]) {
  const { get } = Object.getOwnPropertyDescriptor(CompilerEnv.prototype, key);
  Object.defineProperty(CompilerEnv.prototype, key, {
    get() {
      return indexed(get.call(this), namesOf);
    },
    configurable: true,
    enumerable: false,
  });
}

const raw = Object.keys(guarded).filter((name) => self[name] !== guarded[name]);
if (raw.length) throw new Error(`compgym: api.js does not export the guarded ${raw.join(', ')}`);
