"""The built wheel installs alone and runs: no compiler download, no service
process, nothing but the wheel and its declared dependencies. scripts/test.sh
builds it once and passes its path in COMPGYM_WHEEL."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

WHEEL = os.environ.get("COMPGYM_WHEEL")
pytestmark = pytest.mark.skipif(not WHEEL, reason="COMPGYM_WHEEL is not set (scripts/test.sh sets it)")

SCRIPT = """
import gymnasium, compgym, sys
assert compgym.__file__.startswith(sys.argv[1]), compgym.__file__
env = gymnasium.make("compgym/bril-ic-v0")
env.reset(seed=0)
print(env.step(env.action_space.sample())[1])
"""


def test_the_wheel_holds_the_package_and_one_extension():
    names = zipfile.ZipFile(WHEEL).namelist()
    assert {"compgym/__init__.py", "compgym/envs.py", "compgym/spaces.py"} <= set(names)
    assert len([n for n in names if n.startswith("compgym/_core") and n.endswith((".so", ".pyd"))]) == 1


def test_the_wheel_installs_and_runs_alone(tmp_path):
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(target), WHEEL]
    subprocess.run(pip, check=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(target)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    float(run.stdout)
