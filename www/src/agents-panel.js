// The agents panel: one of compgym's agents runs in a worker on the loaded
// program (compgym/agents.js, the package's own worker), with a progress
// bar, a live chart of the best size found, a stop button that keeps the
// best so far, and "adopt", which makes the best sequence found the episode.
import { connectAgents } from '../pkg/agents.js';
import uPlot from 'uplot';
import { describe, count, signed } from './format.js';
import { fitTicks, lineChart } from './charts.js';
import { AGENTS } from './search.js';
import { wasmModule } from './wasm.js';

const WORKER_URL = new URL('agents-worker.js', document.baseURI);
/** How long a stop may wait for the worker's current chunk before the worker is ended. */
const STOP_GRACE_MS = 3000;

export function mountAgents(app, $) {
  const { episode } = app;
  let best = null; // the last report, with the program it is for
  let oz = null;
  let agents = null;
  let stop = null; // the AbortController of the run under way
  let running = null; // what the last run searched

  const chart = lineChart(
    $('agent-chart'),
    {
      height: 170,
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(max, 1)] } },
      axes: [{ label: 'seconds', size: 36 }, { label: 'instructions', size: fitTicks(40) }],
      series: [
        { label: 'seconds' },
        // The best so far holds until the next improvement: a step, not a slope.
        { label: 'best found', stroke: '#1d4f91', width: 2, paths: uPlot.paths.stepped({ align: 1 }) },
        { label: '-Oz size', stroke: '#5c6670', dash: [6, 4], width: 1, points: { show: false } },
      ],
    },
    [[0], [null], [null]],
  );

  $('agent-name').replaceChildren(...AGENTS.map((a) => new Option(a.label, a.name)));

  /** Whether a search's result is for another program (or the same on other arguments) than the episode's. */
  function stale(result) {
    return result.programUri !== episode.program.uri || result.rootId !== episode.root.id;
  }

  function describeAgent() {
    $('agent-description').textContent = AGENTS.find((a) => a.name === $('agent-name').value)?.description ?? '';
  }

  async function connect() {
    agents ??= connectAgents(WORKER_URL, { module: await wasmModule });
    return agents;
  }

  /** Shows a report: `{elapsed, steps, bestCost, initialCost, bestActions, fraction}` and the curve so far. */
  function show(report, curve, state) {
    best = { ...report, programUri: running.programUri, rootId: running.rootId };
    const finished = state !== 'running';
    $('agent-progress').value = finished ? 1 : report.fraction;
    chart.setData([curve.map(([t]) => t), curve.map(([, size]) => size), curve.map(() => oz)]);
    const passes = report.bestActions.map((a) => episode.flags[a]);
    const label = { running: 'Searching', done: 'Done', stopped: 'Stopped. Best so far' }[state];
    // The policy plays one episode: its end is not a best, and can be worse than the start.
    const found = running.agent === 'policy' ? 'its episode ends at' : 'best';
    const worse = report.bestCost > report.initialCost ? `, ${count(report.bestCost - report.initialCost)} more than at the start` : '';
    const baseline = running.unit === 'instructions' ? `, -Oz ${count(oz)}` : '';
    $('agent-status').textContent =
      `${label}: ${count(report.steps)} steps in ${report.elapsed.toFixed(1)} s · ` +
      `${found} ${count(report.bestCost)} ${running.unit} (start ${count(report.initialCost)}${baseline})${worse}` +
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
    const seconds = Number($('agent-seconds').value);
    const seed = Number($('agent-seed').value);
    if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 60 || !Number.isSafeInteger(seed) || seed < 0) {
      $('agent-status').textContent = 'ValueError: seconds must be from 0.1 to 60 and the seed a whole number 0 or more.';
      return;
    }
    // The agent lowers the cost of the episode's reward: size, or instructions executed.
    const rewardSpace = episode.rewardSpace;
    const dynamic = /^DynamicInstructionCount/.test(rewardSpace);
    running = {
      agent: $('agent-name').value,
      unit: dynamic ? 'instructions executed' : 'instructions',
      programUri: episode.program.uri,
      rootId: episode.root.id,
    };
    oz = dynamic ? null : app.info?.oz ?? null;
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
    const curve = [];
    const record = (report) => {
      if (!curve.length || report.bestCost < curve.at(-1)[1]) curve.push([report.elapsed, report.bestCost]);
    };
    try {
      const { program } = episode;
      // The time is the budget; an own program travels as its source, under the page's URI.
      const options = { seconds, seed, steps: null, benchmark: program.uri, rewardSpace };
      if (program.source !== undefined) options.source = program.source;
      const result = await (await connect()).run($('agent-name').value, options, {
        signal: stop.signal,
        onProgress: (report) => {
          record(report);
          show(report, [...curve, [report.elapsed, report.bestCost]], 'running');
        },
      });
      const report = { ...result, bestCost: result.cost, bestActions: result.actions, elapsed: result.walltime, fraction: 1 };
      record(report);
      show(report, [...curve, [report.elapsed, report.bestCost]], result.status === 'cancelled' ? 'stopped' : 'done');
    } catch (error) {
      if (stop?.signal.aborted && best) {
        // The worker was ended in a long step: the last report is the best so far.
        show(best, [...curve, [best.elapsed, best.bestCost]], 'stopped');
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
    const { current } = episode;
    $('agent-status').textContent =
      `Adopted: the episode is now the ${best.bestActions.length} passes found, ${count(episode.size(current))} instructions, episode reward ${signed(current.total)}.`;
  }

  /** A search's best belongs to the program it searched: a new program (or arguments) retires it. */
  function retire() {
    if (!best || !stale(best)) return;
    $('agent-adopt').disabled = true;
    if ($('agent-status').dataset.state !== 'running') $('agent-status').textContent = 'The program changed since the search: search again to adopt.';
  }

  $('agent-name').addEventListener('change', describeAgent);
  $('agent-run').addEventListener('click', run);
  $('agent-cancel').addEventListener('click', cancel);
  $('agent-adopt').addEventListener('click', adopt);
  app.addEventListener('program', retire);
  describeAgent();
}
