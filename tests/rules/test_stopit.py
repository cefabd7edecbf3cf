"""Stop it! rules I-1..I-39 and decisions IA-*, one test per id, mostly as record scenarios.

Scenarios start from explicit positions (records.md §5.2) and assert the exact replay JSON of
records.md §5.5 (see tests/games/stopit/scenario.py). The simulator rules I-50..I-55 are
tested with the simulator.
"""

from __future__ import annotations

from collections import Counter

import pytest

from stoptable.core.errors import IllegalAction
from stoptable.games.stopit import (
    COMPOSITION,
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Ruleset,
    StopItState,
    is_sorted,
    kind_of,
    standard_deck,
)
from tests.games.stopit.scenario import (
    call,
    clock,
    error_of,
    evaluation,
    expect,
    go,
    grab,
    header,
    insert,
    move,
    output,
    play,
    run,
    stacks,
)

STANDARD = Ruleset.preset("stopit-standard", min_pause_ms=0)


def position_state(seats: int = 2, **position: object) -> StopItState:
    """An engine state from a position, as replay sets it up (min_pause_ms 0)."""
    position.setdefault("stacks", stacks())
    position.setdefault("hands", [[] for _ in range(seats)])
    return StopItState.from_position(STANDARD, seats, position)  # type: ignore[arg-type]


# ---------------------------------------------------------------- components and setup


def test_I1_IA1_150_components_135_cards_in_stacks() -> None:
    state = StopItState.new_game(STANDARD, 4, seed=5)
    data = state.to_json()
    cards = [c for s in data["stacks"] for c in s]
    assert len(cards) == len(set(cards)) == 135
    assert Counter(kind_of(c) for c in cards) == Counter(COMPOSITION)
    assert Counter(COMPOSITION)["red"] == 17 and COMPOSITION["STOP-red"] == 2
    assert COMPOSITION["SUPER"] == 2
    assert len(cards) + data["supply"] == 150


def test_IA1_a_133_card_deck_is_malformed() -> None:
    deck = standard_deck()[:133]
    result = run({"game": "stopit", "ruleset": "stopit-standard", "seats": 2, "deck": deck})
    assert result.exit_code == 1
    assert "135" in (result.message or "")


@pytest.mark.parametrize("seats", [1, 7])
def test_I2_two_to_six_players(seats: int) -> None:
    result = run({"game": "stopit", "ruleset": "stopit-standard", "seats": seats})
    assert result.exit_code == 2
    assert result.output is not None
    error = result.output.pop("error")
    assert result.output == {
        "game": "stopit",
        "ruleset": "stopit-standard",
        "seats": seats,
        "applied": 0,
    }
    assert (error["line"], error["reason"], error["rule"]) == (1, "player_count", "I-2")
    for ok in (2, 6):
        assert run({"game": "stopit", "ruleset": "stopit-standard", "seats": ok}).exit_code == 0


def test_I3_IA2_deck_dealt_round_robin_into_five_stacks_of_27() -> None:
    deck = standard_deck()[::-1]
    result = run({"game": "stopit", "ruleset": "stopit-standard", "seats": 3, "deck": deck})
    expect(
        result,
        0,
        seats=3,
        phase="waiting_go",
        go_seat=0,
        stacks=[deck[i::5] for i in range(5)],
    )
    assert all(len(deck[i::5]) == 27 for i in range(5))
    seeded = output({"game": "stopit", "ruleset": "stopit-standard", "seats": 3, "seed": 11})
    again = output({"game": "stopit", "ruleset": "stopit-standard", "seats": 3, "seed": 11})
    assert seeded == again
    assert sorted(c for s in seeded["stacks"] for c in s) == sorted(deck)
    assert [len(s) for s in seeded["stacks"]] == [27] * 5


def test_IA2_stack_count_option_deals_round_robin() -> None:
    deck = standard_deck()
    head = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2, "deck": deck}
    data = output({**head, "options": {"stack_count": 4}})
    assert data["stacks"] == [deck[i::4] for i in range(4)]
    assert [len(s) for s in data["stacks"]] == [34, 34, 34, 33]


def test_I4_IA3_starts_waiting_for_the_first_go_seat() -> None:
    deck = standard_deck()
    head = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2, "deck": deck}
    assert error_of(head, grab(0, 5, "S1", deck[0])) == (2, "not_running", "I-31")
    assert error_of(head, go(1, 5)) == (2, "not_go_seat", "I-15")
    assert output(head, go(0, 5))["phase"] == "running"
    shifted = {**head, "options": {"first_go_seat": 1}}
    assert output(shifted)["go_seat"] == 1
    assert error_of(shifted, go(0, 5)) == (2, "not_go_seat", "I-15")
    assert output(shifted, go(1, 5))["phase"] == "running"


