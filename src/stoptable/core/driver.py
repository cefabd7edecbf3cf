"""Synchronous drivers: who decides next, and how a decision is submitted.

A synchronous driver runs a game without a clock (bots, simulations, the terminal): it takes
the chance steps the state asks for, asks seats in the order of ``state.actors()`` and
applies what they choose. :class:`TurnDriver` does this for a game in which only the seat
to move acts; a game with out-of-turn play (Stop's S-61 offers) provides its own driver
with the same three methods. Every accepted action and every chance outcome is written to
an optional :class:`~stoptable.core.records.RecordWriter`, chance lines first, so the
record replays to the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from stoptable.core.errors import GameTooLong as GameTooLong  # defined with the errors
from stoptable.core.protocol import Event, GameState, StepKind
from stoptable.core.records import RecordWriter


@dataclass(frozen=True, slots=True)
class Decline:
    """Let an offer go by (an interjection or cancel not taken, a call not made).

    Never written to a record and never sent to the engine: records.md §4.4 has no
    ``decline`` line, an offer the record does not take is declined.
    """

    seat: int

    def notation(self) -> str:
        return "decline"

    def __reduce__(self) -> tuple[type[Decline], tuple[int]]:
        """Copies and pickles go through the constructor: compiled, a frozen dataclass
        cannot be filled in after ``__new__`` (architecture.md, rule 21)."""
        return Decline, (self.seat,)


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now, and among what. An ``optional`` decision's ``legal`` ends with a
    :class:`Decline`; the other is the seat to move."""

    seat: int
    legal: list[Any]
    optional: bool = False

    def __reduce__(self) -> tuple[type[Decision], tuple[int, list[Any], bool]]:
        """As :meth:`Decline.__reduce__`."""
        return Decision, (self.seat, self.legal, self.optional)


class SyncDriver(Protocol):
    """What the command line, the terminal apps and simulations use to run a game."""

    state: Any
    writer: RecordWriter | None

    def decision(self) -> Decision | None:
        """The next decision, after taking every chance step due; None once play stops."""
        ...

    def submit(self, action: Any) -> list[Event]:
        """Apply a decision's choice (a :class:`Decline` just lets an offer go)."""
        ...

    def play(self, bots: Sequence[Any], max_actions: int = 100_000) -> int:
        """Let ``bots`` (one per seat) play until :meth:`decision` is None; actions taken."""
        ...


def write_lines(writer: RecordWriter | None, events: Sequence[Event]) -> None:
    """Write the record lines that chance events carry (a roll, a shuffle order)."""
    if writer is not None:
        for event in events:
            if event.line is not None:
                writer.add(dict(event.line))


@dataclass
class TurnDriver:
    """The synchronous driver of a game without out-of-turn play (Stop & Go).

    Chance steps are drawn from the state's own seed and written as chance lines;
    a WINDOW or TIMER step cannot occur in such a game and is a programming error.
    """

    state: GameState
    writer: RecordWriter | None = None
    actions: int = 0
    events: list[Event] = field(default_factory=list)
    keep_events: bool = False

    def _steps(self) -> None:
        st = self.state
        step = st.next_step()
        while step is not None:
            if step.kind is not StepKind.CHANCE:
                raise RuntimeError(f"{type(self).__name__} cannot take a {step.kind.value} step")
            events = st.run_step(step)
            write_lines(self.writer, events)
            if self.keep_events:
                self.events.extend(events)
            step = st.next_step()

    def __reduce__(self) -> tuple[type[TurnDriver], tuple[Any, ...]]:
        """As :meth:`Decline.__reduce__`: compiled, a native class is made only through
        its ``__init__``."""
        return TurnDriver, (self.state, self.writer, self.actions, self.events, self.keep_events)

    def decision(self) -> Decision | None:
        st = self.state
        if st.result() is not None:
            return None
        self._steps()
        seat = st.to_move()
        if seat is None:
            return None
        return Decision(seat, st.legal_actions(seat))

    def submit(self, action: Any) -> list[Event]:
        if isinstance(action, Decline):
            return []
        events = self.state.apply(action)
        write_lines(self.writer, events)
        if self.writer is not None:
            self.writer.add(action.to_json())
        if self.keep_events:
            self.events.extend(events)
        self.actions += 1
        return events

    def play(self, bots: Sequence[Any], max_actions: int = 100_000) -> int:
        start = self.actions
        while (decision := self.decision()) is not None:
            if self.actions - start >= max_actions:
                raise GameTooLong(f"no end after {max_actions} actions")
            bot = bots[decision.seat]
            self.submit(bot.act(self.state.view(decision.seat), decision.legal))
        return self.actions - start
