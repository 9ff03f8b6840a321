// The bandit panel: LinUCB against a random policy, computed in a worker,
// cumulative regret drawn with axes, a legend and an optional log scale, and
// how much LinUCB's regret grew over the first and the last tenth of the
// steps (a learner's grows ever slower).
import { describe, wholeNumber } from './format.js';
import { fitTicks, lineChart } from './charts.js';

/**
 * How much a cumulative curve grew over its first tenth and over its last tenth.
 * @param {ArrayLike<number>} curve
 */
export function tenths(curve) {
  const n = curve.length;
  const k = Math.max(1, Math.floor(n / 10));
  return { first: curve[k - 1], final: curve[n - 1] - curve[n - 1 - k] };
}

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountBandit(app, $) {
  /** @type {import('uplot') | null} */
  let chart = null;
  /** @typedef {{ linucb: Float64Array, random: Float64Array }} Curves the bandit job's */
  /** @type {Curves | null} */
  let data = null;

  const read = (/** @type {string} */ id, /** @type {string} */ what, /** @type {number} */ low, /** @type {number} */ high) =>
    wholeNumber($(id).value, what, low, high);

  function draw() {
    if (!data) return;
    const log = $('bandit-log').checked;
    chart?.destroy();
    const positive = (/** @type {Float64Array} */ curve) => Array.from(curve, (y) => (log && y <= 0 ? null : y));
    const xs = Array.from(data.linucb, (_, i) => i + 1);
    chart = lineChart(
      $('bandit-chart'),
      {
        height: 240,
        scales: { x: { time: false }, y: log ? { distr: 3 } : {} },
        axes: [
          { label: 'step', size: 36 },
          { label: `cumulative regret${log ? ' (log scale)' : ''}`, size: fitTicks(40) },
        ],
        series: [{ label: 'step' }, { label: 'LinUCB', stroke: '#1d4f91', width: 2 }, { label: 'random', stroke: '#b4451f', width: 2 }],
      },
      [xs, positive(data.linucb), positive(data.random)],
    );
    $('bandit-chart').dataset.scale = log ? 'log' : 'linear';
  }

  async function run() {
    const out = $('bandit-result');
    try {
      const steps = read('bandit-steps', 'steps', 10, 20_000);
      const seed = read('bandit-seed', 'the seed', 0, 2 ** 31);
      out.textContent = 'Running…';
      $('bandit-run').disabled = true;
      data = /** @type {Curves} */ (await app.lanes.bandit.run('bandit', { steps, seed }, { timeLimitMs: 60_000 }));
      const last = (/** @type {Float64Array} */ c) => c[c.length - 1].toFixed(1);
      const { first, final } = tenths(data.linucb);
      out.textContent =
        `After ${steps.toLocaleString('en-US')} steps with seed ${seed}: LinUCB's regret ${last(data.linucb)}, random's ${last(data.random)}. ` +
        `LinUCB's grew by ${first.toFixed(1)} over the first tenth of the steps and by ${final.toFixed(1)} over the last` +
        (final < first / 2 ? ': it learns.' : '.');
      Object.assign(out.dataset, {
        linucb: last(data.linucb),
        random: last(data.random),
        steps: String(steps),
        firstTenth: first.toFixed(3),
        lastTenth: final.toFixed(3),
      });
      draw();
    } catch (error) {
      out.textContent = describe(error);
      delete out.dataset.linucb;
    } finally {
      $('bandit-run').disabled = false;
    }
  }

  $('bandit-run').addEventListener('click', run);
  $('bandit-log').addEventListener('change', draw);
}
