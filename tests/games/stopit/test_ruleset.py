"""The Ruleset and its options (stop-it.md §7)."""

from __future__ import annotations

import pytest

from stoptable.core.errors import OptionError, PlayerCountError
from stoptable.games.stopit import Ruleset, StopItState


def test_preset_defaults_are_the_option_table() -> None:
    rules = Ruleset.preset("stopit-standard")
    assert (rules.stack_count, rules.first_go_seat, rules.minus_supply) == (5, 0, 15)
    assert (rules.sort_grace_ms, rules.min_pause_ms, rules.go_timeout_ms) == (3000, 2000, 10000)
    assert rules.endgame_timeout_ms == 15000
    assert rules.sort_check_every_evaluation and rules.stop_cards_ignored_in_sort_check
    assert (rules.drop_penalty, rules.false_stop_penalty) == ("off", "off")
    assert rules.options() == {}
    assert Ruleset.preset("stopit-standard", minus_supply=5).options() == {"minus_supply": 5}


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("stopit-fast", {}, "unknown Stop it! ruleset"),
        ("stopit-standard", {"grace": 1}, "unknown Stop it! option 'grace'"),
        ("stopit-standard", {"stack_count": 10}, "stack_count' must be an integer from 1 to 9"),
        ("stopit-standard", {"first_go_seat": 6}, "first_go_seat"),
        ("stopit-standard", {"stack_count": 0}, "stack_count"),
        ("stopit-standard", {"sort_grace_ms": -1}, "sort_grace_ms"),
        ("stopit-standard", {"sort_grace_ms": "1"}, "integer"),
        ("stopit-standard", {"minus_supply": True}, "integer"),
        ("stopit-standard", {"drop_penalty": "yes"}, "off, fumble"),
        ("stopit-standard", {"sort_check_every_evaluation": 1}, "true or false"),
    ],
)
def test_bad_options_are_rejected_clearly(
    name: str, options: dict[str, object], words: str
) -> None:
    with pytest.raises(OptionError, match=words):
        Ruleset.from_options(name, options)


def test_new_game_checks_seats_and_options() -> None:
    rules = Ruleset.preset("stopit-standard")
    with pytest.raises(PlayerCountError, match="2-6 players, not 7"):
        StopItState.new_game(rules, 7)
    with pytest.raises(OptionError, match="'first_go_seat' must be a seat of the game"):
        StopItState.new_game(rules, 2, options={"first_go_seat": 2})
    state = StopItState.new_game(rules, 3, seed=4, options={"minus_supply": 6})
    assert state.supply == 6 and state.ruleset.minus_supply == 6
    assert StopItState.new_game(rules, 3, seed=4) == StopItState.new_game(rules, 3, seed=4)
    assert StopItState.new_game(rules, 3, seed=4) != StopItState.new_game(rules, 3, seed=5)


def test_new_game_takes_a_ruleset_name_like_the_other_games() -> None:
    from stoptable.games.stopit import Ruleset, StopItState

    by_name = StopItState.new_game("stopit-standard", 3, seed=4, options={"minus_supply": 9})
    by_object = StopItState.new_game(Ruleset.preset("stopit-standard", minus_supply=9), 3, seed=4)
    assert by_name == by_object
    assert by_name.to_json()["supply"] == 9
