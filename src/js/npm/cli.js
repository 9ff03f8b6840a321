#!/usr/bin/env node
// `npx compgym`: the native `compgym` command's Bril subcommands over the
// package's wasm, with the same outputs, error messages and exit statuses
// (0 ok, 1 bad input or usage, 2 a program that failed while running), so
// scripts written for `brili` / `bril2json` run without cargo; and its
// `leaderboard`, the same table (times aside: they are the wasm's).
import { readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { Leaderboard, PolicyTrainer, brilFeatures, brilPasses, brilToJson, brilToText, optimizeBril, runBril, verifyBril } from './node.js';

const USAGE = `usage:
  compgym run [-p] [FILE|-] [ARGS...]   run a Bril program (text or JSON); without
                                        ARGS, the program's \`# ARGS:\` line is used;
                                        -p prints total_dyn_inst on stderr
  compgym json [-p|-pp] [FILE|-]        print a program as Bril JSON; -p adds each
                                        function's, label's and instruction's start
                                        (pos), -pp its end too (pos_end), as bril2json
  compgym text [FILE|-]                 print a program as Bril text
  compgym verify [FILE|-]               check that a program is well formed
  compgym opt --passes FLAGS [--json] [FILE|-]
                                        optimise: pass flags and pipelines (-O1, -O2,
                                        -Oz) in order; prints the program
  compgym opt --list                    every pass flag with its description
  compgym run --passes FLAGS [-p] FILE [ARGS...]
                                        optimise, then run
  compgym features [--dot] [FILE|-]      print the program's features (InstCount,
                                        Autophase, ProGraML graph, CFG, IrSha1) as
                                        JSON; --dot prints the CFG as Graphviz DOT
  compgym leaderboard [--quick] [--steps N] [--seconds S] [--agents LIST]
                      [--tasks size,runtime] [--suite N] [--large N] [--generated N] [--size N]
                      [--from-scratch] [--policy FILE] [--seed N] [--json]
                                        every agent (random, greedy, beam, explore, policy)
                                        on code size (vs -Oz) and runtime (vs -O2) over
                                        the suite, large-v0 (when the compiler has it)
                                        and 100 generated programs the policy never
                                        saw; per program a budget of steps and/or
                                        seconds (default 5000 steps, 10 s; --no-step-limit,
                                        --no-time-limit); searches start from the
                                        baseline's passes unless --from-scratch; the
                                        policy is the bundled one unless --policy FILE;
                                        --quick: 4 suite, 2 large and 4 generated
                                        programs, 200 steps
  compgym train [--seconds S] [--updates N] [--seed N] [--out FILE]
                [--episode-length N] [--batch N] [--learning-rate X] [--hidden 64,64]
                [--programs URI,...] [--program-share X]
                                        train a policy (REINFORCE) on generated programs
                                        and, for a share X of episodes, on the benchmarks
                                        or listed datasets given; print its curve, save
                                        it as JSON (default policy.json)`;

/** A failure: the message for stderr and the exit status. */
class Failure extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const usageError = (message) => new Failure(`${message}\n${USAGE}`, 1);

/** A core error as the native command prints it: `Name: message`. */
const failed = (error, status = 1) => new Failure(`${error.name}: ${error.message}`, status);

/** Calls into the wasm; its typed errors become failures with `status`. */
function core(call, status = 1) {
  try {
    return call();
  } catch (error) {
    throw failed(error, status);
  }
}

// `{:?}` of a string in Rust: quoted, with quotes, backslashes and control characters escaped.
const ESCAPES = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };
function debugString(s) {
  const escaped = s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`);
  return `"${escaped}"`;
}

// What Rust prints for an OS error: the C library's message and the number.
const OS_MESSAGES = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EIO: 'Input/output error',
  ENXIO: 'No such device or address',
  EINVAL: 'Invalid argument',
  EAGAIN: 'Resource temporarily unavailable',
};
function ioMessage(error) {
  const errno = constants.errno[error.code];
  if (errno === undefined) return error.message;
  const text = OS_MESSAGES[error.code] ?? error.message.replace(/^\w+: /, '').replace(/, .*$/, '');
  return `${text} (os error ${errno})`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function decode(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    const error = new Error('stream did not contain valid UTF-8');
    error.code = 'UTF8';
    throw error;
  }
}

/** The program text from a file, or from stdin for `undefined` and `-`. */
function readSource(file) {
  if (file === undefined || file === '-') {
    try {
      return decode(readFileSync(0));
    } catch (error) {
      throw new Failure(`reading stdin: ${error.code === 'UTF8' ? error.message : ioMessage(error)}`, 1);
    }
  }
  try {
    return decode(readFileSync(file));
  } catch (error) {
    throw new Failure(`${file}: ${error.code === 'UTF8' ? error.message : ioMessage(error)}`, 1);
  }
}

function singleFile(args) {
  if (args.length > 1) throw usageError('expected at most one file');
  return args[0];
}

/** Takes `--passes "FLAGS"` out of `args`: the flags (split on whitespace) and the rest. */
function takePasses(args) {
  let passes;
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--passes') {
      if (i + 1 >= args.length) throw usageError('--passes needs a list of flags');
      passes = args[++i].split(/\s+/).filter((flag) => flag !== '');
    } else {
      rest.push(args[i]);
    }
  }
  return { passes, rest };
}

function convert(args, print, out) {
  const source = readSource(singleFile(args));
  out.stdout += core(() => print(source));
}

function json(args, out) {
  // `-p` once for starts, twice (`-pp` or `-p -p`) for ends too, as bril2json counts it.
  const level = args.reduce((n, a) => n + (a === '-p' ? 1 : a === '-pp' ? 2 : 0), 0);
  const rest = args.filter((a) => a !== '-p' && a !== '-pp');
  convert(rest, (source) => brilToJson(source, level) + '\n', out);
}

function verify(args, out) {
  const source = readSource(singleFile(args));
  core(() => verifyBril(source));
  out.stdout += 'ok\n';
}

function features(args, out) {
  const dot = args.includes('--dot');
  const source = readSource(singleFile(args.filter((a) => a !== '--dot')));
  out.stdout += core(() => brilFeatures(source, dot)) + (dot ? '' : '\n');
}

function opt(args, out) {
  if (args.includes('--list')) {
    const { passes, pipelines } = brilPasses();
    for (const { flag, description } of passes) out.stdout += `${flag.padEnd(18)} ${description}\n`;
    for (const name of pipelines) out.stdout += `${name.padEnd(18)} the ${name} pipeline\n`;
    return;
  }
  const json = args.includes('--json');
  const { passes, rest } = takePasses(args.filter((a) => a !== '--json'));
  const source = readSource(singleFile(rest));
  out.stdout += core(() => optimizeBril(source, passes ?? [], json)) + (json ? '\n' : '');
}

function run(args, out) {
  const { passes, rest: withProfile } = takePasses(args);
  const profile = withProfile.includes('-p');
  const rest = withProfile.filter((a) => a !== '-p');
  const source = readSource(rest[0]);
  const mainArgs = rest.slice(1);
  let outcome;
  try {
    outcome = runBril(source, mainArgs.length > 0 ? mainArgs : undefined, passes);
  } catch (error) {
    // An error that carries output came from the running program.
    const ran = typeof error?.stdout === 'string';
    if (ran) out.stdout += error.stdout;
    throw failed(error, ran ? 2 : 1);
  }
  out.stdout += outcome.stdout;
  if (profile) out.stderr += `total_dyn_inst: ${outcome.dynInst}\n`;
}

/** Reads `compgym leaderboard`'s flags into `leaderboard()`'s options. */
function leaderboardOptions(args) {
  const options = {};
  let json = false;
  const value = (i, flag, read) => {
    const v = i + 1 < args.length ? read(args[i + 1]) : undefined;
    if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) throw usageError(`${flag} needs a value of the right kind`);
    return v;
  };
  const whole = (text) => (/^\d+$/.test(text) ? Number(text) : undefined);
  const list = (text) => text.split(',').filter((n) => n !== '');
  const FLAGS = {
    '--steps': ['steps', whole],
    '--seconds': ['seconds', (text) => (text.trim() === '' ? undefined : Number(text))],
    '--agents': ['agents', list],
    '--tasks': ['tasks', list],
    '--suite': ['suite', whole],
    '--large': ['large', whole],
    '--generated': ['generated', whole],
    '--size': ['size', whole],
    '--seed': ['seed', whole],
    '--policy': ['policy', (file) => readSource(file)],
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (Object.hasOwn(FLAGS, flag)) {
      const [key, read] = FLAGS[flag];
      options[key] = value(i++, flag, read);
    } else if (flag === '--quick') options.quick = true;
    else if (flag === '--no-step-limit') options.steps = null;
    else if (flag === '--no-time-limit') options.seconds = null;
    else if (flag === '--from-scratch') options.fromBaseline = false;
    else if (flag === '--json') json = true;
    else throw usageError(`leaderboard: unknown argument ${debugString(flag)}`);
  }
  return { options, json };
}

/** Calls into the wasm for `command`: its errors fail with status 2, as the native command's agents do. */
function agentCore(command, call) {
  try {
    return call();
  } catch (error) {
    throw new Failure(`${command}: ${error.name}: ${error.message}`, 2);
  }
}

function leaderboard(args, out) {
  const { options, json } = leaderboardOptions(args);
  const board = agentCore('leaderboard', () => new Leaderboard(options));
  try {
    let progress = board.progress;
    let reported = 0;
    while (!progress.finished) {
      progress = agentCore('leaderboard', () => board.runChunk(1));
      if (progress.done >= reported + 20 || progress.finished) {
        reported = progress.done;
        process.stderr.write(`[${progress.done}/${progress.total}]\n`);
      }
    }
    out.stdout += json ? `${JSON.stringify(board.rows)}\n` : board.table;
  } finally {
    board.free();
  }
}

/** `compgym train`: the native command's flags, curve lines and summary. */
function train(args, out) {
  const options = {};
  let seconds;
  let updates;
  let file = 'policy.json';
  const number = (text) => (text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined);
  const whole = (text) => (/^\d+$/.test(text ?? '') ? Number(text) : undefined);
  const FLAGS = {
    '--seconds': (v) => (seconds = number(v)),
    '--updates': (v) => (updates = whole(v)),
    '--seed': (v) => (options.seed = whole(v)),
    '--out': (v) => (file = v),
    '--episode-length': (v) => (options.episodeLength = whole(v)),
    '--batch': (v) => (options.batch = whole(v)),
    '--learning-rate': (v) => (options.learningRate = number(v)),
    '--entropy': (v) => (options.entropy = number(v)),
    '--validate-every': (v) => (options.validateEvery = whole(v)),
    '--programs': (v) => (options.programs = v?.split(',')),
    '--program-share': (v) => (options.programShare = number(v)),
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--hidden') {
      const sizes = (args[++i] ?? '').split(',').map(whole);
      if (sizes.some((s) => s === undefined)) throw usageError('--hidden takes sizes like 64,64');
      options.hidden = sizes;
    } else if (Object.hasOwn(FLAGS, flag)) {
      if (FLAGS[flag](args[++i]) === undefined) throw usageError(`${flag} needs a value of the right kind`);
    } else {
      throw usageError(`train: unknown argument ${debugString(flag)}`);
    }
  }
  if (seconds === undefined && updates === undefined) seconds = 60;
  const trainer = agentCore('train', () => new PolicyTrainer(options));
  try {
    const lines = ['update episodes steps seconds mean_return entropy validation'];
    for (;;) {
      const p = agentCore('train', () => trainer.trainBatch());
      if (p.validation !== null) {
        const row = [p.update, p.episodes, p.steps, p.seconds.toFixed(1), p.meanReturn.toFixed(4), p.entropy.toFixed(3), p.validation.toFixed(4)];
        lines.push(row.join(' '));
      }
      if ((seconds !== undefined && p.seconds >= seconds) || (updates !== undefined && p.update >= updates)) break;
    }
    const validation = agentCore('train', () => trainer.validate());
    const policy = trainer.policy();
    const text = policy.toJson();
    const parameters = policy.parameters;
    policy.free();
    out.stdout += lines.map((l) => `${l}\n`).join('');
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new Failure(`${file}: ${ioMessage(error)}`, 1);
    }
    out.stdout += `saved ${file} (${text.length} bytes, ${parameters} parameters); validation ${validation.toFixed(4)}x -Oz\n`;
  } finally {
    trainer.free();
  }
}

const COMMANDS = {
  run,
  json,
  text: (args, out) => convert(args, brilToText, out),
  verify,
  opt,
  features,
  leaderboard,
  train,
};

/** Runs one command line: `{stdout, stderr, status}`, nothing printed yet. */
function main(args) {
  const out = { stdout: '', stderr: '', status: 0 };
  const [command, ...rest] = args;
  try {
    // `compgym run --help` asks for the usage, as `compgym --help` does.
    const known = Object.hasOwn(COMMANDS, command ?? '');
    if (['help', '-h', '--help'].includes(command) || (known && rest.some((arg) => arg === '-h' || arg === '--help'))) {
      out.stdout += `${USAGE}\n`;
    } else if (known) COMMANDS[command](rest, out);
    else if (command === undefined) throw usageError('missing command');
    else throw usageError(`unknown command ${debugString(command)}`);
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    out.stderr += `error: ${error.message}\n`;
    out.status = error.status;
  }
  return out;
}

// A closed pipe (`compgym ... | head`) is fine, as for the native command.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
});
const { stdout, stderr, status } = main(process.argv.slice(2));
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = status;
