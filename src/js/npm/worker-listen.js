// Listening to a worker the same way in browsers and in Node: replies, and
// the worker's failures (a load error, a crash, an exit, a reply that cannot
// be read). Shared by remote.js and agents.js.

/** Listens to a browser Worker or a Node Worker; returns a function that stops listening. */
export function listen(worker, onReply, onFailure) {
  if (typeof worker.addEventListener === 'function') {
    const message = (event) => onReply(event.data);
    const error = (event) => onFailure(event.message || 'the worker failed to load or crashed');
    const messageError = () => onFailure('a reply could not be deserialised');
    worker.addEventListener('message', message);
    worker.addEventListener('error', error);
    worker.addEventListener('messageerror', messageError);
    return () => {
      worker.removeEventListener('message', message);
      worker.removeEventListener('error', error);
      worker.removeEventListener('messageerror', messageError);
    };
  }
  const error = (e) => onFailure(e?.message ?? String(e));
  const exit = (code) => onFailure(`the worker exited with code ${code}`);
  worker.on('message', onReply);
  worker.on('error', error);
  worker.on('exit', exit);
  return () => {
    worker.off('message', onReply);
    worker.off('error', error);
    worker.off('exit', exit);
  };
}
