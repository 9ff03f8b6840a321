// The package's WebAssembly, fetched and compiled once. The fetch starts as
// soon as this module runs (and earlier still: index.html preloads the file);
// the compiled module is shared with every worker, which then instantiates
// it without fetching or compiling again.
import init from '../pkg/index.js';

const url = new URL('compgym_bg.wasm', document.baseURI);

/** The compiled `WebAssembly.Module`. */
export const wasmModule = WebAssembly.compileStreaming(fetch(url)).then((module) => {
  performance.mark('compgym:wasm-compiled');
  return module;
});

/** Resolves once the package on this page is ready to use. */
export const packageReady = wasmModule.then(async (module) => {
  await init({ module_or_path: module });
  performance.mark('compgym:package-ready');
});
