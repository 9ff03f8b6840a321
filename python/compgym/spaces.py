"""The core's spaces as ``gymnasium.spaces``.

Every kind Gymnasium has (Box, Discrete, MultiDiscrete, MultiBinary, Text,
Dict, Tuple, Sequence, Graph, OneOf) becomes that Gymnasium space, from the
core's Gymnasium description. A Discrete space keeps the core space beside it
and samples with the core's generator, so ``env.action_space.sample()``
after ``env.reset(seed=s)`` gives the same actions as the JS and native
faces. Kinds Gymnasium lacks (CompilerGym's ``Sequence`` of str or bytes,
such as the ``Ir`` text, ``Permutation``, ``DynamicBox``, batched spaces)
become :class:`CoreSpace`, a documented custom space that samples and checks
membership with the core.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

import numpy as np
from gymnasium import spaces

from . import _core

__all__ = ["CompilerDiscrete", "CoreSpace", "from_core", "conform"]


def _number(x: Any) -> Any:
    """A JSON bound: numbers as they are, "inf"/"-inf" as floats, nested lists kept."""
    if isinstance(x, list):
        return [_number(v) for v in x]
    if isinstance(x, str):
        return float(x)
    return x


class CompilerDiscrete(spaces.Discrete):
    """Gymnasium's Discrete, sampling with the core's generator.

    ``seed(s)`` seeds both the core space and Gymnasium's ``np_random``;
    ``sample()`` draws from the core (the same bits on every face), and
    ``sample(mask=...)`` or ``sample(probability=...)`` from Gymnasium's
    generator. Copies and pickles are plain ``Discrete`` spaces of the same
    ``n`` and ``start``: the core generator stays with the environment.
    """

    def __init__(self, core: _core.Space, n: int, start: int = 0):
        super().__init__(n, start=start)
        self._core_space = core

    def seed(self, seed: int | None = None) -> int | list[int] | dict[str, int]:
        seeds = super().seed(seed)
        if seed is not None:
            self._core_space.seed(int(seed))
        else:
            self._core_space.seed(int(self.np_random.integers(2**63)))
        return seeds

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        return np.int64(self._core_space.sample())

    def __reduce__(self):
        return (spaces.Discrete, (int(self.n), int(self.start)))

    def __deepcopy__(self, memo):
        copy = spaces.Discrete(int(self.n), start=int(self.start))
        copy.np_random.bit_generator.state = self.np_random.bit_generator.state
        return copy


class CoreSpace(spaces.Space):
    """A core space Gymnasium has no class for, e.g. the ``Ir`` text
    (CompilerGym's ``Sequence`` of str). ``contains`` and ``sample`` are the
    core's; ``description`` is the core's JSON description. It is not
    flattenable, and samples are Python values (str, bytes, lists).
    """

    def __init__(self, core: _core.Space):
        super().__init__(shape=None, dtype=None)
        self._core_space = core
        self.description = json.loads(core.to_json())

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: int | None = None) -> int:
        seeds = super().seed(seed)
        self._core_space.seed(int(seed) if seed is not None else int(self.np_random.integers(2**63)))
        return seeds

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is not None or probability is not None:
            raise TypeError(f"{self.description['type']} spaces take no mask or probability")
        return self._core_space.sample()

    def contains(self, x: Any) -> bool:
        return self._core_space.contains(x)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, CoreSpace) and self._core_space == other._core_space

    def __repr__(self) -> str:
        return f"CoreSpace({self.description['type']}, name={self.description.get('name')!r})"

    def __reduce__(self):
        return (_from_description, (self._core_space.to_json(),))


def _from_description(description: str) -> CoreSpace:
    return CoreSpace(_core.Space.from_json(description))


def _bound(x: Any, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """A Box bound as an array of the Box's dtype: integer bounds exactly
    (int64 limits do not survive a float), infinities at the dtype's limits,
    as the core keeps them. (Gymnasium's own sampling of such a Box
    overflows; the core's does not.)"""
    values = np.broadcast_to(np.array(_number(x), dtype=object), shape)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        clamp = lambda v: info.max if v == float("inf") else info.min if v == float("-inf") else int(v)  # noqa: E731
        return np.vectorize(clamp, otypes=[object])(values).astype(dtype) if values.size else values.astype(dtype)
    return values.astype(np.float64).astype(dtype)


def _from_gym(d: dict) -> spaces.Space:
    kind = d["type"]
    if kind == "Box":
        shape, dtype = tuple(d["shape"]), np.dtype(d["dtype"])
        return spaces.Box(_bound(d["low"], shape, dtype), _bound(d["high"], shape, dtype), shape, dtype)
    if kind == "Discrete":
        return spaces.Discrete(d["n"], start=d.get("start", 0))
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete(np.array(d["nvec"]), dtype=d.get("dtype", "int64"), start=np.array(d["start"]))
    if kind == "MultiBinary":
        return spaces.MultiBinary(d["n"])
    if kind == "Text":
        return spaces.Text(max_length=d["max_length"], min_length=d.get("min_length", 1), charset=d["charset"])
    if kind == "Dict":
        return spaces.Dict(OrderedDict((k, _from_gym(v)) for k, v in d["spaces"].items()))
    if kind == "Tuple":
        return spaces.Tuple([_from_gym(s) for s in d["spaces"]])
    if kind == "Sequence":
        return spaces.Sequence(_from_gym(d["feature_space"]), stack=d.get("stack", False))
    if kind == "Graph":
        edge = d.get("edge_space")
        return spaces.Graph(_from_gym(d["node_space"]), _from_gym(edge) if edge else None)
    if kind == "OneOf":
        return spaces.OneOf([_from_gym(s) for s in d["spaces"]])
    raise TypeError(f"no Gymnasium space for {kind!r}")


def from_core(core: _core.Space) -> spaces.Space:
    """The Gymnasium space of a core space (see the module docs)."""
    try:
        description = json.loads(core.gym_json())
    except TypeError:
        return CoreSpace(core)
    if description["type"] == "Discrete":
        return CompilerDiscrete(core, description["n"], description.get("start", 0))
    return _from_gym(description)


def conform(space: spaces.Space, value: Any) -> Any:
    """A core value as Gymnasium's space holds it: numpy arrays of the
    space's dtype for Box, MultiDiscrete and MultiBinary; ``np.int64`` for
    Discrete; tuples for Tuple; dicts in the space's key order."""
    if isinstance(space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
        return np.asarray(value, dtype=space.dtype).reshape(space.shape)
    if isinstance(space, spaces.Discrete):
        return np.int64(value)
    if isinstance(space, spaces.Dict):
        return {k: conform(s, value[k]) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(conform(s, v) for s, v in zip(space.spaces, value))
    return value