# ---------------------------------------------------------------- grabbing


def test_I5_only_the_top_card_can_be_taken() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "blue#1"]))
    result = run(head, grab(0, 10, "S1", "blue#1"))
    expect(result, 0, error=(2, "stale", "I-31"), clock=10, stacks=stacks(S1=["red#1", "blue#1"]))
    result = run(head, grab(0, 10, "S1", "red#1"))
    expect(result, 1, clock=10, stacks=stacks(S1=["blue#1"]), held=["red#1", None])


def test_I6_IA4_one_held_slot_blocks_grab_move_and_play() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["red#1", "blue#1"]),
        hands=[["STOP-red#1", "green#1"], []],
    )
    first = grab(0, 10, "S1", "red#1")
    assert error_of(head, first, grab(0, 20, "S1", "blue#1")) == (3, "held_full", "I-6")
    assert error_of(head, first, move(0, 20, 0, 1)) == (3, "held_full", "I-6")
    assert error_of(head, first, play(0, 20, "STOP-red#1")) == (3, "held_full", "I-6")
    result = run(head, first, insert(0, 20, 2), grab(0, 30, "S1", "blue#1"))
    expect(
        result,
        3,
        clock=30,
        hands=[["STOP-red#1", "green#1", "red#1"], []],
        held=["blue#1", None],
    )


def test_I7_insert_at_a_chosen_index_and_reorder() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1"]), hands=[["blue#1", "green#1"], []])
    result = run(head, grab(0, 10, "S1", "red#1"), insert(0, 20, 1))
    expect(result, 2, clock=20, hands=[["blue#1", "red#1", "green#1"], []])
    result = run(head, grab(0, 10, "S1", "red#1"), insert(0, 20, 1), move(0, 30, 0, 2))
    expect(result, 3, clock=30, hands=[["red#1", "green#1", "blue#1"], []])


def test_I8_IA5_sorted_means_one_block_per_colour() -> None:
    kinds = {c: kind_of(c) for c in ("red#1", "red#2", "blue#1", "blue#2", "STOP-green#1")}
    assert is_sorted(["red#1", "red#2", "blue#1"], kinds)
    assert is_sorted(["blue#1", "red#1", "red#2"], kinds)  # block order is free (IA-5)
    assert not is_sorted(["blue#1", "red#1", "blue#2"], kinds)
    assert is_sorted(["red#1", "STOP-green#1", "red#2"], kinds)
    head = header(
        3,
        phase="running",
        stacks=stacks(S1=["STOP-yellow#1"]),
        hands=[
            ["red#1", "red#2", "blue#1"],
            ["blue#2", "red#3", "blue#3"],
            ["red#4", "STOP-green#1", "red#5"],
        ],
    )
    result = run(head, call(0, 5, "S1", "STOP-yellow#1"))
    expect(
        result,
        1,
        seats=3,
        phase="waiting_go",
        go_seat=0,
        clock=5,
        hands=head["position"]["hands"],
        supply=11,
        minus_cards=[1, 2, 1],
        scores=[1, 2, 1],
        removed=["STOP-yellow#1"],
        last_evaluation=evaluation(
            "STOP-yellow#1", 0, "yellow", [0, 0, 0], [0, 1, 2], [1, 2, 1], unsorted=[1]
        ),
    )


# ---------------------------------------------------------------- stops


def test_I9_a_stop_card_uncovered_by_a_grab_turns_up() -> None:
    state = position_state(phase="running", stacks=stacks(S1=["red#1", "STOP-blue#1"]))
    events = state.apply(Grab(0, 10, 0, "red#1"))
    assert [e.kind for e in events] == ["grab", "turned_up"]
    assert events[1].public == {"stack": "S1", "card": "STOP-blue#1"}
    state.apply(CallStop(1, 20, 0, "STOP-blue#1"))
    assert state.phase == "interrupted"


def test_I10_call_interrupts_at_once() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-blue#1", "red#1"], S2=["blue#1"]),
        hands=[["blue#2", "blue#3"], ["red#2"]],
    )
    result = run(head, grab(1, 100, "S2", "blue#1"), call(0, 200, "S1", "STOP-blue#1"))
    expect(
        result,
        2,
        phase="interrupted",
        clock=200,
        stacks=stacks(S1=["red#1"]),
        hands=[["blue#2", "blue#3"], ["red#2"]],
        held=[None, "blue#1"],
        interrupt={"card": "STOP-blue#1", "by": 0, "deadline": 3200},
        removed=["STOP-blue#1"],
    )


