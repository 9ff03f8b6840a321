"""compgym: compiler optimisation as a reinforcement-learning environment.

``import compgym`` registers every environment id with Gymnasium under the
``compgym/`` namespace::

    import gymnasium
    import compgym

    env = gymnasium.make("compgym/bril-autophase-ic-v0")

``compgym.make(id)`` is CompilerGym's ``make``: the environment itself, no
wrappers, so a CompilerGym script changes its import and little else.
"""

from __future__ import annotations

import gymnasium

from . import _core
from ._core import (
    BenchmarkInitError,
    LimitError,
    ParseError,
    ServiceError,
    SessionNotFound,
    VerifyError,
)
from .envs import CompilerGymEnv
from .spaces import CompilerDiscrete, CoreSpace
from .state import CompilerEnvState, read_states_csv, write_states_csv

__version__ = _core.__version__
NAMESPACE = "compgym"

__all__ = [
    "BenchmarkInitError",
    "CompilerDiscrete",
    "CompilerEnvState",
    "CompilerGymEnv",
    "CoreSpace",
    "LimitError",
    "ParseError",
    "ServiceError",
    "SessionNotFound",
    "VerifyError",
    "make",
    "read_states_csv",
    "registered_ids",
    "write_states_csv",
]


def registered_ids() -> list[str]:
    """The core's environment ids (``bril-v0``, ``bril-ic-v0``...), sorted."""
    return _core.registered_ids()


def make(env_id: str, **options) -> CompilerGymEnv:
    """CompilerGym's ``make``: the environment ``env_id`` (with or without the
    ``compgym/`` prefix), unwrapped. Options as :class:`CompilerGymEnv`'s."""
    if not isinstance(env_id, str):
        raise TypeError(f"env_id must be a str, got {type(env_id).__name__}")
    return CompilerGymEnv(env_id.removeprefix(f"{NAMESPACE}/"), **options)


def _register() -> None:
    for env_id in registered_ids():
        gym_id = f"{NAMESPACE}/{env_id}"
        if gym_id not in gymnasium.registry:
            gymnasium.register(gym_id, entry_point="compgym.envs:CompilerGymEnv", kwargs={"env_id": env_id})


_register()
