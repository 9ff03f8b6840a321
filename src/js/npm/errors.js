// The package's JS errors. The wasm code throws Errors whose `name` is the
// kind (ValueError, TypeError, LookupError, ServiceError...; `errorNames()`
// lists them); the JS beside it throws the same kinds, made here, so a caller
// tells errors apart by `name` wherever they come from. The playground makes
// its own named errors (TimeoutError, CancelledError...) with it too.

/**
 * An Error whose `name` is `name`.
 * @param {string} name
 * @param {string} message
 * @returns {Error}
 */
export function namedError(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** @param {string} message */
export const valueError = (message) => namedError('ValueError', message);
/** @param {string} message */
export const typeError = (message) => namedError('TypeError', message);
/** @param {string} message */
export const lookupError = (message) => namedError('LookupError', message);
