// The passes panel: one button per pass (each an action), the compiler's
// own pipelines as steps, the reward, back, reset and validate, what
// failed, and the history tree of states (passes that changed nothing can
// be hidden, as Compiler Explorer's pipeline view does).
import { describe, h, signed, count, plural, scrollWithin } from './format.js';
import { PASSES, REWARDS } from './glossary.js';
import { applyPipeline } from './pipelines.js';

/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */
/** @typedef {{ groups: string[][], keepGroupIfNoLarger: boolean }} PipelinePlan */

// The panel is mounted once a program is loaded: the episode's root, current
// state, program and reward are set from then on.
/**
 * @param {import('./playground.js').Playground} app
 * @param {(id: string) => any} $ the page's element of that id
 */
export function mountPipeline(app, $) {
  const { episode } = app;
  /** @type {{ nodeId: number, pending?: boolean, verdict?: string, lines?: string[] } | null} */
  let validation = null; // {nodeId, verdict, lines} or {nodeId, pending}

  /**
   * @param {(...args: any[]) => unknown} fn
   * @returns {(...args: any[]) => Promise<void>}
   */
  function guard(fn) {
    return async (...args) => {
      try {
        $('step-error').textContent = '';
        await fn(...args);
      } catch (error) {
        $('step-error').textContent = describe(error);
      }
    };
  }

  function buildPasses() {
    $('passes').replaceChildren(
      ...episode.flags.map((flag, /** @type {number} */ i) =>
        h(
          'button',
          {
            type: 'button',
            class: 'pass',
            dataset: { flag, action: i },
            title: `${PASSES[flag] ?? ''}\n(${episode.descriptions[i]})`,
            onclick: guard(() => step(flag)),
          },
          flag,
        ),
      ),
    );
  }

  /** -O1, -O2 and -Oz, from the package's plans (-O0 is no pass at all). */
  function buildPipelines() {
    const plans = app.api.brilPasses().pipelinePlans;
    $('pipelines').replaceChildren(
      $('pipelines-label'),
      ...Object.entries(plans)
        .filter(([, plan]) => plan.groups.length)
        .map(([name, plan]) =>
          h(
            'button',
            {
              type: 'button',
              class: 'pass pipeline',
              dataset: { pipeline: name },
              title: pipelineTitle(name, plan),
              onclick: guard(() => runPipeline(name, plan)),
            },
            name,
          ),
        ),
    );
  }

  /**
   * @param {string} name
   * @param {PipelinePlan} plan
   */
  function runPipeline(name, plan) {
    const { steps, dropped, failed } = applyPipeline(episode, plan);
    if (failed) {
      showFailure(failed);
      return;
    }
    const note = dropped
      ? `; ${plural(dropped, 'group')} not kept, as ${name} does when a group leaves the program larger or unchanged (they stay in the history as branches)`
      : '';
    $('pipeline-note').textContent = `${name}: ${plural(steps, 'step')}${note}.`;
  }

  function buildRewards() {
    const select = $('reward');
    select.replaceChildren(
      ...app.rewardNames.map((name) => {
        const problem = app.rewardProblem(name);
        const option = new Option(problem ? `${name} (needs a program that runs)` : name, name);
        option.disabled = Boolean(problem);
        return option;
      }),
    );
    select.value = episode.rewardSpace;
    $('reward-sentence').textContent = REWARDS[/** @type {string} */ (episode.rewardSpace)] ?? '';
  }

  /** @param {string | number} flag */
  function step(flag) {
    const node = episode.step(flag);
    if (node.error) showFailure(node);
  }

  /** @param {EpisodeNode} node a failed step */
  function showFailure(node) {
    const good = /** @type {EpisodeNode} */ (episode.current);
    const where = good.parent ? `step ${good.depth} (${good.flag})` : 'the start';
    const error = /** @type {{ name: string, message: string }} */ (node.error);
    $('step-error').textContent =
      `${node.flag} failed: ${error.name}: ${error.message}. Nothing is lost: the episode goes on from ${where}.`;
  }

  async function validate() {
    const node = /** @type {EpisodeNode} */ (episode.current);
    const root = /** @type {EpisodeNode} */ (episode.root);
    validation = { nodeId: node.id, pending: true };
    renderValidation();
    const limit = Number($('run-limit').value) * 2;
    try {
      const state = episode.state(node);
      const result = await app.lanes.validate.run(
        'validate',
        {
          before: episode.observe(root, 'Ir'),
          after: episode.observe(node, 'Ir'),
          args: app.args,
          hasMain: app.info.hasMain,
          state: { benchmark: state.benchmark, commandline: state.commandline, reward: state.reward },
          source: /** @type {import('./episode.js').Benchmark} */ (episode.program).source,
          rewardSpace: episode.rewardSpace,
        },
        { timeLimitMs: limit },
      );
      validation = { nodeId: node.id, ...result };
    } catch (/** @type {any} */ error) {
      const lines =
        error.name === 'TimeoutError'
          ? [`Validation did not finish within ${limit / 1000} s: the program runs too long (or never ends) on these arguments.`]
          : [describe(error)];
      validation = { nodeId: node.id, verdict: error.name === 'CancelledError' ? 'cancelled' : 'cannot-run', lines };
    }
    renderValidation();
  }

  function renderValidation() {
    const out = $('validation');
    // A result belongs to the state it was computed for: a later step clears it.
    if (!validation || validation.nodeId !== /** @type {EpisodeNode} */ (episode.current).id) {
      out.replaceChildren();
      delete out.dataset.verdict;
      return;
    }
    if (validation.pending) {
      out.dataset.verdict = 'pending';
      out.replaceChildren(h('p', {}, 'Validating: running the program before and after the passes…'));
      return;
    }
    /** @type {Record<string, string>} */
    const titles = { valid: 'Valid.', invalid: 'Not valid.', 'cannot-run': 'Cannot validate.', cancelled: 'Cancelled.' };
    const title = titles[/** @type {string} */ (validation.verdict)];
    const lines = /** @type {string[]} */ (validation.lines); // a result has both
    out.dataset.verdict = validation.verdict;
    out.replaceChildren(h('p', {}, h('strong', {}, title), ' ', lines[0] ?? ''), ...lines.slice(1).map((l) => h('p', {}, l)));
  }

  function renderButtons() {
    const current = /** @type {EpisodeNode} */ (episode.current);
    $('back').disabled = !current.parent;
    for (const button of $('passes').children) {
      const done = current.children.find((c) => c.flag === button.dataset.flag);
      button.classList.toggle('tried-noop', Boolean(done && !done.error && !done.changed));
      button.classList.toggle('tried-failed', Boolean(done?.error));
    }
  }

  function renderHistory() {
    const current = /** @type {EpisodeNode} */ (episode.current);
    const { failure } = episode;
    const rewardDigits = /Count$/.test(episode.rewardSpace ?? '') ? 0 : 3;
    /** @type {(node: EpisodeNode) => { button: HTMLElement, nested: HTMLElement | null, next: EpisodeNode | undefined }} */
    const item = (node) => {
      const size = episode.size(node);
      const label = node.parent
        ? [
            h('span', { class: 'n' }, String(node.depth)),
            h('span', { class: 'flag' }, node.flag),
            node.error
              ? h('span', { class: 'why' }, `failed: ${node.error.name}`)
              : node.pending
                ? h('span', { class: 'r pending', title: 'running the program for this reward' }, 'running…')
                : h('span', { class: 'r' }, node.changed ? signed(node.reward, rewardDigits) : 'no change'),
            node.error ? null : h('span', { class: 'size' }, `${count(size)} instr.`),
          ]
        : [
            h('span', { class: 'n' }, '0'),
            h('span', { class: 'flag' }, 'start'),
            h('span', { class: 'r' }, ''),
            h('span', { class: 'size' }, `${count(size)} instr.`),
          ];
      const classes = ['state', node.error ? 'failed' : node.parent && !node.changed ? 'noop' : '', node === failure ? 'just-failed' : ''];
      const button = h(
        'button',
        {
          type: 'button',
          class: classes.filter(Boolean).join(' '),
          dataset: { node: node.id, flag: node.flag ?? '' },
          'aria-current': node === current ? 'step' : null,
          title: node.error
            ? `${node.error.name}: ${node.error.message}`
            : (PASSES[/** @type {string} */ (node.flag)] ?? 'the program as loaded'),
          onclick: () => (node.error ? showFailure(node) : episode.goTo(node)),
        },
        ...label,
      );
      // The main line continues at the same level; other branches nest.
      const [first, ...others] = node.children;
      const nested = others.length ? h('ul', { class: 'branches' }, ...others.map((c) => h('li', {}, ...chain(c)))) : null;
      return { button, nested, next: first };
    };
    /** @type {(start: EpisodeNode) => HTMLElement[]} */
    const chain = (start) => {
      /** @type {HTMLElement[]} */
      const parts = [];
      for (let /** @type {EpisodeNode | undefined} */ node = start; node;) {
        const { button, nested, next } = item(node);
        parts.push(button);
        if (nested) parts.push(nested);
        node = next;
      }
      return parts;
    };
    const list = h('div', { class: 'tree' }, ...chain(/** @type {EpisodeNode} */ (episode.root)));
    $('history').replaceChildren(list);
    const total = current.total;
    // Under a runtime reward the total is known once the runs behind it end.
    $('history').dataset.total = total === null ? '' : String(total);
    $('history').dataset.pending = String(total === null);
    $('history').dataset.steps = String(current.depth);
    $('history').dataset.noops = String([...episode.nodes()].filter((n) => n.parent && !n.error && !n.changed && n !== current).length);
    const shown = list.querySelector('[aria-current]');
    if (shown) scrollWithin($('history'), shown);
  }

  /** While a step's runtime reward is computed in a worker: what runs, and a cancel. */
  function renderRewardStatus() {
    const pending = episode.root ? episode.pendingPath() : [];
    const status = $('reward-status');
    status.dataset.state = pending.length ? 'running' : 'idle';
    status.dataset.pending = String(pending.length);
    $('reward-cancel').hidden = !pending.length;
    const [first] = pending;
    const more = pending.length > 1 ? ` and ${plural(pending.length - 1, 'later step')}` : '';
    $('reward-status-text').textContent = first
      ? `Running the program for the ${episode.rewardSpace} reward of step ${first.depth} (${first.flag})${more}, in a worker…`
      : '';
  }

  /** @param {string} why */
  function render(why) {
    if (why === 'load') buildPasses();
    if (why !== 'pipeline') $('pipeline-note').textContent = '';
    buildRewards();
    renderButtons();
    renderHistory();
    renderValidation();
    renderRewardStatus();
    if (episode.failure) showFailure(episode.failure);
    else $('step-error').textContent = '';
  }

  $('reward').addEventListener(
    'change',
    guard(async () => {
      try {
        await app.setReward($('reward').value);
      } finally {
        buildRewards();
      }
    }),
  );
  $('hide-noops').addEventListener('change', () => $('history').classList.toggle('hide-noops', $('hide-noops').checked));
  $('back').addEventListener(
    'click',
    guard(() => episode.back()),
  );
  $('reset').addEventListener(
    'click',
    guard(() => episode.goTo(/** @type {EpisodeNode} */ (episode.root))),
  );
  $('validate').addEventListener('click', guard(validate));
  $('reward-cancel').addEventListener('click', () => app.cancelRewards());
  app.addEventListener('rewards', renderRewardStatus);
  episode.addEventListener('change', (event) => render(/** @type {Event & { why: string }} */ (event).why));
  app.addEventListener('info', buildRewards);
  app.addEventListener('program', buildRewards);
  buildPipelines();
  render('load');
  return { step };
}

/**
 * @param {string} name
 * @param {PipelinePlan} plan
 */
function pipelineTitle(name, plan) {
  const passes = plan.groups.flat();
  const rule = plan.keepGroupIfNoLarger
    ? `${plural(plan.groups.length, 'group')} of passes, each kept only if the program comes out no larger`
    : plural(passes.length, 'pass');
  return `${name}: the compiler's own pipeline, ${rule}, each pass a step:\n${passes.join(' ')}`;
}
