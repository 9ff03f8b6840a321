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


def main(argv: list[str] | None = None) -> int:
    """``compgym-leaderboard [--ray ADDRESS] ...``: the leaderboard's table (or
    ``--json`` rows), here or with every cell a task on the Ray cluster at
    ADDRESS (``auto``: the one this machine belongs to; ``local``: a new one)."""
    import argparse

    def names(text: str) -> list[str]:
        return [n for n in text.split(",") if n]

    p = argparse.ArgumentParser(prog="compgym-leaderboard", description=main.__doc__)
    p.add_argument("--ray", metavar="ADDRESS", help="run the cells on this Ray cluster (auto, local, host:port, ray://...)")
    p.add_argument("--tasks", type=names, help="size,runtime")
    p.add_argument("--agents", type=names, help="random,greedy,beam,explore,policy,...")
    p.add_argument("--suite", type=int, help="the first N suite programs (default all)")
    p.add_argument("--large", type=int, help="the first N large-v0 programs (default all)")
    p.add_argument("--generated", type=int, help="generated programs of unseen seeds (default 100)")
    p.add_argument("--size", type=int)
    p.add_argument("--steps", type=int, help="per program (default 5000)")
    p.add_argument("--seconds", type=float, help="per program (default: no limit)")
    p.add_argument("--seed", type=int)
    p.add_argument("--from-scratch", action="store_true", help="searches start from the unoptimised program")
    p.add_argument("--json", action="store_true", help="every program's result, as JSON")
    args = p.parse_args(argv)
    options = {
        k: v
        for k, v in vars(args).items()
        if k not in ("ray", "json", "from_scratch") and v is not None
    }
    if args.from_scratch:
        options["from_baseline"] = False
    try:
        if args.ray is None:
            result = leaderboard(**options)
        else:
            from . import ray as compgym_ray

            result = compgym_ray.leaderboard(address=None if args.ray == "local" else args.ray, **options)
    except (ValueError, LookupError, TypeError) as e:
        p.exit(2, f"compgym-leaderboard: {e}\n")
    print(json.dumps(result["rows"], indent=1) if args.json else result["table"], end="" if not args.json else "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