def test_I11_IA11_held_card_may_be_inserted_once_then_counts() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-blue#1", "red#1"], S2=["blue#1"]),
        hands=[["blue#2", "blue#3"], ["red#2"]],
    )
    prefix = [grab(1, 100, "S2", "blue#1"), call(0, 200, "S1", "STOP-blue#1")]
    assert error_of(head, *prefix, grab(1, 250, "S1", "red#1")) == (4, "interrupted", "I-35")
    assert error_of(head, *prefix, move(1, 250, 0, 0)) == (4, "interrupted", "I-35")
    result = run(head, *prefix, insert(1, 300, 0))
    expect(
        result,
        3,
        phase="waiting_go",
        go_seat=0,
        clock=300,
        stacks=stacks(S1=["red#1"]),
        hands=[["blue#2", "blue#3"], ["blue#1", "red#2"]],
        supply=14,
        minus_cards=[0, 1],
        scores=[0, 1],
        removed=["STOP-blue#1"],
        last_evaluation=evaluation("STOP-blue#1", 0, "blue", [2, 1], [1], [0, 1]),
    )
    assert error_of(head, *prefix, insert(1, 300, 0), insert(1, 310, 0)) == (
        5,
        "held_empty",
        "I-32",
    )


def test_I12_IA12_smallest_count_gets_a_minus_card_ties_and_zero_included() -> None:
    hands = [["green#1", "green#2"], ["red#2"], ["red#1", "STOP-green#1"]]
    head = header(3, phase="running", stacks=stacks(S1=["STOP-green#2"]), hands=hands)
    expect(
        run(head, call(0, 10, "S1", "STOP-green#2")),
        1,
        seats=3,
        phase="waiting_go",
        go_seat=0,
        clock=10,
        hands=hands,
        supply=13,
        minus_cards=[0, 1, 1],
        scores=[0, 1, 1],
        removed=["STOP-green#2"],
        last_evaluation=evaluation("STOP-green#2", 0, "green", [2, 0, 0], [1, 2], [0, 1, 1]),
    )


def test_I13_unsorted_hand_gets_one_extra_card_per_evaluation() -> None:
    hands = [["red#1", "blue#1", "red#2", "blue#2", "red#3"], ["yellow#1"]]
    head = header(phase="running", stacks=stacks(S2=["STOP-yellow#1"]), hands=hands)
    expect(
        run(head, call(1, 10, "S2", "STOP-yellow#1")),
        1,
        phase="waiting_go",
        go_seat=1,
        clock=10,
        hands=hands,
        supply=13,
        minus_cards=[2, 0],
        scores=[2, 0],
        removed=["STOP-yellow#1"],
        last_evaluation=evaluation("STOP-yellow#1", 1, "yellow", [0, 1], [0], [2, 0], [0]),
    )


def test_I14_called_stop_card_leaves_the_game_and_uncovers_the_next() -> None:
    head = header(phase="running", stacks=stacks(S3=["STOP-red#1", "green#1"]))
    data = output(head, call(1, 10, "S3", "STOP-red#1"))
    assert data["stacks"] == stacks(S3=["green#1"])
    assert data["removed"] == ["STOP-red#1"]
    assert data["phase"] == "waiting_go"


def test_I15_only_the_caller_restarts_and_hands_are_kept() -> None:
    head = header(
        phase="running", stacks=stacks(S1=["STOP-red#1", "blue#1"]), hands=[["red#1"], []]
    )
    prefix = [call(1, 10, "S1", "STOP-red#1")]
    assert error_of(head, *prefix, go(0, 20)) == (3, "not_go_seat", "I-15")
    assert error_of(head, *prefix, grab(0, 20, "S1", "blue#1")) == (3, "not_running", "I-31")
    result = run(head, *prefix, go(1, 20), grab(0, 30, "S1", "blue#1", pos=1))
    expect(
        result,
        3,
        clock=30,
        hands=[["red#1", "blue#1"], []],
        supply=14,
        minus_cards=[0, 1],
        scores=[0, 1],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 1, "red", [1, 0], [1], [0, 1]),
    )


def test_I16_IA10_stop_and_superstop_cards_can_be_snatched() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1"], S2=["SUPER#1"]))
    result = run(
        head,
        grab(0, 10, "S1", "STOP-red#1", pos=0),
        call(1, 10, "S1", "STOP-red#1"),
    )
    expect(
        result,
        1,
        error=(3, "stale", "I-34"),
        clock=10,
        stacks=stacks(S2=["SUPER#1"]),
        hands=[["STOP-red#1"], []],
    )
    result = run(head, grab(1, 10, "S2", "SUPER#1"), insert(1, 20, 0))
    expect(result, 2, clock=20, stacks=stacks(S1=["STOP-red#1"]), hands=[[], ["SUPER#1"]])


