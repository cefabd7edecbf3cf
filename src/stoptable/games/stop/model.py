"""Small pieces of Stop state: the pending effect and the ja call obligations (S-57).

``Pending`` is immutable (a new one replaces the old), ``Obligation`` is mutable but
copied by :meth:`StopState.copy`; both know their records.md §4.5 JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from stoptable.core.protocol import JSON
from stoptable.games.stop.cards import COLOURS, Card
from stoptable.games.stop.ruleset import Ruleset

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


class RuleFlags:
    """The options the engine reads on (nearly) every action, copied from its
    :class:`.ruleset.Ruleset` once a game.

    The rulesets stay interpreted (docs/architecture.md, rule 5), so compiled code reads
    their fields through Python's generic attribute lookup (about 200 instructions each, a
    few an action); this compiled class's typed attributes are native reads. Interpreted
    both cost the same. Never mutated: copies of a state share it.
    """

    __slots__ = (
        "achtung_trigger",
        "interject_on_starter",
        "play_drawn_card",
        "reshuffle_keep_top",
        "stall_actions",
        "voluntary_draw",
    )

    def __init__(self, rules: Ruleset) -> None:
        self.achtung_trigger: str = rules.achtung_trigger
        self.interject_on_starter: bool = rules.interject_on_starter
        self.play_drawn_card: bool = rules.play_drawn_card
        self.reshuffle_keep_top: bool = rules.reshuffle_keep_top
        self.stall_actions: int = rules.stall_actions
        self.voluntary_draw: bool = rules.voluntary_draw
