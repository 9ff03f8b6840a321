"""``compgym-leaderboard``, the leaderboard's command: its table (or ``--json``
rows) run in this process by ``compgym.leaderboard``, or with ``--ray`` on a
Ray cluster by ``compgym.ray``. A module of its own, above both, so neither
imports the other back."""

from __future__ import annotations

import json

from .leaderboard import leaderboard


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
    p.add_argument("--programs", type=names, help="one's own programs: .bril files or folders, comma-separated")
    p.add_argument("--split", help="train or held-out: only the hand-written programs on that side")
    p.add_argument("--policy", metavar="FILE", help="the policy that policy and guided play (it joins the agents)")
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
            from . import ray as compgym_ray  # only when asked: Ray is optional

            result = compgym_ray.leaderboard(address=None if args.ray == "local" else args.ray, **options)
    except (ValueError, LookupError, TypeError, OSError) as e:
        p.exit(2, f"compgym-leaderboard: {e}\n")
    print(json.dumps(result["rows"], indent=1) if args.json else result["table"], end="" if not args.json else "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
