// The episode as a tree of states, after CompilerGym's Explorer: the root is
// the program as reset, every other node the state one pass after its
// parent. Each node keeps its own environment (a fork of its parent's), so
// any node can be revisited and stepped from; stepping from a node that
// already has children branches. A step that fails leaves a failed node
// behind and the current state where it was, so nothing is lost.
//
// A reward named by `deferred` (the page defers the runtime rewards) is not
// computed by the environments, whose steps would otherwise run the program
// on the main thread: they take the static reward instead, a new node is
// `pending`, and whoever runs the programs (the page, in a worker) settles
// its reward with `settle` or fails it with `fail`; `settler`, if given, is
// asked at once whether it knows the reward already (a program run before),
// so that a step needing no new run is settled, or failed, as it is taken.
//
// No DOM here: the page and the Node tests drive the same model, given the
// package's `make`.
import { lookupError, namedError, valueError } from '../pkg/errors.js';

/** @typedef {{ uri: string, source?: string }} Benchmark a program as the environment takes it (programs.js's benchmarkOf) */

const MAX_NODES = 5000;

/** The reward the environments compute while a deferred one is computed outside them. */
const STAND_IN_REWARD = 'IrInstructionCount';

/**
 * A state of the tree.
 * @typedef {object} EpisodeNode
 * @property {number} id
 * @property {EpisodeNode | null} parent null at the root
 * @property {EpisodeNode[]} children
 * @property {number | null} action the pass that led here (null at the root)
 * @property {string | null} flag that pass's flag
 * @property {import('../pkg/compgym.js').CompilerEnv | null} env null once failed
 * @property {number | null} reward null while pending or failed
 * @property {number | null} total the episode reward so far
 * @property {boolean} changed
 * @property {{ name: string, message: string } | null} error why the step failed
 * @property {boolean} pending its reward is computed outside the environments
 * @property {number} depth
 * @property {Map<string, unknown>} cache
 */

/**
 * An error as plain data: `{name, message}`.
 * @param {any} error what was thrown, or an error as data
 * @returns {{ name: string, message: string }}
 */
function plain(error) {
  return { name: error?.name ?? 'Error', message: error?.message ?? String(error) };
}

export class Episode extends EventTarget {
  /**
   * `make`: the package's `make`; `envId`: the environment to make;
   * `deferred`: a RegExp (or any `{test(name)}`) telling the reward names computed outside the
   * environments (see above), or null; `settler(node)`: settles or fails a
   * pending node whose reward is known without a new run (see above).
   * @param {any} make
   * @param {{ envId?: string, deferred?: { test(name: string): boolean } | null, settler?: ((node: any) => void) | null }} [options]
   */
  constructor(make, { envId = 'bril-v0', deferred = null, settler = null } = {}) {
    super();
    this.make = make;
    this.envId = envId;
    this.deferred = deferred;
    this.settler = settler;
    /** @type {Benchmark | null} */
    this.program = null;
    /** @type {string | null} */
    this.rewardSpace = null;
    /** @type {EpisodeNode | null} */
    this.root = null;
    /** @type {EpisodeNode | null} */
    this.current = null;
    /** @type {EpisodeNode | null} */
    this.failure = null;
    this.nodeCount = 0;
    this.ids = 0;
  }

  /** Pass flags by action index. */
  get flags() {
    return this.flagList ?? [];
  }

  /** What each pass does, by action index (the action space's descriptions). */
  get descriptions() {
    return this.descriptionList ?? [];
  }

  /**
   * Starts a new episode on `program` (`{uri, source?}`: `source` is the text
   * of the user's own program) under `rewardSpace`. On failure the previous
   * episode stays as it was and the error is thrown.
   * @param {Benchmark} program
   * @param {string} rewardSpace
   */
  load(program, rewardSpace) {
    this.adopt(this.freshEnv(program, rewardSpace), program, rewardSpace);
  }

  /**
   * Starts a new episode from `env`, an environment `freshEnv(program,
   * rewardSpace)` made: `load` in two parts, for a caller that lets the
   * page answer input between making the environment and showing it.
   * @param {import('../pkg/compgym.js').CompilerEnv} env
   * @param {Benchmark} program
   * @param {string} rewardSpace
   */
  adopt(env, program, rewardSpace) {
    this.dispose();
    const space = env.actionSpace;
    /** @type {string[] | undefined} */
    this.flagList = space.flags;
    /** @type {string[] | undefined} */
    this.descriptionList = space.descriptions;
    space.free();
    this.program = program;
    this.rewardSpace = rewardSpace;
    this.root = this.node(null, null, env, { reward: 0, changed: false });
    this.current = this.root;
    this.failure = null;
    this.changed('load');
  }

