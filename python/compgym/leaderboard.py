"""The leaderboard (``compgym leaderboard``) from Python: every agent on every
task and dataset, each result replayed and validated by the core.

``leaderboard(**options)`` runs it in this process; ``compgym.ray.leaderboard``
runs the same cells as Ray tasks and assembles the same table. Options are the
command's, by keyword: ``tasks`` (``["size", "runtime"]``), ``agents`` (the
searches, ``policy``, ``guided`` and ``fixed``), ``suite`` and ``large`` (the
first programs of each; ``None`` all, 0 none), ``generated`` (programs of unseen
seeds; 100), ``size``, ``programs`` (one's own: ``.bril`` or Bril JSON files, or
folders whose ``.bril`` files are read two levels deep, each folder a dataset
named after it, as the command's ``--programs``), ``split`` (``"train"`` or
``"held-out"``: only the hand-written programs on that side), ``policy`` (the
weights ``policy`` and ``guided`` play, a file ``compgym train`` wrote or its
JSON as a dict; given, it joins the agents), ``steps`` (per program; 5000,
``None`` no limit), ``seconds`` (per program), ``from_baseline`` (True) and
``seed`` (0).

The request carries the programs' text and the policy's weights, so a cell
run on another machine needs none of the files.

``seconds`` defaults to no limit here, not to the command's 10: with a step
budget alone a result is the same on every machine, so a run split over
processes or machines equals this one bit for bit (the walltimes apart).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Union

from . import _core

PathLike = Union[str, "os.PathLike[str]"]

# How deep under a folder given its .bril files are looked for (the command's).
FOLDER_DEPTH = 2


def _bril_files(folder: Path, relative: str, depth: int) -> list[str]:
    found = []
    for entry in folder.iterdir():
        inside = f"{relative}/{entry.name}" if relative else entry.name
        if depth > 0 and entry.is_dir():
            found += _bril_files(entry, inside, depth - 1)
        elif entry.name.endswith(".bril") and entry.name != ".bril" and not entry.is_dir():
            found.append(inside)
    return found


def _dataset_of(folder: str) -> str:
    """The folder's own name, resolved (``own`` for none, as for a bare file name)."""
    if not folder:
        return "own"
    return Path(os.path.realpath(folder)).name or "own"


def read_programs(paths: PathLike | list[PathLike]) -> list[dict]:
    """Programs of one's own as the command's ``--programs`` reads them: a
    file as it is (Bril text or JSON), a folder's ``.bril`` files two levels
    deep in the order of their paths' components; each with the name of the
    folder it was given in (``dataset``), its path there and its text. The
    core names each ``benchmark://DATASET/PATH`` without the extension. A
    missing file raises ``FileNotFoundError``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    programs = []
    for path in map(os.fspath, paths):
        if os.path.isdir(path):
            folder = path
            files = sorted(_bril_files(Path(path), "", FOLDER_DEPTH), key=lambda f: f.split("/"))
        else:
            folder, _, name = path.rpartition("/")
            folder = "/" if path.startswith("/") and not folder else folder
            files = [name]
        dataset = _dataset_of(folder)
        for relative in files:
            source = Path(folder or ".", relative).read_text(encoding="utf-8")
            programs.append({"dataset": dataset, "path": relative, "source": source})
    return programs


def _policy_json(policy: PathLike | dict) -> str:
    if isinstance(policy, dict):
        return json.dumps(policy)
    return Path(policy).read_text(encoding="utf-8")


def request(**options) -> str:
    """The core's request (JSON) for these options; the core checks them.
    Files named by ``programs`` and ``policy`` are read here."""
    options.setdefault("seconds", None)
    for key in ("tasks", "agents"):
        if key in options and isinstance(options[key], str):
            options[key] = [options[key]]
        elif key in options:
            options[key] = list(options[key])
    if options.get("programs") is not None:
        options["programs"] = read_programs(options["programs"])
    if options.get("policy") is not None:
        options["policy"] = _policy_json(options["policy"])
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
