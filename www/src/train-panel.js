// The Train view: a policy learns live (TensorFlow Playground's idea). PPO
// runs in the train lane's worker (train-job.js) one update per job, so
// play, pause and one step are just whether the page asks for the next
// update. The curve shows each update's mean return and, every few updates,
// the held-out score (the geometric mean of -Oz / final over the held-out
// programs not picked, each one greedy episode). "Use this policy" hands the
// policy to the agents panel, which plays it on the current program. The
// run is kept in the URL (settings and updates done): training is
// deterministic, so opening the link retrains the very same policy.
import { describe, signed, wholeNumber } from './format.js';
import { fitTicks, lineChart } from './charts.js';
import { decodePicks, encodePicks, trainablePrograms, trainingSplit } from './train-programs.js';

/** The trainer's settings the view does not expose: small and quick, so learning shows within a few dozen updates. */
export const TRAINER = {
  task: 'size',
  hidden: [32, 32],
  batch: 16,
  learningRate: 1e-3,
  programShare: 1,
  normalizerEpisodes: 16,
};
const START_LIMIT_MS = 120_000;
const UPDATE_LIMIT_MS = 60_000;
const COLORS = { ret: '#1d4f91', score: '#0d6b58', oz: '#5c6670' };

/**
 * A run of the view: its settings, its curve so far and the untrained policy's held-out score.
 * @typedef {{ settings: { seed: number, updates: number, every: number, picks: string, train: string[], validation: string[] }, points: import('../pkg/compgym.js').CurvePoint[], untrained: number }} TrainRun
 */

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountTrain(app, $) {
  const lane = app.lanes.train;
  const root = /** @type {import('./episode.js').EpisodeNode} */ (app.episode.root); // the view mounts once a program is loaded
  const programs = trainablePrograms(/** @type {import('../pkg/compgym.js').CompilerEnv} */ (root.env).datasets);
  /**
   * The run under way: `{settings, points: CurvePoint[], untrained}`, or null before the first update.
   * @type {TrainRun | null}
   */
  let run = null;
  let playing = false;
  let busy = false;
  /** Counts start-overs: work begun before one is forgotten when it ends. */
  let generation = 0;
  /** Whether a link's run is being retrained (the URL keeps the link's run meanwhile). */
  let restoring = false;
  /** "Use this policy" pressed while playing: the policy goes over after the update under way. */
  let handOver = false;
  /**
   * The update whose policy the agents panel has, or null.
   * @type {number | null}
   */
  let handedAt = null;

  const chart = lineChart(
    $('train-chart'),
    {
      height: 200,
      scales: { x: { time: false, range: (u, min, max) => [0, Math.max(max, 1)] }, score: { auto: true } },
      axes: [
        { label: 'update', size: 36, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (u, ticks) => ticks.map(String) },
        { label: 'mean return', size: fitTicks(44), stroke: COLORS.ret },
        { scale: 'score', side: 1, label: 'held-out × -Oz', size: fitTicks(40), stroke: COLORS.score, grid: { show: false } },
      ],
      series: [
        { label: 'update' },
        { label: 'mean return of the batch', stroke: COLORS.ret, width: 2 },
        { label: 'held-out score', scale: 'score', stroke: COLORS.score, width: 2, spanGaps: true, points: { size: 6 } },
        { label: '-Oz (score 1)', scale: 'score', stroke: COLORS.oz, dash: [6, 4], width: 1, points: { show: false } },
      ],
    },
    [[0], [null], [null], [1]],
  );

  // The programs, each a checkbox: the train side picked, the held-out side not.
  /** @param {import('./train-programs.js').TrainableProgram} p */
  function programRow(p) {
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: p.uri, checked: !p.heldOut });
    const label = document.createElement('label');
    label.className = `check${p.heldOut ? ' held-out' : ''}`;
    label.append(box, ` ${p.dataset}/${p.name}`);
    if (p.heldOut) label.append(' ', Object.assign(document.createElement('span'), { className: 'tag', textContent: 'held out' }));
    return label;
  }
  $('train-program-list').replaceChildren(...programs.map(programRow));
  const picked = () =>
    [.../** @type {NodeListOf<HTMLInputElement>} */ ($('train-program-list').querySelectorAll('input:checked'))].map((b) => b.value);

  function settings() {
    const seed = wholeNumber($('train-seed').value, 'the seed', 0, 2 ** 31);
    const updates = wholeNumber($('train-updates').value, 'updates', 1, 5000);
    const every = wholeNumber($('train-every').value, 'the held-out score’s interval', 1, 1000);
    return { seed, updates, every, picks: encodePicks(programs, picked()), ...trainingSplit(programs, picked()) };
  }

  function summarise() {
    const chosen = new Set(picked());
    const held = programs.filter((p) => p.heldOut && !chosen.has(p.uri)).length;
    $('train-programs-summary').textContent = `Programs: training on ${chosen.size}, held-out score on ${held}`;
  }

  /**
   * @param {string} text
   * @param {string} state
   */
  function status(text, state) {
    $('train-status').textContent = text;
    $('train-status').dataset.state = state;
    $('train-play').textContent = playing ? 'Pause' : 'Play';
    $('train-play').setAttribute('aria-pressed', String(playing));
    $('train-step').disabled = playing || busy;
    $('train-use').disabled = !run?.points.length || (busy && !playing) || handOver;
  }

  function draw() {
    const points = run?.points ?? [];
    const xs = [0, ...points.map((p) => p.update)];
    const returns = [null, ...points.map((p) => p.meanReturn)];
    const scores = [run?.untrained ?? null, ...points.map((p) => p.validation)];
    chart.setData([xs, returns, scores, xs.map(() => 1)]);
  }

  /** What the run has reached, in words and in data attributes (the tests read them). */
  /** @param {'playing' | 'restoring' | 'paused' | 'done' | 'idle'} state */
  function report(state) {
    const points = run?.points ?? [];
    const last = points.at(-1);
    const scores = [run?.untrained, ...points.map((p) => p.validation)].filter((v) => v !== null && v !== undefined);
    const score = scores.at(-1);
    const of = run ? ` of ${run.settings.updates}` : '';
    const label = { playing: 'Training', restoring: 'Retraining the link’s run', paused: 'Paused', done: 'Done', idle: 'Ready' }[state];
    const parts = [`${label}: update ${last?.update ?? 0}${of}`];
    if (state === 'restoring') parts.push('the same seed and programs train the same policy');
    if (last) parts.push(`mean return ${signed(last.meanReturn)} (ln of -Oz / final; 0 is -Oz's size)`);
    if (score !== undefined)
      parts.push(`held-out score ${score.toFixed(3)}× -Oz (untrained ${/** @type {TrainRun} */ (run).untrained.toFixed(3)}×)`); // scores come from a run
    if (handedAt !== null) parts.push(`update ${handedAt}’s policy handed to the agents panel, which plays it on the current program`);
    status(parts.join(' · '), state);
    Object.assign($('train-status').dataset, {
      update: String(last?.update ?? 0),
      validation: score === undefined ? '' : String(score),
      untrained: run ? String(run.untrained) : '',
    });
    draw();
    publish();
  }

  /** The run into the URL (see share.js), unless a link's run is still being retrained. */
  function publish() {
    if (restoring) return;
    if (run?.points.length) {
      const { seed, every, updates, picks } = run.settings;
      app.training = { seed, every, done: run.points.length, total: updates, picks };
    } else {
      app.training = null;
    }
    app.writeUrl();
  }

  /** The trainer in the worker for the current settings (a new one after a start over). */
  async function ensureStarted() {
    if (run) return;
    const chosen = settings();
    status('Starting: measuring the inputs’ scales and the untrained policy’s held-out score…', 'starting');
    const options = { ...TRAINER, seed: chosen.seed, programs: chosen.train, validation: chosen.validation, validateEvery: chosen.every };
    const { validation } = await lane.run('trainStart', options, { timeLimitMs: START_LIMIT_MS });
    run = { settings: chosen, points: [], untrained: validation };
  }

  /** One update in the worker; false once the run's updates are done. */
  async function updateOnce() {
    await ensureStarted();
    // A start over cancels the update in flight, so the run is the one just started.
    if (/** @type {TrainRun} */ (run).points.length >= /** @type {TrainRun} */ (run).settings.updates) return false;
    /** @type {TrainRun} */ (run).points.push(await lane.run('trainUpdate', null, { timeLimitMs: UPDATE_LIMIT_MS }));
    return /** @type {TrainRun} */ (run).points.length < /** @type {TrainRun} */ (run).settings.updates;
  }

  /** Runs `work` alone, reporting a failure; the trainer is lost if the worker ended. */
  /** @param {() => Promise<unknown>} work */
  async function exclusive(work) {
    if (busy) return;
    busy = true;
    const mine = generation;
    try {
      await work();
    } catch (error) {
      if (mine !== generation) return;
      playing = false;
      if (!lane.worker) run = null; // the worker ended: its trainer with it
      busy = false;
      status(describe(error), 'failed');
      return;
    }
    if (mine !== generation) return;
    busy = false;
    report(run && run.points.length >= run.settings.updates ? 'done' : run ? 'paused' : 'idle');
  }

  function play() {
    if (busy && !playing) return; // one update is under way
    if (playing) {
      playing = false; // the update in flight finishes, then the loop stops
      status($('train-status').textContent, 'pausing');
      return;
    }
    playing = true;
    const mine = generation;
    exclusive(async () => {
      while (playing && (await updateOnce()) && mine === generation) {
        report('playing');
        if (handOver) await handOverPolicy();
      }
      if (handOver && mine === generation) await handOverPolicy();
      if (mine === generation) playing = false; // a start over may have begun a new run since
    });
  }

  function step() {
    if (!playing) exclusive(updateOnce);
  }

  /** Forgets the run: the next play or step starts a new trainer with the settings shown. */
  function startOver() {
    generation++;
    playing = false;
    restoring = false;
    handOver = false;
    handedAt = null;
    if (busy) lane.cancel();
    run = null;
    busy = false;
    report('idle');
  }

  /** More or fewer updates for the run under way, without starting over. */
  function setUpdates() {
    if (!run) return;
    try {
      run.settings.updates = wholeNumber($('train-updates').value, 'updates', 1, 5000);
      if (!busy) report(run.points.length >= run.settings.updates ? 'done' : 'paused');
    } catch (error) {
      status(describe(error), 'failed');
    }
  }

  /** The policy trained so far to the agents panel (the train lane must be free). */
  async function handOverPolicy() {
    handOver = false;
    const updates = /** @type {TrainRun} */ (run).points.length; // only a run with updates hands over
    const policy = await lane.run('trainPolicy', null, { timeLimitMs: UPDATE_LIMIT_MS });
    app.dispatchEvent(new CustomEvent('trained-policy', { detail: { policy, updates } }));
    handedAt = updates;
  }

  /** "Use this policy": now when paused; while playing, after the update under way, and training goes on. */
  function use() {
    if (!run?.points.length) return;
    if (playing) {
      handOver = true;
      status(`${$('train-status').textContent} · the policy goes to the agents panel after this update`, 'playing');
      return;
    }
    if (busy) return;
    exclusive(async () => {
      await handOverPolicy();
      $('agents').scrollIntoView({ block: 'start' });
    });
  }

  /**
   * Sets the view to a link's run and retrains it to where it was, paused there.
   * @param {import('./share.js').TrainingLink} link
   */
  function restoreLink(link) {
    try {
      const chosen = new Set(decodePicks(programs, link.picks));
      for (const box of $('train-program-list').querySelectorAll('input')) box.checked = chosen.has(box.value);
    } catch (error) {
      app.training = null;
      app.writeUrl();
      status(`The link’s training run was left out: ${describe(error)}`, 'failed');
      return;
    }
    $('train-seed').value = String(link.seed);
    $('train-every').value = String(link.every);
    $('train-updates').value = String(link.total);
    summarise();
    if (!link.done) return report('idle');
    restoring = true;
    const mine = generation;
    exclusive(async () => {
      try {
        while (mine === generation && (run?.points.length ?? 0) < link.done) {
          await updateOnce();
          if (mine === generation) report('restoring');
        }
      } finally {
        if (mine === generation) restoring = false;
      }
    });
  }

  $('train-play').addEventListener('click', play);
  $('train-step').addEventListener('click', step);
  $('train-restart').addEventListener('click', startOver);
  $('train-use').addEventListener('click', use);
  // New settings are a new run.
  for (const id of ['train-seed', 'train-every']) $(id).addEventListener('change', startOver);
  $('train-updates').addEventListener('change', setUpdates);
  $('train-program-list').addEventListener('change', () => {
    summarise();
    startOver();
  });
  summarise();
  if (app.linkTraining) restoreLink(app.linkTraining);
  else report('idle');
}
