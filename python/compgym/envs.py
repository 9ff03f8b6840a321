"""compgym's compiler environments as ``gymnasium.Env``.

:class:`CompilerGymEnv` is Gymnasium's face of a registered environment
(``bril-autophase-ic-v0``...) with CompilerGym's API on the same object, so
``env.unwrapped`` answers ``fork``, ``multistep``, ``validate``, ``state``,
``commandline``, ``observation["Autophase"]``, ``reward["IrInstructionCount"]``,
``datasets`` and ``benchmark`` under CompilerGym's names. Seeding, the seeded
action space and the benchmark draws are the core's, so a seed gives the
same episode here, in JS and natively.

An environment pickles as the arguments that made it: the copy is a fresh
environment of the same id and options (as Gymnasium's vector environments
rebuild theirs from the spec), not the episode in progress; use ``fork()``
for that.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import gymnasium
from gymnasium import spaces

from . import _core
from .spaces import CompilerDiscrete, conform, from_core
from .state import CompilerEnvState

__all__ = ["CompilerGymEnv", "ObservationView", "RewardView", "Datasets", "Dataset"]

def _log1p(x: np.ndarray) -> np.ndarray:
    """compgym's log-scaling of counts, ``sign(x) ln(1 + |x|)``, as the JS face's mlReady."""
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.log1p(np.abs(x))


class ObservationView:
    """``env.observation["Autophase"]``: any observation, computed when asked."""

    def __init__(self, env: "CompilerGymEnv"):
        self._env = env

    def __getitem__(self, id: str) -> Any:
        value = self._env._core.observation(id)
        return conform(self.spaces[id], value) if id in self.spaces else value

    @property
    def spaces(self) -> dict[str, spaces.Space]:
        if self._env._observation_spaces is None:
            core = self._env._core
            self._env._observation_spaces = {i: from_core(core.observation_space_of(i)) for i in core.observation_space_ids()}
        return self._env._observation_spaces

    def keys(self) -> list[str]:
        return self._env._core.observation_space_ids()


class RewardView:
    """``env.reward["IrInstructionCountOz"]``: any reward of the last step, computed when asked."""

    def __init__(self, env: "CompilerGymEnv"):
        self._env = env

    def __getitem__(self, name: str) -> float:
        return self._env._core.reward(name)

    def keys(self) -> list[str]:
        return self._env._core.reward_space_names()


class Dataset:
    """One dataset: its name, description, size (None when unbounded) and benchmark URIs."""

    def __init__(self, env: "CompilerGymEnv", name: str, description: str, size: int | None):
        self._env, self.name, self.description, self.size = env, name, description, size

    def benchmark_uris(self) -> Iterable[str]:
        """Every benchmark's URI (an unbounded dataset's go on for ever)."""
        index = 0
        while (uri := self._env._core.benchmark_uri(self.name, index)) is not None:
            yield uri
            index += 1

    def __len__(self) -> int:
        if self.size is None:
            raise TypeError(f"{self.name} is unbounded")
        return self.size

    def __repr__(self) -> str:
        return f"Dataset({self.name!r}, size={self.size})"


class Datasets:
    """``env.datasets``: the datasets by name, in order."""

    def __init__(self, env: "CompilerGymEnv"):
        self._env = env

    def _all(self) -> list[Dataset]:
        return [Dataset(self._env, *d) for d in self._env._core.datasets()]

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, name: str) -> Dataset:
        for d in self._all():
            if d.name == name or d.name.split("://", 1)[-1] == name:
                return d
        raise LookupError(f"unknown dataset {name!r}")

    def benchmark_uris(self) -> Iterable[str]:
        for d in self._all():
            yield from d.benchmark_uris()


class CompilerGymEnv(gymnasium.Env):
    """A registered compiler environment with Gymnasium's API.

    ``env_id`` is the core's id (``"bril-autophase-ic-v0"``); options:
    ``benchmark``, ``observation_space`` and ``reward_space`` (a name, or
    None for none), ``action_space``, ``dataset`` (every reset draws its
    benchmark from it with ``np_random``), ``render_mode`` (``"ansi"``), and
    ``ml_ready`` (observations as float32, counts log-scaled, as the JS
    face's ``mlReady``). Infos carry ``action_mask`` (int8, 1 for an action
    that may change the program) and ``benchmark`` (reset) or
    ``action_had_no_effect`` (step).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": None}

    def __init__(self, env_id: str = "bril-v0", *, ml_ready: bool = False, **options: Any):
        if not isinstance(ml_ready, bool):
            raise TypeError(f"ml_ready must be a bool, got {type(ml_ready).__name__}")
        self._args = (env_id, ml_ready, dict(options))
        self._core = _core.GymEnv(env_id, **options)
        self._ml_ready = ml_ready
        self.render_mode = options.get("render_mode")
        self._observation_spaces: dict | None = None
        self._generation = -1
        self._observation_id = None
        self._sync_spaces()
        self.observation = ObservationView(self)
        self.reward = RewardView(self)
        self.datasets = Datasets(self)

    # ---- Gymnasium's API ---------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
            if seed < 0:
                raise ValueError(f"seed must be non-negative, got {seed}")
            seed = int(seed)
            # Gymnasium's own generator, for the wrappers and checkers that use it.
            super().reset(seed=seed)
        observation, info = self._core.reset(seed, options)
        self._sync_spaces()
        return self._observe(observation), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        observation, reward, terminated, truncated, info = self._core.step(action)
        if info["new_action_space"] or self._core.observation_space_id() != self._observation_id:
            self._sync_spaces()
        return self._observe(observation), reward, terminated, truncated, info

    def render(self) -> str | None:
        return self._core.render()

    def close(self) -> None:
        self._core.close()

    @property
    def np_random_seed(self) -> int:
        seed = self._core.np_random_seed()
        return -1 if seed is None else seed

    @property
    def reward_range(self) -> tuple[float, float]:
        return self._core.reward_range()

    def _sync_spaces(self) -> None:
        """Takes the core's action space when a reset reseeded or the compiler replaced it."""
        generation = self._core.action_space_generation()
        if generation != self._generation:
            core = self._core.action_space()
            current = getattr(self, "action_space", None)
            if isinstance(current, CompilerDiscrete) and current._core_space == core:
                current._core_space = core  # same space, reseeded: keep the object
            else:
                self.action_space = from_core(core)
            self._generation = generation
        observation_id = self._core.observation_space_id()
        if observation_id != self._observation_id:
            self._observation_id = observation_id
            # The environment's own choice: the face adopts it at the next step.
            core = self._core.observation_space_of(observation_id) if observation_id else self._core.observation_space()
            space = from_core(core)
            self._raw_observation_space = space
            self.observation_space = self._ml_space(space) if self._ml_ready else space

    def _ml_space(self, space: spaces.Space) -> spaces.Box:
        if not isinstance(space, spaces.Box):
            raise TypeError(f"ml_ready needs an array observation, this one is {type(space).__name__}")
        low, high = space.low.astype(np.float64), space.high.astype(np.float64)
        if np.issubdtype(space.dtype, np.integer):
            low, high = _log1p(low), _log1p(high)
            self._ml_log = True
        else:
            self._ml_log = False
        return spaces.Box(low.astype(np.float32), high.astype(np.float32), space.shape, np.float32)

    def _observe(self, value: Any) -> Any:
        if not self._ml_ready:
            return conform(self._raw_observation_space, value)
        x = np.asarray(value)
        return (_log1p(x) if self._ml_log else x).astype(np.float32)

    # ---- CompilerGym's API -------------------------------------------------

    @property
    def benchmark(self) -> str | None:
        return self._core.benchmark

    @benchmark.setter
    def benchmark(self, uri: str) -> None:
        """The benchmark of the next reset (as CompilerGym's setter)."""
        self._core.set_benchmark(uri)

    @property
    def actions(self) -> list:
        return self._core.actions

    @property
    def episode_reward(self) -> float | None:
        return self._core.episode_reward

    @property
    def episode_walltime(self) -> float:
        return self._core.episode_walltime

    @property
    def in_episode(self) -> bool:
        return self._core.in_episode

    @property
    def compiler_version(self) -> str:
        return self._core.compiler_version()

    @property
    def action_spaces(self) -> list[str]:
        return self._core.action_space_names()

    @property
    def reward_space(self) -> str | None:
        """The name of the reward ``step`` returns; set it to a name or None."""
        return self._core.reward_space_name()

    @reward_space.setter
    def reward_space(self, name: str | None) -> None:
        self._core.set_reward_space(name)

    def set_observation_space(self, id: str | None) -> None:
        """Chooses the observation ``step`` returns (None for none)."""
        self._core.set_observation_space(id)
        self._sync_spaces()

    def multistep(
        self,
        actions: Iterable[Any],
        observation_spaces: list[str] | None = None,
        reward_spaces: list[str] | None = None,
    ) -> tuple[Any, Any, bool, bool, dict]:
        """Applies the actions in one call, observing and rewarding at the end."""
        observation, reward, terminated, truncated, info = self._core.multistep(
            list(actions), observation_spaces, reward_spaces
        )
        if observation_spaces is None and observation is not None:
            observation = self._observe(observation)
        return observation, reward, terminated, truncated, info

    def commandline(self) -> str:
        return self._core.commandline()

    def commandline_to_actions(self, commandline: str) -> list[int]:
        return self._core.commandline_to_actions(commandline)

    def actions_to_commandline(self, actions: Iterable[Any]) -> str:
        return self._core.actions_to_commandline(list(actions))

    @property
    def state(self) -> CompilerEnvState:
        return CompilerEnvState(**self._core.state())

    def apply(self, state: CompilerEnvState) -> None:
        """Resets to the state's benchmark and replays its commandline."""
        self._core.apply(state.benchmark, state.commandline)

    def validate(self, state: CompilerEnvState | None = None) -> dict:
        """Replays a state (default: this episode's) on a fresh session; a dict
        after CompilerGym's ``ValidationResult`` with ``okay``."""
        as_tuple = None if state is None else (state.benchmark, state.commandline, state.walltime, state.reward)
        result = self._core.validate(as_tuple)
        result["state"] = CompilerEnvState(**result["state"])
        result["okay"] = not result["errors"]
        return result

    def action_mask(self) -> np.ndarray | None:
        mask = self._core.action_mask()
        return None if mask is None else np.array(mask[0], dtype=np.int8)

    def fork(self) -> "CompilerGymEnv":
        """A copy in the same state on its own session, with copies of the generators."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy._core = self._core.fork()
        copy._generation = -1
        copy.observation, copy.reward, copy.datasets = ObservationView(copy), RewardView(copy), Datasets(copy)
        old = self.action_space
        copy._sync_spaces()
        if isinstance(old, CompilerDiscrete) and isinstance(copy.action_space, CompilerDiscrete):
            copy.action_space = CompilerDiscrete(old._core_space.__copy__(), int(old.n), int(old.start))
        return copy

    # ---- pickling: rebuilt from the arguments ------------------------------

    def __reduce__(self):
        env_id, ml_ready, options = self._args
        return (_rebuild, (env_id, ml_ready, options))


def _rebuild(env_id: str, ml_ready: bool, options: dict) -> CompilerGymEnv:
    return CompilerGymEnv(env_id, ml_ready=ml_ready, **options)