def test_I17_IA13_IA14_played_stop_evaluates_its_colour_and_player_restarts() -> None:
    hands = [["STOP-red#1", "red#1"], ["red#2", "STOP-red#2", "red#3"]]
    head = header(phase="running", stacks=stacks(S1=["blue#1"]), hands=hands)
    expect(
        run(head, play(0, 10, "STOP-red#1")),
        1,
        phase="waiting_go",
        go_seat=0,
        clock=10,
        stacks=stacks(S1=["blue#1"]),
        hands=[["red#1"], hands[1]],
        supply=14,
        minus_cards=[1, 0],
        scores=[1, 0],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 0, "red", [1, 2], [0], [1, 0]),
    )


def test_I18_superstop_counts_every_colour_card_without_stop_cards() -> None:
    hands = [
        ["red#1", "blue#1", "STOP-red#1", "STOP-blue#1"],
        ["red#2", "green#1", "green#2"],
        ["yellow#1", "brown#1", "yellow#2"],
    ]
    head = header(3, phase="running", stacks=stacks(S4=["SUPER#1"]), hands=hands)
    expect(
        run(head, call(1, 10, "S4", "SUPER#1")),
        1,
        seats=3,
        phase="waiting_go",
        go_seat=1,
        clock=10,
        hands=hands,
        supply=13,
        minus_cards=[1, 0, 1],
        scores=[1, 0, 1],
        removed=["SUPER#1"],
        last_evaluation=evaluation("SUPER#1", 1, None, [2, 3, 3], [0], [1, 0, 1], [2]),
    )


def test_I19_IA15_minus_cards_in_order_from_the_caller_then_extra_points() -> None:
    hands = [["red#1", "blue#1", "red#2"], [], []]
    head = header(
        3,
        phase="running",
        stacks=stacks(S1=["STOP-red#1"]),
        hands=hands,
        supply=1,
        minus_cards=[2, 0, 0],
    )
    expect(
        run(head, call(2, 10, "S1", "STOP-red#1")),
        1,
        seats=3,
        phase="game_over",
        clock=10,
        hands=hands,
        supply=0,
        minus_cards=[2, 0, 1],
        extra_points=[1, 1, 0],
        scores=[3, 1, 1],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 2, "red", [2, 0, 0], [1, 2], [1, 1, 1], [0]),
        winners=[1, 2],
    )


def test_I20_game_ends_when_the_last_minus_card_is_given() -> None:
    head = header(
        phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"]), hands=[["red#2"], []], supply=1
    )
    result = run(head, call(0, 10, "S1", "STOP-red#1"), go(0, 20))
    expect(
        result,
        1,
        error=(3, "game_over", "I-20"),
        phase="game_over",
        clock=20,
        stacks=stacks(S1=["red#1"]),
        hands=[["red#2"], []],
        supply=0,
        minus_cards=[0, 1],
        scores=[0, 1],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 0, "red", [1, 0], [1], [0, 1]),
        winners=[0],
    )
    state = position_state(**head["position"])
    state.apply(CallStop(0, 10, 0, "STOP-red#1"))
    outcome = state.result()
    assert outcome is not None and outcome.termination == "supply_empty"


def test_I21_IA16_exhausted_stacks_end_the_game() -> None:
    last = stacks(S1=["red#1"], S5=[])
    head = header(phase="running", stacks=last)
    expect(
        run(head, grab(0, 10, "S1", "red#1")),
        1,
        phase="game_over",
        clock=10,
        stacks=stacks(S5=[]),
        held=["red#1", None],
        winners=[0, 1],
    )
    holding = header(phase="running", stacks=last, hands=[[], ["STOP-blue#1"]])
    prefix = [grab(0, 10, "S1", "red#1")]
    assert output(holding, *prefix, clock(15009))["phase"] == "running"
    timed_out = output(holding, *prefix, clock(15010))
    assert (timed_out["phase"], timed_out["clock"]) == ("game_over", 15010)
    expect(
        run(holding, *prefix, play(1, 20, "STOP-blue#1"), insert(0, 30, 0)),
        3,
        phase="game_over",
        clock=30,
        stacks=stacks(S5=[]),
        hands=[["red#1"], []],
        supply=13,
        minus_cards=[1, 1],
        scores=[1, 1],
        removed=["STOP-blue#1"],
        last_evaluation=evaluation("STOP-blue#1", 1, "blue", [0, 0], [0, 1], [1, 1]),
        winners=[0, 1],
    )
    state = position_state(**holding["position"])
    state.apply(Grab(0, 10, 0, "red#1"))
    step = state.next_step()
    assert step is not None and (step.name, step.at) == ("endgame", 15010)
    assert state.run_step(step)[0].line == {"clock": 15010}
    outcome = state.result()
    assert outcome is not None and outcome.termination == "stacks_exhausted"


