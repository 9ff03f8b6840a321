// Charts with uPlot: the episode's static and dynamic instruction counts
// and its cumulative reward against the step (click a step to go to it),
// and a line chart helper the agents and bandit panels share.
import uPlot from 'uplot';
import { OBSERVATIONS } from './glossary.js';

/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */

const COLORS = { static: '#1d4f91', dynamic: '#b4451f', oz: '#5c6670', reward: '#0d6b58' };

/**
 * The width available in `host`, with a floor for hidden hosts.
 * @param {HTMLElement} host
 */
function widthOf(host) {
  return Math.max(240, Math.floor(host.clientWidth || host.parentElement?.clientWidth || 320));
}

/**
 * A uPlot chart in `host` that follows the host's width.
 * @param {HTMLElement & { uplot?: uPlot }} host
 * @param {Omit<uPlot.Options, 'width' | 'height'> & { height?: number }} options
 * @param {uPlot.AlignedData} data
 */
export function lineChart(host, options, data) {
  const chart = new uPlot({ width: widthOf(host), height: options.height ?? 160, legend: { live: false }, ...options }, data, host);
  host.uplot = chart; // for anyone inspecting the page (and its tests)
  new ResizeObserver(() => {
    const width = widthOf(host);
    if (Math.abs(width - chart.width) > 2) chart.setSize({ width, height: chart.height });
  }).observe(host);
  return chart;
}

/**
 * An axis size that fits its longest tick label (uPlot's recipe): fixed
 * sizes clip "40,000" or let it run into the axis label. At least `min` px.
 * @param {number} min
 * @returns {uPlot.Axis.Size}
 */
export function fitTicks(min) {
  return (u, values, axisIndex, cycle) => {
    const axis = /** @type {uPlot.Axis & { _size: number, font: string[], ticks: { size: number }, gap: number }} */ (u.axes[axisIndex]); // as uPlot fills it in
    if (cycle > 1) return axis._size; // settle: no resizing back and forth
    const longest = (values ?? []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
    if (!longest) return min;
    u.ctx.font = axis.font[0];
    const text = u.ctx.measureText(longest).width / (globalThis.devicePixelRatio || 1);
    return Math.max(min, Math.ceil(axis.ticks.size + axis.gap + text + 2));
  };
}

/** @type {uPlot.Axis} */
const stepAxis = {
  label: 'step',
  labelSize: 16,
  size: 30,
  incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  values: (u, ticks) => ticks.map(String),
};

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountCharts(app, $) {
  const { episode } = app;
  /** @type {EpisodeNode[]} */
  let path = [];
  /** @type {uPlot.Range.Function} */
  const stepRange = () => [0, Math.max(1, path.length - 1)];

  const counts = lineChart(
    $('chart-counts'),
    {
      height: 130,
      scales: { x: { time: false, range: stepRange }, dyn: { auto: true } },
      axes: [
        stepAxis,
        { label: 'instructions', labelSize: 16, size: fitTicks(36), space: 20, stroke: COLORS.static },
        {
          scale: 'dyn',
          side: 1,
          label: 'executed',
          labelSize: 16,
          size: fitTicks(36),
          space: 20,
          stroke: COLORS.dynamic,
          grid: { show: false },
        },
      ],
      series: [
        { label: 'step' },
        { label: 'static size', stroke: COLORS.static, width: 2, points: { size: 6 } },
        { label: '-Oz size', stroke: COLORS.oz, dash: [6, 4], width: 1, points: { show: false } },
        { label: 'executed', scale: 'dyn', stroke: COLORS.dynamic, width: 2, points: { size: 6 } },
      ],
      legend: { live: false },
    },
    [[0], [null], [null], [null]],
  );

  const reward = lineChart(
    $('chart-reward'),
    {
      height: 95,
      // A flat line gets a small range around it rather than 0 to 100.
      scales: {
        x: { time: false, range: stepRange },
        y: { range: (u, min, max) => (min === max ? [min - 1, max + 1] : uPlot.rangeNum(min, max, 0.1, true)) },
      },
      // Ticks at least 15 px apart (20 above): in charts this short uPlot's default
      // spacing (30 px) can leave an axis with a single label.
      axes: [stepAxis, { label: 'reward', labelSize: 16, size: fitTicks(36), space: 15 }],
      series: [{ label: 'step' }, { label: 'episode reward so far', stroke: COLORS.reward, width: 2, points: { size: 6 } }],
      legend: { live: false },
    },
    [[0], [0]],
  );

  // Clicking a chart goes to the step under the cursor.
  for (const chart of [counts, reward]) {
    chart.over.addEventListener('click', () => {
      const i = chart.cursor.idx;
      if (i !== null && i !== undefined && path[i]) episode.goTo(path[i]);
    });
  }

  function render() {
    path = episode.path();
    const xs = path.map((n) => n.depth);
    const oz = app.info?.oz ?? null;
    const dyn = path.map((n) => app.dynamicCount(n) ?? null);
    counts.setData([xs, path.map((n) => episode.size(n)), path.map(() => oz), dyn]);
    reward.setData([xs, path.map((n) => n.total)]);
    const host = $('chart-counts');
    Object.assign(host.dataset, { points: String(xs.length), dynamicKnown: String(dyn.filter((d) => d !== null).length) });
    const runs = app.info?.run;
    $('chart-counts-note').textContent =
      'Static size: instructions in the program. Executed: instructions run on its arguments' +
      (runs && !runs.ok ? ' (not measured: the program does not run to the end).' : '.') +
      ` Below: the sum of the ${episode.rewardSpace} rewards so far.`;
    $('chart-counts-note').title = `${OBSERVATIONS.IrInstructionCount} ${OBSERVATIONS.DynamicInstructionCount}`;
  }

  episode.addEventListener('change', render);
  app.addEventListener('dynamic', render);
  app.addEventListener('info', render);
  app.addEventListener('program', render);
  render();
}
