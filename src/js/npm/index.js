// Entry point for browsers (with or without a bundler) and other ESM hosts
// with `fetch`: call the default export once, `await init()`, before using
// anything else. It is idempotent.
export * from './api.js';
export { default } from './api.js';