  /**
   * The reward the environments compute for the episode's reward `name`.
   * @param {string | null} name
   */
  envReward(name) {
    return this.defers(name) ? STAND_IN_REWARD : name;
  }

  /**
   * Whether `api`'s environments can load `program` under `rewardSpace`
   * (the first-step module serves only some, see first-step.js).
   * @param {{ serves?: (program: Benchmark, rewardSpace: string | null) => boolean }} api
   * @param {Benchmark} program
   * @param {string} rewardSpace
   */
  canLoad(api, program, rewardSpace) {
    return api.serves?.(program, this.envReward(rewardSpace)) ?? true;
  }

  /**
   * Moves every state of the tree onto environments `make` makes (the
   * page's first steps run on the first-step module): the root is loaded
   * again and every other state replayed from its parent's, so the tree,
   * its rewards and what was observed of it stay as they were.
   * @param {any} make the package's `make`
   */
  upgrade(make) {
    this.make = make;
    const root = this.root;
    if (!root || !this.program || !this.rewardSpace) return;
    const env = this.freshEnv(this.program, this.rewardSpace);
    const old = [root.env];
    root.env = env;
    for (const node of this.nodes()) {
      for (const child of node.children) {
        if (!child.env) continue; // a failed step has no state to move
        const moved = /** @type {import('../pkg/compgym.js').CompilerEnv} */ (node.env).fork();
        moved.step(/** @type {number} */ (child.action));
        old.push(child.env);
        child.env = moved;
      }
    }
    for (const stale of old) stale?.free();
  }

  /** Whether reward `name` is computed outside the environments. */
  defers(name = this.rewardSpace) {
    return Boolean(name && this.deferred?.test(name));
  }

  /**
   * @param {Benchmark} program
   * @param {string | null} rewardSpace
   * @returns {import('../pkg/compgym.js').CompilerEnv}
   */
  freshEnv(program, rewardSpace) {
    const env = this.make(this.envId, { rewardSpace: this.envReward(rewardSpace) });
    try {
      if (program.source !== undefined) env.addBenchmark(program.uri, program.source);
      env.reset({ benchmark: program.uri });
      return env;
    } catch (error) {
      env.free();
      throw error;
    }
  }

  /**
   * @param {EpisodeNode | null} parent
   * @param {number | null} action
   * @param {import('../pkg/compgym.js').CompilerEnv | null} env
   * @param {{ reward: number | null, changed: boolean, error?: { name: string, message: string } | null }} outcome
   * @returns {EpisodeNode}
   */
  node(parent, action, env, { reward, changed, error = null }) {
    this.nodeCount++;
    const pending = Boolean(parent && !error && this.defers());
    if (pending) reward = null;
    return {
      id: ++this.ids,
      parent,
      children: [],
      action,
      flag: action === null ? null : this.flags[action],
      env,
      reward,
      total: pending ? null : sum(parent ? parent.total : 0, reward ?? 0),
      changed,
      error,
      pending,
      depth: parent ? parent.depth + 1 : 0,
      cache: new Map(),
    };
  }

  /** The root and the current node; a ValueError before a program is loaded. */
  loaded() {
    if (!this.root || !this.current) throw valueError('no program is loaded yet');
    return { root: this.root, current: this.current };
  }

