"""Stop, the Abacus card game (rules/stop.md): cards, rulesets, actions and the engine.

>>> st = new_game("abacus-en", seats=2, seed=1)
>>> st.turn_seat()
0
"""

from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    StopAction,
    action_from_json,
    parse_action,
)
from stoptable.games.stop.cards import CARDS, DECK_CARDS, FULL_DECK, Card, parse_card, sort_cards
from stoptable.games.stop.ruleset import PRESETS, Ruleset
from stoptable.games.stop.sample import sample_state
from stoptable.games.stop.state import StopState, new_game

__all__ = [
    "CARDS",
    "DECK_CARDS",
    "FULL_DECK",
    "PRESETS",
    "Accept",
    "CallAchtung",
    "CallStop",
    "Cancel",
    "Card",
    "Draw",
    "Interject",
    "Pass",
    "Play",
    "Ruleset",
    "StopAction",
    "StopState",
    "action_from_json",
    "new_game",
    "parse_action",
    "parse_card",
    "sample_state",
    "sort_cards",
]
