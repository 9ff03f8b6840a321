// Sharing: the link (the URL always holds the state; this copies it), and
// the episode as CompilerGym's CSV state, to export or import.
import { compilerEnvStatesToCsv, compilerEnvStatesFromCsv } from '../pkg/index.js';
import { describe } from './format.js';
import { programFromUri } from './programs.js';

export function mountShare(app, $) {
  const { episode } = app;
  const panel = $('csv-panel');

  async function copyLink() {
    app.writeUrl();
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
    return compilerEnvStatesToCsv([episode.current.env.state], { header: true });
  }

  function toggle() {
    panel.hidden = !panel.hidden;
    $('share-csv').setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden) $('csv-text').value = csv();
  }

  function download() {
    const blob = new Blob([csv()], { type: 'text/csv' });
    const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: 'compgym-state.csv' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  async function importText(text) {
    const status = $('csv-status');
    try {
      const states = compilerEnvStatesFromCsv(text);
      if (!states.length) throw Object.assign(new Error('the CSV has no state rows'), { name: 'ValueError' });
      const [state] = states;
      const program = programFromUri(state.benchmark, episode.program.source);
      const actions = state.commandline.split(/\s+/).filter(Boolean);
      const same = state.benchmark === episode.program.uri;
      if (same) episode.replay(actions);
      else await app.loadProgram(program, { actions });
      const replayed = episode.actions();
      if (replayed.length !== actions.length) {
        throw Object.assign(new Error(`only ${replayed.length} of the ${actions.length} passes replayed`), { name: 'ValueError' });
      }
      const reward = state.reward === null || state.reward === undefined ? '' : `; the CSV says reward ${state.reward}, the replay gives ${episode.current.total.toFixed(4)}`;
      status.textContent = `Imported ${actions.length} passes on ${app.label}${reward}.`;
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
