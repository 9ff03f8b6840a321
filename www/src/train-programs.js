// The programs the Train view offers: the bundled hand-written ones
// (suite-v0, large-v0), each on its side of the core's fixed split (`splitOf`,
// the rule of src/agents/programs.rs). No DOM: tested in Node.
import { splitOf } from '../pkg/index.js';
import { valueError } from '../pkg/errors.js';

/** Whether the program named `uri` (a URI or `dataset/path`) is held out from training. */
/** @param {string} uri */
export function isHeldOut(uri) {
  return splitOf(uri) === 'held-out';
}

/** @typedef {{ uri: string, name: string, dataset: string, heldOut: boolean }} TrainableProgram */

/** The datasets whose programs the view offers. */
export const HAND_WRITTEN = ['benchmark://suite-v0', 'benchmark://large-v0'];

/**
 * `[{uri, name, dataset, heldOut}]` for the hand-written programs of an
 * environment's `datasets` (each `{name, benchmarks}`), in dataset order.
 * @param {{ name: string, benchmarks: string[] | null }[]} datasets an environment's (null: an unbounded dataset)
 * @returns {TrainableProgram[]}
 */
export function trainablePrograms(datasets) {
  return HAND_WRITTEN.flatMap((dataset) =>
    (datasets.find((d) => d.name === dataset)?.benchmarks ?? []).map((uri) => ({
      uri,
      name: uri.slice(dataset.length + 1),
      dataset: dataset.slice('benchmark://'.length),
      heldOut: isHeldOut(uri),
    })),
  );
}

/**
 * What a training run uses from the programs picked (URIs): it trains on
 * those picked, and is scored on the held-out programs not picked. A
 * ValueError when either side is empty.
 * @param {TrainableProgram[]} programs
 * @param {Iterable<string>} picked
 */
export function trainingSplit(programs, picked) {
  const chosen = new Set(picked);
  const train = programs.filter((p) => chosen.has(p.uri)).map((p) => p.uri);
  const validation = programs.filter((p) => p.heldOut && !chosen.has(p.uri)).map((p) => p.uri);
  if (!train.length) throw valueError('pick at least one program to train on.');
  if (!validation.length) throw valueError('leave at least one held-out program unpicked: the held-out score is measured on them.');
  return { train, validation };
}

/**
 * The programs picked, short enough for a link: `train` when they are the
 * train side (the default), else a bitmask over `programs` in hex, the
 * first program in the lowest bit of the first digit.
 * @param {TrainableProgram[]} programs
 * @param {Iterable<string>} picked URIs
 * @returns {string}
 */
export function encodePicks(programs, picked) {
  const chosen = new Set(picked);
  if (programs.every((p) => chosen.has(p.uri) === !p.heldOut)) return 'train';
  let hex = '';
  for (let i = 0; i < programs.length; i += 4) {
    let digit = 0;
    for (let bit = 0; bit < 4 && i + bit < programs.length; bit++) if (chosen.has(programs[i + bit].uri)) digit |= 1 << bit;
    hex += digit.toString(16);
  }
  return hex;
}

/**
 * The URIs `encodePicks` wrote; a ValueError when the text does not fit `programs`.
 * @param {TrainableProgram[]} programs
 * @param {string} text
 * @returns {string[]}
 */
export function decodePicks(programs, text) {
  if (text === 'train') return programs.filter((p) => !p.heldOut).map((p) => p.uri);
  if (!/^[0-9a-f]*$/.test(text) || text.length !== Math.ceil(programs.length / 4)) {
    throw valueError(`the programs picked in the link ("${text.slice(0, 20)}") do not fit this page's ${programs.length} programs`);
  }
  return programs.filter((p, i) => (parseInt(text[i >> 2], 16) >> (i & 3)) & 1).map((p) => p.uri);
}
