// The one way compgym/gym warns (Gymnasium's logger.warn): a Node process
// warning of type "GymnasiumWarning" where there is a process to warn
// (listeners of process 'warning' see it), console.warn elsewhere.

export const WARNING_TYPE = 'GymnasiumWarning';

/**
 * Emits `message` as a warning; never throws.
 * @param {unknown} message
 */
export function warn(message) {
  const text = String(message);
  const emit = globalThis.process?.emitWarning;
  if (typeof emit === 'function') {
    emit.call(globalThis.process, text, { type: WARNING_TYPE });
  } else {
    globalThis.console?.warn(`${WARNING_TYPE}: ${text}`);
  }
}
