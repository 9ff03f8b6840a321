// The programs an episode can run on, as plain descriptors: a suite program
// by name, a generated one by seed and size, or the user's own text. Each
// maps to a benchmark URI; an own program's URI is named after a hash of its
// text, so a different text is always a different benchmark.
import { valueError } from '../pkg/errors.js';

export const SUITE = 'benchmark://suite-v0/';
export const GENERATOR = 'generator://random-v0/';
export const USER = 'benchmark://user-v0/';
export const MAX_GENERATED_SIZE = 2000;

/**
 * A program the page can open: a suite program, a generated one, or the user's own text.
 * @typedef {{ kind: 'suite', name: string } | { kind: 'generated', seed: number, size: number } | { kind: 'own', source: string }} Program
 */

/**
 * The default program: the first pass in the list visibly shrinks it.
 * @type {Program}
 */
export const DEFAULT_PROGRAM = { kind: 'suite', name: 'dead-code' };
export const DEFAULT_REWARD = 'IrInstructionCount';

/** cyrb53: a fast 53-bit string hash, as 14 hex digits. */
/** @param {string} text */
export function hashText(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * `{uri, source?}` for the episode, from a descriptor.
 * @param {Program} program
 * @returns {{ uri: string, source?: string }}
 */
export function benchmarkOf(program) {
  switch (program.kind) {
    case 'suite':
      return { uri: SUITE + program.name };
    case 'generated':
      return { uri: `${GENERATOR}${program.seed}?size=${program.size}` };
    case 'own':
      return { uri: USER + hashText(program.source), source: program.source };
    default:
      throw valueError(`unknown kind of program ${JSON.stringify(/** @type {{ kind: unknown }} */ (program).kind)}`);
  }
}

const ARGS_LINE = /^[ \t]*#[ \t]*ARGS:(.*)$/m;

/**
 * The arguments of a program's first `# ARGS:` line (none without one), as strings.
 * @param {string} text
 */
export function programArgs(text) {
  return ARGS_LINE.exec(text)?.[1].trim().split(/\s+/).filter(Boolean) ?? [];
}

/**
 * The program text with `args` as its `# ARGS:` line (replaced, or added on
 * top): in Bril the arguments belong to the program, so the environment's
 * runs, rewards and validation all use them.
 * @param {string} text
 * @param {string[]} args
 */
export function withArgs(text, args) {
  const line = `# ARGS:${args.map((a) => ` ${a}`).join('')}`;
  return ARGS_LINE.test(text) ? text.replace(ARGS_LINE, line) : `${line}\n${text}`;
}

/**
 * A short name for a descriptor.
 * @param {Program} program
 */
export function programLabel(program) {
  switch (program.kind) {
    case 'suite':
      return program.name;
    case 'generated':
      return `generated, seed ${program.seed}, size ${program.size}`;
    default:
      return 'your program';
  }
}

/**
 * A descriptor from a benchmark URI (a CSV state names programs by URI).
 * @param {string} uri
 * @param {string} [ownSource]
 * @returns {Program}
 */
export function programFromUri(uri, ownSource) {
  if (uri.startsWith(SUITE)) return { kind: 'suite', name: uri.slice(SUITE.length) };
  const generated = new RegExp(`^${GENERATOR.replace(/[/.]/g, '\\$&')}(\\d+)(?:\\?size=(\\d+))?$`).exec(uri);
  if (generated) return checkGenerated({ kind: 'generated', seed: Number(generated[1]), size: Number(generated[2] ?? 100) });
  if (uri.startsWith(USER) && ownSource !== undefined && USER + hashText(ownSource) === uri) {
    return { kind: 'own', source: ownSource };
  }
  throw Object.assign(new Error(`the page does not know the program ${uri}: load its text as your own program first`), {
    name: 'LookupError',
  });
}

/**
 * Checks a generated program's seed and size, with a message saying the bounds.
 * @param {{ kind: 'generated', seed: number, size: number }} program
 */
export function checkGenerated(program) {
  const { seed, size } = program;
  if (!Number.isSafeInteger(seed) || seed < 0) throw valueError(`the seed must be a whole number 0 or more, got ${seed}`);
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_GENERATED_SIZE) {
    throw valueError(`the size must be a whole number from 1 to ${MAX_GENERATED_SIZE}, got ${size}`);
  }
  return program;
}
