//! TypeScript shapes of the agents' options and results, so
//! `compgym.d.ts` types them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_AGENTS: &'static str = r#"
/** What a policy lowers: code size (then `-Oz`) or runtime (then `-O2`). */
export type PolicyTask = "size" | "runtime";

/**
 * Fetches the pretrained policies (files in the package's `policies/` folder,
 * beside its module, which does not carry them) and registers them for
 * `Policy.pretrained()` and the `"policy"` and `"guided"` agents; resolves to
 * their tasks. Idempotent. Under Node they are registered on import and this
 * resolves at once; the agents' worker loads them itself. `base`: the folder
 * they are served from, if not the package's own.
 */
export function loadPretrained(options?: { base?: string | URL }): Promise<PolicyTask[]>;

/** `"out of budget"`: the steps or seconds are spent; `"done"`: the agent finished on its own. */
export type AgentStatus = "running" | "done" | "out of budget" | "cancelled";

/** Options of `new SearchAgent(name, options)` and `policy.rollout(options)`. */
export interface AgentOptions {
  /** The program's URI (`"benchmark://suite-v0/fib"`); with `source`, the URI it is added under (default `"benchmark://user-v0/program"`). */
  benchmark?: string;
  /** A program of one's own: Bril text, or Bril JSON (an object or its text). */
  source?: string | object;
  /** The environment (default `"bril-v0"`). */
  env?: string;
  /** The reward whose cost the agent lowers (default `"IrInstructionCount"`; `"IrInstructionCountOz"` lowers the same cost, `"DynamicInstructionCount"` the run's). */
  rewardSpace?: string;
  /** The seed of the agent's random choices (default 0). */
  seed?: number | bigint;
  /** Environment steps at most (default 5000; null: no limit). With a step budget a run is the same on every platform. */
  steps?: number | null;
  /** Seconds of work at most (default 10; null: no limit). */
  seconds?: number | null;
  /** Searches start from the baseline's passes (`-Oz` for code size, `-O2` for runtime), as on the leaderboard. */
  fromBaseline?: boolean;
  /** For `"policy"` and `"guided"`: the policy, or its JSON (default: the bundled one for the task). */
  policy?: Policy | string;
}

/** Where a run is. */
export interface AgentProgress {
  status: AgentStatus;
  /** Seconds of work so far. */
  elapsed: number;
  steps: number;
  /** Trajectories started: random search's episodes, explore's walks, greedy's moves, beam search's levels, the policy's one. */
  episodes: number;
  /** The lowest cost found (instructions, for code size). */
  bestCost: number;
  /** The unoptimised program's cost. */
  initialCost: number;
  /** The best state's actions, as indices into the action space. */
  bestActions: number[];
  /** The share of the budget spent, from 0 to 1 (1 once the run is over). */
  fraction: number;
}

/** What a run found: the best state (for the policy, its final state). */
export interface AgentResult {
  agent: AgentName;
  benchmark: string;
  /** Action indices. */
  actions: number[];
  /** The actions' names (pass flags). */
  passes: string[];
  commandline: string;
  cost: number;
  initialCost: number;
  steps: number;
  episodes: number;
  walltime: number;
  status: AgentStatus;
  /** CompilerGym's state of the result: `env.apply(state)` or `env.validate(state)` replays it. */
  state: CompilerEnvState;
  /** The state as CompilerGym's CSV, with its header. */
  csv: string;
}

/** The action a policy takes. */
export interface PolicyChoice {
  /** The pass's name (`"-dce"`). */
  action: string;
  /** Its index in the environment's action space. */
  index: number;
  /** Its probability under the policy, among the actions allowed. */
  probability: number;
}

/** What `PolicyPlayer.step()` did. */
export interface PolicyStep extends PolicyChoice {
  changed: boolean;
  /** The episode is over. */
  done: boolean;
  /** The compiler's error if the step failed. */
  error: Error | null;
}

