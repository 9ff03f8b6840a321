// Jobs on one program, run in a worker (see worker.js): run it, check a
// program before the page loads it, measure its dynamic instruction count,
// and validate an episode by running the program before and after it.
import { make, runBril } from '../pkg/index.js';
import { describe } from './format.js';
import { programArgs } from './programs.js';

/**
 * Runs `source` on `args` (strings; null: its `# ARGS:` line): `{ok, stdout, dynInst, tier | error, ms}` (`tier`: which ran it).
 * @param {{ source: string, args: string[] | null }} job
 * @returns {{ ok: true, stdout: string, dynInst: number, tier: 'compiled' | 'interpreter', ms: number } | { ok: false, error: { name: string, message: string }, stdout: string, ms: number }}
 */
export function runJob({ source, args }) {
  const start = performance.now();
  try {
    const { stdout, dynInst, tier } = runBril(source, args);
    return { ok: true, stdout, dynInst, tier, ms: performance.now() - start };
  } catch (/** @type {any} */ error) {
    // A failing run keeps what it printed before the failure, as brili does.
    const stdout = typeof error.stdout === 'string' ? error.stdout : '';
    return { ok: false, error: { name: error.name, message: error.message }, stdout, ms: performance.now() - start };
  }
}

/**
 * The dynamic instruction count of `source` on its own arguments: `{dynInst}`,
 * or `{error: {name, message}}` if it does not run to the end.
 */
/** @param {{ source: string }} job */
export function measureJob({ source }) {
  try {
    return { dynInst: runBril(source, null).dynInst };
  } catch (/** @type {any} */ error) {
    return { error: { name: error.name, message: error.message } };
  }
}

/**
 * Reads a program as the environment will (`uri`, with `source` for one of
 * the user's own): `{ir, functions, hasMain, args}`. A program that does not
 * parse or verify is the environment's typed error. Nothing runs here: a run
 * is a job of its own, with its own time limit.
 */
/** @param {import('./episode.js').Benchmark} benchmark */
export function checkJob({ uri, source }) {
  const env = make('bril-v0');
  try {
    if (source !== undefined) env.addBenchmark(uri, source);
    env.reset({ benchmark: uri });
    const ir = env.observation.get('Ir');
    const functions = JSON.parse(String(env.observation.get('Cfg'))).functions.map((/** @type {{ name: string }} */ f) => f.name);
    return { ir, functions, hasMain: functions.includes('main'), args: programArgs(/** @type {string} */ (ir)) }; // Ir is text
  } finally {
    env.free();
  }
}

/** The program's baselines: `{oz}`, the size -Oz reaches (a pipeline of passes: a worker's job on large programs). */
/** @param {import('./episode.js').Benchmark} benchmark */
export function baselinesJob({ uri, source }) {
  const env = make('bril-v0');
  try {
    if (source !== undefined) env.addBenchmark(uri, source);
    env.reset({ benchmark: uri });
    return { oz: Number(env.observation.get('IrInstructionCountOz')) };
  } finally {
    env.free();
  }
}

/** The instructions the program executes after -O2 (the baseline of `DynamicInstructionCountO2`): `{o2}`. */
/** @param {import('./episode.js').Benchmark} benchmark */
export function runtimeBaselineJob({ uri, source }) {
  const env = make('bril-v0');
  try {
    if (source !== undefined) env.addBenchmark(uri, source);
    env.reset({ benchmark: uri });
    return { o2: Number(env.observation.get('DynamicInstructionCountO2')) };
  } finally {
    env.free();
  }
}

/**
 * Why a program could not produce an output to compare, in plain words, or
 * null if `error` is not about the program.
 * @param {{ name: string, message: string }} error
 * @param {string[]} args
 */
export function explainRunError(error, args) {
  const arity = /expected (\d+); got (\d+)/.exec(error.message);
  if (arity) {
    return `@main takes ${arity[1]} argument(s) but ${arity[2]} were given (${args.length ? args.join(' ') : 'none'}): enter them in the arguments box.`;
  }
  if (error.name === 'LimitError' && /fuel/.test(error.message)) {
    return `it does not finish: ${error.message}.`;
  }
  if (error.name === 'LimitError') return `it ran out of a limit: ${error.message}.`;
  return `it fails when it runs: ${describe(error)}.`;
}

/**
 * Validates an episode as CompilerGym does — replay the actions, check the
 * reward, compare the program's behaviour — and says what happened when the
 * program cannot be compared at all. `before`/`after`: program texts;
 * `args`: the arguments to run both on; `state`: `{benchmark, commandline,
 * reward}`; `source`: the text of the user's own program, if it is one.
 * Returns `{verdict: 'valid' | 'invalid' | 'cannot-run', lines}`.
 * @param {{ before: string, after: string, args: string[], hasMain: boolean, state: import('../pkg/compgym.js').CompilerEnvState, source?: string, rewardSpace: string }} job
 */
export function validateJob({ before, after, args, hasMain, state, source, rewardSpace }) {
  if (!hasMain) {
    return {
      verdict: 'cannot-run',
      lines: ['The program has no @main function: there is nothing to run, so there is no output to compare.'],
    };
  }
  const original = runJob({ source: before, args });
  if (!original.ok) {
    return {
      verdict: 'cannot-run',
      lines: [`The unoptimised program cannot be used as the reference: ${explainRunError(original.error, args)}`],
    };
  }
  const optimised = runJob({ source: after, args });
  if (!optimised.ok) {
    return { verdict: 'invalid', lines: [`The optimised program fails where the original did not: ${describe(optimised.error)}.`] };
  }
  if (optimised.stdout !== original.stdout) {
    return { verdict: 'invalid', lines: [`The output changed: ${firstDifference(original.stdout, optimised.stdout)}`] };
  }
  const lines = [
    `Same output as the unoptimised program (${lineCount(original.stdout)}), ` +
      `${original.dynInst.toLocaleString('en-US')} → ${optimised.dynInst.toLocaleString('en-US')} instructions executed.`,
  ];
  const env = make('bril-v0', { rewardSpace });
  try {
    if (source !== undefined) env.addBenchmark(state.benchmark, source);
    const result = env.validate(state);
    if (!result.okay) {
      return { verdict: 'invalid', lines: [...lines, ...result.errors.map((e) => `${e.kind}: ${e.details}`)] };
    }
    if (result.rewardValidated) lines.push('Replaying the actions gives the same reward.');
  } finally {
    env.free();
  }
  return { verdict: 'valid', lines };
}

/** @param {string} text */
function lineCount(text) {
  const n = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return `${n} line${n === 1 ? '' : 's'}`;
}

/**
 * @param {string} a
 * @param {string} b
 */
function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1} was ${JSON.stringify(x[i] ?? '(nothing)')}, is now ${JSON.stringify(y[i] ?? '(nothing)')}.`;
  }
  return 'the outputs differ.';
}
