// Sharing: the link (the URL always holds the state; this copies it), and
// the episode as CompilerGym's CSV state, to export or import.
import { compilerEnvStatesToCsv, compilerEnvStatesFromCsv } from '../pkg/index.js';
import { lookupError, valueError } from '../pkg/errors.js';
import { describe } from './format.js';
import { programFromUri } from './programs.js';

/** @typedef {import('./episode.js').Benchmark} Benchmark */

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountShare(app, $) {
  const { episode } = app;
  const panel = $('csv-panel');

  async function copyLink() {
    app.writeUrlNow();
    const url = location.href;
    try {
      await navigator.clipboard.writeText(url);
      $('share-status').textContent = 'Link copied.';
    } catch {
      // No clipboard permission: show the link to copy by hand.
      $('share-status').textContent = `Copy this link: ${url}`;
    }
    $('share-status').dataset.url = url;
  }

  function csv() {
    return compilerEnvStatesToCsv([episode.state()], { header: true });
  }

  // The CSV is the package's: a click in the first second waits for it.
  async function toggle() {
    await app.ensurePackage();
    panel.hidden = !panel.hidden;
    $('share-csv').setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden) $('csv-text').value = csv();
  }

  async function download() {
    await app.ensurePackage();
    const blob = new Blob([csv()], { type: 'text/csv' });
    const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: 'compgym-state.csv' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  /** @param {string} text */
  async function importText(text) {
    const status = $('csv-status');
    try {
      await app.ensurePackage();
      const states = compilerEnvStatesFromCsv(text);
      if (!states.length) throw valueError('the CSV has no state rows');
      const [state] = states;
      let program;
      try {
        program = programFromUri(state.benchmark, /** @type {Benchmark} */ (episode.program).source); // loaded
      } catch (/** @type {any} */ error) {
        if (error.name !== 'LookupError') throw error;
        throw lookupError(
          `the CSV names ${state.benchmark}, a program this page does not have (a CSV state holds no program text): load its text as your own program, then import again`,
        );
      }
      const actions = state.commandline.split(/\s+/).filter(Boolean);
      const same = state.benchmark === /** @type {Benchmark} */ (episode.program).uri;
      if (same) episode.replay(actions);
      else await app.loadProgram(program, { actions });
      const replayed = episode.actions();
      if (replayed.length !== actions.length) {
        throw valueError(`only ${replayed.length} of the ${actions.length} passes replayed`);
      }
      const passes = `${actions.length} pass${actions.length === 1 ? '' : 'es'}`;
      const current = /** @type {import('./episode.js').EpisodeNode} */ (episode.current); // loaded
      const check =
        current.total === null
          ? `; its reward under ${episode.rewardSpace} is being computed`
          : rewardCheck(state.reward, current.total, /** @type {string} */ (episode.rewardSpace));
      status.textContent = `Imported ${passes} on ${app.label}${check}.`;
      status.className = '';
    } catch (error) {
      status.textContent = `Not imported: ${describe(error)}`;
      status.className = 'error';
    }
  }

  $('share-copy').addEventListener('click', copyLink);
  $('share-csv').addEventListener('click', toggle);
  $('csv-download').addEventListener('click', download);
  $('csv-import').addEventListener('click', () => importText($('csv-text').value));
  $('csv-file').addEventListener('change', async () => {
    const file = $('csv-file').files[0];
    if (file) await importText(await file.text());
  });
  episode.addEventListener('change', () => {
    if (!panel.hidden && document.activeElement !== $('csv-text')) $('csv-text').value = csv();
  });
}

/** What the CSV's reward says next to the replay's: whether they agree, in words. */
/**
 * @param {number | null | undefined} expected
 * @param {number} actual
 * @param {string} rewardSpace
 */
export function rewardCheck(expected, actual, rewardSpace) {
  if (expected === null || expected === undefined) return '';
  const number = (/** @type {number} */ x) => Number(x.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  // The tolerance of the environment's own reward validation.
  const close = Math.abs(expected - actual) <= Math.max(1e-5 * Math.max(Math.abs(expected), Math.abs(actual)), 1e-10);
  if (close) return `; the replay gives the CSV's reward, ${number(actual)}`;
  return `, but the reward differs: the CSV says ${number(expected)}, the replay under ${rewardSpace} gives ${number(actual)} (was the CSV made under another reward?)`;
}
