"""The leaderboard from Python: whole, and one cell at a time (what
compgym.ray runs as Ray tasks) assembled by the core into the same table."""

import json

import pytest

from compgym import leaderboard as board

OPTIONS = dict(tasks=["size", "runtime"], agents=["greedy", "random"], suite=2, large=0, generated=1, steps=40)


def without_walltime(result):
    rows = json.loads(json.dumps(result["rows"]))
    for row in rows:
        for program in row["programs"]:
            del program["walltime"]
    # The table's last column is seconds per program.
    table = [line.rsplit("|", 2)[0] for line in result["table"].splitlines()]
    return rows, table


def cells(request):
    return [
        [board.cell(request, r, p) for p in range(len(row["benchmarks"]))] for r, row in enumerate(board.plan(request))
    ]


def test_cells_assemble_to_the_whole_run():
    whole = board.leaderboard(**OPTIONS)
    assert len(whole["rows"]) == 2 * 2 * 2
    assert all(row["valid"] == len(row["programs"]) == (2 if row["dataset"] == "suite-v0" else 1) for row in whole["rows"])
    assert all(p["steps"] <= 40 for row in whole["rows"] for p in row["programs"])
    request = board.request(**OPTIONS)
    # Cells in reverse order: a cell depends on nothing run before it.
    reverse = [[board.cell(request, r, p) for p in reversed(range(len(row["benchmarks"])))][::-1]
               for r, row in reversed(list(enumerate(board.plan(request))))][::-1]
    assert without_walltime(board.assemble(request, reverse)) == without_walltime(whole)


def test_the_plan_lists_rows_in_the_core_order():
    rows = board.plan(board.request(**OPTIONS))
    assert [(r["task"], r["dataset"], r["agent"]) for r in rows][:3] == [
        ("code size", "suite-v0", "greedy"),
        ("code size", "suite-v0", "random"),
        ("code size", "random-v1, size 40", "greedy"),
    ]
    assert rows[0]["benchmarks"] == ["benchmark://suite-v0/ackermann", "benchmark://suite-v0/binary-search"]


def test_bad_requests_and_cells_raise():
    with pytest.raises(ValueError, match="unknown leaderboard option"):
        board.leaderboard(step=3)
    with pytest.raises(ValueError, match="steps"):
        board.leaderboard(steps=0, suite=1, large=0, generated=0)
    with pytest.raises(LookupError):
        board.leaderboard(agents=["no-such-agent"])
    request = board.request(**OPTIONS)
    with pytest.raises(LookupError, match="no row 99"):
        board.cell(request, 99, 0)
    with pytest.raises(LookupError, match="no program 5"):
        board.cell(request, 0, 5)
    good = cells(request)
    with pytest.raises(ValueError, match="rows of entries"):
        board.assemble(request, good[:-1])
    with pytest.raises(ValueError, match="one entry per program"):
        board.assemble(request, [row[::-1] for row in good])
    with pytest.raises(ValueError, match="not a leaderboard entry"):
        board.assemble(request, [[{"cost": "x"}] for _ in good])
