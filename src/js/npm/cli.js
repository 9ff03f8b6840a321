#!/usr/bin/env node
// `npx compgym`: the package's command line. Its commands, flags, texts and
// exit statuses are the core's (`runCli`, the same code as the native
// `compgym`); this file only lends it Node's files and standard streams.
import { readFileSync, readdirSync, realpathSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { getSystemErrorMap } from 'node:util';
import { runCli } from './node.js';

/**
 * An OS error in Node's words: `no such file or directory (ENOENT)`.
 * @param {any} error whatever a `node:fs` call threw
 */
function described(error) {
  const known = typeof error?.errno === 'number' ? getSystemErrorMap().get(error.errno) : undefined;
  return known ? `${known[1]} (${known[0]})` : String(error?.message ?? error);
}

/**
 * Calls `f`; what it throws is rethrown as its description, for `runCli` to print.
 * @template {unknown[]} A
 * @template R
 * @param {(...args: A) => R} f
 * @returns {(...args: A) => R}
 */
function host(f) {
  return (...args) => {
    try {
      return f(...args);
    } catch (error) {
      throw new Error(described(error), { cause: error });
    }
  };
}

/** Descriptors whose reader has gone away (`compgym ... | head`): further output is dropped. */
/** @type {Set<number>} */
const closed = new Set();

/**
 * Writes all of `text` to descriptor `fd`, synchronously, so output and errors keep their order.
 * @param {number} fd
 * @param {string} text
 */
function write(fd, text) {
  if (closed.has(fd)) return;
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (/** @type {any} */ error) {
      if (error.code === 'EAGAIN') continue; // a non-blocking pipe that is full
      closed.add(fd);
      return;
    }
  }
}

// Started as `brili` (the package's second command, or a link): brili's command line.
const invokedAs = basename(process.argv[1] ?? '').replace(/\.js$/, '');
const args = process.argv.slice(2);

process.exitCode = runCli(invokedAs === 'brili' ? ['brili', ...args] : args, {
  readFile: host((/** @type {string} */ path) => readFileSync(path)),
  readStdin: host(() => readFileSync(0)),
  writeFile: host((/** @type {string} */ path, /** @type {string} */ text) => writeFileSync(path, text)),
  listFolder: host((/** @type {string} */ path) => readdirSync(path)),
  isFolder: (path) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
  realPath: host((/** @type {string} */ path) => realpathSync(path)),
  stdout: (text) => write(1, text),
  stderr: (text) => write(2, text),
});
