"""The Stop record replayer (records.md §2-§4): setup, events, chance lines, output; and the
header a driver writes for a Stop game."""

from __future__ import annotations

from typing import Any, Final

from stoptable.core.errors import OptionError, RecordError
from stoptable.core.protocol import JSON
from stoptable.core.records import Header
from stoptable.games.stop.actions import Cancel, Play, action_from_json
from stoptable.games.stop.ruleset import Ruleset
from stoptable.games.stop.state import StopState, cards_of

CHANCE_KEYS: Final = frozenset({"chance", "order"})


class StopReplayer:
    """core.records.Replayer for ``"game": "stop"``."""

    def setup(self, header: Header) -> StopState:
        """The state of the header: its ruleset (OptionError is a malformed header, exit 1)
        and its seat check (PlayerCountError, exit 2, S-6)."""
        try:
            rules = Ruleset.from_options(header.ruleset, header.options)
        except OptionError as exc:
            raise RecordError(f"line 1: {exc}") from None
        if header.map is not None:
            raise RecordError("line 1: 'map' is not a Stop header key")
        rules.check_seats(header.seats)
        if header.position is not None:
            return StopState.from_position(rules, header.seats, header.position, header.seed)
        return StopState.new_game(rules, header.seats, header.seed, deck=header.deck)

    def apply_event(self, state: StopState, event: dict[str, JSON]) -> None:
        if "chance" in event:
            self._chance(state, event)
            return
        action = action_from_json(event)
        if not 0 <= action.seat < state.seats:
            raise RecordError(f"there is no seat {action.seat}")
        target = action.target if isinstance(action, Play) else None
        if target is not None and not 0 <= target < state.seats:
            raise RecordError(f"there is no seat {target}")
        if not isinstance(action, Cancel):
            state.close_cancel_window()
        state.apply(action)
        if state.shuffle_queue:
            raise RecordError("a shuffle line was not used by the seat action after it")

    def _chance(self, state: StopState, event: dict[str, Any]) -> None:
        unknown = sorted(set(event) - CHANCE_KEYS)
        if unknown:
            raise RecordError(f"unknown key {unknown[0]!r} in a chance line")
        if event["chance"] != "shuffle":
            raise RecordError("a Stop chance line is {'chance': 'shuffle', 'order': [...]}")
        state.close_cancel_window()
        if state.phase == "game_over":
            raise RecordError("no shuffle line after the game is over")
        order = event.get("order")
        if state.phase == "round_over":
            if order is not None and not isinstance(order, list):
                raise RecordError("'order' must be a list of card codes")
            state.start_next_round(order)
            return
        if order is None:
            raise RecordError("a reshuffle line needs 'order'")
        state.shuffle_queue.append(cards_of(order, "shuffle order"))

    def finish(self, state: StopState) -> None:
        if state.shuffle_queue:
            raise RecordError("a shuffle line at the end was not used by any seat action")
        state.close_cancel_window()

    def output(self, state: StopState) -> dict[str, JSON]:
        return state.to_json()


REPLAYER: Final = StopReplayer()


def record_header(
    state: StopState,
    seed: int,
    options: dict[str, JSON] | None = None,
    position: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """The records.md §2.1 header of a game of ``state``'s ruleset (seeded or from a
    position); ``options`` as given (default: the ruleset's overrides of its preset)."""
    header: dict[str, JSON] = {
        "format": "stoptable-record/1",
        "game": "stop",
        "ruleset": state.rules.name,
    }
    given = state.rules.options() if options is None else options
    if given:
        header["options"] = dict(given)
    header["seats"] = state.seats
    header["seed"] = seed
    if position is not None:
        header["position"] = position
    return header