def test_I22_IA21_lowest_score_wins_and_ties_share() -> None:
    head = header(
        3,
        phase="running",
        stacks=stacks(S1=["red#1"], S5=[]),
        minus_cards=[3, 1, 2],
        extra_points=[0, 1, 0],
    )
    data = output(head, grab(0, 10, "S1", "red#1", pos=0))
    assert (data["phase"], data["scores"], data["winners"]) == ("game_over", [3, 2, 2], [1, 2])
    state = position_state(3, **head["position"])
    state.apply(Grab(0, 10, 0, "red#1", 0))
    outcome = state.result()
    assert outcome is not None
    assert (outcome.scores, outcome.winners, outcome.ranks) == ((3, 2, 2), (1, 2), (3, 1, 1))


def test_I23_IA6_no_drop_penalty_by_default() -> None:
    assert STANDARD.drop_penalty == "off"
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["blue#1"]),
        hands=[["red#1"], ["red#2"]],
    )
    data = output(head, grab(0, 10, "S2", "blue#1"), call(1, 20, "S1", "STOP-red#1"), clock(3020))
    assert data["hands"] == [["red#1", "blue#1"], ["red#2"]]
    assert data["last_evaluation"]["fumbled"] == []
    assert data["scores"] == [1, 1]


# ---------------------------------------------------------------- digital adaptation


def test_I30_same_time_requests_in_arrival_order() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "blue#1"]))
    a, b = grab(0, 100, "S1", "red#1"), grab(1, 100, "S1", "red#1")
    expect(
        run(head, a, b),
        1,
        error=(3, "stale", "I-31"),
        clock=100,
        stacks=stacks(S1=["blue#1"]),
        held=["red#1", None],
    )
    expect(
        run(head, b, a),
        1,
        error=(3, "stale", "I-31"),
        clock=100,
        stacks=stacks(S1=["blue#1"]),
        held=[None, "red#1"],
    )


def test_I31_stale_grab_rejected() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "blue#1"], S2=["green#1"]))
    assert error_of(head, grab(0, 10, "S1", "blue#1")) == (2, "stale", "I-31")
    assert error_of(head, grab(0, 10, "S3", None)) == (2, "empty_stack", "I-31")
    assert error_of(head, grab(0, 10, "S1", None)) == (2, "stale", "I-31")
    assert error_of(head, grab(0, 10, "S3", "red#1")) == (2, "stale", "I-31")
    assert run(head, grab(0, 10, "S9", "red#1")).exit_code == 1
    state = position_state(**head["position"])
    with pytest.raises(IllegalAction) as info:
        state.apply(Grab(1, 10, 0, "blue#1"))
    assert info.value.reason == "stale" and "red#1" in info.value.message


def test_I31_reason_precedence() -> None:
    over = header(phase="running", stacks=stacks(S1=["red#1"], S5=[]), held=["blue#1", None])
    assert error_of(over, grab(1, 5, "S1", "red#1"), grab(0, 6, "S1", None)) == (
        3,
        "game_over",
        "I-20",
    )
    waiting = header(stacks=stacks(S1=["red#1"]), held=["blue#1", None])
    assert error_of(waiting, grab(0, 5, "S1", "red#2")) == (
        2,
        "not_running",
        "I-31",
    )
    assert error_of(waiting, insert(0, 5, 3)) == (2, "bad_position", "I-32")
    running = header(
        phase="running", stacks=stacks(S1=["red#1"]), held=["blue#1", None], hands=[["red#9"], []]
    )
    assert error_of(running, grab(0, 5, "S1", "red#2", pos=9)) == (2, "held_full", "I-6")
    assert error_of(running, play(0, 5, "STOP-red#1")) == (2, "held_full", "I-6")
    assert error_of(running, grab(1, 5, "S1", "red#2", pos=9)) == (2, "stale", "I-31")
    assert error_of(running, play(1, 5, "red#9")) == (2, "not_a_stop_card", "I-33")
    assert error_of(running, play(1, 5, "STOP-red#1")) == (2, "not_in_hand", "I-33")
    assert error_of(running, go(0, 5)) == (2, "not_waiting", "I-37")


def test_I32_insert_positions_atomic_grab_and_moves() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "red#2"]), hands=[["blue#1"], []])
    assert error_of(head, insert(0, 5, 0)) == (2, "held_empty", "I-32")
    assert error_of(head, grab(0, 5, "S1", "red#1"), insert(0, 6, 2)) == (3, "bad_position", "I-32")
    assert error_of(head, grab(0, 5, "S1", "red#1", pos=2)) == (2, "bad_position", "I-32")
    assert error_of(head, move(0, 5, 0, 1)) == (2, "bad_position", "I-32")
    assert error_of(head, move(0, 5, 1, 0)) == (2, "bad_position", "I-32")
    result = run(head, grab(0, 5, "S1", "red#1", pos=0), grab(0, 6, "S1", "red#2", pos=1))
    expect(result, 2, clock=6, hands=[["red#1", "red#2", "blue#1"], []])


