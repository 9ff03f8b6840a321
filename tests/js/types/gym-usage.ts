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
  checkEnv,
  make,
  makeVec,
  register,
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

export { total, done, forked, ir, view, before, logs, shifted, severity, episode, batch, sum, remoteIsAsync, remoteStep, notText, flag };
