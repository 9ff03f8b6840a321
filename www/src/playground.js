// The playground's state and the actions every panel shares: which program
// is loaded (and what is known about running it), the arguments, the
// episode tree, the worker lanes, and the URL that holds it all. Panels
// listen for `program`, `info`, `args` and the episode's `change`, and call
// the methods here; none of them talks to another.
import { Episode } from './episode.js';
import { Lane } from './jobs.js';
import { benchmarkOf, DEFAULT_PROGRAM, DEFAULT_REWARD, hashText, programArgs, programLabel, USER, withArgs } from './programs.js';
import { decodeState, encodeState } from './share.js';
import { nextTask } from './format.js';
import { namedError } from '../pkg/errors.js';
import { needsO2, RUNTIME_REWARDS, runtimeReward } from './runtime-rewards.js';

export { RUNTIME_REWARDS };

/** How long a run behind a step's reward may take before the step fails (it can be cancelled sooner). */
const REWARD_RUN_LIMIT_MS = 120_000;

/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */
/** @typedef {import('./episode.js').Benchmark} Benchmark */
/** @typedef {{ ok: boolean, dynInst?: number, error?: { name: string, message: string } }} Run a run of the program in a worker */

/**
 * @param {string[]} a
 * @param {string[]} b
 */
function sameArgs(a, b) {
  return a.join(' ') === b.join(' ');
}

/**
 * The benchmark of `text` run on `args`: its own program with that `# ARGS:` line.
 * @param {string} text
 * @param {string[]} args
 */
function ownArgsBenchmark(text, args) {
  const source = withArgs(text, args);
  return { uri: USER + hashText(source), source };
}

/**
 * What the page asks of the core on the main thread: the package, or the
 * first-step module's stand-in for it (first-step.js) until the package
 * has arrived.
 * @typedef {{ make: any, brilPasses(): any, serves?: (program: Benchmark, rewardSpace: string | null) => boolean }} CoreApi
 */

export class Playground extends EventTarget {
  /**
   * `api`: the core the page starts on; `loadPackage()`: loads the package
   * and resolves to it (once the page calls `ensurePackage`, or a program
   * the first core cannot load asks for it).
   * @param {CoreApi} api
   * @param {() => Promise<CoreApi>} [loadPackage] none: `api` is the package
   */
  constructor(api, loadPackage) {
    super();
    this.api = api;
    /** Whether the package runs the episode (not the first-step module). */
    this.hasPackage = !loadPackage;
    this.loadPackage = loadPackage ?? (() => Promise.resolve(api));
    /** @type {Promise<void> | null} */
    this.upgrading = null;
    /** @type {(value?: unknown) => void} */
    let upgraded = () => {};
    /** Resolves once the package runs the episode: what needs a worker waits for it. */
    this.packageRuns = this.hasPackage ? Promise.resolve() : new Promise((resolve) => (upgraded = resolve));
    this.upgraded = upgraded;
    // The runtime rewards are deferred: a step runs no program on the main
    // thread; its reward comes from counts measured in the measure lane.
    this.episode = new Episode(api.make, { deferred: RUNTIME_REWARDS, settler: (node) => this.settle(node) });
    this.lanes = Object.fromEntries(
      ['run', 'check', 'measure', 'validate', 'bandit', 'train', 'layout', 'diff'].map((name) => [name, new Lane(name)]),
    );
    /** @type {import('./programs.js').Program | null} */
    this.program = null;
    /** `{ir, functions, hasMain, args, run, oz}`; `run` and `oz` are null until measured in a worker. */
    /** @type {any} */
    this.info = null;
    /** @type {string[]} */
    this.args = [];
    /**
     * Dynamic instruction counts by program text (null: it does not run).
     * @type {Map<string, number | null>}
     */
    this.dynamic = new Map();
    /**
     * Why a program text does not run, by text: `{name, message}`.
     * @type {Map<string, { name: string, message: string }>}
     */
    this.runErrors = new Map();
    /**
     * The Train view's run as the URL holds it, or null.
     * @type {import('./share.js').TrainingLink | null}
     */
    this.training = null;
    /** The latest load (see `loadProgram`): one that starts while another runs takes over. @type {object | null} */
    this.latestLoad = null;
    /**
     * The run a link asked for, which the Train view retrains when it mounts.
     * @type {import('./share.js').TrainingLink | null}
     */
    this.linkTraining = null;
    this.episode.addEventListener('change', () => {
      this.writeUrl();
      this.measurePath();
    });
  }

