"""The die as the state's chance step (stop-and-go.md G-5, records.md §3, §6.2).

:class:`ChanceMixin` is the chance half of :class:`~stoptable.games.stopandgo.state.
StopGoState`: the state asks its driver for ``Step(CHANCE, "roll", seat=turn)`` while the
seat on turn has not thrown, as OpenSpiel's chance nodes do, and the roll event carries
its record line, so a driver that writes records writes every roll as it happens.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import (
    COMPILED,
    JSON,
    Event,
    Step,
    StepKind,
    compiled_event,
    compiled_line_event,
    new_event,
    new_line_event,
)
from stoptable.core.rng import Rng
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.ruleset import Ruleset

ROLL_LINES: Final[dict[int, Mapping[str, JSON]]] = {
    v: MappingProxyType({"chance": "roll", "value": v}) for v in range(1, 7)
}
"""The record line of each roll (records.md §2.2), made once: read-only, shared by events."""


class ChanceMixin:
    """The roll of the state it is mixed into (set up by ``StopGoState.__init__``)."""

    game_map: StopGoMap
    ruleset: Ruleset
    rng: Rng
    dial: int
    turn: int
    rolled: int | None
    over: bool
    _version: int
    _roll_steps: tuple[Step, ...]
    _turns_dial: tuple[bool, ...]
    """Per die value (index 0 unused): whether it turns the dial (the ruleset's
    ``dial_advance_on``, read once a game: compiled, the interpreted ruleset's fields are
    generic lookups)."""

    @property
    def needs_roll(self) -> bool:
        """Whether the seat on turn must throw the die before it can move."""
        return not self.over and self.rolled is None

    def next_step(self) -> Step | None:
        """``Step(CHANCE, "roll", seat=turn)`` while the seat on turn has not thrown, else
        None (records.md §3: the roll is the one implicit step of Stop & Go)."""
        if self.over or self.rolled is not None:
            return None
        return self._roll_steps[self.turn]

    def run_step(self, step: Step, outcome: JSON = None) -> list[Event]:
        """Throw the die of ``step`` (from :meth:`next_step`): from the seed, or ``outcome``
        (1-6) when a record or a test gives it. Its first event carries the record line."""
        if step is not self._roll_steps[self.turn]:  # the step next_step gave: checked once
            if step.kind is not StepKind.CHANCE or step.name != "roll":
                raise ValueError(f"Stop & Go has no {step.kind.value} step {step.name!r}")
            if step.seat is not None and step.seat != self.turn and not self.over:
                raise ValueError(f"the roll step is seat {self.turn}'s, not seat {step.seat}'s")
        if outcome is None:
            if self.over or self.rolled is not None:
                self._check_can_roll()
            return self._use_roll(self.rng.randint(1, 6))
        if not isinstance(outcome, int) or isinstance(outcome, bool):
            raise ValueError(f"a roll outcome is an integer 1-6, not {outcome!r}")
        return self.apply_roll(outcome)

    def to_move(self) -> int | None:
        """The seat on turn once it has thrown; None while the roll is pending or when over."""
        if self.over or self.rolled is None:
            return None
        return self.turn

    def actors(self) -> list[int]:
        """``[to_move()]``, or ``[]`` when no seat may act (over, or the roll pending):
        Stop & Go has no out-of-turn play."""
        seat = self.to_move()
        return [] if seat is None else [seat]

    def roll(self) -> list[Event]:
        """Throw the die for the seat on turn with the state's own generator (G-5).

        Drivers take the roll through :meth:`next_step` / :meth:`run_step`; this is what
        :meth:`run_step` does when no outcome is given.
        """
        if self.over or self.rolled is not None:
            self._check_can_roll()
        return self._use_roll(self.rng.randint(1, 6))

    def apply_roll(self, value: int) -> list[Event]:
        """Use ``value`` as this turn's throw; on 1 or 6 the dial turns first (G-5, GA-19)."""
        self._check_can_roll()
        if not 1 <= value <= 6:
            raise ValueError(f"a die shows 1-6, not {value}")
        return self._use_roll(value)

    def _use_roll(self, value: int) -> list[Event]:
        self.rolled = value
        self._version += 1
        # Compiled, the events are stored natively by a direct call (docs/architecture.md,
        # the compiled build's rule 12); new_event and new_line_event are generic calls there.
        if COMPILED:
            roll = compiled_line_event("roll", self.turn, {"value": value}, ROLL_LINES[value])
        else:
            roll = new_line_event("roll", self.turn, {"value": value}, ROLL_LINES[value])
        events = [roll]
        if self._turns_dial[value]:
            self.dial = (self.dial + 1) % self.game_map.dial_positions
            if COMPILED:
                events.append(compiled_event("dial", None, {"position": self.dial}, None))
            else:
                events.append(new_event("dial", None, {"position": self.dial}, None))
        return events

    def _check_can_roll(self) -> None:
        if self.over:
            raise IllegalAction("game_over", "G-19", "the game is over")
        if self.rolled is not None:
            raise IllegalAction("already_rolled", "G-5", f"seat {self.turn} has rolled already")
