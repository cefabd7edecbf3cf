"""The :class:`~stoptable.core.game.GameSpec` of Stop & Go: how every front end reaches it.

Drivers (the command line, the simulator, the terminal game, later the server and the
research environments) start, read and drive Stop & Go only through :data:`SPEC` and the
state's protocol methods (``next_step``/``run_step`` for the die, ``to_move``,
``legal_actions``, ``apply``, ``view``, ``result``). Nothing here loads a file at import
time: the default map is read the first time a game or a fact needs it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

from stoptable.core.driver import TurnDriver
from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
from stoptable.games.stopandgo.actions import Move
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.check import load_default_map, load_map
from stoptable.games.stopandgo.paths import MAX_ROLL
from stoptable.games.stopandgo.playable import load_playable_map
from stoptable.games.stopandgo.records import REPLAYER, record_map
from stoptable.games.stopandgo.ruleset import DEFAULT_RULESET, MAX_SEATS, MIN_SEATS, Ruleset
from stoptable.games.stopandgo.state import TERMINATIONS, StopGoState
from stoptable.games.stopandgo.summary import replay_summary

MAX_DESTINATION: Final = 25
"""G-1: destination cards are numbered 1-25."""


def new_state(
    rules: Ruleset, seats: int, seed: int, map: StopGoMap | str | Path | None = None
) -> StopGoState:
    """A new game (G-3) on ``map``: a loaded :class:`StopGoMap`, a path to a §6 map file, or
    None for the default map. MapError if the file is not a §6 map. GM-9 is not checked
    here (GM-1); front ends that start games call ``require_playable_map`` first."""
    game_map = map if isinstance(map, StopGoMap) or map is None else load_map(map)
    return StopGoState.new_game(rules, seats, seed, game_map=game_map)


def position_state(
    rules: Ruleset, seats: int, position: Mapping[str, JSON], base_dir: Path
) -> StopGoState:
    """A game from a records.md §6.1 position; its ``map`` (required: an object, or a path
    relative to ``base_dir``) needs only the §6 format. RecordError if it does not fit."""
    if "map" not in position:
        raise RecordError("position.map is required")
    game_map = record_map(position["map"], base_dir)
    return StopGoState.from_position(rules, seats, position, game_map)


def json_action(data: Mapping[str, JSON], seat: int, t: int | None = None) -> Move:
    """The move of a §6.2 line without ``seat``; InvalidNotation if malformed (unknown key,
    wrong type, a path entry that cannot be a space id). A well-formed id the game's map
    lacks is refused by ``apply``, also with InvalidNotation: the codec knows no map."""
    if t is not None:
        raise InvalidNotation("Stop & Go is not played against a clock: an action has no 't'")
    return Move.from_line(data, seat)


def text_action(text: str, seat: int, t: int | None = None) -> Move:
    """The move of its compact notation, ``move M a1 a2`` (docs/notation.md)."""
    if t is not None:
        raise InvalidNotation("Stop & Go is not played against a clock: an action has no 't'")
    return Move.parse(text, seat)


class _Facts(Mapping[str, int]):
    """What a research encoder sizes its spaces with; the default map's figures are read
    from the map on first use (no file is read at import time).

    * ``min_seats`` / ``max_seats``: G-2, 2-6 players;
    * ``die_faces``: 6 (G-5);
    * ``max_path_spaces``: 7, the longest path ``[s0, ..., s6]`` (G-6: k <= the roll <= 6);
    * ``max_destination``: 25, the highest destination number (G-1);
    * ``default_map_spaces``: spaces of the default map (map numbers are 0 to this - 1);
    * ``default_map_destinations``: its destination spaces (cards in a full deck, G-21);
    * ``default_map_car_states``: its ``(prev, pos)`` car states, what
      ``StopGoMap.car_state_number`` numbers (the bots' tables are indexed by them);
    * ``default_map_dial_positions``: its dial positions ``P`` (G-13, GA-2).
    """

    _FIXED: Final = {
        "min_seats": MIN_SEATS,
        "max_seats": MAX_SEATS,
        "die_faces": MAX_ROLL,
        "max_path_spaces": MAX_ROLL + 1,
        "max_destination": MAX_DESTINATION,
    }
    _FROM_MAP: Final = (
        "default_map_spaces",
        "default_map_destinations",
        "default_map_car_states",
        "default_map_dial_positions",
    )

    def __getitem__(self, key: str) -> int:
        if key in self._FIXED:
            return self._FIXED[key]
        if key not in self._FROM_MAP:
            raise KeyError(key)
        m = load_default_map()
        return {
            "default_map_spaces": len(m.ids),
            "default_map_destinations": len(m.destination_space),
            "default_map_car_states": len(m.car_states),
            "default_map_dial_positions": m.dial_positions,
        }[key]

    def __iter__(self) -> Iterator[str]:
        return iter((*self._FIXED, *self._FROM_MAP))

    def __len__(self) -> int:
        return len(self._FIXED) + len(self._FROM_MAP)

    def __repr__(self) -> str:
        return f"<Stop & Go facts: {', '.join(self)}>"


SPEC: Final = GameSpec(
    name="stopandgo",
    title="Stop & Go",
    rules="stop-and-go.md",
    ruleset_type=Ruleset,
    default_ruleset=DEFAULT_RULESET,
    terminations=TERMINATIONS,
    realtime=False,
    new_state=new_state,
    position_state=position_state,
    json_action=json_action,
    text_action=text_action,
    replayer=REPLAYER,
    bot_module="stoptable.bots.stopandgo",
    lower_is_better=False,
    driver=TurnDriver,
    summary=replay_summary,
    facts=_Facts(),
    setup_files={"map": load_playable_map},
)
"""Stop & Go in the registry (``stoptable.games.spec("stopandgo")``)."""
