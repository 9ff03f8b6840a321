// compgym/gym: Gymnasium's API for compgym. make(id, options) gives an
// environment with reset({seed, options}) -> [observation, info] and
// step(action) -> [observation, reward, terminated, truncated, info];
// Env and Wrapper are the classes to extend; the wrappers, checkEnv and the
// vector environments are Gymnasium 1.x's and CompilerGym's.
//
// In a browser call compgym's `await init()` first; in Node, importing this
// module is enough (the package's exports map it to gym/node.js).
import { connectService } from '../remote.js';
import { useConnect } from './vector.js';

useConnect(connectService);

export { Env, Wrapper, ObservationWrapper, RewardWrapper, ActionWrapper, dataEqual, namedError } from './core.js';
export { CompilerGymEnv, TimeStepEnv, specToSpace, make, register, registeredIds, spec } from './envs.js';
export {
  TimeLimit,
  RecordEpisodeStatistics,
  FlattenObservation,
  TransformObservation,
  TransformReward,
  TransformAction,
} from './wrappers.js';
export {
  CommandlineWithTerminalAction,
  ConstrainedCommandline,
  Counter,
  ForkOnStep,
  IterateOverBenchmarks,
  CycleOverBenchmarks,
  RandomOrderBenchmarks,
  ValidateBenchmarkAfterEveryStep,
} from './compiler-wrappers.js';
export { DtypeObservation, Log1pObservation, NormalizeObservation, NormalizeReward, RunningMeanStd, mlReady } from './ml-wrappers.js';
export { checkEnv } from './checker.js';
export { AutoresetMode, SyncVectorEnv, AsyncVectorEnv, makeVec, batcher, addInfo } from './vector.js';

// ---- Gymnasium 1.x's further wrappers (issue 25) ----------------------------
export { OrderEnforcing, PassiveEnvChecker, Autoreset } from './common-wrappers.js';
export { ClipAction, RescaleAction, StickyAction, RepeatAction } from './action-wrappers.js';
export { ClipReward } from './reward-wrappers.js';
export { FrameStackObservation, TimeAwareObservation, DelayObservation, FilterObservation } from './observation-wrappers.js';
export { VectorEnv, VectorWrapper, VectorObservationWrapper, VectorRewardWrapper, VectorActionWrapper } from './vector-env.js';
/** gymnasium.wrappers.vector: the vector forms of the wrappers, by Gymnasium's names. */
export * as vector from './vector-wrappers.js';
