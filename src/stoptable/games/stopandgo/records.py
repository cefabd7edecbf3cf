"""``stoptable replay`` for Stop & Go records (records.md §2, §3, §6).

Setup from ``seed``, ``deck`` or ``position``; events are roll chance lines and move lines.
The record's map needs only the §6 format (GM-1): GM-2 to GM-9 are not checked here, so
a record may carry a small fixture map that breaks them. Malformed input (unknown keys, a
seat or space that does not exist, a roll line that does not fit) is a RecordError; a path
the rules refuse is an IllegalAction with ``reasons``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stoptable.core.errors import IllegalAction, InvalidNotation, PlayerCountError, RecordError
from stoptable.core.protocol import JSON
from stoptable.core.records import Header
from stoptable.games.stopandgo.actions import Move
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.check import MapError, load_default_map, load_map
from stoptable.games.stopandgo.ruleset import Ruleset
from stoptable.games.stopandgo.state import StopGoState, check_seats


def record_map(source: JSON, base_dir: Path = Path(".")) -> StopGoMap:
    """The map a record names: None for the default map, a map object, or a path relative
    to ``base_dir`` (the record's folder); RecordError if it is not a §6 map."""
    if source is None:
        return load_default_map()
    if isinstance(source, str):
        source = base_dir / source
    elif not isinstance(source, dict):
        raise RecordError("'map' must be a map object or a path")
    try:
        return load_map(source)
    except MapError as exc:
        raise RecordError(str(exc)) from None


class StopGoReplayer:
    """The :class:`~stoptable.core.records.Replayer` of Stop & Go."""

    def setup(self, header: Header) -> StopGoState:
        """The state after setup (records.md §6.1)."""
        try:
            rules = Ruleset.from_options(header.ruleset, header.options)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"line 1: {exc}") from None
        check_seats(header.seats)
        try:
            if header.position is not None:
                if header.map is not None:
                    raise RecordError("give the map inside 'position', not beside it")
                if "map" not in header.position:
                    raise RecordError("position.map is required")
                the_map = record_map(header.position["map"], header.base_dir)
                return StopGoState.from_position(
                    rules, header.seats, header.position, the_map, header.seed
                )
            the_map = record_map(header.map, header.base_dir)
            return StopGoState.new_game(
                rules, header.seats, header.seed, game_map=the_map, deck=header.deck
            )
        except PlayerCountError:
            raise
        except ValueError as exc:  # RecordError, OptionError (dial_start) and the like
            raise RecordError(f"line 1: {exc}") from None

    def apply_event(self, state: StopGoState, event: dict[str, JSON]) -> None:
        """A roll line or a move line (records.md §6.2)."""
        if "chance" in event:
            self._roll(state, event)
            return
        if set(event) != {"seat", "type", "path"}:
            extra = sorted(set(event) - {"seat", "type", "path"})
            raise RecordError(
                f"unknown key {extra[0]!r}" if extra else "a move needs 'seat', 'type', 'path'"
            )
        seat, kind, path = event["seat"], event["type"], event["path"]
        if kind != "move":
            raise RecordError(f"unknown action type {kind!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            raise RecordError(f"no seat {seat!r}")
        if not isinstance(path, list) or not all(isinstance(s, str) for s in path):
            raise RecordError("'path' must be a list of space ids")
        for space in path:
            if space not in state.game_map.index:
                raise RecordError(f"the map has no space {space!r}")
        try:
            state.apply(Move(seat, tuple(path)))
        except InvalidNotation as exc:
            raise RecordError(str(exc)) from None

    @staticmethod
    def _roll(state: StopGoState, event: dict[str, Any]) -> None:
        if set(event) != {"chance", "value"} or event["chance"] != "roll":
            raise RecordError('a chance line of Stop & Go is {"chance": "roll", "value": r}')
        value = event["value"]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise RecordError("a roll value is an integer 1-6")
        if state.over:
            raise RecordError("a roll line after the game is over")
        step = state.next_step()
        if step is None:
            raise RecordError(f"a roll line while seat {state.turn}'s roll is still to be used")
        try:
            state.run_step(step, value)
        except IllegalAction as exc:
            raise RecordError(str(exc)) from None

    def finish(self, state: StopGoState) -> None:
        """Nothing happens implicitly at the end of a Stop & Go record."""

    def output(self, state: StopGoState) -> dict[str, JSON]:
        """The §6.3 object."""
        return state.to_json()


REPLAYER = StopGoReplayer()
