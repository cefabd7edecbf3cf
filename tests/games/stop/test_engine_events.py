"""Events returned by ``apply``: front ends learn of every change from them."""

from __future__ import annotations

from stoptable.games.stop import Play, StopState, parse_card


def test_S50_apply_returns_the_round_end_event() -> None:
    position = {"hands": [["R4"], ["B1", "B2"]], "discard": ["R3"], "draw_pile": [], "turn": 0}
    state = StopState.from_position("abacus-en", 2, position, seed=1)
    events = state.apply(Play(0, (parse_card("R4"),), frozenset({"stop"})))
    assert events[-1].kind == "round_end"
    assert events[-1].public["scores"] == [0, 21]
    assert state.phase == "round_over"
    assert [e.kind for e in events].count("round_end") == 1
