// Entry point for browsers (with or without a bundler) and other ESM hosts
// with `fetch`: call the default export once, `await init()`, before using
// anything else. It is idempotent.
import * as bindings from './compgym.js';
import { guardClasses } from './guard.js';

guardClasses(bindings);

export * from './compgym.js';
export { default } from './compgym.js';
