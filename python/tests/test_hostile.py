"""A short seeded fuzz of the Python face: random values into every entry
point. Each call returns or raises an Exception (a panic would surface as
pyo3's PanicException, a BaseException), and the environment still steps
after all of it. The budget is a count of calls, not a time."""

import json
import random

import numpy as np

import compgym
from compgym import _core

CALLS = 3000


def value(rng, depth=0):
    kind = rng.randrange(12 if depth < 4 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 31, 32, 2**31, 2**63 - 1, 2**64, -(2**70), rng.randrange(-100, 100)])
    if kind == 3:
        return rng.choice([0.5, float("nan"), float("inf"), -0.0, 1e308])
    if kind == 4:
        return rng.choice(["", "-dce", "-dce -lvn", "-O2", "benchmark://suite-v0/ackermann", "\x00", "é" * 50])
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(5)))
    if kind == 6:
        dtype = rng.choice(["int8", "uint8", "int64", "uint64", "float32", "float64", "bool"])
        return np.zeros(tuple(rng.randrange(3) for _ in range(rng.randrange(3))), dtype=dtype)
    if kind == 7:
        return rng.choice([object(), np.int64(3), np.float32(2.5), np.bool_(True), complex(1, 2)])
    if kind in (8, 9):
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 10:
        return tuple(value(rng, depth + 1) for _ in range(rng.randrange(4)))
    return {rng.choice(["a", "benchmark", "observation_space", 1]): value(rng, depth + 1) for _ in range(rng.randrange(3))}


def description(rng):
    kinds = ["Box", "Discrete", "MultiDiscrete", "MultiBinary", "Text", "Dict", "Tuple", "Sequence", "Graph", "OneOf", "Nope"]
    d = {"type": rng.choice(kinds)}
    for key in ["n", "low", "high", "shape", "dtype", "nvec", "spaces", "feature_space", "node_space", "max_length", "charset"]:
        if rng.random() < 0.4:
            d[key] = value(rng, 2) if key != "spaces" else [value(rng, 3)]
    return json.dumps(d, default=str)


def test_random_input_never_panics_and_the_environment_goes_on():
    rng = random.Random(27)
    env = compgym.make("bril-autophase-ic-v0", dataset="benchmark://suite-v0")
    env.reset(seed=1)
    calls = [
        lambda: env.step(value(rng)),
        lambda: env.reset(seed=rng.choice([None, 0, 5, 2**40]), options=rng.choice([None, value(rng)])),
        lambda: env.multistep(value(rng), observation_spaces=rng.choice([None, [value(rng)]])),
        lambda: env.observation[value(rng)],
        lambda: env.reward[value(rng)],
        lambda: env.commandline_to_actions(value(rng)),
        lambda: env.actions_to_commandline(value(rng)),
        lambda: env.apply(compgym.CompilerEnvState(value(rng), value(rng))),
        lambda: env.validate(compgym.CompilerEnvState(value(rng), value(rng), value(rng), value(rng))),
        lambda: env.set_observation_space(value(rng)),
        lambda: setattr(env, "reward_space", value(rng)),
        lambda: compgym.read_states_csv(value(rng)),
        lambda: _core.Space.from_gym_json(description(rng)),
        lambda: _core.Space.from_json(description(rng)),
        lambda: env.observation_space.contains(value(rng)),
        lambda: env.fork().step(value(rng)),
    ]
    outcomes = {"returned": 0, "raised": 0}
    for _ in range(CALLS):
        try:
            rng.choice(calls)()
            outcomes["returned"] += 1
        except Exception:  # noqa: BLE001 - any typed exception is fine; a panic is not an Exception
            outcomes["raised"] += 1
    assert outcomes["returned"] > 0 and outcomes["raised"] > 0, outcomes
    env.set_observation_space("Autophase")
    env.reward_space = "IrInstructionCountOz"
    observation, _ = env.reset(seed=3)
    assert observation in env.observation_space
    env.step("-dce")
