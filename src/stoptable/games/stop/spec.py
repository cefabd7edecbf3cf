"""Stop's :class:`~stoptable.core.game.GameSpec`: what every front end needs to run Stop.

The command line, simulations, the server and the research environments reach Stop only
through ``SPEC`` (registered in :mod:`stoptable.games`) and the state protocol.

>>> state = SPEC.new("abacus-ja", seats=3, seed=4)
>>> SPEC.parse_action("play FC Y1 achtung", 2).to_json()["cards"]
['FC', 'Y1']
>>> SPEC.action_from_json({"type": "draw"}, 1).notation()
'draw'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
from stoptable.games.stop.action_cache import CALLSETS
from stoptable.games.stop.actions import StopAction, action_from_json, parse_action
from stoptable.games.stop.cards import CARDS, DECK_CARDS
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.realtime import TIMING
from stoptable.games.stop.records import REPLAYER
from stoptable.games.stop.ruleset import EXCHANGE_MODES, MAX_SEATS, Ruleset
from stoptable.games.stop.state import StopState
from stoptable.games.stop.summary import replay_summary


def _new_state(rules: Ruleset, seats: int, seed: int = 0, **setup: Any) -> StopState:
    """A seeded deal, or ``deck=[112 codes, top first]`` (records.md §4.2)."""
    unknown = sorted(set(setup) - {"deck"})
    if unknown:
        raise TypeError(f"Stop has no setup argument {unknown[0]!r}")
    return StopState.new_game(rules, seats, seed, deck=setup.get("deck"))


def _position_state(
    rules: Ruleset, seats: int, position: Mapping[str, JSON], base_dir: Path
) -> StopState:
    """records.md §4.2 ``position`` (a Stop position names no file, so ``base_dir`` is unused)."""
    return StopState.from_position(rules, seats, dict(position))


def _json_action(data: Mapping[str, JSON], seat: int, t: int | None) -> StopAction:
    """The records.md §4.3 line without ``seat``; Stop is not real time, so no ``t``."""
    if t is not None:
        raise InvalidNotation("a Stop action carries no time")
    try:
        return action_from_json({**data, "seat": seat})
    except RecordError as exc:
        raise InvalidNotation(str(exc)) from None


def _text_action(text: str, seat: int, t: int | None) -> StopAction:
    """The compact notation of docs/notation.md (``play R4 achtung``)."""
    if t is not None:
        raise InvalidNotation("a Stop action carries no time")
    return parse_action(seat, text)


FACTS: Final = {
    "deck_size": len(DECK_CARDS),
    "card_codes": len(CARDS),
    "colours": 4,
    "max_seats": MAX_SEATS,
    "max_hand": len(DECK_CARDS) - 1,
    "call_sets": len(CALLSETS),
    "exchange_modes": len(EXCHANGE_MODES),
    "action_types": 8,
}
"""Fixed facts for encoders that size a fixed action or observation space:

* ``deck_size``: cards in the deck (S-1), 112;
* ``card_codes``: distinct card codes (records.md §4.1; ``R6`` and ``R9`` are distinct), 53;
* ``colours``: R, B, G, Y (S-2);
* ``max_seats``: the most seats any ruleset allows (S-6), 10;
* ``max_hand``: the largest hand possible, every card but the top of the discard pile;
* ``call_sets``: the call flags an action may carry: none, achtung, stop, both (S-24);
* ``exchange_modes``: left, right and swap (S-38; a swap also names one of the other
  ``max_seats - 1`` seats);
* ``action_types``: play, interject, cancel, accept, draw, pass, call_achtung, call_stop
  (S-58 without the driver-only decline).
"""

SPEC: Final = GameSpec(
    name="stop",
    title="Stop",
    rules="stop.md",
    ruleset_type=Ruleset,
    default_ruleset="abacus-en",
    terminations=("target_score",),
    realtime=False,
    new_state=_new_state,
    position_state=_position_state,
    json_action=_json_action,
    text_action=_text_action,
    replayer=REPLAYER,
    bot_module="stoptable.bots.stop",
    driver=StopDriver,
    summary=replay_summary,
    facts=FACTS,
    timing=TIMING,
)