  /**
   * Loads the package, if the page started on the first-step module, and
   * moves the episode onto its environments (the tree, its rewards and
   * observations kept). Resolves once the package runs the episode.
   */
  ensurePackage() {
    this.upgrading ??= this.loadPackage().then(
      (api) => {
        if (this.hasPackage) return;
        this.episode.upgrade(api.make);
        this.api = api;
        this.hasPackage = true;
        this.upgraded();
      },
      (error) => {
        this.upgrading = null; // what asks next tries again
        throw error;
      },
    );
    return this.upgrading;
  }

  get rewardNames() {
    return this.episode.root?.env?.reward.spaces.map((s) => s.name) ?? [];
  }

  /**
   * Whether `reward` can be used on the loaded program, or why not.
   * @param {string} reward
   */
  rewardProblem(reward, info = this.info) {
    if (!RUNTIME_REWARDS.test(reward) || !info) return null;
    if (!info.hasMain) return 'the program has no @main, so it cannot run';
    if (info.run === null) return 'the program has not been run yet';
    if (!info.run.ok) return `the program does not run to the end (${info.run.error.name})`;
    return null;
  }

  /**
   * Loads `program` (a descriptor, see programs.js) on `args` (default: its
   * `# ARGS:` line) and replays `actions`. Arguments other than the
   * program's own become its `# ARGS:` line, so that the environment's runs
   * (dynamic rewards, validation's replay) use them too. The user's own
   * text is read and run in a worker first: a program that does not parse,
   * has no @main or is empty is refused with a typed error and the current
   * episode stays. A runtime reward on a program that does not run falls
   * back to the default reward, with a note.
   * @param {import('./programs.js').Program} program
   * @param {{ reward?: string, actions?: string[], args?: string[] | null }} [options]
   */
  async loadProgram(program, { reward = this.episode.rewardSpace ?? DEFAULT_REWARD, actions = [], args } = {}) {
    let benchmark = benchmarkOf(program);
    let info = null;
    if (program.kind === 'own' && !program.source.trim()) {
      throw namedError('ValueError', 'The program is empty: write at least a @main function, such as "@main { print 1; }".');
    }
    if (program.kind === 'own' || args) {
      let checked = await this.check(benchmark);
      const ownArgs = checked.args;
      if (args && !sameArgs(args, ownArgs)) {
        benchmark = ownArgsBenchmark(checked.ir, args);
        checked = await this.check(benchmark);
      }
      if (!checked.hasMain) {
        throw namedError(
          'ValueError',
          'The program has no @main function: Bril starts every run at @main, so there would be nothing to run or validate.',
        );
      }
      info = { ...checked, args: ownArgs, run: await this.runOnce(checked.ir) };
    }
    let note = null;
    const problem = info ? this.rewardProblem(reward, info) : null;
    if (problem) {
      note = `${reward} needs a program that runs; ${problem}. Using ${DEFAULT_REWARD} instead.`;
      reward = DEFAULT_REWARD;
    }
    // A program the first-step module cannot load waits for the package.
    if (!this.episode.canLoad(this.api, benchmark, reward)) await this.ensurePackage();
    // On a large program, making the environment, showing the new episode
    // and drawing the new program (the editor's text above all) each take
    // tens of milliseconds: as three tasks, the page answers input between
    // them. A load that starts meanwhile takes over.
    const env = this.episode.freshEnv(benchmark, reward);
    const load = (this.latestLoad = {});
    await nextTask();
    if (this.latestLoad !== load) {
      env.free();
      return note;
    }
    this.episode.adopt(env, benchmark, reward);
    info ??= this.describeRoot();
    this.program = program;
    this.info = { oz: null, ...info };
    this.args = args ?? this.info.args;
    // A pass the page does not know (a damaged or older link) is left out, and named.
    const unknown = actions.filter((a) => !this.episode.flags.includes(a));
    if (unknown.length) {
      const list = unknown.map((a) => JSON.stringify(a)).join(', ');
      note = [note, `Left out ${unknown.length === 1 ? 'a pass' : 'passes'} the page does not know: ${list}; the others were applied.`]
        .filter(Boolean)
        .join(' ');
    }
    const known = actions.filter((a) => this.episode.flags.includes(a));
    if (known.length) this.episode.replay(known);
    await nextTask();
    if (this.latestLoad !== load) return note;
    this.emit('program');
    this.emit('args');
    if (this.info.run === null) {
      this.measureRoot();
    } else {
      // Run once already (in the check lane): the charts need not run the root again.
      this.remember(this.info.ir, this.info.run);
      this.measurePath();
    }
    this.measureBaselines(this.episode.program);
    this.writeUrl();
    return note;
  }

