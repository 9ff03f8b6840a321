// The compiler's own pipelines (-O1, -O2, -Oz) as ordinary steps of the
// episode, from the plans the package gives (`brilPasses().pipelinePlans`):
// each pass of a group is a step; a group of -Oz's that leaves the program
// larger (or unchanged) is not kept, so the episode returns to where the
// group began and the group stays in the history as a branch, exactly as
// the pipeline itself drops it. No DOM: the Node tests drive it too.

/** @typedef {import('./episode.js').EpisodeNode} EpisodeNode */

/**
 * Runs pipeline `plan` (`{groups, keepGroupIfNoLarger}`) from the current
 * state of `episode`, as one change of the episode. Returns `{steps,
 * dropped, failed}`: the steps taken, the groups not kept, and the failed
 * node if a step failed (the pipeline stops there, the episode staying at
 * the last good state).
 * @param {import('./episode.js').Episode} episode
 * @param {{ groups: string[][], keepGroupIfNoLarger: boolean }} plan
 */
export function applyPipeline(episode, plan) {
  let steps = 0;
  let dropped = 0;
  /** @type {EpisodeNode | null} */
  let failed = null;
  episode.quietly('pipeline', () => {
    for (const group of plan.groups) {
      const start = /** @type {EpisodeNode} */ (episode.current); // loaded
      for (const flag of group) {
        const node = episode.step(flag);
        steps++;
        if (node.error) {
          failed = node;
          return;
        }
      }
      if (plan.keepGroupIfNoLarger && !kept(episode, start, /** @type {EpisodeNode} */ (episode.current))) {
        episode.goTo(start);
        dropped++;
      }
    }
  });
  return { steps, dropped, failed };
}

/**
 * -Oz's rule: a group is kept if the program came out no larger, and changed.
 * @param {import('./episode.js').Episode} episode
 * @param {EpisodeNode} start
 * @param {EpisodeNode} end
 */
function kept(episode, start, end) {
  // Both states were stepped to, so both have an environment and a size.
  if (/** @type {number} */ (episode.size(end)) > /** @type {number} */ (episode.size(start))) return false;
  return episode.observe(end, 'Ir') !== episode.observe(start, 'Ir');
}
