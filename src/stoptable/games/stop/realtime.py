"""Stop in real time (S-62): what a wall-clock driver (the server) must time.

The engine only orders actions; S-62 measures two things in ms, both ruleset options:

* after each placement an interjection grace of ``interjection_grace_ms`` runs, during
  which turn actions and responses (play, accept, draw, pass) are queued while
  interjections, cancels and standalone calls are processed at once;
* a Card Exchange cancel window (the WINDOW step) stays open ``cancel_window_ms``.

The deal of the next round (the CHANCE step of ``round_over``) comes after the driver's
round pause. This is :class:`~stoptable.core.game.TimingPolicy` for ``SPEC.timing``.

>>> from stoptable.games.stop.spec import SPEC
>>> state = SPEC.new("abacus-en", seats=2, seed=1)
>>> TIMING.held(state, SPEC.action_from_json({"type": "draw"}, 0))
True
>>> TIMING.held(state, SPEC.action_from_json({"type": "call_stop"}, 0))
False
"""

from __future__ import annotations

from typing import Any, Final

from stoptable.core.protocol import Event, Step, StepKind
from stoptable.games.stop.actions import Accept, Cancel, Draw, Interject, Pass, Play

PLACEMENTS: Final = (Play, Interject, Cancel)
"""Actions that put a card on the discard pile (an accepted ja Draw X reveal_play too)."""
QUEUED: Final = (Play, Accept, Draw, Pass)
"""Turn actions and responses: S-62 queues them during a grace."""


class StopTiming:
    """S-62 for a real-time driver."""

    def grace_ms(self, state: Any, action: Any, events: list[Event]) -> int:
        placed = isinstance(action, PLACEMENTS) or (
            isinstance(action, Accept) and action.reveal_play is not None
        )
        return int(state.rules.interjection_grace_ms) if placed else 0

    def held(self, state: Any, action: Any) -> bool:
        return isinstance(action, QUEUED)

    def step_delay_ms(self, state: Any, step: Step, round_pause_ms: int) -> int:
        if step.kind is StepKind.WINDOW:
            return int(state.rules.cancel_window_ms)
        return round_pause_ms


TIMING: Final = StopTiming()
