"""compgym on a Ray cluster: Ray actors and tasks calling the core, nothing
distributed written here. Needs Ray (``pip install ray``; ``scripts/setup.sh
ray`` for the tests); ``import compgym`` never imports this module.

* ``leaderboard(address=None, **options)``: the leaderboard's cells (one agent
  on one program) as Ray tasks, one CPU each, the table assembled by the core
  from their entries: equal to ``compgym.leaderboard.leaderboard(**options)``
  bit for bit under step budgets (the walltimes apart).
* ``Environment``: a Ray actor owning one environment (``compgym.make``'s),
  stepped by remote calls; ``run(actions)`` steps a whole list in one call.

Connects with ``ray.init(address=address)`` unless Ray is initialised already
(``None``: a local cluster, or the one ``RAY_ADDRESS`` names).
"""

from __future__ import annotations

import ray

from . import leaderboard as _board


@ray.remote(num_cpus=1)
def _cell(request_json: str, row: int, program: int) -> dict:
    return _board.cell(request_json, row, program)


def connect(address: str | None = None) -> None:
    """``ray.init(address=address)`` unless Ray is initialised already."""
    if not ray.is_initialized():
        ray.init(address=address)


def leaderboard(address: str | None = None, **options) -> dict:
    """The leaderboard with every cell a Ray task: ``{"rows", "table"}``.
    Options are ``compgym.leaderboard.leaderboard``'s."""
    connect(address)
    request = _board.request(**options)
    rows = _board.plan(request)
    refs = [[_cell.remote(request, r, p) for p in range(len(row["benchmarks"]))] for r, row in enumerate(rows)]
    return _board.assemble(request, [ray.get(row_refs) for row_refs in refs])


@ray.remote(num_cpus=1)
class Environment:
    """One environment in an actor of its own: ``Environment.remote(env_id,
    **options)`` as ``compgym.make``."""

    def __init__(self, env_id: str, **options):
        import compgym

        self.env = compgym.make(env_id, **options)

    def reset(self, seed=None, options=None):
        return self.env.reset(seed=seed, options=options)

    def step(self, action):
        return self.env.step(action)

    def run(self, actions, episode_length: int | None = None) -> tuple[float, int]:
        """Steps each action in turn, with a reset when an episode ends or
        after every ``episode_length`` steps: the reward's sum and the steps
        taken, in one remote call."""
        total, steps, length = 0.0, 0, 0
        for action in actions:
            _, reward, terminated, truncated, _ = self.env.step(action)
            total += reward or 0.0
            steps += 1
            length += 1
            if terminated or truncated or length == episode_length:
                self.env.reset()
                length = 0
        return total, steps

    def close(self) -> None:
        self.env.close()