def test_I33_IA7_false_calls_rejected_without_penalty() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["red#1"], S2=["STOP-red#1", "STOP-blue#1"]),
        hands=[["red#2"], []],
    )
    assert error_of(head, call(1, 5, "S1", "red#1")) == (2, "not_a_stop_card", "I-33")
    assert error_of(head, call(1, 5, "S2", "STOP-blue#1")) == (2, "stale", "I-31")
    assert error_of(head, call(1, 5, "S3", None)) == (2, "empty_stack", "I-31")
    result = run(head, call(1, 5, "S2", "STOP-blue#1"))
    expect(
        result,
        0,
        error=(2, "stale", "I-31"),
        clock=5,
        stacks=head["position"]["stacks"],
        hands=[["red#2"], []],
    )


def test_IA7_false_stop_penalty_option_costs_a_minus_card() -> None:
    head = header(
        options={"false_stop_penalty": "minus_card"},
        phase="running",
        stacks=stacks(S1=["red#1"], S2=["STOP-red#1"]),
    )
    data = output(head, call(1, 5, "S1", "red#1"), call(0, 6, "S2", "STOP-blue#9"))
    assert (data["phase"], data["minus_cards"], data["supply"]) == ("running", [1, 1], 13)
    assert data["stacks"] == head["position"]["stacks"]


def test_I34_IA8_grab_and_call_race_first_arrival_wins() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1", "blue#1"]))
    called = call(1, 50, "S1", "STOP-red#1")
    assert error_of(head, called, grab(0, 50, "S1", "STOP-red#1")) == (3, "not_running", "I-31")
    called_first = run(head, called, go(1, 60), grab(0, 60, "S1", "STOP-red#1"))
    assert called_first.exit_code == 2 and called_first.output is not None
    assert called_first.output["error"]["reason"] == "stale"
    assert called_first.output["error"]["rule"] == "I-34"
    assert called_first.output["removed"] == ["STOP-red#1"]
    grabbed_first = run(head, grab(0, 50, "S1", "STOP-red#1"), call(1, 51, "S1", "STOP-red#1"))
    expect(
        grabbed_first,
        1,
        error=(3, "stale", "I-34"),
        clock=51,
        stacks=stacks(S1=["blue#1"]),
        held=["STOP-red#1", None],
    )


def test_contested_grabs_exactly_one_seat_gets_the_card() -> None:
    for gap in (0, 1, 250):
        state = position_state(3, phase="running", stacks=stacks(S2=["purple#3", "red#1"]))
        state.apply(Grab(2, 100, 1, "purple#3"))
        with pytest.raises(IllegalAction) as info:
            state.apply(Grab(0, 100 + gap, 1, "purple#3"))
        assert info.value.reason == "stale"
        assert "red#1" in info.value.message and "purple#3" in info.value.message
        assert state.held == [None, None, "purple#3"]
        assert state.to_json()["stacks"][1] == ["red#1"]
        assert state.clock == 100 + gap


def test_I35_grace_end_inserts_right_then_evaluates() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-blue#1", "red#1"], S2=["blue#1"]),
        hands=[["blue#2", "blue#3"], ["red#2"]],
    )
    prefix = [grab(1, 100, "S2", "blue#1"), call(0, 200, "S1", "STOP-blue#1")]
    assert output(head, *prefix, clock(3199))["phase"] == "interrupted"
    expect(
        run(head, *prefix, clock(3200)),
        3,
        phase="waiting_go",
        go_seat=0,
        clock=3200,
        stacks=stacks(S1=["red#1"]),
        hands=[["blue#2", "blue#3"], ["red#2", "blue#1"]],
        supply=14,
        minus_cards=[0, 1],
        scores=[0, 1],
        removed=["STOP-blue#1"],
        last_evaluation=evaluation("STOP-blue#1", 0, "blue", [2, 1], [1], [0, 1]),
    )
    late = run(head, *prefix, insert(1, 3200, 0))
    assert late.output is not None and late.output["error"]["reason"] == "held_empty"
    assert late.output["hands"][1] == ["red#2", "blue#1"]


