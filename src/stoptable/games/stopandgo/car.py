"""A car (stop-and-go.md §0) and the error of a refused path (records.md §6.4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stoptable.core.errors import IllegalAction
from stoptable.games.stopandgo.board import NO_SPACE
from stoptable.games.stopandgo.paths import RULE_OF


class MoveRejected(IllegalAction):
    """A refused path: ``reason`` is ``reasons[0]``; ``reasons`` lists every code broken."""

    def __init__(self, reasons: list[str], message: str) -> None:
        self.reasons = reasons
        super().__init__(reasons[0], RULE_OF[reasons[0]], message)

    def to_json(self) -> dict[str, Any]:
        """``reason``, ``rule``, ``message`` and ``reasons`` (records.md §6.4)."""
        return {**super().to_json(), "reasons": list(self.reasons)}


@dataclass(slots=True)
class Car:
    """One car (stop-and-go.md §0); ``prev`` is NO_SPACE while null."""

    pos: int
    prev: int = NO_SPACE
    reverse_ok: bool = False
    tickets: int = 0
    missed_turns: int = 0
    collected: list[int] = field(default_factory=list)

    def copy(self) -> Car:
        """An independent copy (``collected`` is a new list)."""
        return Car(
            self.pos, self.prev, self.reverse_ok, self.tickets, self.missed_turns,
            list(self.collected),
        )  # fmt: skip
