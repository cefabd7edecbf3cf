"""Rulesets: the option table of stop.md §11 and the gate for overrides."""

from __future__ import annotations

import dataclasses

import pytest

from stoptable.core.errors import PlayerCountError
from stoptable.games.stop import Ruleset, new_game

EN_JA = {
    "min_players": (2, 2),
    "max_players": (10, 10),
    "first_dealer": (0, 0),
    "deal_size": (7, 7),
    "starter_effect": ("none", "none"),
    "interject_on_starter": (True, True),
    "six_nine_value": ("face", "nine"),
    "voluntary_draw": (True, False),
    "play_drawn_card": (False, False),
    "reshuffle_keep_top": (True, True),
    "exhaustion_rule": ("pass_cycle_ends_round", "pass_cycle_ends_round"),
    "two_stacking_any_colour": (True, True),
    "draw_two_skips_victim": (True, False),
    "interjected_two_extends": (True, True),
    "skip_stacking": ("pass_on", "accumulate"),
    "exchange_modes": (frozenset({"left", "right"}), frozenset({"left", "right", "swap"})),
    "exchange_cancel_by": ("any", "affected"),
    "draw_x_mode": ("flip", "reveal_and_play"),
    "draw_x_stacking": (False, False),
    "free_choice_second_effect": (True, True),
    "free_choice_as_response": (False, False),
    "achtung_trigger": ("play_second_to_last", "hand_becomes_one"),
    "call_window_cards": (0, 2),
    "missed_stop_penalty": (2, 0),
    "achtung_penalty": (2, 2),
    "last_card_effect": (False, True),
    "target_score": (500, 500),
    "stall_actions": (10_000, 10_000),
    "call_detection": ("automatic", "automatic"),
    "interjection_grace_ms": (1000, 1000),
    "cancel_window_ms": (2000, 2000),
}


@pytest.mark.parametrize("option", sorted(EN_JA))
def test_presets_follow_the_option_table(option: str) -> None:
    en, ja = EN_JA[option]
    assert getattr(Ruleset.preset("abacus-en"), option) == en
    assert getattr(Ruleset.preset("abacus-ja"), option) == ja


def test_every_field_is_in_the_table() -> None:
    assert {f.name for f in dataclasses.fields(Ruleset)} == set(EN_JA) | {"name"}
    assert [o.name for o in Ruleset.OPTIONS] == list(EN_JA)
    assert all(o.rule.startswith("S-") and o.help for o in Ruleset.OPTIONS)


def test_overrides_are_checked_and_round_trip() -> None:
    rules = Ruleset.from_options("abacus-en", {"exchange_modes": ["swap"], "target_score": 99})
    assert rules.exchange_modes == frozenset({"swap"}) and rules.target_score == 99
    assert rules.options() == {"exchange_modes": ["swap"], "target_score": 99}
    assert Ruleset.preset("abacus-ja", voluntary_draw=True).voluntary_draw is True


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("abacus-xx", {}, "unknown Stop ruleset"),
        ("abacus-en", {"colour_count": 5}, "unknown Stop option"),
        ("abacus-en", {"name": "x"}, "unknown Stop option"),
        ("abacus-en", {"voluntary_draw": 1}, "true or false"),
        ("abacus-en", {"target_score": "500"}, "integer"),
        ("abacus-en", {"target_score": True}, "integer"),
        ("abacus-en", {"skip_stacking": "double"}, "one of"),
        ("abacus-en", {"exchange_modes": ["up"]}, "exchange_modes"),
        ("abacus-en", {"exchange_modes": []}, "non-empty"),
        ("abacus-en", {"call_detection": "challenge"}, "reserved"),
        ("abacus-en", {"min_players": 5, "max_players": 4}, "min_players"),
        ("abacus-en", {"deal_size": 20}, "deal_size"),
    ],
)
def test_from_options_rejects_bad_input(
    name: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Ruleset.from_options(name, options)


def test_S6_two_to_ten_players() -> None:
    for seats in (2, 10):
        assert new_game("abacus-ja", seats).seats == seats
    for seats in (1, 11):
        with pytest.raises(PlayerCountError):
            new_game("abacus-en", seats)
    with pytest.raises(PlayerCountError):
        new_game("abacus-en", 5, options={"max_players": 4})


def test_a_custom_ruleset_object_plays() -> None:
    custom = Ruleset(name="house", skip_stacking="accumulate")
    st = new_game(custom, 3, options={"target_score": 50})
    assert st.rules.skip_stacking == "accumulate" and st.rules.target_score == 50
    assert st.to_json()["ruleset"] == "house"
    assert custom.options() == {"skip_stacking": "accumulate"}