def test_I36_fumble_puts_the_card_back_and_costs_a_minus_card() -> None:
    head = header(
        options={"drop_penalty": "fumble"},
        phase="running",
        stacks=stacks(S1=["STOP-blue#1", "red#1"], S2=["blue#1", "green#1"]),
        hands=[["blue#2"], ["red#2"]],
    )
    prefix = [grab(1, 100, "S2", "blue#1"), call(0, 200, "S1", "STOP-blue#1")]
    expect(
        run(head, *prefix, clock(3200)),
        3,
        phase="waiting_go",
        go_seat=0,
        clock=3200,
        stacks=stacks(S1=["red#1"], S2=["blue#1", "green#1"]),
        hands=[["blue#2"], ["red#2"]],
        supply=13,
        minus_cards=[0, 2],
        scores=[0, 2],
        removed=["STOP-blue#1"],
        last_evaluation=evaluation("STOP-blue#1", 0, "blue", [1, 0], [1], [0, 2], fumbled=[1]),
    )
    inserted = output(head, *prefix, insert(1, 3199, 1), clock(3200))
    assert inserted["last_evaluation"]["fumbled"] == []


def test_I37_go_timeout_and_minimum_pause() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"]))
    prefix = [call(1, 100, "S1", "STOP-red#1")]
    assert output(head, *prefix, clock(10099))["phase"] == "waiting_go"
    timed = output(head, *prefix, clock(10100))
    assert (timed["phase"], timed["go_seat"], timed["clock"]) == ("running", None, 10100)
    paused = header(
        options={"min_pause_ms": 2000}, phase="running", stacks=stacks(S1=["STOP-red#1"])
    )
    assert error_of(paused, *prefix, go(1, 2099)) == (3, "not_waiting", "I-37")
    assert output(paused, *prefix, go(1, 2100))["phase"] == "running"
    assert Ruleset.preset("stopit-standard").min_pause_ms == 2000
    both = output(
        header(
            phase="running",
            stacks=stacks(S1=["STOP-blue#1", "red#1"], S2=["blue#1"]),
            hands=[["blue#2"], []],
        ),
        grab(1, 100, "S2", "blue#1"),
        call(0, 200, "S1", "STOP-blue#1"),
        clock(20000),
    )
    assert (both["phase"], both["hands"][1], both["clock"]) == ("running", ["blue#1"], 20000)


def test_I38_IA20_view_shows_contents_but_not_order() -> None:
    state = position_state(
        3,
        phase="running",
        stacks=stacks(S1=["red#1", "blue#9"], S2=["STOP-red#1"]),
        hands=[["blue#1", "red#2", "blue#2"], ["green#1"], []],
    )
    state.apply(Grab(1, 10, 0, "red#1"))
    mine, theirs = state.view(0), state.view(2)
    assert mine["hand"] == ["blue#1", "red#2", "blue#2"]
    assert theirs["hand"] == [] and theirs["held"] is None
    assert theirs["held_cards"] == [None, "red#1", None]
    assert theirs["hand_kinds"][0] == {"red": 1, "blue": 2}
    assert theirs["tops"] == ["blue#9", "STOP-red#1", None, None, "brown#17"]
    assert theirs["stack_sizes"] == [1, 1, 0, 0, 1]
    assert theirs["revealed"] is None
    spectator = state.view(None)
    assert spectator["hand"] is None
    assert "blue#1" not in str({k: v for k, v in theirs.items() if k != "hand"})
    before = state.view(2)
    state.apply(Move(0, 20, 0, 2))
    assert state.view(2) == {**before, "clock": 20}
    state.apply(Insert(1, 30, 0))
    state.apply(CallStop(2, 40, 1, "STOP-red#1"))
    assert state.view(2)["revealed"] == [["red#2", "blue#2", "blue#1"], ["red#1", "green#1"], []]


def test_I39_engine_is_a_pure_state_machine() -> None:
    state = position_state(phase="running", stacks=stacks(S1=["red#1", "STOP-red#1"]))
    twin = state.copy()
    events = state.apply(Grab(0, 10, 0, "red#1"))
    assert twin.to_json()["stacks"][0] == ["red#1", "STOP-red#1"] and twin.clock == 0
    assert twin.apply(Grab(0, 10, 0, "red#1")) == events
    assert twin == state
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(Grab(0, 10, 0, "STOP-red#1"))
    assert state.to_json() == before and state == twin


# ---------------------------------------------------------------- other decisions


def test_IA9_two_visible_stops_each_need_their_own_call() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["STOP-blue#1", "blue#1"]),
        hands=[["red#2"], ["blue#2"]],
    )
    prefix = [call(0, 10, "S1", "STOP-red#1")]
    data = output(head, *prefix)
    assert data["stacks"][1] == ["STOP-blue#1", "blue#1"]
    assert error_of(head, *prefix, call(1, 20, "S2", "STOP-blue#1")) == (3, "not_running", "I-31")
    data = output(head, *prefix, go(0, 20), call(1, 30, "S2", "STOP-blue#1"))
    assert data["removed"] == ["STOP-red#1", "STOP-blue#1"]
    assert data["last_evaluation"]["card"] == "STOP-blue#1"


