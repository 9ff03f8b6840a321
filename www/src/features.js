// What each feature of the agent's observation vectors means: the
// Autophase sentences are the core's (its registry, `catalog()`), and an
// InstCount count is of one opcode.
import { fromCatalog } from './glossary.js';

/** Autophase's 60 features, in the vector's order, each with its sentence (read on first use). */
export const AUTOPHASE = fromCatalog('autophase');

/** The sentence of InstCount feature `name` ("AddCount": how many `add` instructions). */
/** @param {string} name */
export function instCountSentence(name) {
  /** @type {Record<string, string>} */
  const totals = {
    TotalInstsCount: 'Instructions in the program.',
    TotalBlocksCount: 'Basic blocks in the program.',
    TotalFuncsCount: 'Functions in the program.',
  };
  if (totals[name]) return totals[name];
  const op = name.replace(/Count$/, '').replace(/^./, (c) => c.toLowerCase());
  return `How many \`${op}\` instructions the program has.`;
}

/**
 * The sentence of feature `name` of observation `space` ('Autophase' or 'InstCount').
 * @param {string} space
 * @param {string} name
 */
export function featureSentence(space, name) {
  return space === 'Autophase' ? (AUTOPHASE[name] ?? '') : instCountSentence(name);
}