  /**
   * Reads a program in the check lane (see `checkJob`).
   * @param {Benchmark} benchmark
   */
  check(benchmark) {
    return this.lanes.check.run('check', benchmark, { timeLimitMs: 20_000 });
  }

  /**
   * What the root state says about the program, before it has been run;
   * `args`: its `# ARGS:` line, `ir`: its text as the episode has it.
   */
  describeRoot() {
    const { episode } = this;
    const root = /** @type {EpisodeNode} */ (episode.root); // loaded
    const ir = episode.observe(root, 'Ir');
    const functions = JSON.parse(episode.observe(root, 'Cfg')).functions.map((/** @type {{ name: string }} */ f) => f.name);
    return { ir, functions, hasMain: functions.includes('main'), args: programArgs(ir), run: null };
  }

  /**
   * Runs the program once in the check lane: `{ok, dynInst | error}`.
   * @param {string} ir
   * @returns {Promise<Run>}
   */
  async runOnce(ir) {
    try {
      return await this.lanes.check.run('run', { source: ir, args: null }, { timeLimitMs: 5000 });
    } catch (/** @type {any} */ error) {
      return { ok: false, error: { name: error.name, message: error.message } };
    }
  }

  /**
   * The -Oz size for the charts and the agents, from a worker (on a large program -Oz takes a while).
   * @param {Benchmark | null} benchmark
   */
  async measureBaselines(benchmark) {
    const info = this.info;
    await this.packageRuns;
    try {
      const { oz } = await this.lanes.check.run('baselines', benchmark, { timeLimitMs: 60_000 });
      if (this.info !== info) return;
      info.oz = oz;
      this.emit('info');
    } catch {}
  }

  async measureRoot() {
    const info = this.info;
    await this.packageRuns;
    if (this.info !== info) return;
    if (!info.hasMain) {
      info.run = { ok: false, error: { name: 'ValueError', message: 'no @main' } };
    } else {
      const run = await this.runOnce(info.ir);
      if (this.info !== info) return;
      info.run = run;
    }
    this.remember(info.ir, info.run);
    this.emit('info');
    this.measurePath();
  }

  /**
   * Measures, one by one in the measure lane, the dynamic instruction count
   * of every state on the current path not yet measured (for the charts),
   * and from them settles the path's pending rewards (a runtime reward is
   * deferred: see episode.js). A step whose program does not run, or whose
   * run is cancelled or takes too long, fails as a step does.
   */
  async measurePath() {
    // Runs are measured in workers, on the package's module: not before the page has asked for it.
    await this.packageRuns;
    if (this.measuring) return;
    this.measuring = true;
    try {
      for (;;) {
        this.settlePath();
        const node = this.nextToMeasure();
        if (!node) break;
        if (node === 'o2') {
          await this.measureO2();
          continue;
        }
        const ir = this.episode.observe(node, 'Ir');
        const forReward = this.episode.pendingPath().length > 0;
        let result;
        try {
          result = await this.lanes.measure.run('measure', { source: ir }, { timeLimitMs: forReward ? REWARD_RUN_LIMIT_MS : 5000 });
        } catch (/** @type {any} */ error) {
          result = { error: { name: error.name, message: error.message } };
          // A run stopped by hand says nothing about the program: the steps waiting on it fail, nothing is remembered.
          if (error.name === 'CancelledError') {
            this.failPending(namedError('CancelledError', 'cancelled before its reward was computed'));
            continue;
          }
        }
        this.dynamic.set(ir, result.error ? null : result.dynInst);
        if (result.error) this.runErrors.set(ir, result.error);
        this.emit('dynamic');
      }
    } finally {
      this.measuring = false;
      this.emit('rewards');
    }
  }

