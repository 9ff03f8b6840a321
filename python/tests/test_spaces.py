"""Every kind of core space becomes its Gymnasium space, and the core's
samples, conformed, are members of it."""

import json

import numpy as np
import pytest
from gymnasium import spaces

import compgym
from compgym import _core
from compgym.spaces import conform, from_core

BOX = {"type": "Box", "low": -1.0, "high": 2.0, "shape": [2, 3], "dtype": "float32"}
INT_BOX = {"type": "Box", "low": 0, "high": "inf", "shape": [4], "dtype": "int64"}
DESCRIPTIONS = {
    "Box": (BOX, spaces.Box),
    "int Box": (INT_BOX, spaces.Box),
    "Discrete": ({"type": "Discrete", "n": 5, "start": -2}, spaces.Discrete),
    "MultiDiscrete": ({"type": "MultiDiscrete", "nvec": [[2, 3], [4, 5]]}, spaces.MultiDiscrete),
    "MultiBinary": ({"type": "MultiBinary", "n": [2, 2]}, spaces.MultiBinary),
    "Text": ({"type": "Text", "max_length": 8, "min_length": 1, "charset": "ab"}, spaces.Text),
    "Dict": ({"type": "Dict", "spaces": {"b": BOX, "a": {"type": "Discrete", "n": 3}}}, spaces.Dict),
    "Tuple": ({"type": "Tuple", "spaces": [BOX, {"type": "Discrete", "n": 3}]}, spaces.Tuple),
    "Sequence": ({"type": "Sequence", "feature_space": {"type": "Discrete", "n": 3}}, spaces.Sequence),
    "Graph": (
        {"type": "Graph", "node_space": BOX | {"shape": [3]}, "edge_space": {"type": "Box", "low": 0, "high": 1, "shape": [1], "dtype": "float32"}},
        spaces.Graph,
    ),
    "OneOf": ({"type": "OneOf", "spaces": [BOX, {"type": "Discrete", "n": 3}]}, spaces.OneOf),
}


@pytest.mark.parametrize("name", DESCRIPTIONS)
def test_each_kind_becomes_its_gymnasium_space(name):
    description, kind = DESCRIPTIONS[name]
    core = _core.Space.from_gym_json(json.dumps(description))
    space = from_core(core)
    assert isinstance(space, kind)
    core.seed(0)
    for _ in range(5):
        sample = core.sample()
        assert core.contains(sample)
        if name not in ("Sequence", "Graph", "OneOf"):
            assert space.contains(conform(space, sample)), (sample, space)
    if name != "int Box":  # Gymnasium's Box.sample overflows on a bound at int64's limit
        space.seed(1)
        assert space.contains(space.sample())


def test_kinds_gymnasium_lacks_are_core_spaces():
    env = compgym.make("bril-v0")
    ir = env.observation.spaces["Ir"]
    assert isinstance(ir, compgym.CoreSpace) and ir.description["type"] == "Sequence"
    ir.seed(3)
    first = ir.sample()
    ir.seed(3)
    assert ir.sample() == first and isinstance(first, str)
    assert not ir.is_np_flattenable


def test_discrete_samples_are_the_cores():
    core = _core.Space.from_gym_json('{"type": "Discrete", "n": 124}')
    space = from_core(core)
    space.seed(42)
    twin = _core.Space.from_gym_json('{"type": "Discrete", "n": 124}')
    twin.seed(42)
    assert [int(space.sample()) for _ in range(10)] == [twin.sample() for _ in range(10)]
    assert isinstance(space.sample(), np.int64)


def test_bad_descriptions_raise_typed_errors():
    with pytest.raises(compgym.ParseError):
        _core.Space.from_gym_json("{")
    with pytest.raises((ValueError, TypeError, LookupError)):
        _core.Space.from_gym_json('{"type": "Nope"}')
    with pytest.raises((ValueError, TypeError)):
        _core.Space.from_gym_json('{"type": "Discrete", "n": -3}')
