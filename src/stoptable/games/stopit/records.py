"""``stoptable replay`` for Stop it! (records.md §5): setup, action and clock lines, output.

Replay is a simulation driver (records.md §5.4): ``min_pause_ms`` is 0 unless the header's
options set it; every other timing keeps its default.
"""

from __future__ import annotations

from typing import Any

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.protocol import JSON
from stoptable.core.records import RECORD_FORMAT, Header
from stoptable.games.stopit.actions import request_from_json
from stoptable.games.stopit.ruleset import Ruleset
from stoptable.games.stopit.setup import POSITION_FIELDS
from stoptable.games.stopit.state import StopItState


class StopItReplayer:
    """The :class:`~stoptable.core.records.Replayer` of Stop it!."""

    def setup(self, header: Header) -> StopItState:
        Ruleset().check_seats(header.seats)  # before anything else: exit 2 (records.md §2.1)
        if header.map is not None:
            raise RecordError("line 1: 'map' is a Stop & Go header key, not a Stop it! one")
        try:
            options = {"min_pause_ms": 0, **header.options}
            ruleset = Ruleset.from_options(header.ruleset, options)
            if header.position is not None:
                return StopItState.from_position(
                    ruleset, header.seats, header.position, seed=header.seed
                )
            return StopItState.new_game(ruleset, header.seats, header.seed, deck=header.deck)
        except ValueError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"line 1: {exc}") from None

    def apply_event(self, state: StopItState, event: dict[str, JSON]) -> None:
        if "clock" in event:
            extra = sorted(set(event) - {"clock"})
            if extra:
                raise RecordError(f"unknown key {extra[0]!r} in a clock line")
            t: Any = event["clock"]
            if not isinstance(t, int) or isinstance(t, bool):
                raise RecordError("'clock' must be an integer")
            state.advance_to(t)
            return
        if "chance" in event:
            raise RecordError("Stop it! records have no chance lines")
        request = request_from_json(event)
        if request.t < state.clock:
            raise RecordError(f"'t' {request.t} is below the clock {state.clock}")
        try:
            state.apply(request)
        except InvalidNotation as exc:  # a seat or stack that does not exist: exit 1
            raise RecordError(str(exc)) from None

    def finish(self, state: StopItState) -> None:
        """Nothing happens at the end of a record: timers never fire there (§5.4)."""

    def output(self, state: StopItState) -> dict[str, JSON]:
        return state.to_json()


REPLAYER = StopItReplayer()


def record_header(
    state: StopItState, seed: int, note: str | None = None, position: bool = False
) -> dict[str, JSON]:
    """The record header of a game set up by ``StopItState.new_game(ruleset, seats, seed)``,
    or, with ``position``, of one that starts from the state as it is now (records.md
    §5.2; its phase must be ``waiting_go`` or ``running``).

    ``min_pause_ms`` is always written: replay defaults it to 0 (records.md §5.4), the
    live game uses the real-time default.
    """
    options = {**state.ruleset.options(), "min_pause_ms": state.ruleset.min_pause_ms}
    header: dict[str, JSON] = {
        "format": RECORD_FORMAT,
        "game": "stopit",
        "ruleset": state.ruleset.name,
        "options": options,
        "seats": state.seats,
        "seed": seed,
    }
    if position:
        if state.phase not in ("waiting_go", "running"):
            raise ValueError(f"a record cannot start in phase {state.phase!r}")
        now = state.to_json()
        header["position"] = {key: now[key] for key in POSITION_FIELDS if now[key] is not None}
    if note:
        header["note"] = note
    return header
