"""The leaderboard (``compgym leaderboard``) from Python: every agent on every
task and dataset, each result replayed and validated by the core.

``leaderboard(**options)`` runs it in this process; ``compgym.ray.leaderboard``
runs the same cells as Ray tasks and assembles the same table. Options are the
command's, by keyword: ``tasks`` (``["size", "runtime"]``), ``agents`` (the
searches and ``policy``), ``suite`` and ``large`` (the first programs of each;
``None`` all, 0 none), ``generated`` (programs of unseen seeds; 100), ``size``,
``steps`` (per program; 5000, ``None`` no limit), ``seconds`` (per program),
``from_baseline`` (True) and ``seed`` (0).

``seconds`` defaults to no limit here, not to the command's 10: with a step
budget alone a result is the same on every machine, so a run split over
processes or machines equals this one bit for bit (the walltimes apart).
"""

from __future__ import annotations

import json

from . import _core


def request(**options) -> str:
    """The core's request (JSON) for these options; the core checks them."""
    options.setdefault("seconds", None)
    for key in ("tasks", "agents"):
        if key in options and isinstance(options[key], str):
            options[key] = [options[key]]
        elif key in options:
            options[key] = list(options[key])
    return json.dumps(options)


def plan(request_json: str) -> list[dict]:
    """The rows in order: ``task``, ``dataset``, ``agent`` and ``benchmarks``.
    A cell is (row index, program index)."""
    return json.loads(_core.leaderboard_plan(request_json))


def cell(request_json: str, row: int, program: int) -> dict:
    """One cell: row ``row``'s agent on its program ``program``, as the whole
    run gives it: ``benchmark``, ``initial``, ``baseline``, ``cost``,
    ``commandline``, ``steps``, ``walltime`` and ``invalid`` (None if the
    result replayed and validated)."""
    return json.loads(_core.leaderboard_cell(request_json, row, program))


def assemble(request_json: str, entries: list[list[dict]]) -> dict:
    """``{"rows", "table"}`` of the cells' entries, a list per row in order."""
    rows, table = _core.leaderboard_assemble(request_json, json.dumps(entries))
    return {"rows": json.loads(rows), "table": table}


def leaderboard(**options) -> dict:
    """The whole leaderboard in this process: ``{"rows", "table"}``, as
    ``compgym leaderboard --json`` and its table."""
    rows, table = _core.leaderboard(request(**options))
    return {"rows": json.loads(rows), "table": table}
