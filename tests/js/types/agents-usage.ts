// Compiled with `tsc --strict` against the built package (gym-types.test.mjs):
// typical uses of the agents type-check, and each @ts-expect-error line is a
// mistake the declarations must catch.
import {
  Leaderboard,
  Policy,
  PolicyTrainer,
  SearchAgent,
  agentNames,
  leaderboard,
  make,
  type AgentName,
  type AgentProgress,
  type AgentResult,
  type CurvePoint,
  type LeaderboardRow,
} from 'compgym';
import { connectAgents, type TrainResult } from 'compgym/agents.js';

const names: AgentName[] = agentNames();
const agent = new SearchAgent(names[0], { benchmark: 'benchmark://suite-v0/fib', seed: 1n, steps: null, seconds: 2 });
const progress: AgentProgress = agent.runChunk(0.1);
const best: number = progress.bestCost;
const actions: number[] = progress.bestActions;
if (progress.status === 'out of budget' || progress.status === 'cancelled') agent.cancel();
const result: AgentResult = agent.run((p) => p.steps < 100);
const csv: string = result.csv;
const env = make('bril-v0');
env.apply(result.state);
const state = result.state;
const passes: string[] = result.passes;

const policy = Policy.pretrained();
const player = policy.play(env);
const choice = player.act();
if (choice !== null) {
  const probability: number = choice.probability;
  const name: string = choice.action;
}
const stepped = player.step();
if (stepped && stepped.error) throw stepped.error;
const rollout: SearchAgent = policy.rollout({ source: '@main {}', rewardSpace: 'IrInstructionCountOz' });
new SearchAgent('policy', { benchmark: 'benchmark://suite-v0/fib', policy });
new SearchAgent('policy', { benchmark: 'benchmark://suite-v0/fib', policy: policy.toJson() });

const trainer = new PolicyTrainer({ seed: 1, hidden: [8], sizes: [10, 20] });
const points: CurvePoint[] = trainer.trainFor(0.5);
const validation: number | null = points[0].validation;
const trained: Policy = trainer.policy();

const rows: LeaderboardRow[] = leaderboard({ quick: true, tasks: ['size'], agents: ['greedy'] }).rows;
const ratio: number = rows[0].programs[0].ratio;
const board = new Leaderboard({ steps: 100, seconds: null });
while (!board.runChunk(0.1).finished) {}
const table: string = board.table;

async function remote(): Promise<void> {
  const agents = connectAgents();
  const stop = new AbortController();
  const found: AgentResult = await agents.run('beam', { benchmark: 'benchmark://suite-v0/fib' }, { signal: stop.signal, onProgress: (p) => p.fraction });
  const training: TrainResult = await agents.train({ updates: 3 }, { onProgress: ({ points }) => points.length });
  Policy.fromJson(training.policy);
  const board = await agents.leaderboard({ quick: true }, { onProgress: ({ done, total }) => done / total });
  const finished: boolean = board.finished;
  agents.cancel();
  await agents.terminate();

  // @ts-expect-error: an agent that does not exist
  await agents.run('oracle', { benchmark: 'benchmark://suite-v0/fib' });
  // @ts-expect-error: progress is reported, not returned
  await agents.run('random', { benchmark: 'benchmark://suite-v0/fib' }, { onProgress: 3 });
}

// @ts-expect-error: an agent that does not exist
new SearchAgent('oracle', { benchmark: 'benchmark://suite-v0/fib' });
// @ts-expect-error: steps is a number or null
new SearchAgent('random', { benchmark: 'benchmark://suite-v0/fib', steps: '100' });
// @ts-expect-error: a misspelt option
new SearchAgent('random', { benchmark: 'benchmark://suite-v0/fib', sede: 1 });
// @ts-expect-error: bestCost is a number
const wrong: string = progress.bestCost;
// @ts-expect-error: sizes is [min, max]
new PolicyTrainer({ sizes: 10 });
// @ts-expect-error: tasks are size and runtime
leaderboard({ tasks: ['speed'] });
// @ts-expect-error: the status is one of four
const status: 'finished' = agent.status;

export { best, actions, csv, state, passes, rollout, validation, trained, ratio, table, remote, wrong, status };
