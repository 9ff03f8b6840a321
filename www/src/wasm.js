// The package's WebAssembly, fetched and compiled once: index.html preloads
// it and starts compiling it before any module has arrived (a page without
// that script starts here). The compiled module is shared with every
// worker, which then instantiates it without fetching or compiling again.
import init from '../pkg/index.js';

const url = new URL('compgym_bg.wasm', document.baseURI);

/** The compilation index.html started, if it did. */
const started = /** @type {{ compgymWasm?: Promise<WebAssembly.Module> }} */ (window).compgymWasm;

/** The compiled `WebAssembly.Module`. */
export const wasmModule = (started ?? WebAssembly.compileStreaming(fetch(url))).then((module) => {
  performance.mark('compgym:wasm-compiled');
  return module;
});

/** Resolves once the package on this page is ready to use. */
export const packageReady = wasmModule.then(async (module) => {
  await init({ module_or_path: module });
  performance.mark('compgym:package-ready');
});
