"""The state API around the rules: views, copies, notation, rolls and options."""

from __future__ import annotations

import random

import pytest

from stoptable.core.errors import IllegalAction, InvalidNotation
from stoptable.games.stopandgo import Move, Ruleset, new_game
from tests.games.stopandgo.support import drive


def test_view_shows_everything_but_the_deck_order() -> None:
    state = new_game(seats=3, seed=4)
    view = state.view(1)
    full = state.to_json()
    assert "deck" not in view and view["deck_size"] == len(full["deck"]) == 24
    assert view["seat"] == 1 and view["map"] == "old-town"
    assert {k: v for k, v in full.items() if k != "deck"} == {
        k: v for k, v in view.items() if k not in ("deck_size", "seat", "map")
    }
    assert state.view(None)["seat"] is None


def test_copy_is_independent_and_equal() -> None:
    state = new_game(seats=2, seed=8)
    rnd = random.Random(8)
    for _ in range(6):
        drive(state, rnd)
    twin = state.copy()
    assert twin == state
    drive(twin, rnd)
    assert twin != state
    assert state.copy() == state and state.cars[0] is not state.copy().cars[0]


def test_move_notation_round_trips_and_rejects_garbage() -> None:
    move = Move(2, ("M", "h12d"))
    assert Move.parse(move.notation(), 2) == move
    assert Move.parse("h12c", 0) == Move(0, ("h12c",))
    assert Move.from_json(move.to_json()) == move
    for text in ("", "move", "move M; rm", "move M-h12d!"):
        with pytest.raises(InvalidNotation):
            Move.parse(text, 0)
    state = new_game(seats=2, seed=1)
    state.roll()
    with pytest.raises(InvalidNotation):
        state.apply(Move(0, ("M", "nowhere")))


def test_rolls_are_checked_and_legal_actions_need_a_roll() -> None:
    state = new_game(seats=2, seed=1)
    assert state.needs_roll and state.legal_actions(0) == []
    with pytest.raises(ValueError):
        state.apply_roll(0)
    state.apply_roll(5)
    assert not state.needs_roll and state.legal_actions(1) == []
    assert Move(0, ("M",)) in state.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        state.roll()
    assert err.value.reason == "already_rolled"


def test_apply_rolls_first_when_the_seat_has_not_rolled() -> None:
    state = new_game(seats=2, seed=6)
    twin = state.copy()
    twin.roll()
    events = state.apply(Move(0, ("M",)))
    assert events[0].kind == "roll" and events[0].public["value"] == twin.rolled


def test_ruleset_options_round_trip() -> None:
    rules = Ruleset.preset(
        enforcement="fine", destination_list=[3, 1], dial_advance_on=[6], scoring="sum"
    )
    assert Ruleset.from_options(rules.name, rules.options()) == rules
    assert rules.options()["destination_list"] == [3, 1]
    for bad in ({"tickets_limit": 0}, {"destination_list": [2, 2]}, {"collect_on_reveal": 1}):
        with pytest.raises(ValueError):
            Ruleset.from_options("stopgo-standard", bad)
    with pytest.raises(ValueError):
        Ruleset.preset("stopgo-deluxe")
