"""Stop & Go's move and its fast maker (games/stopandgo/actions.py)."""

from __future__ import annotations

import dataclasses

import pytest

from stoptable.core.protocol import COMPILED, Event
from stoptable.games.stopandgo import new_game
from stoptable.games.stopandgo.actions import LegalMoves, Move, compiled_move, new_move


def test_new_move_builds_an_ordinary_equal_move() -> None:
    """The maker, not the constructor it falls back to, in the pure and compiled builds;
    its move is equal, hashes alike and reads back the same."""
    assert new_move is not Move
    made = new_move(1, ("M", "a1"))
    assert type(made) is Move and made == Move(1, ("M", "a1"))
    assert hash(made) == hash(Move(1, ("M", "a1"))) and repr(made) == repr(Move(1, ("M", "a1")))
    assert made.to_json() == {"seat": 1, "type": "move", "path": ["M", "a1"]}
    legal = LegalMoves(0, (("M",), ("M", "a1")), ((0, 0), (0, 1)), (1, 2), (0, 1))
    assert legal[1] == Move(0, ("M", "a1")) and legal[:1] == [Move(0, ("M",))]


def test_compiled_move_is_for_the_compiled_build_only() -> None:
    """Compiled, ``compiled_move`` makes an ordinary equal Move; interpreted, its stores hit
    the frozen dataclass and raise, which is why only a COMPILED branch calls it."""
    if COMPILED:
        made = compiled_move(2, ("M", "a1", "a2"))
        assert type(made) is Move and made == Move(2, ("M", "a1", "a2"))
        assert hash(made) == hash(Move(2, ("M", "a1", "a2")))
    else:
        with pytest.raises(dataclasses.FrozenInstanceError):
            compiled_move(2, ("M",))


def test_a_roll_event_carries_its_record_line() -> None:
    """The roll (made by ``new_line_event``) equals the constructor's event with its line."""
    state = new_game(seats=2, seed=3)
    step = state.next_step()
    assert step is not None
    roll = state.run_step(step)[0]
    value = state.rolled
    assert roll == Event("roll", 0, {"value": value}, line=roll.line)
    assert roll.line is not None and roll.line.get("value") == value
