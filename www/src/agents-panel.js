// The agents panel: one of compgym's agents runs in a worker on the loaded
// program (compgym/agents.js, the package's own worker) under a budget of
// environment steps and/or seconds, with a progress bar, a live chart of
// the best size found against the steps, a stop button that keeps the best
// so far, and "adopt", which makes the best sequence found the episode. A
// policy trained in the Train view joins the agents once it is handed over.
import { connectAgents } from '../pkg/agents.js';
import { valueError } from '../pkg/errors.js';
import uPlot from 'uplot';
import { describe, count, signed } from './format.js';
import { fitTicks, lineChart } from './charts.js';
import { AGENTS } from './search.js';
import { RUNTIME_REWARDS } from './runtime-rewards.js';
import { fullModule } from './wasm.js';

const WORKER_URL = new URL('agents-worker.js', document.baseURI);
/** How long a stop may wait for the worker's current chunk before the worker is ended. */
const STOP_GRACE_MS = 3000;
const MAX_STEPS = 1_000_000;

/** The policy trained in the Train view, offered once it exists. */
const TRAINED = {
  name: 'trained',
  label: 'the policy trained here',
  description:
    'The policy trained in the Train view below: it picks a few passes from the program’s features (or none), then -Oz runs; one episode, no search.',
};

/**
 * The run's budget from the form: `{steps, seconds, seed}`, a blank budget
 * meaning no limit of that kind. Steps make a run the same on every machine;
 * seconds only stop it.
 * @param {string} stepsText
 * @param {string} secondsText
 * @param {string} seedText
 */
export function readBudget(stepsText, secondsText, seedText) {
  const steps = stepsText.trim() === '' ? null : Number(stepsText);
  const seconds = secondsText.trim() === '' ? null : Number(secondsText);
  const seed = Number(seedText);
  if (steps === null && seconds === null) throw valueError('give a budget: steps, seconds or both.');
  if (steps !== null && !(Number.isSafeInteger(steps) && steps >= 1 && steps <= MAX_STEPS)) {
    throw valueError(`steps must be a whole number from 1 to ${MAX_STEPS.toLocaleString('en-US')}, got ${stepsText}`);
  }
  if (seconds !== null && !(Number.isFinite(seconds) && seconds >= 0.1 && seconds <= 60)) {
    throw valueError(`seconds must be from 0.1 to 60, got ${secondsText}`);
  }
  if (seedText.trim() === '' || !Number.isSafeInteger(seed) || seed < 0)
    throw valueError(`the seed must be a whole number 0 or more, got ${seedText || 'nothing'}`);
  return { steps, seconds, seed };
}

