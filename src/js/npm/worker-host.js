// The message loop shared by worker.js (browsers) and worker-node.js (Node):
// each `{id, method, request}` is answered with `{id, reply}` or
// `{id, error: {name, message}}`, one after another, in arrival order.
// Service methods go to the Service; methods named `Env.*` are compgym/gym's
// environment methods (AsyncVectorEnv), answered by gym/worker-envs.js, which
// is loaded on first use.
/** @import { WorkerReply } from './worker.js' */

/**
 * An error as a structured-clone-safe object that keeps its typed name.
 * @param {unknown} error
 * @returns {{ name: string, message: string }}
 */
export function describe(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * Posts the replies of `answer(message)` calls one after another, in the
 * order `enqueue` was called (agents-worker-host.js uses it too). A reply
 * that cannot be cloned (an environment's info holding a function, say)
 * becomes an error reply; one that cannot be posted at all does not stop
 * the rest.
 * @template {{ id: number | string }} Reply
 * @param {(message: Reply | WorkerReply) => void} post
 */
export function replyInOrder(post) {
  /** @type {Promise<void>} */
  let queue = Promise.resolve();
  /** @param {() => Promise<Reply>} answer */
  return function enqueue(answer) {
    queue = queue
      .then(answer)
      .then((reply) => {
        try {
          post(reply);
        } catch (/** @type {any} */ error) {
          post({ id: reply.id, error: { name: 'TypeError', message: `the reply cannot be sent from the worker: ${error.message}` } });
        }
      })
      .catch(() => {});
  };
}

const isEnvMethod = (/** @type {unknown} */ method) => typeof method === 'string' && method.startsWith('Env.');
let envHandler = null;

/**
 * Answers messages with the Service `service` (a promise: a message that
 * arrives while the module loads waits its turn). `listen(listener)`
 * subscribes to incoming messages; `post(message)` sends one back.
 * @param {Promise<import('./compgym.js').Service>} service
 * @param {(listener: (message: any) => void) => void} listen
 * @param {(message: WorkerReply) => void} post
 */
export function serve(service, listen, post) {
  // Until a call comes, a service that failed to start is not an unhandled
  // rejection that would end the worker.
  service.catch(() => {});
  const enqueue = replyInOrder(post);
  /**
   * @param {any} message
   * @returns {Promise<WorkerReply>}
   */
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
  listen((message) => enqueue(() => answer(message)));
}
