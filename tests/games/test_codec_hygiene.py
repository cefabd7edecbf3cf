"""Action codecs of every game (issue 22, minor): ``note`` is an optional string in every
game, and numbers in action text are ASCII digits only."""

from __future__ import annotations

from typing import Any

import pytest

from stoptable import games
from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.protocol import GameState

NAMES = games.names()


def first_action(game: str) -> tuple[dict[str, Any], int, int | None]:
    """A legal action line of a fresh game (driver-supplied ``seat``/``t`` split off)."""
    state: GameState = games.spec(game).new(seats=2, seed=3)
    for _ in range(50):
        for seat in state.actors():
            legal = state.legal_actions(seat)
            if legal:
                line = dict(legal[0].to_json())
                return line, line.pop("seat"), line.pop("t", None)
        step = state.next_step()
        assert step is not None
        state.run_step(step)
    raise AssertionError(f"no action in {game}")


@pytest.mark.parametrize("game", NAMES)
def test_note_is_an_optional_string_in_every_game(game: str) -> None:
    spec = games.spec(game)
    line, seat, t = first_action(game)
    plain = spec.action_from_json(line, seat, t)
    assert spec.action_from_json({**line, "note": "why"}, seat, t) == plain
    for bad in (5, None, ["x"], {"a": 1}):
        with pytest.raises((InvalidNotation, RecordError), match="note"):
            spec.action_from_json({**line, "note": bad}, seat, t)


@pytest.mark.parametrize("text", ["S\u0661", "S\u00b2", "S\uff11"])
def test_stop_it_stack_names_take_ascii_digits_only(text: str) -> None:
    spec = games.spec("stopit")
    assert spec.action_from_json({"type": "grab", "stack": "S1", "expect_id": None}, 0, 5)
    assert spec.parse_action("grab S1 -", 0, 5)
    with pytest.raises(InvalidNotation):
        spec.action_from_json({"type": "grab", "stack": text, "expect_id": None}, 0, 5)
    with pytest.raises(InvalidNotation):
        spec.parse_action(f"grab {text} -", 0, 5)
    with pytest.raises(InvalidNotation):
        spec.parse_action("insert \u0663", 0, 5)
