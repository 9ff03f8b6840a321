"""CompilerGym's ``CompilerEnvState`` and its CSV form (the core's reader and writer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from . import _core

__all__ = ["CompilerEnvState", "read_states_csv", "write_states_csv"]

CSV_HEADER = "benchmark,reward,walltime,commandline"


@dataclass(frozen=True)
class CompilerEnvState:
    """An episode: the benchmark and the commandline that reproduce it, its reward and walltime."""

    benchmark: str
    commandline: str
    walltime: float = 0.0
    reward: Optional[float] = None

    def to_csv(self) -> str:
        return _core.state_to_csv(self.benchmark, self.commandline, float(self.walltime), self.reward)

    @staticmethod
    def from_csv(line: str) -> "CompilerEnvState":
        states = read_states_csv(line)
        if len(states) != 1:
            raise ValueError(f"expected one CSV state, got {len(states)}")
        return states[0]

    def __eq__(self, other: object) -> bool:
        """CompilerGym's equality: same benchmark and commandline, rewards within 1e-5; walltime ignored."""
        if not isinstance(other, CompilerEnvState):
            return NotImplemented
        if (self.benchmark, self.commandline) != (other.benchmark, other.commandline):
            return False
        if self.reward is None or other.reward is None:
            return self.reward is other.reward
        return abs(self.reward - other.reward) < 1e-5

    __hash__ = None  # equality is approximate


def read_states_csv(text: str) -> list[CompilerEnvState]:
    """The states of a CSV text (header optional)."""
    return [CompilerEnvState(b, c, w, r) for b, c, w, r in _core.read_states_csv(text)]


def write_states_csv(states: Iterable[CompilerEnvState]) -> str:
    """A CSV text with the header, one state a line."""
    return "\n".join([CSV_HEADER, *(s.to_csv() for s in states)]) + "\n"
