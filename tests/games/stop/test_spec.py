"""Stop's GameSpec: registry, constructors, seat and option checks, the action codecs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core.errors import InvalidNotation, OptionError, PlayerCountError
from stoptable.core.protocol import GameState
from stoptable.core.rng import Rng
from stoptable.games import spec
from stoptable.games.stop.cards import CARDS, DECK_CARDS
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.randomplay import step
from stoptable.games.stop.ruleset import Ruleset
from stoptable.games.stop.spec import SPEC
from stoptable.games.stop.state import StopState
from tests.games.stop.helpers import random_options
from tests.support import conforms


def test_the_registry_finds_the_spec() -> None:
    assert spec("stop") is SPEC
    assert SPEC.rulesets == ("abacus-en", "abacus-ja")
    assert SPEC.ruleset_type is Ruleset and SPEC.default_ruleset == "abacus-en"
    assert SPEC.replayer.setup is not None and SPEC.bot_module == "stoptable.bots.stop"
    assert SPEC.terminations == ("target_score",) and not SPEC.realtime


def test_facts_size_a_fixed_action_space() -> None:
    facts = SPEC.facts
    assert facts["deck_size"] == len(DECK_CARDS) == 112
    assert facts["card_codes"] == len(CARDS) == 53
    assert facts["max_seats"] == SPEC.seat_range()[1] == 10
    assert facts["call_sets"] == 4 and facts["exchange_modes"] == 3
    assert facts["max_hand"] == 111 and facts["colours"] == 4 and facts["action_types"] == 8


def test_new_and_from_position_build_protocol_states() -> None:
    state = SPEC.new("abacus-ja", 4, seed=9, options={"target_score": 100})
    assert isinstance(state, StopState) and conforms(state, GameState)
    assert state.rules.target_score == 100 and state.seats == 4
    assert SPEC.new().seats == 2  # the fewest seats of the default ruleset
    deck = [c.code for c in DECK_CARDS]
    assert SPEC.new("abacus-en", 2, deck=deck).to_json()["hands"][0][0] == "R0"
    position = {"hands": [["R4"], ["B1", "B2"]], "discard": ["R3"], "turn": 0}
    placed = SPEC.from_position(position, 2)
    assert placed.to_json()["hands"] == [["R4"], ["B1", "B2"]]
    with pytest.raises(TypeError):
        SPEC.new("abacus-en", 2, map="default")


@pytest.mark.parametrize("seats", [0, 1, 11])
def test_S6_seat_checks_raise_player_count_errors(seats: int) -> None:
    with pytest.raises(PlayerCountError) as err:
        SPEC.new("abacus-en", seats)
    assert err.value.reason == "player_count" and err.value.rule == "S-6"
    with pytest.raises(PlayerCountError):
        SPEC.check_seats(seats)
    with pytest.raises(PlayerCountError):
        SPEC.from_position({"hands": [], "discard": ["R3"], "turn": 0}, seats)


def test_S6_the_options_bound_the_seats() -> None:
    rules = SPEC.ruleset("abacus-en", {"max_players": 4})
    assert SPEC.seat_range(rules) == (2, 4)
    with pytest.raises(PlayerCountError):
        SPEC.new("abacus-en", 5, options={"max_players": 4})


@pytest.mark.parametrize(
    ("name", "options", "named"),
    [
        ("abacus-xx", {}, "abacus-xx"),
        ("abacus-en", {"colour_count": 5}, "colour_count"),
        ("abacus-en", {"voluntary_draw": 1}, "voluntary_draw"),
        ("abacus-en", {"target_score": 0}, "target_score"),
        ("abacus-en", {"exchange_modes": ["up"]}, "exchange_modes"),
        ("abacus-en", {"call_detection": "challenge"}, "call_detection"),
        ("abacus-en", {"deal_size": 20}, "deal_size"),
        ("abacus-en", {"min_players": 5, "max_players": 4}, "min_players"),
        ("abacus-en", {"first_dealer": 10}, "first_dealer"),
    ],
)
def test_option_errors_name_the_option(name: str, options: dict[str, Any], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        SPEC.new(name, 2, options=options)


def test_the_option_table_lists_every_option_with_its_rule() -> None:
    table = Ruleset.option_table("abacus-ja")
    six = next(o for o in table if o["name"] == "six_nine_value")
    assert six["default"] == "nine" and six["rule"] == "S-4" and six["choices"] == ["face", "nine"]
    assert len(table) == len(Ruleset.OPTIONS) == 31


@pytest.mark.parametrize(
    "line",
    [
        [],
        {"type": "dance"},
        {"type": "play"},
        {"type": "play", "cards": ["R1"], "colour": "R"},
        {"type": "interject", "card": "R10"},
        {"type": "draw", "calls": ["shout"]},
        {"type": "draw", "seat": 0},
        {"type": "draw", "t": 5},
    ],
)
def test_malformed_json_actions_are_invalid_notation(line: Any) -> None:
    with pytest.raises(InvalidNotation):
        SPEC.action_from_json(line, 0)


@pytest.mark.parametrize("text", ["", "dance", "play", "play R1 up", "call now", "pass 3"])
def test_unreadable_text_is_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        SPEC.parse_action(text, 0)


def test_a_stop_action_carries_no_time() -> None:
    with pytest.raises(InvalidNotation):
        SPEC.json_action({"type": "draw"}, 0, 10)
    with pytest.raises(InvalidNotation):
        SPEC.text_action("draw", 0, 10)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["abacus-en", "abacus-ja"]),
    st.integers(min_value=2, max_value=10),
    st.integers(min_value=0, max_value=2**32),
    st.booleans(),
)
def test_S58_every_legal_action_round_trips_through_json_and_notation(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """What a client sends (the records.md line without ``seat``, or the notation) reads
    back as the same action for the seat the driver supplies."""
    options = random_options(Rng(seed)) if mixed else None
    state = SPEC.new(ruleset, seats, seed, options)
    rng = Rng(seed + 3)
    for _ in range(150):
        if state.phase not in ("playing", "closing"):
            break
        for seat in range(seats):
            for action in state.legal_actions(seat):
                line = action.to_json()
                assert line.pop("seat") == seat
                assert SPEC.action_from_json(line, seat) == action
                assert SPEC.parse_action(action.notation(), seat) == action
        step(state, rng, take=0.4, drop_calls=0.2)


def test_the_driver_factory_runs_a_match() -> None:
    from stoptable.bots.base import make_bot

    state = SPEC.new("abacus-en", 3, seed=2, options={"target_score": 60})
    assert SPEC.driver is StopDriver
    driver = SPEC.driver(state)
    bots = [make_bot("stop", "random", seat, seat) for seat in range(3)]
    assert driver.play(bots) > 0
    assert state.result() is not None and driver.decision() is None
