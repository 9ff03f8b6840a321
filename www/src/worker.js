// The worker behind every lane (see jobs.js): it receives the compiled wasm
// module once, then answers `{id, kind, payload}` with progress reports and
// one `{id, result}` or `{id, error: {name, message}}`.
import init from '../pkg/index.js';
import { lookupError } from '../pkg/errors.js';
import { runJob, checkJob, measureJob, validateJob, baselinesJob, runtimeBaselineJob } from './program-jobs.js';
import { banditJob } from './bandit-job.js';
import { trainStartJob, trainUpdateJob, trainPolicyJob } from './train-job.js';
import { layout } from './cfg-layout.js';
import { stepDiff } from './diff-rows.js';

/** @type {Record<string, (payload: any, progress: (report: unknown) => void) => unknown>} payloads as the page sent them */
const JOBS = {
  run: runJob,
  check: checkJob,
  measure: measureJob,
  validate: validateJob,
  baselines: baselinesJob,
  runtimeBaseline: runtimeBaselineJob,
  bandit: banditJob,
  trainStart: trainStartJob,
  trainUpdate: trainUpdateJob,
  trainPolicy: trainPolicyJob,
  layout: (/** @type {{ fn: import('./cfg-layout.js').CfgFunction }} */ { fn }) => layout(fn),
  diff: (/** @type {{ before: string, after: string }} */ { before, after }) => stepDiff(before, after),
};

/** @type {(module: WebAssembly.Module) => void} */
let resolveModule;
const ready = new Promise((/** @type {(module: WebAssembly.Module) => void} */ resolve) => (resolveModule = resolve)).then((module) =>
  init({ module_or_path: module }),
);

/** @param {{ id: number, kind: string, payload: unknown }} request jobs.js's */
async function answer({ id, kind, payload }) {
  try {
    await ready;
    // Own jobs only: `constructor` or `toString` must not find Object's.
    const job = Object.hasOwn(JOBS, kind) ? JOBS[kind] : undefined;
    if (!job) throw lookupError(`no job named ${JSON.stringify(kind)}`);
    const progress = (/** @type {unknown} */ report) => postMessage({ id, progress: report });
    const result = await job(payload, progress);
    postMessage({ id, result });
  } catch (/** @type {any} */ error) {
    postMessage({ id, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
  }
}

// Listening before any await: a browser drops messages no one listens for.
let queue = Promise.resolve();
addEventListener('message', ({ data }) => {
  if (data && 'init' in data) resolveModule(data.init);
  else queue = queue.then(() => answer(data));
});
