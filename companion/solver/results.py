"""What a search gives and what it may spend: the verdicts, the budgets (:class:`Limits`),
the result (:class:`SolveResult`), the error for a position the solver cannot work on, and how
often a search hands control back to the driver that keeps the budgets (:data:`SLICE`)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from ..errors import CompanionError
from ..rules.engine import Raw

WON, LOST, UNKNOWN_VERDICT = "won", "lost", "unknown"
VERDICTS = (WON, LOST, UNKNOWN_VERDICT)


class SolverError(CompanionError):
    """A position the solver cannot work on (say, cards not seen yet)."""


@dataclass(frozen=True)
class Limits:
    """Budgets of one search; ``None`` means no limit of that kind."""

    seconds: float | None = 10.0
    nodes: int | None = None
    memory_mb: float | None = 1024.0


@dataclass
class SolveResult:
    verdict: str
    """``won``, ``lost`` (proved) or ``unknown`` (a budget ran out)."""
    moves: list[str] = field(default_factory=list)
    """The winning line from the position given, in canonical notation (``won`` only)."""
    nodes: int = 0
    """Positions expanded."""
    states: int = 0
    """Distinct positions (canonical keys) stored."""
    seconds: float = 0.0
    reason: str = ""
    """Why the search stopped, in words."""
    raw: list[Raw] = field(default_factory=list, repr=False)
    stuck: list[tuple[int, int]] = field(default_factory=list, repr=False)
    """``lost`` by cards that can never move: their places (see ``Knowledge.stuck``)."""

    @property
    def resolved(self) -> bool:
        return self.verdict in (WON, LOST)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "moves": self.moves, "length": len(self.moves),
                "nodes": self.nodes, "states": self.states,
                "seconds": round(self.seconds, 4), "reason": self.reason}


# A search, as the portfolio drives it: a generator that yields (positions expanded, positions
# stored) every slice and returns its result.
Search = Generator[tuple[int, int], None, SolveResult]


# Each search hands control back to the driver every SLICE + 1 positions expanded, where the
# budgets are checked: a round of the interleaved searches stays short enough that a search,
# a hint's short samples too, stops near its time budget.
SLICE = 63
