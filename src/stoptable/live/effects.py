"""What comes out of a live table: typed effects, carried out in order by a runner.

The order is the guarantee of protocol.md §5: a change is a :class:`Commit` (stored in a
committed transaction), then the :class:`Ack` of the action that made it, then its
:class:`Publish`; a runner carries out each effect before the next, so nothing is
announced before it is stored. Every effect is a complete value (a publish holds the
state messages as they were at its change), so a runner may carry out a batch after the
machine has moved on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stoptable.core.protocol import JSON, Event

StateMessage = dict[str, JSON]
"""A protocol.md §3 ``state`` message for one seat (or a spectator)."""


@dataclass(frozen=True, slots=True)
class Commit:
    """Append ``lines`` (each with its time) as seq ``first`` on; ``over``: the game
    ended with them. ``events`` and ``live`` go into the same transaction."""

    first: int
    lines: Sequence[tuple[dict[str, JSON], int]]
    over: bool
    events: Sequence[Event] = ()
    """The change's events, as its :class:`Publish` will carry them: stored beside the
    lines, so that ``resume`` after a restart still finds them (protocol.md §9)."""
    live: Mapping[str, JSON] | None = None
    """What the record does not hold and a restart needs (the turn clock, absent seats),
    as it was when the change was made; None for a table without a clock."""


@dataclass(frozen=True, slots=True)
class Ack:
    """The action of ``ticket`` was applied; its own line has seq ``seq``."""

    ticket: int
    seq: int


@dataclass(frozen=True, slots=True)
class Refuse:
    """The action of ``ticket`` changed nothing: ``reason`` (protocol.md §3), the rule
    that forbids it and words for people."""

    ticket: int
    reason: str
    rule: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class Publish:
    """A change from seq ``before`` to ``seq``: its ``events`` (each shown per seat) and
    the new ``state`` of every seat somebody watches (key None: spectators)."""

    before: int
    seq: int
    events: Sequence[Event]
    states: Mapping[int | None, StateMessage]


@dataclass(frozen=True, slots=True)
class Greet:
    """Send ``conn`` its first ``state`` (and join it to its seat's audience)."""

    conn: str
    seat: int | None
    seq: int
    state: StateMessage


@dataclass(frozen=True, slots=True)
class CatchUp:
    """Send ``conn`` the events it missed after ``after`` (if still known), then ``state``."""

    conn: str
    seat: int | None
    after: int
    seq: int
    state: StateMessage


@dataclass(frozen=True, slots=True)
class SetPhase:
    """The table's phase changed (``playing``; ``over`` comes with its last commit)."""

    phase: str


@dataclass(frozen=True, slots=True)
class AskBot:
    """A bot that thinks long (a search: tens to hundreds of ms): run ``think()`` away
    from other work (a worker thread) and feed its answer back as a
    :class:`~stoptable.live.inputs.BotReply` for ``question``. The table takes no other
    step until then."""

    seat: int
    question: int
    think: Callable[[], Any]


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Nothing more is due now; feed a :class:`~stoptable.live.inputs.Tick` at ``t``."""

    t: int


Effect = Commit | Ack | Refuse | Publish | Greet | CatchUp | SetPhase | AskBot | WakeAt
