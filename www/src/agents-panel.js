// The agents panel: a search agent runs in a worker on the loaded program,
// with a progress bar, a live chart of the best size found, a stop button,
// and "adopt", which makes the best sequence found the episode.
import { describe, count } from './format.js';
import { lineChart } from './charts.js';
import { AGENTS } from './search.js';

export function mountAgents(app, $) {
  const { episode } = app;
  let best = null; // the last progress report, with the program it is for
  let oz = null;

  const chart = lineChart(
    $('agent-chart'),
    {
      height: 170,
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(max, 1)] } },
      axes: [{ label: 'seconds', size: 36 }, { label: 'instructions', size: 56 }],
      series: [
        { label: 'seconds' },
        { label: 'best size found', stroke: '#1d4f91', width: 2, paths: undefined },
        { label: '-Oz size', stroke: '#5c6670', dash: [6, 4], width: 1, points: { show: false } },
      ],
    },
    [[0], [null], [null]],
  );

  $('agent-name').replaceChildren(...AGENTS.map((a) => new Option(a.label, a.name)));

  function describeAgent() {
    $('agent-description').textContent = AGENTS.find((a) => a.name === $('agent-name').value)?.description ?? '';
  }

  function show(report, finished) {
    best = { ...report, programUri: episode.program.uri, rootId: episode.root.id };
    $('agent-progress').value = finished ? 1 : report.fraction;
    const xs = report.curve.map(([t]) => t);
    const ys = report.curve.map(([, size]) => size);
    if (!finished) {
      xs.push(report.elapsed);
      ys.push(report.bestSize);
    }
    chart.setData([xs, ys, xs.map(() => oz)]);
    const passes = report.bestActions.map((a) => episode.flags[a]);
    $('agent-status').textContent =
      `${finished ? 'Done' : 'Searching'}: ${count(report.steps)} steps in ${report.elapsed.toFixed(1)} s · ` +
      `best ${count(report.bestSize)} instructions (start ${count(report.startSize)}, -Oz ${count(oz)})` +
      (passes.length ? ` with ${passes.length} passes: ${passes.join(' ')}` : '');
    Object.assign($('agent-status').dataset, { best: String(report.bestSize), start: String(report.startSize), steps: String(report.steps), state: finished ? 'done' : 'running' });
    $('agent-adopt').disabled = !passes.length;
  }

  async function run() {
    const seconds = Number($('agent-seconds').value);
    const seed = Number($('agent-seed').value);
    if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 60 || !Number.isSafeInteger(seed) || seed < 0) {
      $('agent-status').textContent = 'ValueError: seconds must be from 0.1 to 60 and the seed a whole number 0 or more.';
      return;
    }
    oz = app.info?.oz ?? null;
    best = null;
    $('agent-chart').hidden = false;
    $('agent-run').disabled = true;
    $('agent-cancel').disabled = false;
    $('agent-adopt').disabled = true;
    $('agent-progress').value = 0;
    $('agent-status').textContent = 'Starting…';
    try {
      const result = await app.lanes.agent.run(
        'agent',
        { agent: $('agent-name').value, benchmark: episode.program.uri, source: episode.program.source, seconds, seed },
        { timeLimitMs: seconds * 1000 + 15_000, onProgress: (report) => show(report, false) },
      );
      show(result, true);
    } catch (error) {
      if (error.name === 'CancelledError' && best) {
        $('agent-status').textContent = `Stopped. ${$('agent-status').textContent.replace(/^Searching: /, 'Best so far: ')}`;
        $('agent-status').dataset.state = 'stopped';
      } else {
        $('agent-status').textContent = describe(error);
      }
    } finally {
      $('agent-run').disabled = false;
      $('agent-cancel').disabled = true;
    }
  }

  function adopt() {
    if (!best || best.programUri !== episode.program.uri || best.rootId !== episode.root.id) {
      $('agent-status').textContent = 'The program changed since the search: search again.';
      $('agent-adopt').disabled = true;
      return;
    }
    episode.replay(best.bestActions);
    $('agent-status').textContent = `Adopted: the episode is now the ${best.bestActions.length} passes found, ${count(episode.size(episode.current))} instructions.`;
  }

  $('agent-name').addEventListener('change', describeAgent);
  $('agent-run').addEventListener('click', run);
  $('agent-cancel').addEventListener('click', () => app.lanes.agent.cancel());
  $('agent-adopt').addEventListener('click', adopt);
  describeAgent();
}
