// Compiled with `tsc --strict` against the built package (gym-types.test.mjs):
// typical uses type-check, and each @ts-expect-error line is a mistake the
// declarations must catch.
import { Space, type CompilerEnv } from 'compgym';
import {
  AsyncVectorEnv,
  CommandlineWithTerminalAction,
  ConstrainedCommandline,
  Env,
  ForkOnStep,
  RecordEpisodeStatistics,
  SyncVectorEnv,
  TimeLimit,
  TransformAction,
  TransformObservation,
  TransformReward,
  DtypeObservation,
  Log1pObservation,
  NormalizeObservation,
  NormalizeReward,
  checkEnv,
  mlReady,
  make,
  makeVec,
  register,
  type CheckName,
  type CheckProblem,
  type CompilerGymEnv,
  type EpisodeStatistics,
  type ResetArgs,
  type StepResult,
} from 'compgym/gym';

class Walk extends Env<Int32Array, number> {
  position = 0;
  constructor() {
    super();
    this.actionSpace = Space.discrete(2, undefined);
    this.observationSpace = Space.box({ low: 0, high: 9, shape: [1], dtype: 'int32' });
  }
  reset(args?: ResetArgs): [Int32Array, { [key: string]: unknown }] {
    super.reset(args);
    this.position = Number(this.npRandom.integers(0, 3));
    return [Int32Array.of(this.position), {}];
  }
  step(action: number): StepResult<Int32Array> {
    this.position += action;
    return [Int32Array.of(this.position), 1, this.position >= 9, false, {}];
  }
}

register('types/Walk-v0', { entryPoint: () => new Walk(), maxEpisodeSteps: 10 });
/** A module entry point (for AsyncVectorEnv's workers) loads first: compiled, never run. */
export async function registerModule(): Promise<void> {
  const loaded: Promise<void> = register('types/ModuleWalk-v0', { entryPoint: { module: './walk.mjs', export: 'makeWalk' } });
  await loaded;
}
const walk = new TimeLimit(new Walk(), 5);
const [position] = walk.reset({ seed: 1 });
const firstPosition: number = position[0];
const [, reward, terminated, truncated, info] = walk.step(1);
const total: number = reward + firstPosition;
const done: boolean = terminated || truncated;
const forked: TimeLimit<Int32Array, number> = walk.fork();

const env = make('bril-ic-v0', { observationSpace: 'Autophase' });
const compiler = env.unwrapped as CompilerGymEnv;
const ir: string | null = compiler.render();
const view: CompilerEnv = compiler.compilerEnv;
const stats = new RecordEpisodeStatistics(new CommandlineWithTerminalAction(new ConstrainedCommandline(compiler, ['-dce', '-lvn'])));
const undoable = new ForkOnStep(stats);
const before = undoable.undo();
const scaled = new TransformReward(env, (r) => 2 * r);
const logs = new TransformObservation(env, (x) => Float64Array.from(x as BigInt64Array, Number));
const shifted = new TransformAction(env, (a: number) => a + 1);
const problems: CheckProblem[] = checkEnv(scaled);
const severity: 'error' | 'warning' = problems[0].severity;
// Every check checkEnv reports has its name in CheckName (docs/gym.md lists them).
const reported: CheckName[] = [
  'action-space-normalized',
  'reset-observation-type',
  'step-observation-type',
  'reset-data-reused',
  'step-data-reused',
  'step-truncates',
  'step-determinism',
];
const episode = (info as { episode?: EpisodeStatistics }).episode?.r;

const envs = new SyncVectorEnv([() => new Walk(), () => new Walk()]);
const [batch] = envs.reset({ seed: [1, 2] });
const [, rewards, terminations] = envs.step(Int32Array.of(1, 0));
const sum: number = rewards.reduce((a, b) => a + b, 0) + terminations[0];
const remote = makeVec('bril-ic-v0', { numEnvs: 2, vectorizationMode: 'async', vectorOptions: { workers: 2 } });
const remoteIsAsync: AsyncVectorEnv = remote;
async function remoteStep(): Promise<Float64Array> {
  await remote.reset({ seed: 3 });
  const [, r] = await remote.step([0, 1]);
  await remote.close();
  return r;
}

// The ML-ready face: masks, Float32Array observations and rewards, Int32Array actions.
const ml = make('bril-autophase-ic-v0', { dataset: 'benchmark://suite-v0', mlReady: true });
const [, mlInfo] = ml.reset({ seed: 1 });
const mask: Uint8Array | undefined = mlInfo.actionMask;
const masked = ml.actionSpace.sample(mask ?? null);
const weighted = ml.actionSpace.sample({ probability: new Float64Array(32).fill(1 / 32) });
const perElement = Space.multiDiscrete([2, 3]).sample([[1, 0], new Uint8Array([0, 1, 1])]);
const normalized = new NormalizeReward(new NormalizeObservation(new DtypeObservation(make('bril-autophase-ic-v0'), 'float32')), { gamma: 0.9 });
normalized.updateRunningMean = false;
const logScaled = mlReady(new Log1pObservation(make('bril-autophase-ic-v0'), { dtype: 'float64' }));
const mlVec = makeVec('bril-autophase-ic-v0', { numEnvs: 2, mlReady: true });
const [, mlInfos] = mlVec.reset({ seed: 1 });
const [, mlRewards] = mlVec.step(mlVec.actionSpace.sample(mlInfos.actionMask ?? null));
const float32Rewards: Float32Array = mlRewards;
const int32Actions = new SyncVectorEnv([() => make('bril-ic-v0')], { rewardDtype: 'float32', actionDtype: 'int32' });

// @ts-expect-error DtypeObservation takes a dtype name it knows
new DtypeObservation(make('bril-autophase-ic-v0'), 'float16');
// @ts-expect-error mlReady is a boolean
make('bril-ic-v0', { mlReady: 'yes' });
// @ts-expect-error a sample's options are mask or probability
ml.actionSpace.sample({ weights: [1] });
// @ts-expect-error rewardDtype is float64 or float32
new SyncVectorEnv([() => make('bril-ic-v0')], { rewardDtype: 'int8' });

// @ts-expect-error a seed is a number or a BigInt
walk.reset({ seed: '1' });
// @ts-expect-error reset takes {seed, options}, nothing else
walk.reset({ sed: 1 });
// @ts-expect-error the reward is a number
const notText: string = walk.step(1)[1];
// @ts-expect-error Walk takes number actions
walk.step('up');
// @ts-expect-error a reward transform returns a number
new TransformReward(env, (r: number) => `${r}`);
// @ts-expect-error the terminal flag needs a description
new CommandlineWithTerminalAction(compiler, { name: 'stop', flag: '-stop' });
// @ts-expect-error the vector step is synchronous in SyncVectorEnv: no then
envs.step([1, 1]).then(() => {});
// @ts-expect-error AsyncVectorEnv takes specs a worker can load, not functions
new AsyncVectorEnv([() => new Walk()]);
// @ts-expect-error checkEnv reports severities, not booleans
const flag: boolean = problems[0].severity;

export { masked, weighted, perElement, normalized, logScaled, float32Rewards, int32Actions, total, done, forked, ir, view, before, logs, shifted, severity, reported, episode, batch, sum, remoteIsAsync, remoteStep, notText, flag };
