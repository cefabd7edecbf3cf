"""Small pieces of Stop state: the pending effect and the ja call obligations (S-57).

``Pending`` is immutable (a new one replaces the old), ``Obligation`` is mutable but
copied by :meth:`StopState.copy`; both know their records.md §4.5 JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from stoptable.core.protocol import JSON
from stoptable.games.stop.cards import COLOURS, Card

PendingKind = Literal["draw2", "skip", "drawx", "exchange"]

PHASES: Final = ("playing", "closing", "round_over", "game_over")


@dataclass(frozen=True, slots=True)
class Pending:
    """A pending effect: ``victim`` for a Draw Two, Skip or Draw X, ``exchanger`` (and
    ``mode``, ``target``) for a Card Exchange; the other is None."""

    kind: PendingKind
    colour: int
    victim: int | None = None
    count: int = 0
    exchanger: int | None = None
    mode: str | None = None
    target: int | None = None
    flagged: bool = False
    """Exchange only: the exchanger's placement carried ``achtung`` (S-26, ja)."""

    def to_json(self) -> dict[str, JSON]:
        colour = COLOURS[self.colour] if self.colour >= 0 else None
        if self.kind == "exchange":
            return {
                "kind": "exchange",
                "exchanger": self.exchanger,
                "mode": self.mode,
                "target": self.target,
                "colour": colour,
            }
        if self.kind == "drawx":
            return {"kind": "drawx", "victim": self.victim, "colour": colour}
        return {"kind": self.kind, "count": self.count, "victim": self.victim, "colour": colour}


@dataclass(slots=True, eq=False)
class Obligation:
    """An open ja obligation (S-26, S-28).

    ``placed`` counts cards placed by anyone since it arose. A ``late_stop`` keeps in
    ``back`` the (placer, card) pairs placed since its holder's last card, so that a late
    Stop can give them back (S-28).
    """

    seat: int
    kind: Literal["achtung", "late_stop"]
    placed: int = 0
    back: list[tuple[int, Card]] = field(default_factory=list)

    def copy(self) -> Obligation:
        return Obligation(self.seat, self.kind, self.placed, self.back[:])

    def sort_key(self) -> tuple[int, int]:
        return (self.seat, 0 if self.kind == "achtung" else 1)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "kind": self.kind, "placed": self.placed}
