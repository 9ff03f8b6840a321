// The compiler panel: a `bril-v0` environment on a program the user picks.
// Each pass button is one step; the panel shows what the pass changed in
// the IR, the instruction counts, the reward, the control-flow graph and
// the episode's state. Undo is a stack of forks taken before each step.
import { make, compilerEnvStatesToCsv } from './pkg/index.js';
import { describe } from './format.js';
import { lineDiff, renderDiff } from './diff.js';
import { drawCfg } from './cfg-view.js';

const GENERATED = [1, 2, 3].map((seed) => `generator://random-v0/${seed}`);
const DEFAULT_PROGRAM = 'benchmark://suite-v0/loop-invariant';
const DEFAULT_REWARD = 'IrInstructionCountOz';
const USER_PROGRAM = 'benchmark://user-v0/playground';

export function wireCompiler($) {
  let env = make('bril-v0', { rewardSpace: DEFAULT_REWARD });
  let undo = [];
  let history = [];
  let lastIr = null;
  let initialCounts = null;

  const programs = $('compiler-program');
  const suite = env.datasets.flatMap((d) => d.benchmarks ?? []);
  for (const uri of [...suite, ...GENERATED]) programs.add(new Option(uri.replace(/^\w+:\/\//, ''), uri));
  programs.value = DEFAULT_PROGRAM;

  const rewards = $('compiler-reward');
  for (const reward of env.reward.spaces) rewards.add(new Option(reward.name, reward.name));
  rewards.value = DEFAULT_REWARD;

  const space = env.actionSpace;
  const flags = space.flags;
  const descriptions = space.descriptions;
  $('compiler-passes').replaceChildren(
    ...flags.map((flag, i) => {
      const button = document.createElement('button');
      button.textContent = flag;
      button.title = descriptions[i];
      button.dataset.flag = flag;
      button.addEventListener('click', () => guard(() => step(flag)));
      return button;
    }),
  );

  function guard(fn) {
    const out = $('compiler-error');
    try {
      out.textContent = '';
      fn();
    } catch (error) {
      out.textContent = describe(error);
    }
  }

  function dropUndo() {
    for (const fork of undo) fork.free();
    undo = [];
  }

  function reset(benchmark) {
    env.reset({ benchmark, rewardSpace: rewards.value });
    dropUndo();
    history = [];
    lastIr = null;
    initialCounts = null;
    $('compiler-validation').textContent = '';
    render();
  }

  function step(action) {
    const fork = env.fork();
    const { reward, terminated, info } = env.step(action);
    undo.push(fork);
    const flag = typeof action === 'string' ? action : flags[action];
    history.push({ flag, reward, changed: !info.actionHadNoEffect });
    if (terminated && info.error) throw info.error;
    render();
  }

  function back() {
    const previous = undo.pop();
    if (!previous) return;
    env.free();
    env = previous;
    history.pop();
    lastIr = null;
    render();
  }

  function renderFeatures() {
    const counts = env.observation.get('InstCountDict');
    initialCounts ??= counts;
    const rows = Object.entries(counts).filter(([name, n]) => n !== 0 || initialCounts[name] !== 0);
    const table = $('compiler-features');
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const title of ['feature', 'start', 'now']) head.append(Object.assign(document.createElement('th'), { textContent: title }));
    const body = table.createTBody();
    for (const [name, n] of rows) {
      const row = body.insertRow();
      row.dataset.feature = name;
      row.insertCell().textContent = name;
      row.insertCell().textContent = String(initialCounts[name]);
      const now = row.insertCell();
      now.textContent = String(n);
      if (n !== initialCounts[name]) now.className = n < initialCounts[name] ? 'better' : 'worse';
    }
  }

  function renderCfg() {
    const cfg = JSON.parse(env.observation.get('Cfg'));
    const select = $('compiler-function');
    const chosen = select.value;
    select.replaceChildren(...cfg.functions.map((f) => new Option(`@${f.name}`, f.name)));
    if (cfg.functions.some((f) => f.name === chosen)) select.value = chosen;
    const fn = cfg.functions.find((f) => f.name === select.value) ?? cfg.functions[0];
    if (fn) drawCfg($('compiler-cfg'), fn);
  }

  function render() {
    const ir = env.observation.get('Ir');
    renderDiff($('compiler-ir'), lineDiff(lastIr ?? ir, ir));
    lastIr = ir;
    const count = env.observation.get('IrInstructionCount');
    const o0 = env.observation.get('IrInstructionCountO0');
    const oz = env.observation.get('IrInstructionCountOz');
    const summary = $('compiler-summary');
    summary.textContent =
      `${count} instructions (unoptimised ${o0}, -Oz ${oz}) · ${history.length} steps · ` +
      `episode reward ${(env.episodeReward ?? 0).toFixed(3)}`;
    Object.assign(summary.dataset, { count, o0, steps: history.length });
    $('compiler-history').textContent = history
      .map((h, i) => `${String(i + 1).padStart(3)}  ${h.flag.padEnd(18)} reward ${h.reward.toFixed(4)}${h.changed ? '' : '  (no effect)'}`)
      .join('\n');
    $('compiler-state').textContent = compilerEnvStatesToCsv([env.state], { header: true });
    $('compiler-undo').disabled = undo.length === 0;
    renderFeatures();
    renderCfg();
  }

  function validate() {
    const result = env.validate();
    const out = $('compiler-validation');
    out.dataset.okay = String(result.okay);
    const output = env.observation.get('Output');
    out.textContent = result.okay
      ? `valid: same output as the unoptimised program\n${output}`
      : `invalid:\n${result.errors.map((e) => `${e.kind}: ${e.details}`).join('\n')}`;
  }

  programs.addEventListener('change', () => guard(() => reset(programs.value)));
  rewards.addEventListener('change', () =>
    guard(() => {
      env.rewardSpace = rewards.value;
      render();
    }),
  );
  $('compiler-reset').addEventListener('click', () => guard(() => reset(programs.value)));
  $('compiler-random').addEventListener('click', () => guard(() => step(Number(space.sample()))));
  $('compiler-undo').addEventListener('click', () => guard(back));
  $('compiler-validate').addEventListener('click', () => guard(validate));
  $('compiler-function').addEventListener('change', () => guard(renderCfg));
  $('compiler-source-form').addEventListener('submit', (event) => {
    event.preventDefault();
    guard(() => {
      env.addBenchmark(USER_PROGRAM, $('compiler-source').value);
      if (![...programs.options].some((o) => o.value === USER_PROGRAM)) {
        programs.add(new Option('your program', USER_PROGRAM));
      }
      programs.value = USER_PROGRAM;
      reset(USER_PROGRAM);
    });
  });

  reset(programs.value);
}
