// Hosts a compgym Service in a worker: a browser module worker
// (`new Worker(url, { type: 'module' })`) or a Node worker thread
// (`new Worker(url)` from `node:worker_threads`). It answers each message
// `{id, method, request}` with `{id, reply}` or `{id, error: {name, message}}`,
// in the order the messages arrive.
//
// The compiler is "bril" unless the worker was started with another: the
// `compiler` search parameter of this file's URL in a browser
// (`worker.js?compiler=toy`), `workerData.compiler` in Node.
// `connectService()` in `remote.js` does all of this for you. Methods named
// `Env.*` are compgym/gym's environment methods (see gym/worker-envs.js).

const inBrowser = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;

/** The service, once the wasm module is compiled: loading starts at once. */
const service = (async () => {
  if (inBrowser) {
    const api = await import('./index.js');
    await api.default();
    return new api.Service(new URL(import.meta.url).searchParams.get('compiler') ?? undefined);
  }
  const [api, { workerData }] = await Promise.all([import('./node.js'), import('node:worker_threads')]);
  return new api.Service(workerData?.compiler);
})();
// A service that cannot start fails every call with its error; until a call
// comes, the failure is not an unhandled rejection that would end the worker.
service.catch(() => {});

/** An error as a structured-clone-safe object that keeps its typed name. */
function describe(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** compgym/gym's environment methods (`Env.*`, for AsyncVectorEnv): their own handler, loaded on first use. */
const isEnvMethod = (method) => typeof method === 'string' && method.startsWith('Env.');
let envHandler = null;
async function answerEnv(method, request) {
  await service; // the wasm module is ready
  envHandler ??= import('./gym/worker-envs.js');
  return (await envHandler).answer(method, request);
}

async function answer(message) {
  const id = message?.id;
  try {
    const reply = isEnvMethod(message?.method)
      ? await answerEnv(message.method, message.request)
      : (await service).call(message?.method, message?.request);
    return { id, reply };
  } catch (error) {
    return { id, error: describe(error) };
  }
}

// Calls are answered one after another: a message that arrives while the
// module loads waits its turn, so replies keep the order of requests.
let queue = Promise.resolve();
function onMessage(message, post) {
  queue = queue
    .then(() => answer(message))
    .then((out) => {
      try {
        post(out);
      } catch (error) {
        // A reply that cannot be cloned (an environment's info holding a function, say) becomes an error reply.
        post({ id: out.id, error: { name: 'TypeError', message: `the reply cannot be sent from the worker: ${error.message}` } });
      }
    })
    .catch(() => {}); // one reply that could not be posted must not stop the rest
}

if (inBrowser) {
  // Listening before any await: a browser drops messages no one listens for.
  globalThis.addEventListener('message', (event) => onMessage(event.data, (out) => globalThis.postMessage(out)));
} else {
  const { parentPort } = await import('node:worker_threads');
  if (!parentPort) throw new Error('compgym/worker.js runs in a worker thread, not on the main thread');
  // A Node port holds messages until a listener is attached.
  parentPort.on('message', (message) => onMessage(message, (out) => parentPort.postMessage(out)));
}