def test_IA10_superstop_sort_check_option() -> None:
    hands = [["red#1", "blue#1", "red#2"], ["red#3"]]
    head = header(phase="running", stacks=stacks(S1=["SUPER#1"]), hands=hands)
    assert output(head, call(1, 5, "S1", "SUPER#1"))["last_evaluation"]["unsorted"] == [0]
    off = header(
        options={"sort_check_every_evaluation": False},
        phase="running",
        stacks=stacks(S1=["SUPER#1", "STOP-red#1"]),
        hands=hands,
    )
    data = output(off, call(1, 5, "S1", "SUPER#1"))
    assert (data["last_evaluation"]["unsorted"], data["scores"]) == ([], [0, 1])
    data = output(off, call(1, 5, "S1", "SUPER#1"), go(1, 6), call(1, 7, "S1", "STOP-red#1"))
    assert data["last_evaluation"]["unsorted"] == [0]


def test_IA10_stop_cards_in_sort_check_option() -> None:
    hands = [["red#1", "STOP-green#1", "red#2"], ["red#3"]]
    on = header(phase="running", stacks=stacks(S1=["STOP-red#1"]), hands=hands)
    assert output(on, call(1, 5, "S1", "STOP-red#1"))["last_evaluation"]["unsorted"] == []
    off = header(
        options={"stop_cards_ignored_in_sort_check": False},
        phase="running",
        stacks=stacks(S1=["STOP-red#1"]),
        hands=hands,
    )
    assert output(off, call(1, 5, "S1", "STOP-red#1"))["last_evaluation"]["unsorted"] == [0]


def test_IA17_held_stop_only_while_running() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["blue#1"]),
        hands=[["STOP-blue#1"], []],
    )
    assert error_of(head, call(1, 5, "S1", "STOP-red#1"), play(0, 6, "STOP-blue#1")) == (
        3,
        "not_running",
        "I-31",
    )
    prefix = [grab(1, 5, "S2", "blue#1"), call(1, 6, "S1", "STOP-red#1")]
    assert error_of(head, *prefix, play(0, 7, "STOP-blue#1")) == (4, "interrupted", "I-35")
    waiting = header(stacks=stacks(S1=["red#1"]), hands=[["STOP-blue#1"], []])
    assert error_of(waiting, play(0, 5, "STOP-blue#1")) == (2, "not_running", "I-31")


def test_IA18_stop_on_top_at_setup_only_after_the_first_go() -> None:
    deck = standard_deck()[::-1]  # SUPER#2 is on top of S1
    head = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2, "deck": deck}
    assert deck[0] == "SUPER#2"
    assert error_of(head, call(1, 5, "S1", "SUPER#2")) == (2, "not_running", "I-31")
    data = output(head, go(0, 5), call(1, 6, "S1", "SUPER#2"))
    assert data["removed"] == ["SUPER#2"] and data["go_seat"] == 1


def test_IA19_caller_may_call_while_holding_and_insert_in_the_grace() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-green#1"], S2=["green#1"]),
        hands=[[], ["green#2"]],
    )
    data = output(head, grab(0, 5, "S2", "green#1"), call(0, 6, "S1", "STOP-green#1"))
    assert data["phase"] == "interrupted" and data["held"] == ["green#1", None]
    data = output(
        head, grab(0, 5, "S2", "green#1"), call(0, 6, "S1", "STOP-green#1"), insert(0, 7, 0)
    )
    assert data["last_evaluation"]["counts"] == [1, 1]
    assert data["last_evaluation"]["minimum"] == [0, 1]
    assert data["go_seat"] == 0


def test_I4_I37_legal_actions_match_what_apply_accepts() -> None:
    state = position_state(
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"]),
        hands=[["STOP-blue#1", "red#2"], []],
    )
    kinds = {type(a).__name__ for a in state.legal_actions(0)}
    assert kinds == {"Grab", "CallStop", "PlayStop"}
    for action in state.legal_actions(0, exhaustive=True):
        state.copy().apply(action)
    state.apply(CallStop(1, 5, 0, "STOP-red#1"))
    assert state.legal_actions(0) == [] and state.legal_actions(1) == [Go(1, 5)]
    state.apply(Go(1, 6))
    assert PlayStop(0, 6, "STOP-blue#1") in state.legal_actions(0)
    with pytest.raises(IllegalAction):
        state.apply(Grab(0, 6, 0, "STOP-red#1"))