/** @typedef {{ agent: string, unit: string, programUri: string, rootId: number }} Search what a run searched */
/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountAgents(app, $) {
  const { episode } = app;
  /** @typedef {{ steps: number, bestCost: number, [key: string]: any }} Report */
  /** @type {Report | null} */
  let best = null; // the last report, with the program it is for
  /** @type {number | null} */
  let oz = null;
  /** @type {import('../pkg/agents.js').RemoteAgents | null} */
  let agents = null;
  /** @type {AbortController | null} */
  let stop = null; // the AbortController of the run under way
  /** @type {Search | null} */
  let running = null; // what the last run searched

  const chart = lineChart(
    $('agent-chart'),
    {
      height: 170,
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(max, 1)] } },
      axes: [
        { label: 'steps', size: 36 },
        { label: 'instructions', size: fitTicks(40) },
      ],
      series: [
        { label: 'steps' },
        // The best so far holds until the next improvement: a step, not a slope.
        {
          label: 'best found',
          stroke: '#1d4f91',
          width: 2,
          paths: /** @type {NonNullable<typeof uPlot.paths.stepped>} */ (uPlot.paths.stepped)({ align: 1 }),
        },
        { label: '-Oz size', stroke: '#5c6670', dash: [6, 4], width: 1, points: { show: false } },
      ],
    },
    [[0], [null], [null]],
  );

  /**
   * The JSON of the policy the Train view handed over, or null.
   * @type {unknown}
   */
  let trained = null;
  const offered = () => (trained ? [...AGENTS, TRAINED] : AGENTS);
  $('agent-name').replaceChildren(...offered().map((a) => new Option(a.label, a.name)));

  /** Whether a search's result is for another program (or the same on other arguments) than the episode's. */
  /** @param {Report} result a report, with the program it is for */
  function stale(result) {
    // The panel is mounted once a program is loaded.
    const program = /** @type {import('./episode.js').Benchmark} */ (episode.program);
    return result.programUri !== program.uri || result.rootId !== /** @type {EpisodeNode} */ (episode.root).id;
  }

  function describeAgent() {
    $('agent-description').textContent = offered().find((a) => a.name === $('agent-name').value)?.description ?? '';
  }

  async function connect() {
    agents ??= connectAgents(WORKER_URL, { module: await fullModule() });
    return agents;
  }

  /** Shows a report: `{elapsed, steps, bestCost, initialCost, bestActions, fraction}` and the curve so far. */
  /**
   * @param {Report} report
   * @param {[number, number][]} curve
   * @param {'running' | 'done' | 'stopped'} state
   */
  function show(report, curve, state) {
    const searched = /** @type {Search} */ (running); // a report is of the run under way, or the last
    best = { ...report, programUri: searched.programUri, rootId: searched.rootId };
    const finished = state !== 'running';
    $('agent-progress').value = finished ? 1 : report.fraction;
    chart.setData([curve.map(([t]) => t), curve.map(([, size]) => size), curve.map(() => oz)]);
    const passes = report.bestActions.map((/** @type {number} */ a) => episode.flags[a]);
    const label = { running: 'Searching', done: 'Done', stopped: 'Stopped. Best so far' }[state];
    // The policy plays one episode: its end is not a best, and can be worse than the start.
    const found = searched.agent === 'policy' || searched.agent === TRAINED.name ? 'its episode ends at' : 'best';
    const worse = report.bestCost > report.initialCost ? `, ${count(report.bestCost - report.initialCost)} more than at the start` : '';
    const baseline = searched.unit === 'instructions' ? `, -Oz ${count(oz)}` : '';
    $('agent-status').textContent =
      `${label}: ${count(report.steps)} steps in ${report.elapsed.toFixed(1)} s · ` +
      `${found} ${count(report.bestCost)} ${searched.unit} (start ${count(report.initialCost)}${baseline})${worse}` +
      (passes.length ? ` with ${passes.length} passes: ${passes.join(' ')}` : '');
    Object.assign($('agent-status').dataset, {
      best: String(report.bestCost),
      start: String(report.initialCost),
      steps: String(report.steps),
      state,
    });
    $('agent-adopt').disabled = !passes.length || stale(best);
  }

  async function run() {
    let budget;
    try {
      budget = readBudget($('agent-steps').value, $('agent-seconds').value, $('agent-seed').value);
    } catch (error) {
      $('agent-status').textContent = describe(error);
      $('agent-status').dataset.state = 'failed';
      return;
    }
    // The agent lowers the cost of the episode's reward: size, or instructions executed.
    const rewardSpace = /** @type {string} */ (episode.rewardSpace); // loaded
    const dynamic = RUNTIME_REWARDS.test(rewardSpace);
    running = {
      agent: $('agent-name').value,
      unit: dynamic ? 'instructions executed' : 'instructions',
      programUri: /** @type {import('./episode.js').Benchmark} */ (episode.program).uri,
      rootId: /** @type {EpisodeNode} */ (episode.root).id,
    };
    oz = dynamic ? null : (app.info?.oz ?? null);
    best = null;
    stop = new AbortController();
    $('agent-chart').hidden = false;
    $('agent-run').disabled = true;
    $('agent-cancel').disabled = false;
    $('agent-adopt').disabled = true;
    $('agent-progress').value = 0;
    $('agent-status').textContent = 'Starting…';
    // Nothing of the last run's report stays: not its state, steps or sizes.
    Object.assign($('agent-status').dataset, { state: 'starting', steps: '0', best: '', start: '' });
    /** @type {[number, number][]} */
    const curve = [];
    const record = (/** @type {Report} */ report) => {
      if (!curve.length || report.bestCost < /** @type {[number, number]} */ (curve.at(-1))[1]) curve.push([report.steps, report.bestCost]);
    };
    try {
      const program = /** @type {import('./episode.js').Benchmark} */ (episode.program);
      // An own program travels as its source, under the page's URI; the trained policy as its JSON.
      /** @type {Record<string, any>} */
      const options = { ...budget, benchmark: program.uri, rewardSpace };
      if (program.source !== undefined) options.source = program.source;
      let name = /** @type {import('../pkg/compgym.js').AgentName} */ (running.agent);
      if (name === TRAINED.name) [name, options.policy] = ['policy', trained];
      const result = await (
        await connect()
      ).run(name, options, {
        signal: stop.signal,
        onProgress: (/** @type {any} */ report) => {
          record(report);
          show(report, [...curve, [report.steps, report.bestCost]], 'running');
        },
      });
      const report = { ...result, bestCost: result.cost, bestActions: result.actions, elapsed: result.walltime, fraction: 1 };
      record(report);
      show(report, [...curve, [report.steps, report.bestCost]], result.status === 'cancelled' ? 'stopped' : 'done');
    } catch (error) {
      // Set by the progress reports, which the flow of this function does not see.
      const last = /** @type {Report | null} */ (best);
      if (stop?.signal.aborted && last) {
        // The worker was ended in a long step: the last report is the best so far.
        show(last, [...curve, [last.steps, last.bestCost]], 'stopped');
      } else {
        $('agent-status').textContent = describe(error);
        $('agent-status').dataset.state = 'failed';
      }
    } finally {
      stop = null;
      $('agent-run').disabled = false;
      $('agent-cancel').disabled = true;
    }
  }

  /** Stops the run, keeping its best; a worker stuck in a long step is ended after a grace period. */
  function cancel() {
    if (!stop) return;
    const controller = stop;
    controller.abort();
    setTimeout(() => {
      if (stop === controller && agents) {
        agents.terminate();
        agents = null;
      }
    }, STOP_GRACE_MS);
  }

  function adopt() {
    if (!best || stale(best)) {
      $('agent-status').textContent = 'The program changed since the search: search again.';
      $('agent-adopt').disabled = true;
      return;
    }
    episode.replay(best.bestActions);
    const current = /** @type {EpisodeNode} */ (episode.current);
    $('agent-status').textContent =
      `Adopted: the episode is now the ${best.bestActions.length} passes found, ${count(episode.size(current))} instructions, episode reward ${signed(current.total)}.`;
  }

  /** A search's best belongs to the program it searched: a new program (or arguments) retires it. */
  function retire() {
    if (!best || !stale(best)) return;
    $('agent-adopt').disabled = true;
    if ($('agent-status').dataset.state !== 'running')
      $('agent-status').textContent = 'The program changed since the search: search again to adopt.';
  }

  /** The Train view hands over a policy (its JSON): it joins the agents, chosen, and plays the current program. */
  /** @param {Event} event the Train view's CustomEvent: `detail.policy` */
  function useTrained(event) {
    const { detail } = /** @type {CustomEvent<{ policy: unknown }>} */ (event);
    trained = detail.policy;
    $('agent-name').replaceChildren(...offered().map((a) => new Option(a.label, a.name)));
    $('agent-name').value = TRAINED.name;
    describeAgent();
    if (!stop) run();
  }

  $('agent-name').addEventListener('change', describeAgent);
  app.addEventListener('trained-policy', useTrained);
  $('agent-run').addEventListener('click', run);
  $('agent-cancel').addEventListener('click', cancel);
  $('agent-adopt').addEventListener('click', adopt);
  app.addEventListener('program', retire);
  describeAgent();
}
