// Entry point for browsers (with or without a bundler) and other ESM hosts
// with `fetch`: call the default export once, `await init()`, before using
// anything else. It is idempotent.
export * from './compgym.js';
export { default } from './compgym.js';