  /**
   * What to measure next: a state of the current path (those up to the
   * last pending one even if the program did not run at load), `'o2'` for
   * the -O2 baseline, or null.
   */
  nextToMeasure() {
    const { episode } = this;
    const path = episode.path();
    const pending = episode.pendingPath();
    const last = pending.length ? path.indexOf(pending[pending.length - 1]) : -1;
    const reach = this.info?.run?.ok ? path.length - 1 : last;
    const node = path.slice(0, reach + 1).find((n) => n.env && !this.dynamic.has(episode.observe(n, 'Ir')));
    if (node) return node;
    if (pending.length && needsO2(/** @type {string} */ (episode.rewardSpace)) && this.info && this.info.dynO2 === undefined) return 'o2';
    return null;
  }

  /** The program's executed count after -O2, for `DynamicInstructionCountO2` (null: unknown). */
  async measureO2() {
    const info = this.info;
    let o2 = null;
    try {
      ({ o2 } = await this.lanes.measure.run('runtimeBaseline', this.episode.program, { timeLimitMs: REWARD_RUN_LIMIT_MS }));
    } catch (/** @type {any} */ error) {
      if (error.name === 'CancelledError') this.failPending(namedError('CancelledError', 'cancelled before its reward was computed'));
      if (this.info !== info) return;
      info.dynO2Error = { name: error.name, message: error.message };
    }
    if (this.info === info) info.dynO2 = o2;
  }

  /** Settles (or fails) every pending step of the current path whose counts are known. */
  settlePath() {
    for (const node of this.episode.pendingPath()) {
      if (!this.settle(node)) return;
    }
  }

  /**
   * Settles or fails pending `node` if the counts it needs are known; returns whether it did.
   * @param {EpisodeNode} node a pending node: never the root
   */
  settle(node) {
    const { episode } = this;
    const name = /** @type {string} */ (episode.rewardSpace); // loaded
    const own = this.measured(node);
    const before = this.measured(/** @type {EpisodeNode} */ (node.parent));
    if (own.error || before.error) {
      episode.fail(node, own.error ?? before.error);
      return true;
    }
    const o0 = this.measured(/** @type {EpisodeNode} */ (episode.root)).count;
    const o2 = this.info?.dynO2;
    if (own.count === undefined || before.count === undefined || o0 === undefined) return false;
    if (needsO2(name) && o2 === undefined) return false;
    if (needsO2(name) && o2 === null) {
      episode.fail(node, this.info.dynO2Error ?? namedError('ValueError', 'the program after -O2 does not run'));
      return true;
    }
    episode.settle(node, runtimeReward(name, before.count, own.count, { o0, o2 }));
    return true;
  }

  /**
   * Remembers the run of program text `ir` (`{ok, dynInst | error}`); a run stopped by the time limit says nothing.
   * @param {string} ir
   * @param {any} run a Run: `dynInst` when ok, `error` when not
   */
  remember(ir, run) {
    if (run.ok) this.dynamic.set(ir, run.dynInst);
    else if (run.error.name !== 'TimeoutError' && run.error.name !== 'CancelledError') {
      this.dynamic.set(ir, null);
      this.runErrors.set(ir, run.error);
    }
  }

