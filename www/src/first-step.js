// The page's first steps, before the package's module has arrived: the
// first-step module (the compiler alone, src/first_step.rs) behind the part
// of the package's API the episode uses — `make` and the environments it
// makes (reset, fork, step, observations, state) — and `brilPasses()`. It
// answers as `bril-v0` does under the `IrInstructionCount` reward, on the
// bundled suite and on a program's own text (the core's tests compare the
// two); anything else waits for the package (`serves`). The episode then
// moves onto real environments (episode.js's `upgrade`).
import { FirstStep, flags, descriptions, suite, passesJson, catalogJson } from '../first-step/first-step.js';
import { lookupError } from '../pkg/errors.js';

const REWARD = 'IrInstructionCount';
const SUITE = 'benchmark://suite-v0';

/** @type {any} */
let passes = null;
/** @type {any} */
let registries = null;

/** The core's registries, as the package's `catalog()` gives them. */
export function catalog() {
  registries ??= JSON.parse(catalogJson());
  return registries;
}

/** A state of an episode on the first-step module, shaped as the package's CompilerEnv where the episode reads it. */
class FirstStepEnv {
  constructor() {
    /** @type {FirstStep | null} */
    this.firstStep = null;
    /** @type {Map<string, string>} */
    this.sources = new Map();
    this.total = 0;
  }

  /**
   * @param {string} uri
   * @param {string} source
   */
  addBenchmark(uri, source) {
    this.sources.set(uri, source);
  }

  /** @param {{ benchmark: string }} options */
  reset({ benchmark }) {
    const state = FirstStep.reset(benchmark, this.sources.get(benchmark));
    this.firstStep?.free();
    this.firstStep = state;
    this.total = 0;
    return null;
  }

  get actionSpace() {
    return { flags: flags(), descriptions: descriptions(), free() {} };
  }

  get reward() {
    return { spaces: catalog().rewards.map((/** @type {{ name: string }} */ r) => ({ name: r.name })) };
  }

  get datasets() {
    return [{ name: SUITE, benchmarks: suite().map((name) => `${SUITE}/${name}`) }];
  }

  get observation() {
    return { get: (/** @type {string} */ name) => this.current().observe(name) };
  }

  /** CompilerGym's state: `{benchmark, commandline, walltime, reward}`. */
  get state() {
    const state = this.current();
    return { benchmark: state.benchmark, commandline: state.commandline, walltime: 0, reward: this.total };
  }

  fork() {
    const fork = new FirstStepEnv();
    fork.sources = this.sources;
    fork.firstStep = this.current().fork();
    fork.total = this.total;
    return fork;
  }

  /** @param {number} action */
  step(action) {
    const { reward, changed } = this.current().step(action);
    this.total += reward;
    return { observation: null, reward, terminated: false, truncated: false, info: { actionHadNoEffect: !changed } };
  }

  current() {
    if (!this.firstStep) throw lookupError('no program is loaded in this first-step environment');
    return this.firstStep;
  }

  free() {
    this.firstStep?.free();
    this.firstStep = null;
  }
}

/** The package's API, as far as the page's first steps need it. */
export const firstStepApi = {
  /**
   * An environment on the first-step module: `bril-v0` under `IrInstructionCount` only (see `serves`).
   * @param {string} id
   * @param {{ rewardSpace?: string | null }} options
   */
  make(id, { rewardSpace } = {}) {
    if (id !== 'bril-v0' || rewardSpace !== REWARD) {
      throw lookupError(`the first-step module makes bril-v0 under ${REWARD} only, not ${id} under ${rewardSpace}`);
    }
    return /** @type {any} */ (new FirstStepEnv());
  },
  brilPasses() {
    passes ??= JSON.parse(passesJson());
    return passes;
  },
  /**
   * Whether the first-step module can load `benchmark` with the environments' reward `rewardSpace`.
   * @param {{ uri: string, source?: string }} benchmark
   * @param {string | null} rewardSpace
   */
  serves(benchmark, rewardSpace) {
    return rewardSpace === REWARD && (benchmark.source !== undefined || benchmark.uri.startsWith(`${SUITE}/`));
  },
};
