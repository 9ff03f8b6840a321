// The message loop shared by worker.js (browsers) and worker-node.js (Node):
// each `{id, method, request}` is answered with `{id, reply}` or
// `{id, error: {name, message}}`, one after another, in arrival order.
// Service methods go to the Service; methods named `Env.*` are compgym/gym's
// environment methods (AsyncVectorEnv), answered by gym/worker-envs.js, which
// is loaded on first use.

/** An error as a structured-clone-safe object that keeps its typed name. */
function describe(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * Answers messages with the Service `service` (a promise: a message that
 * arrives while the module loads waits its turn). `listen(listener)`
 * subscribes to incoming messages; `post(message)` sends one back.
 */
const isEnvMethod = (method) => typeof method === 'string' && method.startsWith('Env.');
let envHandler = null;

export function serve(service, listen, post) {
  // Until a call comes, a service that failed to start is not an unhandled
  // rejection that would end the worker.
  service.catch(() => {});
  let queue = Promise.resolve();
  const answer = async (message) => {
    const id = message?.id;
    try {
      if (isEnvMethod(message?.method)) {
        await service; // the wasm module is ready
        envHandler ??= import('./gym/worker-envs.js');
        return { id, reply: await (await envHandler).answer(message.method, message.request) };
      }
      return { id, reply: (await service).call(message?.method, message?.request) };
    } catch (error) {
      return { id, error: describe(error) };
    }
  };
  listen((message) => {
    queue = queue
      .then(() => answer(message))
      .then((reply) => {
        try {
          post(reply);
        } catch (error) {
          // A reply that cannot be cloned (an environment's info holding a function, say) becomes an error reply.
          const message = `the reply cannot be sent from the worker: ${error.message}`;
          post({ id: reply.id, error: { name: 'TypeError', message } });
        }
      })
      .catch(() => {}); // one reply that could not be posted must not stop the rest
  });
}
