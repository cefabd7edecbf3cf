"""The core protocol: one shape for every game.

A game is a module that exposes a ``new(...)`` constructor and a mutable state class that
satisfies :class:`GameState`. The choice made once for all games: ``apply`` *validates
first, then mutates the state in place*; an :class:`~stoptable.core.errors.IllegalAction`
is raised before anything changed, so a rejected action leaves the state exactly as it was.

Views, events and actions are plain data that serialise to JSON, so every front end (the
terminal, the server, bots, the research API) reads a game the same way and only through
per-seat views.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, runtime_checkable

JSON: TypeAlias = Any
"""A value made of dict, list, str, int, float, bool and None only."""


class Termination(enum.Enum):
    """Why a game ended."""

    TARGET_SCORE = "target_score"
    """A match score threshold was reached (Stop)."""
    SUPPLY_EMPTY = "supply_empty"
    """Stop it!: the minus supply ran out."""
    STACKS_EXHAUSTED = "stacks_exhausted"
    """Stop it!: every stack is empty."""
    ALL_COLLECTED = "all_collected"
    """Stop & Go: the last destination was collected."""
    ROUND_END = "round_end"
    """A single round was played on its own and ended."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``scores`` are in the game's own unit (minus points for Stop and Stop it!, cards or
    destination sums for Stop & Go); ``winners`` are the seats that share first place and
    ``ranks[i]`` is seat i's 1-based place (ties share a place).
    """

    termination: Termination
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]

    @staticmethod
    def ranked(termination: Termination, scores: Sequence[int], lower_is_better: bool) -> Outcome:
        """Build an outcome from scores, ranking with shared places for ties.

        >>> Outcome.ranked(Termination.TARGET_SCORE, [30, 10, 10], True).ranks
        (3, 1, 1)
        """
        sign = 1 if lower_is_better else -1
        keys = [sign * s for s in scores]
        best = min(keys)
        ranks = tuple(1 + sum(1 for other in keys if other < k) for k in keys)
        winners = tuple(i for i, k in enumerate(keys) if k == best)
        return Outcome(termination, tuple(scores), winners, ranks)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as a public log line plus what only one seat may see.

    ``public`` is shown to everybody; ``private`` (if any) only to ``seat``. For example a
    Stop draw has ``public={"kind": "draw", "count": 1}`` and ``private={"cards": ["B4"]}``.
    """

    kind: str
    seat: int | None = None
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[str, JSON] | None = None

    def for_seat(self, seat: int | None) -> dict[str, JSON]:
        """The event as the given seat (None: a spectator) may see it."""
        data: dict[str, JSON] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(self.public)
        if self.private is not None and seat is not None and seat == self.seat:
            data.update(self.private)
        return data


@runtime_checkable
class Action(Protocol):
    """An action a seat submits. Every game's actions are frozen dataclasses with these."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, JSON]:
        """The action line of ``rules/records.md``."""
        ...

    def notation(self) -> str:
        """The compact text form for people (``play R4 achtung``)."""
        ...


@runtime_checkable
class GameState(Protocol):
    """What every game's state offers to drivers, bots and front ends."""

    @property
    def seats(self) -> int: ...

    def legal_actions(self, seat: int) -> list[Any]:
        """Every action ``seat`` may submit now, on turn or not."""
        ...

    def apply(self, action: Any) -> list[Event]:
        """Validate, then apply ``action``; if illegal, raise IllegalAction and change nothing."""
        ...

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may know (None: a spectator), as plain JSON data."""
        ...

    def result(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The full state in the ``stoptable replay --json`` schema (never sent to clients)."""
        ...
