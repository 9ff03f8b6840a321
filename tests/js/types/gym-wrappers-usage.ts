// Gymnasium 1.x's further wrappers (issue 25), compiled with `tsc --strict`
// against the built package (gym-types.test.mjs): typical uses type-check,
// and each @ts-expect-error line is a mistake the declarations must catch.
import { Space } from 'compgym';
import {
  Autoreset,
  ClipAction,
  ClipReward,
  DelayObservation,
  Env,
  FrameStackObservation,
  Log1pObservation,
  OrderEnforcing,
  PassiveEnvChecker,
  RepeatAction,
  RescaleAction,
  StickyAction,
  SyncVectorEnv,
  AsyncVectorEnv,
  TimeAwareObservation,
  VectorEnv,
  VectorObservationWrapper,
  make,
  vector,
  type ResetArgs,
  type StepResult,
  type VectorResetResult,
  type VectorStepResult,
  type RewardArray,
} from 'compgym/gym';

class Line extends Env<Float32Array, Float32Array> {
  position = 0;
  constructor() {
    super();
    this.actionSpace = Space.box({ low: -1, high: 1, shape: [1], dtype: 'float32' });
    this.observationSpace = Space.box({ low: -100, high: 100, shape: [1], dtype: 'float32' });
  }
  reset(args?: ResetArgs): [Float32Array, { [key: string]: unknown }] {
    super.reset(args);
    this.position = 0;
    return [Float32Array.of(0), {}];
  }
  step(action: Float32Array): StepResult<Float32Array> {
    this.position += action[0];
    return [Float32Array.of(this.position), this.position, false, false, {}];
  }
}

const checked = make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', maxEpisodeSteps: 10, disableEnvChecker: false });
const enforced = new OrderEnforcing(new PassiveEnvChecker(new Line()), { disableRenderOrderEnforcing: true });
const hasReset: boolean = enforced.hasReset;
const restarting = new Autoreset(checked);
const sticky = new StickyAction(checked, 0.25, { repeatActionDuration: [1, 3] });
const skipping = new RepeatAction(sticky, 4);
const stacked = new FrameStackObservation(new TimeAwareObservation(checked, { normalizeTime: true }), 4, { paddingType: 'zero' });
const late = new DelayObservation(new Line(), 2);
const clipped = new ClipReward(new RescaleAction(new ClipAction(new Line()), 0, [10]), { minReward: -1, maxReward: 1 });
clipped.reset({ seed: 1 });
const [, clippedReward] = clipped.step([5]);
const reward: number = clippedReward + (clipped.minReward ?? 0);

/** A vector environment written in JS: N lines stepped together. */
class Lines extends VectorEnv {
  lines: Line[];
  constructor(n: number) {
    super();
    this.lines = Array.from({ length: n }, () => new Line());
    this.numEnvs = n;
    this.singleObservationSpace = this.lines[0].observationSpace;
    this.singleActionSpace = this.lines[0].actionSpace;
    this.observationSpace = Space.batched(this.singleObservationSpace, [n]);
    this.actionSpace = Space.batched(this.singleActionSpace, [n]);
    this.metadata = { autoresetMode: 'Disabled' };
  }
  reset(args?: ResetArgs): VectorResetResult {
    super.reset(args);
    return [Float32Array.from(this.lines.map((l) => l.reset()[0][0])), {}];
  }
  step(actions: Float32Array): VectorStepResult<RewardArray> {
    const results = this.lines.map((l, i) => l.step(actions.subarray(i, i + 1)));
    const flags = new Uint8Array(this.numEnvs);
    return [Float32Array.from(results, (r) => r[0][0]), Float64Array.from(results, (r) => r[1]), flags, flags, {}];
  }
}

class Doubled extends VectorObservationWrapper<Lines> {
  observations(observations: Float32Array): Float32Array {
    return observations.map((x) => 2 * x);
  }
}
const lines = new vector.NormalizeReward(new vector.RecordEpisodeStatistics(new Doubled(new Lines(3))), { gamma: 0.9 });
const [lineObservations] = lines.reset({ seed: 1 });
const lineStats: number[] = lines.env.returnQueue;

const envs = new SyncVectorEnv([() => make('bril-autophase-ic-v0'), () => make('bril-autophase-ic-v0')]);
const logged = new vector.VectorizeTransformObservation(envs, Log1pObservation, { dtype: 'float64' });
const normalized = new vector.NormalizeObservation(logged, { epsilon: 1e-6 });
const [syncObservations] = normalized.reset({ seed: 2 });
const perEnvironment = new vector.DictInfoToList(new vector.TransformReward(envs, (r) => r.map((x) => 2 * x)));
const [, infoList] = perEnvironment.reset({ seed: 2 });
const firstMask: Uint8Array | undefined = infoList[0].actionMask;
const asyncEnvs = new AsyncVectorEnv(['bril-autophase-ic-v0', 'bril-autophase-ic-v0']);
async function asyncStats(): Promise<void> {
  await asyncEnvs.ready;
  const recorded = new vector.RecordEpisodeStatistics(asyncEnvs);
  const [, rewards] = await recorded.step([0, 1]);
  const first: number = rewards[0];
  await asyncEnvs.close();
}

// @ts-expect-error StickyAction's probability is a number
new StickyAction(checked, '0.25');
// @ts-expect-error FrameStackObservation's padding is "reset", "zero" or an observation
new FrameStackObservation(new Line(), 2, { paddingType: 'ones' });
// @ts-expect-error vector wrappers wrap vector environments
new vector.RecordEpisodeStatistics(new Line());
// @ts-expect-error the sync wrapper's step is synchronous: no then
lines.step(Float32Array.of(0, 0, 0)).then(() => {});
// @ts-expect-error Log1pObservation's options are {dtype}
new vector.VectorizeTransformObservation(envs, Log1pObservation, { dtype: 'int8' });

export { firstMask, hasReset, restarting, skipping, stacked, late, reward, lineObservations, lineStats, syncObservations, asyncStats };
