// The program panel: choose a suite program, a generated one or your own
// text; edit the arguments; run the program as it is at the current step,
// in a worker with a time limit and a cancel button; long output is cut.
import { describe, count } from './format.js';
import { checkGenerated, SUITE } from './programs.js';
import { explainProgramError } from './bril-errors.js';

const SHOWN_LINES = 200;

/** @typedef {ReturnType<typeof import('./editor.js').createEditor>} Editor */

/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountProgram(app, $) {
  const { episode } = app;
  /** @type {Editor | null} */
  let editor = null; // set when the editor module has loaded
  let fullOutput = '';

  // The suite's programs, from the environment's datasets.
  const root = /** @type {import('./episode.js').EpisodeNode} */ (episode.root); // the page mounts its panels once a program is loaded
  const suite =
    /** @type {import('../pkg/compgym.js').CompilerEnv} */ (root.env).datasets.find((d) => d.name === SUITE.slice(0, -1))?.benchmarks ?? [];
  $('program-suite').replaceChildren(
    ...suite.map((/** @type {string} */ uri) => new Option(uri.slice(SUITE.length), uri.slice(SUITE.length))),
  );

  /** @param {string} kind */
  function showKind(kind) {
    $('program-kind').value = kind;
    $('program-suite-field').hidden = kind !== 'suite';
    $('program-generated-fields').hidden = kind !== 'generated';
  }

  /**
   * @param {string} message
   * @param {number | null} [line]
   */
  function showError(message, line = null) {
    $('program-error').textContent = message;
    editor?.markError(line, message);
  }

  /** @param {import('./programs.js').Program} program */
  async function load(program) {
    showError('');
    $('program-note').textContent = 'Loading…';
    try {
      const note = await app.loadProgram(program);
      $('program-note').textContent = note ?? '';
    } catch (error) {
      const source = program.kind === 'own' ? program.source : '';
      const { line, message } = explainProgramError(error, source);
      showError(`Not loaded: ${message.replace(/[^.!?)]$/, '$&.')} The episode still shows ${app.label}.`, line);
      $('program-note').textContent = '';
      showKind(/** @type {import('./programs.js').Program} */ (app.program).kind);
    }
  }

  function loadEdited() {
    if (!editor) return;
    return load({ kind: 'own', source: editor.text() });
  }

  function generate() {
    try {
      const program = checkGenerated({ kind: 'generated', seed: Number($('program-seed').value), size: Number($('program-size').value) });
      return load(program);
    } catch (error) {
      showError(describe(error));
    }
  }

  function syncControls() {
    const program = /** @type {import('./programs.js').Program} */ (app.program); // loaded
    const { info } = app;
    showKind(program.kind);
    if (program.kind === 'suite') $('program-suite').value = program.name;
    if (program.kind === 'generated') {
      $('program-seed').value = String(program.seed);
      $('program-size').value = String(program.size);
    }
    editor?.setText(program.kind === 'own' ? program.source : info.ir);
    $('program-load').disabled = true;
    renderRunTarget();
  }

  function renderRunTarget() {
    const node = /** @type {import('./episode.js').EpisodeNode} */ (episode.current); // loaded
    $('run-what').textContent = node.parent ? `runs the program after step ${node.depth} (${node.flag})` : 'runs the program as loaded';
  }

  // Arguments: one box, split on spaces.
  function syncArgs() {
    if (document.activeElement !== $('run-args')) $('run-args').value = app.args.join(' ');
  }
  // New arguments load the episode again on them (see Playground.setArgs).
  $('run-args').addEventListener('change', async () => {
    showError('');
    try {
      const note = await app.setArgs($('run-args').value.trim().split(/\s+/).filter(Boolean));
      $('program-note').textContent = note ?? '';
    } catch (error) {
      showError(`The arguments were not taken: ${describe(error)}`);
      syncArgs();
    }
  });

  async function run() {
    const node = /** @type {import('./episode.js').EpisodeNode} */ (episode.current); // loaded
    const ir = episode.observe(node, 'Ir');
    const limit = Number($('run-limit').value);
    $('run').disabled = true;
    $('run-cancel').disabled = false;
    $('run-status').textContent = 'Running…';
    $('run-status').dataset.state = 'running';
    showOutput('');
    try {
      if (!app.info.hasMain)
        throw Object.assign(new Error('the program has no @main function, so there is nothing to run'), { name: 'ValueError' });
      const result = await app.lanes.run.run('run', { source: ir, args: app.args }, { timeLimitMs: limit });
      if (result.ok) {
        // A long run is compiled to WebAssembly (docs/bril.md): say so, it is why it was quick.
        const how = result.tier === 'compiled' ? 'compiled to WebAssembly' : 'interpreted';
        $('run-status').textContent = `Exit status 0 · ${count(result.dynInst)} instructions executed · ${result.ms.toFixed(0)} ms, ${how}`;
        $('run-status').dataset.state = 'ok';
        $('run-status').dataset.tier = result.tier;
        $('run-status').dataset.dynInst = String(result.dynInst);
        showOutput(result.stdout);
      } else {
        $('run-status').textContent = `Exit status 2 (error) · ${result.error.name}: ${result.error.message}`;
        $('run-status').dataset.state = 'error';
        showOutput(result.stdout);
      }
    } catch (/** @type {any} */ error) {
      /** @type {Record<string, string>} */
      const stopped = {
        TimeoutError: `Stopped: it did not finish within the time limit of ${limit / 1000} s.`,
        CancelledError: 'Cancelled.',
      };
      $('run-status').textContent = stopped[error.name] ?? describe(error);
      $('run-status').dataset.state = error.name === 'TimeoutError' ? 'timeout' : error.name === 'CancelledError' ? 'cancelled' : 'error';
    } finally {
      $('run').disabled = false;
      $('run-cancel').disabled = true;
    }
  }

  /** @param {string} text */
  function showOutput(text, all = false) {
    fullOutput = text;
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const cut = !all && lines.length > SHOWN_LINES;
    $('run-output').textContent = cut ? `${lines.slice(0, SHOWN_LINES).join('\n')}\n…` : text;
    $('run-output').dataset.lines = String(lines.length);
    $('run-show-all').hidden = !cut;
    $('run-show-all').textContent = `Show all ${count(lines.length)} lines`;
  }

  $('run').addEventListener('click', run);
  $('run-cancel').addEventListener('click', () => app.lanes.run.cancel());
  $('run-show-all').addEventListener('click', () => showOutput(fullOutput, true));
  $('program-kind').addEventListener('change', () => {
    const kind = $('program-kind').value;
    showKind(kind);
    if (kind === 'suite') load({ kind: 'suite', name: $('program-suite').value });
    if (kind === 'own') {
      $('program-note').textContent = 'Edit the text, then load it.';
      $('program-load').disabled = false;
      editor?.focus();
    }
  });
  $('program-suite').addEventListener('change', () => load({ kind: 'suite', name: $('program-suite').value }));
  $('program-generate').addEventListener('click', generate);
  $('program-load').addEventListener('click', loadEdited);
  app.addEventListener('program', syncControls);
  app.addEventListener('args', syncArgs);
  episode.addEventListener('change', renderRunTarget);
  syncControls();
  syncArgs();

  return {
    /** Hands the panel the editor once its module has loaded. */
    /** @param {Editor} instance */
    attachEditor(instance) {
      editor = instance;
      editor.onEdit(() => {
        $('program-load').disabled = false;
        $('program-note').textContent = 'Edited: load the text to make it your own program.';
      });
      editor.onSubmit(loadEdited);
      syncControls();
    },
  };
}