  /**
   * An action index from a flag or an index.
   * @param {unknown} action
   * @returns {number}
   */
  actionIndex(action) {
    const flags = this.flags;
    const index = typeof action === 'string' ? flags.indexOf(action) : action;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= flags.length) {
      throw lookupError(`unknown pass ${JSON.stringify(action)}: the passes are ${flags.join(' ')}`);
    }
    return index;
  }

  /**
   * Applies `action` (flag or index) to the current state. The child that
   * action already led to is reused; otherwise a fork of the current state
   * takes the step. Returns the new current node, or the failed node (the
   * current state then stays where it was; `failure` holds the failed node).
   * @param {string | number} action
   */
  step(action) {
    const from = this.loaded().current;
    const index = this.actionIndex(action);
    const known = from.children.find((c) => c.action === index && !c.error);
    if (known) {
      this.current = known;
      this.failure = null;
      this.changed('step');
      return known;
    }
    if (this.nodeCount >= MAX_NODES) {
      throw namedError('LimitError', `the history holds ${MAX_NODES} states: reset to start again`);
    }
    const { node, failed } = this.take(from, index);
    from.children = from.children.filter((c) => !(c.error && c.action === index));
    from.children.push(node);
    if (failed) {
      this.failure = node;
    } else {
      this.current = node;
      this.failure = null;
      this.settleKnown(node);
    }
    this.changed('step');
    return node;
  }

  /**
   * Forks `from` and steps it: `{node, failed}`.
   * @param {EpisodeNode} from a node that did not fail (it has an environment)
   * @param {number} action
   */
  take(from, action) {
    const env = /** @type {import('../pkg/compgym.js').CompilerEnv} */ (from.env).fork();
    let result;
    try {
      result = env.step(action);
    } catch (error) {
      env.free();
      return { node: this.node(from, action, null, { reward: null, changed: false, error: plain(error) }), failed: true };
    }
    if (result.terminated && result.info.error) {
      env.free();
      const error = plain(result.info.error);
      return { node: this.node(from, action, null, { reward: null, changed: false, error }), failed: true };
    }
    const reward = typeof result.reward === 'number' ? result.reward : null;
    return { node: this.node(from, action, env, { reward, changed: !result.info.actionHadNoEffect }), failed: false };
  }

  /**
   * Makes `node` (not a failed one) the current state.
   * @param {EpisodeNode} node
   */
  goTo(node) {
    if (node.error || !node.env) return;
    this.current = node;
    this.failure = null;
    this.changed('goto');
  }

  /** Back to the parent of the current state. */
  back() {
    const { parent } = this.loaded().current;
    if (parent) this.goTo(parent);
  }

  /**
   * Nodes from the root to `node`.
   * @returns {EpisodeNode[]}
   */
  path(node = this.current) {
    /** @type {EpisodeNode[]} */
    const nodes = [];
    for (let n = node; n; n = n.parent) nodes.push(n);
    return nodes.reverse();
  }

  /**
   * Flags of the steps from the root to `node`.
   * @returns {string[]}
   */
  actions(node = this.current) {
    return this.path(node)
      .slice(1)
      .map((n) => /** @type {string} */ (n.flag)); // every node but the root was a step
  }

  /**
   * Steps through `actions` from the root; stops at the first failure. One change event at the end.
   * @param {Iterable<string | number>} actions
   */
  replay(actions) {
    this.quietly('replay', () => {
      this.current = this.root;
      this.failure = null;
      for (const action of actions) {
        const node = this.step(action);
        if (node.error) break;
      }
    });
  }

  /**
   * Runs `fn` (steps and moves) with one change event, `why`, at the end; returns what `fn` does.
   * @template T
   * @param {string} why
   * @param {() => T} fn
   * @returns {T}
   */
  quietly(why, fn) {
    const outer = this.quiet;
    /** @type {boolean | undefined} whether change events wait for the end of a `quietly` run */
    this.quiet = true;
    try {
      return fn();
    } finally {
      this.quiet = outer;
      this.changed(why);
    }
  }

  /**
   * Switches the reward: every state of the tree is replayed under `name`,
   * so each step's reward and the episode reward agree with the steps list.
   * A step that fails under the new reward becomes a failed node and loses
   * its subtree; one that failed before is tried again. On failure to start, nothing changes and the error is thrown.
   * @param {string} name
   */
  setReward(name) {
    const { root } = this.loaded();
    const rootEnv = this.freshEnv(/** @type {Benchmark} */ (this.program), name); // loaded
    const defers = this.defers(name);
    /** @type {(import('../pkg/compgym.js').CompilerEnv | null)[]} */
    const old = [];
    /** @param {EpisodeNode} parent a node with an environment */
    const replayChildren = (parent) => {
      for (const child of parent.children) {
        if (child.env) old.push(child.env);
        const env = /** @type {import('../pkg/compgym.js').CompilerEnv} */ (parent.env).fork();
        /** @type {any} */
        let result = null; // a step's result: its info is the environment's
        /** @type {{ name: string, message: string } | null} */
        let error = null;
        try {
          result = env.step(child.action);
          if (result.terminated && result.info.error) error = plain(result.info.error);
        } catch (thrown) {
          error = plain(thrown);
        }
        if (error) {
          env.free();
          this.dropSubtree(child, old);
          Object.assign(child, { env: null, error, reward: null, total: parent.total, pending: false });
          continue;
        }
        child.env = env;
        child.error = null;
        child.changed = !result.info.actionHadNoEffect;
        child.pending = defers;
        child.reward = defers || typeof result.reward !== 'number' ? null : result.reward;
        child.total = child.pending ? null : sum(parent.total, child.reward ?? 0);
        replayChildren(child);
      }
    };
    old.push(root.env);
    root.env = rootEnv;
    replayChildren(root);
    for (const env of old) env?.free();
    this.rewardSpace = name;
    for (const node of [...this.nodes()]) if (node.pending && node.env) this.settleKnown(node);
    // The root never failed, so the walk ends there at the latest.
    let current = this.loaded().current;
    while ((current.error || !current.env) && current.parent) current = current.parent;
    this.current = current;
    this.failure = null;
    this.changed('reward');
  }

  /**
   * Gives pending `node` its reward, computed outside the environments; the
   * totals below it follow. Does nothing to a node no longer pending.
   * @param {EpisodeNode} node
   * @param {number | null} reward
   */
  settle(node, reward) {
    if (!node.pending) return;
    node.pending = false;
    node.reward = reward;
    this.retotal(node);
    this.changed('settle');
  }

  /**
   * Fails pending `node` with `error` (its program did not run, or its run
   * was stopped): it becomes a failed node and loses its subtree, as a step
   * that fails does; if the current state was at or below it, the episode
   * goes on from its parent.
   * @param {EpisodeNode} node
   * @param {unknown} error
   */
  fail(node, error) {
    if (!node.pending) return;
    let inside = false;
    for (let n = this.current; n; n = n.parent) if (n === node) inside = true;
    const envs = [node.env];
    this.dropSubtree(node, envs);
    for (const env of envs) env?.free();
    // A pending node is never the root: it has a parent.
    const parent = /** @type {EpisodeNode} */ (node.parent);
    Object.assign(node, { env: null, error: plain(error), reward: null, total: parent.total, pending: false, changed: false });
    node.cache.clear();
    if (inside) {
      this.current = node.parent;
      this.failure = node;
    }
    this.changed('settle');
  }

  /**
   * Asks the settler, quietly, whether pending `node`'s reward is known already.
   * @param {EpisodeNode} node
   */
  settleKnown(node) {
    if (!node.pending || !this.settler) return;
    const outer = this.quiet;
    this.quiet = true;
    try {
      this.settler(node);
    } finally {
      this.quiet = outer;
    }
  }

  /**
   * The totals below `node`, from its own.
   * @param {EpisodeNode} node
   */
  retotal(node) {
    const before = node.parent ? node.parent.total : 0;
    if (node.error) node.total = before;
    else node.total = node.pending ? null : sum(before, node.reward ?? 0);
    for (const child of node.children) this.retotal(child);
  }

  /** The pending nodes of the current path, from the root down. */
  pendingPath() {
    return this.path().filter((n) => n.pending);
  }

  /**
   * The state of `node` as CompilerGym writes it (`{benchmark, commandline,
   * walltime, reward}`), its reward the episode's under a deferred reward
   * (null while pending).
   */
  state(node = this.loaded().current) {
    if (!node.env) throw valueError('a failed step has no state');
    const state = node.env.state;
    return this.defers() ? { ...state, reward: node.total } : state;
  }

  /**
   * Frees the environments under `node` and forgets its children.
   * @param {EpisodeNode} node
   * @param {(import('../pkg/compgym.js').CompilerEnv | null)[]} envs
   */
  dropSubtree(node, envs) {
    for (const child of node.children) {
      if (child.env) envs.push(child.env);
      child.env = null;
      this.dropSubtree(child, envs);
      this.nodeCount--;
    }
    node.children = [];
  }

  /**
   * Observation `name` of `node`, computed once.
   * @param {EpisodeNode} node
   * @param {string} name
   * @returns {any} the observation (its kind is the name's)
   */
  observe(node, name) {
    if (!node.env) return null;
    if (!node.cache.has(name)) node.cache.set(name, node.env.observation.get(name));
    return node.cache.get(name);
  }

  /**
   * The static instruction count of `node`.
   * @param {EpisodeNode} node
   */
  size(node) {
    return node.env ? Number(this.observe(node, 'IrInstructionCount')) : null;
  }

  /**
   * Every node, depth first.
   * @param {EpisodeNode | null} [node]
   * @returns {Generator<EpisodeNode>}
   */
  *nodes(node = this.root) {
    if (!node) return;
    yield node;
    for (const child of node.children) yield* this.nodes(child);
  }

  /** @param {string} why */
  changed(why) {
    if (this.quiet) return;
    this.dispatchEvent(Object.assign(new Event('change'), { why }));
  }

  /** Frees every environment of the tree. */
  dispose() {
    for (const node of this.nodes()) node.env?.free();
    this.root = null;
    this.current = null;
    this.nodeCount = 0;
  }
}

/**
 * `a + b`, unknown (null) if either is.
 * @param {number | null} a
 * @param {number | null} b
 */
function sum(a, b) {
  return a === null || b === null ? null : a + b;
}