/** Options of `new PolicyTrainer(options)`; defaults are `compgym train`'s. */
export interface PolicyTrainerOptions {
  seed?: number | bigint;
  /** What the policy lowers (default `"size"`): its episodes end with `-Oz` or `-O2`. */
  task?: PolicyTask;
  /** The most passes before the pipeline. */
  episodeLength?: number;
  /** Hidden layer sizes. */
  hidden?: number[];
  learningRate?: number;
  /** Decoupled weight decay (AdamW). */
  weightDecay?: number;
  /** Episodes per update. */
  batch?: number;
  /** Passes of PPO over each batch. */
  epochs?: number;
  /** Choices per gradient step. */
  minibatch?: number;
  /** PPO's clipping of the probability ratio (0 to 1). */
  clip?: number;
  /** λ of the advantage estimates (0 to 1). */
  gaeLambda?: number;
  entropy?: number;
  valueWeight?: number;
  maxGradNorm?: number;
  /** `[min, max]` statements of the generated training programs. */
  sizes?: [number, number];
  /** Benchmark URIs or listed datasets (`"benchmark://large-v0"`) to train on besides generated programs (default: the train side of the bundled hand-written programs). */
  programs?: string[];
  /** The share of episodes played on `programs` (0 to 1). */
  programShare?: number;
  /** Updates between validations (0: never). */
  validateEvery?: number;
  /** The benchmark URIs the curve is validated on (default: the held-out side of the bundled programs). */
  validation?: string[];
  /** Episodes played at random first, to measure the inputs' scales. */
  normalizerEpisodes?: number;
}

/** One point of the training curve, after an update. */
export interface CurvePoint {
  update: number;
  episodes: number;
  steps: number;
  seconds: number;
  /** The batch's mean return, `ln(baseline / final cost)` (0: the pipeline's result). */
  meanReturn: number;
  entropy: number;
  /** Geometric mean of `baseline / final` over the validation programs, when validated at this update. */
  validation: number | null;
}

/** Options of `leaderboard(options)` and `new Leaderboard(options)`; defaults are `compgym leaderboard`'s. */
export interface LeaderboardOptions {
  /** 4 suite, 2 large and 4 generated programs, 200 steps each (other options override). */
  quick?: boolean;
  tasks?: ("size" | "runtime")[];
  agents?: AgentName[];
  /** The policy to rank (joins the agents). */
  policy?: Policy | string;
  /** The first programs of the suite (default all; 0: none). */
  suite?: number;
  /** The first programs of large-v0 (default all; 0: none). */
  large?: number;
  /** Generated programs, of seeds training never draws (default 100). */
  generated?: number;
  /** Their size (default 40). */
  size?: number;
  /** Per program (default 5000; null: no limit). */
  steps?: number | null;
  /** Per program (default 10; null: no limit). */
  seconds?: number | null;
  /** Searches start from the baseline's passes (default true). */
  fromBaseline?: boolean;
  seed?: number | bigint;
}

/** One agent's result on one program. */
export interface LeaderboardEntry {
  benchmark: string;
  initial: number;
  baseline: number;
  cost: number;
  /** `baseline / cost`: above 1 is better than the baseline. */
  ratio: number;
  commandline: string;
  steps: number;
  walltime: number;
  /** Why the result is not valid (it replays to another cost, or behaves otherwise), or null. */
  invalid: string | null;
}

/** One agent on one task and dataset. */
export interface LeaderboardRow {
  task: "code size" | "runtime";
  dataset: string;
  agent: AgentName;
  baseline: "-Oz" | "-O2";
  /** Geometric mean of the ratios. */
  geomean: number;
  better: number;
  worse: number;
  valid: number;
  programs: LeaderboardEntry[];
}

export interface LeaderboardProgress {
  /** Programs done. */
  done: number;
  total: number;
  finished: boolean;
}

export interface LeaderboardResult {
  rows: LeaderboardRow[];
  /** The Markdown table `compgym leaderboard` prints. */
  table: string;
}
"#;
