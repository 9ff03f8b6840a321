// The page's two WebAssembly modules. The first-step module (the compiler
// alone, src/first_step.rs: under a third of the package's) is fetched and
// compiled first — index.html starts it before any module has arrived — so
// that a step is possible as soon as it is ready. The package's module, with
// everything else, is fetched when something first asks for it (`loadFull`):
// the page, once the first step is possible, or sooner a job that needs it.
// The compiled package module is shared with every worker, which then
// instantiates it without fetching or compiling again.
import init from '../pkg/index.js';
import initFirstStep from '../first-step/first-step.js';

/** The compilation index.html started, if it did. */
const started = /** @type {{ compgymFirstStep?: Promise<WebAssembly.Module> }} */ (window).compgymFirstStep;

/** Resolves once the first-step module is ready to use. */
export const firstStepReady = (started ?? WebAssembly.compileStreaming(fetch(new URL('first-step_bg.wasm', document.baseURI)))).then(
  async (module) => {
    await initFirstStep({ module_or_path: module });
    performance.mark('compgym:first-step-ready');
  },
);

/** @type {Promise<WebAssembly.Module> | null} */
let compiled = null;
/** @type {Promise<void> | null} */
let ready = null;

/** The package's compiled `WebAssembly.Module`, fetched on the first call. */
export function fullModule() {
  compiled ??= WebAssembly.compileStreaming(fetch(new URL('compgym_bg.wasm', document.baseURI))).then(
    (module) => {
      performance.mark('compgym:wasm-compiled');
      return module;
    },
    (error) => {
      compiled = null; // the next call tries again
      throw error;
    },
  );
  return compiled;
}

/** Fetches the package's module if no one has yet; resolves once the package on this page is ready to use. */
export function loadFull() {
  ready ??= fullModule().then(
    async (module) => {
      await init({ module_or_path: module });
      performance.mark('compgym:package-ready');
    },
    (error) => {
      ready = null;
      throw error;
    },
  );
  return ready;
}
