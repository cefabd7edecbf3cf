"""Stop conformance: the stall cap S-64 (proposed; our rule, the sources have none).

A round can go on for ever. Here (both piles exhausted) two seats pass
one identical pair to and fro: P0 interjects Y6 on Y9, P1 draws the Y9 back out of the
one-card reshuffle and interjects it, P0 draws the Y6 back, P1 has nothing to play and
nothing to draw and passes: five legal actions that lead back to the position they left.
``stall_actions`` ends the match after that many actions in one round, every hand scored as
it stands (S-54) and the lowest total winning (S-56). Scenarios are records, so a replay
reproduces the stall.
"""

from __future__ import annotations

from typing import Any

from stoptable.games.stop.state import StopState
from tests.rules.stop_scenarios import EN, JA, draw, interject, ok, pass_, pos, rejected, run

LOOP_POSITION = pos([["Y6", "R1", "R3"], ["B2", "G3"]], ["Y9"], 0, [], totals=[100, 90])
CYCLE = [interject(0, "Y6"), draw(1), interject(1, "Y9"), draw(0), pass_(1)]


def _cycles(n: int) -> list[dict[str, Any]]:
    return CYCLE * n


def test_S64_the_loop_returns_to_where_it_started_without_the_cap() -> None:
    start = ok(run(EN, LOOP_POSITION, options={"stall_actions": 0}))
    after = ok(run(EN, LOOP_POSITION, *_cycles(40), options={"stall_actions": 0}))
    for key in ("phase", "hands", "discard", "draw_pile", "turn", "totals"):
        assert after[key] == start[key], key
    assert after["phase"] == "playing" and after["applied"] == 200


def test_S64_the_cap_ends_the_match_as_it_stands() -> None:
    out = ok(run(EN, LOOP_POSITION, *_cycles(10), options={"stall_actions": 50}))
    assert out["phase"] == "game_over" and out["turn"] is None
    assert out["hands"] == [["R1", "R3", "Y6"], ["B2", "G3"]]
    assert out["round_scores"] == [10, 23]  # R1 + R3 + Y6 (face); B2 = 20, G3 (S-53)
    assert out["totals"] == [110, 113]  # far below target_score: the stall ends the match
    assert out["winners"] == [0]


def test_S64_ja_loops_the_same_way_without_voluntary_draws() -> None:
    # ja draws only without a legal play (S-14): neither seat has one when it draws here
    start = ok(run(JA, LOOP_POSITION, options={"stall_actions": 0}))
    after = ok(run(JA, LOOP_POSITION, *_cycles(40), options={"stall_actions": 0}))
    assert {k: after[k] for k in ("hands", "discard", "turn")} == {
        k: start[k] for k in ("hands", "discard", "turn")
    }
    out = ok(run(JA, LOOP_POSITION, *CYCLE[:3], options={"stall_actions": 3}))
    assert out["phase"] == "game_over" and out["round_scores"] == [4, 23]  # Y6 is on the pile


def test_S64_after_the_stall_every_action_is_rejected() -> None:
    events = [*_cycles(1), interject(0, "Y6")]
    rejected(EN, LOOP_POSITION, *events, reason="round_over", options={"stall_actions": 5})


def test_S64_a_round_that_ends_on_the_last_counted_action_is_no_stall() -> None:
    # P0 goes out with its 3rd action of the round: a normal S-50 end, not a stall
    out_pos = pos([["Y6"], ["B2"]], ["Y9"], 0, ["R5", "R7"])  # P0 goes out at once
    state = StopState.from_position(EN, 2, out_pos, options={"stall_actions": 1})
    from stoptable.games.stop.actions import action_from_json

    state.apply(action_from_json({"seat": 0, "type": "interject", "card": "Y6", "calls": ["stop"]}))
    assert state.phase == "round_over" and not state.stalled
    assert state.result() is None


def test_S64_the_outcome_names_the_stall_and_the_count_restarts_each_round() -> None:
    from stoptable.games.stop.actions import action_from_json

    state = StopState.from_position(EN, 2, LOOP_POSITION, options={"stall_actions": 5})
    for line in CYCLE[:4]:
        state.apply(action_from_json(line))
    assert state.round_actions == 4 and state.phase == "playing"
    events = state.apply(action_from_json(CYCLE[4]))
    assert [e.kind for e in events][-2:] == ["stalled", "round_end"]
    outcome = state.result()
    assert outcome is not None and outcome.termination == "stalled"
    fresh = StopState.new_game(EN, 2, seed=3)
    assert fresh.round_actions == 0 and fresh.rules.stall_actions == 10_000
