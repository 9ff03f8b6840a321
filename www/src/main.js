// The page's entry. The first-step module is already compiling (index.html
// started it). Once it is ready the episode is loaded on it — from the URL's
// state if it has one — and the passes panel is wired: from then a step is
// possible, which `<html data-ready>` marks. Then the views that show the
// episode (the editor, the diff, the charts, the CFG, the observations) load
// as chunks and mount as they arrive, while the package's module is fetched
// and the episode moves onto it; the views that need the package (agents,
// training, spaces, bandit) follow it. `<html data-complete>` marks the end.
import * as api from '../pkg/index.js';
import { firstStepReady, loadFull } from './wasm.js';
import { firstStepApi, catalog as firstStepCatalog } from './first-step.js';
import { readCatalogFrom } from './registries.js';
import { Playground } from './playground.js';
import { mountPipeline } from './pipeline-panel.js';
import { mountProgram } from './program-panel.js';
import { mountShare } from './share-panel.js';
import { describe } from './format.js';

/**
 * The page's element with id `id` (index.html has every one the page asks for).
 * @param {string} id
 * @returns {HTMLElement & Record<string, any>}
 */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
performance.mark('compgym:main');

// The views' modules, loaded once a step is possible so that their parsing
// does not compete with the first module's compilation: those of the episode
// at once (they work on either module), the others once the package is here.
const EPISODE_VIEWS = {
  editor: () => import('./editor.js'),
  diff: () => import('./diff-view.js'),
  charts: () => import('./charts.js'),
  cfg: () => import('./cfg-view.js'),
  observations: () => import('./observation-view.js'),
  explain: () => import('./explain.js'),
};
const PACKAGE_VIEWS = {
  agents: () => import('./agents-panel.js'),
  train: () => import('./train-panel.js'),
  spaces: () => import('./spaces-panel.js'),
  bandit: () => import('./bandit-panel.js'),
};
/** @type {{ [name: string]: Promise<any> }} each view's module, loading */
const views = {};

/** @param {string} text */
function status(text, kind = '') {
  $('status').textContent = text;
  $('status').className = `status ${kind}`;
}

/**
 * Mounts a view when its module arrives; a view that fails says so and the rest go on.
 * @param {string} name
 * @param {(module: any) => unknown} fn given the view's module (VIEWS says which)
 */
async function mount(name, fn) {
  try {
    await fn(await views[name]);
  } catch (error) {
    status(`The ${name} view failed: ${describe(error)}`, 'error');
    console.error(error);
  }
}

async function start() {
  await firstStepReady;
  readCatalogFrom(firstStepCatalog);
  const app = new Playground(firstStepApi, () => loadFull().then(() => api));
  try {
    const note = await app.restore(location.hash);
    status(note ?? '');
  } catch (error) {
    status(`The link could not be restored (${describe(error)}); showing the default program instead.`, 'error');
    await app.restore('');
  }
  mountPipeline(app, $);
  const program = mountProgram(app, $);
  mountShare(app, $);
  document.documentElement.dataset.ready = '';
  performance.mark('compgym:ready');
  /** @type {any} */ (window).compgymPlayground = app;

  for (const [name, load] of Object.entries(EPISODE_VIEWS)) views[name] = load();
  const episodeViews = Promise.all([
    mount('editor', ({ createEditor }) => program.attachEditor(createEditor($('editor')))),
    mount('diff', ({ mountDiff }) => mountDiff(app, $)),
    mount('explain', ({ mountExplain }) => mountExplain(app, $)),
    mount('charts', ({ mountCharts }) => mountCharts(app, $)),
    mount('cfg', ({ mountCfg }) => mountCfg(app, $)),
    mount('observations', ({ mountObservations }) => mountObservations(app, $)),
  ]);

  try {
    await app.ensurePackage();
  } catch (error) {
    // The first-step module goes on serving the passes and the episode's
    // views; the others wait for the package, which whatever needs it next
    // asks for again.
    status(
      `The rest of the playground could not be loaded (${describe(error)}): the passes and the program's views work; the others follow once it loads.`,
      'error',
    );
    await app.packageRuns;
    status('');
  }
  $('version').textContent = api.version();

  for (const [name, load] of Object.entries(PACKAGE_VIEWS)) views[name] = load();
  await Promise.all([
    episodeViews,
    mount('agents', ({ mountAgents }) => mountAgents(app, $)),
    mount('train', ({ mountTrain }) => mountTrain(app, $)),
    mount('spaces', ({ mountSpaces }) => mountSpaces(app, $)),
    mount('bandit', ({ mountBandit }) => mountBandit(app, $)),
  ]);
  document.documentElement.dataset.complete = '';
  performance.mark('compgym:complete');
}

start().catch((error) => {
  status(`The playground failed to start: ${describe(error)}`, 'error');
  throw error;
});
