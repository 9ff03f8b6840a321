"""The leaderboard from Python: whole, and one cell at a time (what
compgym.ray runs as Ray tasks) assembled by the core into the same table."""

import json

import pytest

from compgym import leaderboard as board
from compgym.leaderboard_cli import main

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


def test_random_requests_raise_python_errors_only():
    import random

    rng = random.Random(7)
    # Requests are only read (plan): a random one may ask for a search of 2**63 steps.
    keys = ["tasks", "agents", "suite", "large", "generated", "size", "steps", "seconds", "from_baseline", "seed",
            "programs", "split", "policy", "x"]
    values = [None, True, -1, 0, 3, 2**63, 2**70, 1.5, float("nan"), "size", ["size"], ["greedy", 3], {}, [[]],
              "{}", "train", [{"dataset": "d", "path": "p.bril", "source": "@main {\n}\n"}], [{"dataset": 1}]]
    for _ in range(300):
        options = {rng.choice(keys): rng.choice(values) for _ in range(rng.randrange(4))}
        try:
            board.plan(json.dumps(options))
        except (ValueError, LookupError, TypeError, OverflowError):
            pass
    # Cells of a small request, at any index (a cell runs a search: its budget is the request's).
    request = board.request(tasks=["size"], agents=["greedy"], suite=1, large=0, generated=0, steps=5)
    for row, program in [(0, 0), (0, 1), (1, 0), (2**40, 0), (0, 2**40)]:
        try:
            board.cell(request, row, program)
        except LookupError:
            assert (row, program) != (0, 0)
    for row, program in [(-1, 0), (2**70, 0)]:
        with pytest.raises(OverflowError):
            board.cell(request, row, program)
    with pytest.raises(ValueError, match="generated must be at most 1000000"):
        board.plan(board.request(generated=2**62))
    with pytest.raises(ValueError, match="size must be 1..=20000"):
        board.plan(board.request(size=0))
    for bad in ("", "[", "[]", "{\"steps\": -1}"):
        with pytest.raises(ValueError):
            board.plan(bad)


def test_the_command_prints_the_table_and_reports_bad_options(capsys):
    flags = ["--tasks", "size", "--agents", "greedy", "--suite", "1", "--large", "0", "--generated", "0"]
    assert main([*flags, "--steps", "10"]) == 0
    printed = {"rows": [], "table": capsys.readouterr().out}
    local = board.leaderboard(tasks=["size"], agents=["greedy"], suite=1, large=0, generated=0, steps=10)
    assert without_walltime(printed)[1] == without_walltime(local)[1]  # the seconds column apart
    with pytest.raises(SystemExit) as exit:
        main([*flags, "--steps", "0"])
    assert exit.value.code == 2
    assert "steps must be at least 1" in capsys.readouterr().err


def write(path, text="@main {\n  v: int = const 1;\n  print v;\n}\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_own_programs_are_read_and_named_as_the_command_reads_them(tmp_path, monkeypatch):
    # The layout of the command's own test (src/cli/files.rs).
    for file in ["d/a-c.bril", "d/a/b.bril", "d/x/y/z.bril", "d/x/y/w/deep.bril", "d/notes.txt", "d/a.json"]:
        write(tmp_path / file)
    write(tmp_path / "p.bril")
    monkeypatch.chdir(tmp_path)
    programs = board.read_programs(["d", "d/a/b.bril", "p.bril"])
    assert [(p["dataset"], p["path"]) for p in programs] == [
        ("d", "a/b.bril"), ("d", "a-c.bril"), ("d", "x/y/z.bril"), ("a", "b.bril"), ("own", "p.bril"),
    ], "a folder's .bril files two levels deep, a path before its sibling a-c; a bare file in `own`"
    rows = board.plan(board.request(programs=["d", "d/a/b.bril", "p.bril"], agents=["greedy"], tasks=["size"],
                                    suite=0, large=0, generated=0))
    assert [(r["dataset"], r["benchmarks"]) for r in rows] == [
        ("d", ["benchmark://d/a/b", "benchmark://d/a-c", "benchmark://d/x/y/z"]),
        ("a", ["benchmark://a/b"]),
        ("own", ["benchmark://own/p"]),
    ]
    with pytest.raises(FileNotFoundError):
        board.request(programs="gone/q.bril")
    write(tmp_path / "bad/broken.bril", "@main {")
    with pytest.raises(ValueError):
        board.leaderboard(programs="bad", agents=["greedy"], tasks=["size"], suite=0, large=0, generated=0, steps=5)


def test_a_policy_and_own_programs_run_alike_whole_by_cells_and_from_the_command(root, tmp_path, capsys):
    policy = root / "src/agents/policy/pretrained-size.json"
    community = root / "data/bril-community/mixed"
    options = dict(tasks=["size"], agents=["greedy"], suite=1, large=0, generated=0, steps=20,
                   programs=[str(community)], policy=str(policy))
    whole = board.leaderboard(**options)
    assert [(r["dataset"], r["agent"]) for r in whole["rows"]] == [
        ("suite-v0", "greedy"), ("suite-v0", "policy"), ("mixed", "greedy"), ("mixed", "policy"),
    ], "the policy joins the agents; the folder is a dataset of its own"
    assert [p["benchmark"] for p in whole["rows"][2]["programs"]] == [
        "benchmark://mixed/mat-inv", "benchmark://mixed/random_walk",
    ], "only the .bril files: the .json beside them are the same programs"
    assert all(row["valid"] == len(row["programs"]) for row in whole["rows"])
    request = board.request(**options)
    assert without_walltime(board.assemble(request, cells(request))) == without_walltime(whole)
    # The weights as a dict are the same policy.
    by_dict = board.leaderboard(**{**options, "policy": json.loads(policy.read_text())})
    assert without_walltime(by_dict) == without_walltime(whole)
    flags = ["--tasks", "size", "--agents", "greedy", "--suite", "1", "--large", "0", "--generated", "0",
             "--steps", "20", "--programs", str(community), "--policy", str(policy), "--json"]
    assert main(flags) == 0
    printed = {"rows": json.loads(capsys.readouterr().out), "table": ""}
    assert without_walltime(printed)[0] == without_walltime(whole)[0]
    with pytest.raises(SystemExit) as exit:
        main([*flags[:-1], "--policy", str(tmp_path / "none.json")])
    assert exit.value.code == 2
    with pytest.raises(ValueError, match="policy"):
        board.plan(board.request(agents=["greedy"], policy={"not": "a policy"}))
    with pytest.raises(LookupError, match="unknown split"):
        board.plan(board.request(split="sideways"))
