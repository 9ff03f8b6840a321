"""compgym.ray on a local Ray cluster of 2 CPUs started here:
the distributed leaderboard equals the local one, and environment actors
step as a local environment does."""

import json

import pytest
import ray

import compgym
import compgym.ray as cray
from compgym import leaderboard as board

OPTIONS = dict(tasks=["size", "runtime"], agents=["greedy", "explore"], suite=3, large=0, generated=1, steps=60)


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def without_walltime(result):
    rows = json.loads(json.dumps(result["rows"]))
    for row in rows:
        for program in row["programs"]:
            del program["walltime"]
    return rows, [line.rsplit("|", 2)[0] for line in result["table"].splitlines()]


def test_the_distributed_leaderboard_equals_the_local_one(cluster):
    local = board.leaderboard(**OPTIONS)
    distributed = cray.leaderboard(**OPTIONS)
    assert len(distributed["rows"]) == 2 * 2 * 2
    assert sum(len(row["programs"]) for row in distributed["rows"]) == 2 * 2 * 4
    assert all(row["valid"] == len(row["programs"]) for row in distributed["rows"])
    assert without_walltime(distributed) == without_walltime(local)


def test_the_command_runs_the_cells_on_a_cluster_by_address(cluster):
    import subprocess
    import sys

    address = ray.get_runtime_context().gcs_address
    flags = ["--tasks", "size", "--agents", "greedy,random", "--suite", "2", "--large", "0", "--generated", "0"]
    out = subprocess.run(
        [sys.executable, "-m", "compgym.leaderboard_cli", "--ray", address, "--steps", "30", "--json", *flags],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    local = board.leaderboard(tasks=["size"], agents=["greedy", "random"], suite=2, large=0, generated=0, steps=30)
    assert without_walltime({"rows": json.loads(out), "table": ""}) == without_walltime({**local, "table": ""})


def test_an_environment_actor_steps_as_a_local_environment(cluster):
    options = dict(benchmark="benchmark://suite-v0/power-mod", reward_space="IrInstructionCount")
    actions = [3, 7, 1, 12, 5, 9, 0, 22]
    local = compgym.make("bril-ic-v0", **options)
    local.reset()
    expected = [local.step(a)[1] for a in actions]
    actor = cray.Environment.remote("bril-ic-v0", **options)
    ray.get(actor.reset.remote())
    assert [ray.get(actor.step.remote(a))[1] for a in actions] == expected
    ray.get(actor.reset.remote())
    assert ray.get(actor.run.remote(actions)) == (sum(expected), len(actions))
    # A bad id fails the actor's creation; Ray reports the core's error.
    with pytest.raises(ray.exceptions.RayActorError, match="LookupError: unknown environment"):
        ray.get(cray.Environment.remote("no-such-v0").reset.remote())


def test_import_compgym_never_imports_ray():
    import subprocess
    import sys

    code = "import sys, compgym, compgym.leaderboard; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_own_programs_and_a_policy_give_the_local_results(cluster, root):
    mixed = root / "data/bril-community/mixed"
    policy = root / "src/agents/policy/pretrained-size.json"
    options = dict(tasks=["size"], agents=["greedy"], suite=1, large=0, generated=1, steps=20,
                   programs=[str(mixed)], policy=str(policy))
    local = board.leaderboard(**options)
    distributed = cray.leaderboard(**options)
    assert [(r["dataset"], r["agent"]) for r in distributed["rows"]] == [
        (d, a) for d in ("suite-v0", "mixed", "random-v1, size 40") for a in ("greedy", "policy")
    ]
    assert without_walltime(distributed) == without_walltime(local)
    # The driver reads the files once; a task on another machine needs none.
    sent = json.loads(board.request(**options))
    assert sent["programs"][0]["source"] == (mixed / "mat-inv.bril").read_text()
    assert json.loads(sent["policy"]) == json.loads(policy.read_text())
