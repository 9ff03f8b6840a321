"""Gymnasium's side of the space benchmark: rates of the same operations
that bench/spaces.mjs measures on compgym, printed as one JSON object.

Run by bench/spaces.mjs in the same run, on the same machine."""

import json
import sys
import time

import gymnasium
import numpy as np
from gymnasium import spaces

BUDGET_SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5


def rate(fn):
    """Calls per second of `fn`, measured for about BUDGET_SECONDS."""
    fn()  # warm up
    calls, start = 0, time.perf_counter()
    batch = 1
    while True:
        for _ in range(batch):
            fn()
        calls += batch
        elapsed = time.perf_counter() - start
        if elapsed >= BUDGET_SECONDS:
            return calls / elapsed
        batch *= 2


def main():
    # The same spaces as bench/spaces.mjs and compgym's core benchmark.
    discrete = spaces.Discrete(124, seed=0)
    box = spaces.Box(low=0.0, high=1.0, shape=(64,), dtype=np.float32, seed=0)
    dict_space = spaces.Dict(
        {
            "action": spaces.Discrete(124),
            "features": spaces.Box(low=-1.0, high=1.0, shape=(8,), dtype=np.float32),
            "flag": spaces.Discrete(2),
        },
        seed=0,
    )
    text = spaces.Text(min_length=1, max_length=16, seed=0)
    member = box.sample()
    results = {
        "gymnasium": gymnasium.__version__,
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "rates": {
            "Discrete(124).sample": rate(discrete.sample),
            "Box(float32,[64]).sample": rate(box.sample),
            "Dict(Discrete,Box,Discrete).sample": rate(dict_space.sample),
            "Text(16).sample": rate(text.sample),
            "Box(float32,[64]).contains": rate(lambda: box.contains(member)),
            # Gymnasium has no batch sampler: n samples stacked is its equivalent.
            "Box(float32,[64]).sample_batch": 64 * rate(box.sample),
        },
    }
    print(json.dumps(results))


if __name__ == "__main__":
    main()
