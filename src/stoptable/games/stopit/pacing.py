"""What the live table needs of Stop it! to schedule bots (I-50..I-54): ``SPEC.pacing``.

The live machine (``stoptable.live``) is Stop it!'s one driver, on the server's wall clock
and on the simulator's virtual one; it knows no game's rules, so the few facts of this
game it acts on come from here: which events are public changes (I-53), who must look at
once when the game is interrupted (I-53), how a bot is shown its seat, and two shortcuts
of the hot loop (no timer runs while cards lie on the stacks; a lost race needs no error
when nobody reads it). Its compiled-only typed loop (``TableMachine._run_stopit``) does
what this class says inline, by the state's own type (architecture.md, rule 20).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from stoptable.games.stopit.actions import CallStop, Grab, PlayStop
from stoptable.games.stopit.state import StopItState
from stoptable.games.stopit.views import lean_look, view

QUIET_KINDS: Final = frozenset({"insert", "move"})
"""Events that change no public fact a player reacts to: the card of an insert was public
since its grab, and a hand's order is private (I-38). Everything else is a public change."""
TALLIED: Final = frozenset({"evaluation"})
"""Counted for the tournament's statistics (evaluations per game, I-55)."""
INTERRUPTING: Final = frozenset({"call_stop", "play_stop"})
"""The events with which the game may become interrupted (I-35, engine._interrupt)."""


class StopItPacing:
    """:class:`~stoptable.core.game.RealtimePolicy` for Stop it!."""

    def over(self, state: StopItState) -> bool:
        return state.phase == "game_over"

    def timers_idle(self, state: StopItState) -> bool:
        # as in state.next_step: no timer runs while the game runs with cards on the stacks
        return state.phase == "running" and bool(state.stack_total)

    @property
    def quiet_kinds(self) -> frozenset[str]:
        return QUIET_KINDS

    @property
    def tallied_kinds(self) -> frozenset[str]:
        return TALLIED

    @property
    def urgent_kinds(self) -> frozenset[str]:
        return INTERRUPTING

    def urgent(self, state: StopItState) -> list[int]:
        """I-53: when the game is interrupted, a bot holding a card looks at once."""
        if state.phase != "interrupted":
            return []
        return [seat for seat, card in enumerate(state.held) if card is not None]

    def lost(self, state: StopItState, request: Any) -> bool:
        kind = type(request)  # inserts, moves and Go never lose a race: no call for them
        return (kind is Grab or kind is CallStop or kind is PlayStop) and state.lost_race(request)

    def show(self, bot: Any) -> tuple[Callable[[Any, int], Any], Callable[[Any, int], Any]]:
        if getattr(bot, "lean_view", False):
            return bot.look, lean_look
        return bot.observe, view

    def perceive(self, bot: Any) -> int:
        delay: int = bot.reaction.sample("perceive")  # an int (compiled: checked, no call)
        return delay


PACING: Final = StopItPacing()
