"""Conformance of Stop & Go with stop-and-go.md G-22 (the stalled game) and records.md
§6.1 / §6.3 (``still_turns`` in positions and output, ``termination``).

Records start from explicit positions on the maps of test_stopandgo_conformance_helpers.py.
"""

from __future__ import annotations

import pytest

from stoptable.games.stopandgo import Move, new_game
from stoptable.games.stopandgo.spec import SPEC
from tests.rules.test_stopandgo_conformance_helpers import (
    car,
    grid_map,
    header,
    line_map,
    malformed,
    move,
    ok,
    roll,
)

FINE = {"enforcement": "fine"}


def test_G22_standing_still_counts_and_a_move_resets_the_count() -> None:
    head = header(line_map(), [car("M"), car("M")], {"stall_turns": 5}, active=1)
    assert ok(head)["still_turns"] == 0
    assert ok(head, roll(3), move(0, "M"))["still_turns"] == 1
    assert ok(head, roll(3), move(0, "M"), roll(4), move(1, "M"))["still_turns"] == 2
    out = ok(head, roll(3), move(0, "M"), roll(4), move(1, "M"), roll(1), move(0, "M", "a1"))
    assert (out["still_turns"], out["termination"], out["phase"]) == (0, None, "playing")


def test_G22_after_stall_turns_still_turns_the_game_ends_scored_as_it_stands() -> None:
    cars = [car("a1", "M", collected=[3]), car("d1", "a3", collected=[2, 1])]
    head = header(line_map(), cars, {"stall_turns": 3}, active=None, still_turns=0)
    # No card face up: the game is already over (G-19).
    assert ok(head)["termination"] == "all_collected"
    cars = [car("a2", "a1", collected=[3]), car("M", collected=[2])]
    head = header(line_map(), cars, {"stall_turns": 3}, active=1, still_turns=2)
    out = ok(head, roll(2), move(0, "a2"))
    assert (out["phase"], out["termination"], out["still_turns"]) == ("game_over", "stalled", 3)
    assert (out["turn"], out["roll"], out["active"], out["active_space"]) == (None, None, 1, "d1")
    assert (out["scores"], out["winners"]) == ([1, 1], [0, 1])  # ties share the win (G-20)
    summed = ok({**head, "options": {"stall_turns": 3, "scoring": "sum"}}, roll(2), move(0, "a2"))
    assert (summed["scores"], summed["winners"]) == ([3, 2], [0])
    # Ended at once: nothing more may happen.
    assert malformed(head, roll(2), move(0, "a2"), roll(4))


def test_G22_a_violation_is_a_still_turn_even_though_the_path_moved() -> None:
    # fine: a U-turn (G-10) is applied as a violation, the car stays where it was.
    head = header(line_map(), [car("a2", "a1"), car("M")], FINE, active=1, still_turns=4)
    out = ok(head, roll(2), move(0, "a2", "a1", "M"))
    assert out["last_move"]["result"] == "violation" and out["cars"][0]["pos"] == "a2"
    assert out["still_turns"] == 5
    stalled = ok({**head, "options": {**FINE, "stall_turns": 5}}, roll(2), move(0, "a2", "a1"))
    assert stalled["termination"] == "stalled"


def test_G22_G5_missed_turns_are_still_turns_and_can_stall_the_game() -> None:
    cars = [car("M"), car("s1", "M", missed_turns=2), car("M")]
    head = header(grid_map(), cars, active=1)
    # Seat 0 stands still (1), seat 1's missed turn is passed at once (2).
    assert ok(head, roll(3), move(0, "M"))["still_turns"] == 2
    tight = header(grid_map(), cars, {"stall_turns": 2}, active=1)
    out = ok(tight, roll(3), move(0, "M"))
    assert (out["termination"], out["turn"]) == ("stalled", None)
    assert out["cars"][1]["missed_turns"] == 1  # the missed turn that stalled it was used


def test_G22_stall_turns_0_switches_the_rule_off() -> None:
    head = header(line_map(), [car("M"), car("M")], {"stall_turns": 0}, active=1, still_turns=500)
    out = ok(head, roll(3), move(0, "M"), roll(3), move(1, "M"))
    assert (out["still_turns"], out["termination"], out["phase"]) == (502, None, "playing")


def test_G22_collecting_the_last_card_ends_the_game_as_all_collected() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], active=1, deck=[], still_turns=7)
    out = ok(head, roll(2), move(0, "a2", "a3", "d1"))
    assert (out["termination"], out["winners"], out["still_turns"]) == ("all_collected", [0], 7)


@pytest.mark.parametrize("still", [-1, "3", 3, 4])
def test_G22_records_6_1_a_position_still_turns_must_be_a_count_below_the_limit(
    still: object,
) -> None:
    head = header(line_map(), [car("M"), car("M")], {"stall_turns": 3}, active=1)
    head["position"]["still_turns"] = still
    assert malformed(head)


def test_G22_the_seeded_simulation_of_a_blocked_table_ends_by_the_rule() -> None:
    """Two cars that never move (every seat stands still): the game ends after exactly
    ``stall_turns`` turns, scored as it stands, with the Outcome's termination."""
    state = new_game(seats=2, seed=3, options={"stall_turns": 7})
    turns = 0
    while state.result() is None:
        step = state.next_step()
        if step is not None:
            state.run_step(step)
            continue
        seat = state.to_move()
        assert seat is not None
        state.apply(Move(seat, (state.game_map.ids[state.cars[seat].pos],)))
        turns += 1
    outcome = state.result()
    assert outcome is not None and outcome.termination == "stalled" and turns == 7
    assert outcome.termination in SPEC.terminations and outcome.winners == (0, 1)
    assert state.to_json()["termination"] == "stalled"
