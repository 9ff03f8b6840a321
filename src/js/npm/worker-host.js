// The message loop shared by worker.js (browsers) and worker-node.js (Node):
// each `{id, method, request}` is answered with `{id, reply}` or
// `{id, error: {name, message}}`, one after another, in arrival order.

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
export function serve(service, listen, post) {
  // Until a call comes, a service that failed to start is not an unhandled
  // rejection that would end the worker.
  service.catch(() => {});
  let queue = Promise.resolve();
  const answer = async (message) => {
    const id = message?.id;
    try {
      return { id, reply: (await service).call(message?.method, message?.request) };
    } catch (error) {
      return { id, error: describe(error) };
    }
  };
  listen((message) => {
    queue = queue
      .then(() => answer(message))
      .then(post)
      .catch(() => {}); // one reply that could not be posted must not stop the rest
  });
}
