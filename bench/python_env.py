"""Environment throughput of the Python face beside the native one, in one run.

The workload of bench/env-measure.mjs and `compgym-bench env`: episodes of 20
actions from the same 32-bit xorshift sequence on the median suite program
(power-mod), IrInstructionCount reward; then the latency of a reset, a fork
and the Autophase and Ir observations. Python is timed at three depths: the
binding alone (`compgym._core.GymEnv`), the Gymnasium face (`compgym.make`,
numpy observations and info), and `gymnasium.make` (with Gymnasium's
PassiveEnvChecker and OrderEnforcing wrappers). The Node column (the JS face,
`compgym.make` of pkg/node.js, timed by bench/env-measure.mjs in a node process
of its own) is added when pkg/ is built (`make build`); without it a line says
the column was skipped.

    make bench-python      (or: .venv/bin/python bench/python_env.py [seconds])
"""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import gymnasium

import compgym
from compgym import _core

ROOT = Path(__file__).resolve().parents[1]
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def per_call(seconds, batch, f):
    start = time.perf_counter()
    calls = 0
    while True:
        for _ in range(batch):
            f()
        calls += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls


def xorshift(n):
    state = 0x9E3779B9

    def action():
        nonlocal state
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        return state % n

    return action


def measure(env, fork, observe, benchmark, length):
    action = xorshift(32)
    env.reset(options={"benchmark": benchmark})

    def episode():
        env.reset()
        for _ in range(length):
            env.step(action())

    seconds = per_call(SECONDS, 4, episode)
    reset = per_call(SECONDS, 10, env.reset)
    env.reset()
    for _ in range(length // 2):
        env.step(action())
    fork = per_call(SECONDS, 100, fork)
    autophase = per_call(SECONDS, 10, lambda: observe("Autophase"))
    ir = per_call(SECONDS, 10, lambda: observe("Ir"))
    return {
        "stepsPerSecond": length / seconds,
        "resetUs": reset * 1e6,
        "forkUs": fork * 1e6,
        "autophaseUs": autophase * 1e6,
        "irUs": ir * 1e6,
    }


def main():
    bench = ROOT / "target/release/compgym-bench"
    native = json.loads(subprocess.check_output([str(bench), "env", "--json", "--seconds", str(SECONDS)]))
    benchmark, length = native["benchmark"], native["episodeLength"]
    options = {"benchmark": benchmark, "reward_space": "IrInstructionCount"}
    binding = _core.GymEnv("bril-ic-v0", **options)
    face = compgym.make("bril-ic-v0", **options)
    wrapped = gymnasium.make("compgym/bril-ic-v0", **options)
    columns = [
        ("native", native),
        ("Python, binding", measure(binding, binding.fork, binding.observation, benchmark, length)),
        ("Python, compgym.make", measure(face, face.fork, face.observation.__getitem__, benchmark, length)),
        ("Python, gymnasium.make", measure(wrapped, wrapped.unwrapped.fork, face.observation.__getitem__, benchmark, length)),
    ]
    node = ROOT / "pkg/node.js"
    skipped = None
    if not node.exists():
        skipped = "no Node column: pkg/ is not built (make build makes it, then run this again)"
    elif shutil.which("node") is None:
        skipped = "no Node column: node is not on the PATH"
    else:
        script = (
            f"const c = await import({json.dumps(str(node))});"
            f"const {{ measure }} = await import({json.dumps(str(ROOT / 'bench/env-measure.mjs'))});"
            f"const cfg = {{benchmark: {json.dumps(benchmark)}, episodeLength: {length}, seconds: {SECONDS}}};"
            "measure(c, {...cfg, seconds: 0.2});"
            "console.log(JSON.stringify(measure(c, cfg)));"
        )
        out = subprocess.check_output(["node", "--input-type=module", "-e", script], text=True)
        columns.insert(1, ("Node, JS API", json.loads(out)))
    rows = [
        ("steps/s", "stepsPerSecond", "{:,.0f}"),
        ("reset (µs)", "resetUs", "{:.1f}"),
        ("fork (µs)", "forkUs", "{:.2f}"),
        ("Autophase (µs)", "autophaseUs", "{:.2f}"),
        ("Ir (µs)", "irUs", "{:.2f}"),
    ]
    print(f"benchmark {benchmark}, episodes of {length} actions, {SECONDS} s per measure")
    print(f"{skipped}\n" if skipped else "")
    print("| | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for label, key, fmt in rows:
        print(f"| {label} | " + " | ".join(fmt.format(c[key]) for _, c in columns) + " |")


if __name__ == "__main__":
    main()
