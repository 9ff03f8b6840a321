// The page's state in its URL: the program (suite name, generator seed and
// size, or the compressed text of one's own), the arguments, the reward and
// the steps from the start, and the Train view's run (its settings and how
// far it went: training is deterministic, so the page retrains the same
// policy). Opening such a link restores the same episode.
import LZString from 'lz-string';
import { valueError } from '../pkg/errors.js';
import { checkGenerated } from './programs.js';

/** @typedef {import('./programs.js').Program} Program */
/** @typedef {{ seed: number, every: number, done: number, total: number, picks: string }} TrainingLink */
/** @typedef {{ program?: Program, args?: string[], reward?: string, actions?: string[], training?: TrainingLink, trainingProblem?: string }} SharedState */

/**
 * `{program, args, reward, actions, training}` → the URL fragment (no `#`).
 * @param {{ program: Program, args: string[] | null, reward: string | null, actions: string[], training?: TrainingLink | null }} state `reward` null before a program is loaded
 */
export function encodeState({ program, args, reward, actions, training }) {
  const parts = [];
  if (program.kind === 'suite') parts.push(`p=suite/${encodeURIComponent(program.name)}`);
  else if (program.kind === 'generated') parts.push(`p=gen/${program.seed}/${program.size}`);
  else parts.push(`p=src/${LZString.compressToEncodedURIComponent(program.source)}`);
  if (args) parts.push(`args=${args.map(encodeURIComponent).join(',')}`);
  if (reward) parts.push(`r=${encodeURIComponent(reward)}`);
  if (actions.length) parts.push(`s=${actions.map(encodeURIComponent).join(',')}`);
  if (training) {
    const { seed, every, done, total, picks } = training;
    parts.push(`t=${[seed, every, done, total, picks].join('.')}`);
  }
  return parts.join('&');
}

/**
 * The state a fragment holds; fields it does not set are undefined. A
 * fragment that cannot be read throws a ValueError saying which part, except
 * a damaged training run, which is left out and said in `trainingProblem`.
 * @param {string} fragment
 * @returns {SharedState}
 */
export function decodeState(fragment) {
  const text = fragment.replace(/^#/, '');
  /** @type {SharedState} */
  const state = {};
  if (!text) return state;
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key === 'p') state.program = decodeProgram(value);
    else if (key === 'args') state.args = value === '' ? [] : value.split(',').map(decodeURIComponent);
    else if (key === 'r') state.reward = decodeURIComponent(value);
    else if (key === 's') state.actions = value === '' ? [] : value.split(',').map(decodeURIComponent);
    else if (key === 't') {
      // A damaged run loses only itself: the episode is still restored.
      try {
        state.training = decodeTraining(value);
      } catch (error) {
        state.trainingProblem = /** @type {Error} */ (error).message;
      }
    }
  }
  return state;
}

/**
/**
 * The Train view's run in a link, `seed.every.done.total.picks`: the
 * settings, the updates done and planned, and the programs picked (see
 * `encodePicks`). Only the numbers are checked here; the picks need the
 * page's program list.
 * @param {string} value
 * @returns {TrainingLink}
 */
function decodeTraining(value) {
  const fields = value.split('.');
  const numbers = fields.slice(0, 4).map(Number);
  const [seed, every, done, total] = numbers;
  const whole = fields.length === 5 && numbers.every((n, i) => fields[i] !== '' && Number.isSafeInteger(n) && n >= 0);
  if (!whole || every < 1 || total < 1 || done > total) {
    throw valueError(`"${value.slice(0, 40)}" is not seed.every.done.total.picks`);
  }
  return { seed, every, done, total, picks: fields[4] };
}

/**
 * @param {string} value
 * @returns {Program}
 */
function decodeProgram(value) {
  const [kind, ...rest] = value.split('/');
  if (kind === 'suite' && rest.length === 1 && rest[0]) return { kind: 'suite', name: decodeURIComponent(rest[0]) };
  if (kind === 'gen' && rest.length === 2) {
    return checkGenerated({ kind: 'generated', seed: Number(rest[0]), size: Number(rest[1]) });
  }
  if (kind === 'src') {
    let source = null;
    try {
      source = LZString.decompressFromEncodedURIComponent(rest.join('/'));
    } catch {
      // Some damaged texts make the decompressor itself fail (a TypeError of its own).
    }
    if (source) return { kind: 'own', source };
    throw valueError('the program text in the link is damaged (it does not decompress)');
  }
  throw valueError(`the link names no program the page knows: "${value.slice(0, 40)}"`);
}