  /**
   * `node`'s executed count: `{count}` (undefined: not yet known) or `{error}`.
   * @param {EpisodeNode} node
   * @returns {{ count?: number, error?: { name: string, message: string } }}
   */
  measured(node) {
    const ir = this.episode.observe(node, 'Ir');
    if (!this.dynamic.has(ir)) return { count: undefined };
    const count = this.dynamic.get(ir);
    if (count === null) return { error: this.runErrors.get(ir) ?? namedError('ValueError', 'the program does not run to the end') };
    return { count };
  }

  /**
   * Fails every pending step of the current path with `error`.
   * @param {Error} error
   */
  failPending(error) {
    const [first] = this.episode.pendingPath();
    if (first) this.episode.fail(first, error);
  }

  /** Stops the runs behind the pending rewards: those steps fail, and the episode goes on before them. */
  cancelRewards() {
    if (this.episode.pendingPath().length) this.lanes.measure.cancel();
  }

  /**
   * The dynamic instruction count of `node`: a number, null (does not run) or undefined (not yet known).
   * @param {EpisodeNode} node
   */
  dynamicCount(node) {
    if (!node.env) return null;
    return this.dynamic.get(this.episode.observe(node, 'Ir'));
  }

  /**
   * Makes `args` the program's arguments: the episode is loaded again on
   * them (the current path replayed, the reward kept if the program still
   * runs), so that every run, reward and verdict uses them. Returns the
   * load's note, if any.
   * @param {string[]} args
   */
  async setArgs(args) {
    if (sameArgs(args, this.args)) return null;
    return this.loadProgram(/** @type {import('./programs.js').Program} */ (this.program), {
      reward: /** @type {string} */ (this.episode.rewardSpace), // loaded
      actions: this.episode.actions(),
      args,
    });
  }

  /**
   * Switches the reward, replaying the tree; refuses a runtime reward on a
   * program that does not run. A reward the first-step module does not
   * compute waits for the package.
   * @param {string} name
   */
  async setReward(name) {
    const problem = this.rewardProblem(name);
    if (problem) throw namedError('ValueError', `${name} runs the program at every step, but ${problem}.`);
    if (!this.episode.canLoad(this.api, /** @type {Benchmark} */ (this.episode.program), name)) await this.ensurePackage();
    this.episode.setReward(name);
    this.emit('reward');
  }

  /**
   * Restores the state a URL fragment holds; an unreadable part throws and loads nothing.
   * @param {string} fragment
   */
  async restore(fragment) {
    const state = decodeState(fragment);
    const program = state.program ?? DEFAULT_PROGRAM;
    const note = await this.loadProgram(program, {
      reward: state.reward ?? DEFAULT_REWARD,
      actions: state.actions ?? [],
      args: state.args,
    });
    // The Train view retrains the link's run when it mounts; until then the URL keeps it.
    this.linkTraining = state.training ?? null;
    this.training = this.linkTraining;
    this.writeUrl();
    const problem = state.trainingProblem && `Left out the training run: ${state.trainingProblem}.`;
    return [note, problem].filter(Boolean).join(' ') || null;
  }

  /** The fragment that restores the current state. */
  fragment() {
    if (!this.program || !this.episode.root) return '';
    const ownArgs = this.info?.args ?? [];
    const argsDiffer = this.args.join(' ') !== ownArgs.join(' ');
    return encodeState({
      program: this.program,
      args: argsDiffer ? this.args : null,
      reward: this.episode.rewardSpace,
      actions: this.episode.actions(),
      training: this.training,
    });
  }

  /** Writes the URL once after a burst of changes, in a task of its own (`replaceState` can take a while). */
  writeUrl() {
    if (this.urlPending) return;
    this.urlPending = true;
    setTimeout(() => {
      this.urlPending = false;
      this.writeUrlNow();
    }, 0);
  }

  writeUrlNow() {
    const fragment = this.fragment();
    if (fragment && location.hash.slice(1) !== fragment) history.replaceState(null, '', `#${fragment}`);
  }

  get label() {
    return this.program ? programLabel(this.program) : '';
  }

  /** @param {string} type */
  emit(type) {
    this.dispatchEvent(new Event(type));
  }
}
