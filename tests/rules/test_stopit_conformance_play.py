"""Stop it! conformance, play side: timers (records.md §5.4), the phase after a stop, the
evaluation record (§5.5) and the reason codes with their precedence (§5.6).

Every test replays a record (tests.support.replay via tests/games/stopit/scenario.py) and
compares the exact §5.5 object, exit status, reason code and rule id. It complements
tests/rules/test_stopit.py, which has one scenario per rule; these pin down the points that
file leaves open (timer chains, several holders, precedence between every pair of codes).
"""

from __future__ import annotations

from typing import Any

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
    output,
    play,
    run,
    stacks,
)
from tests.support import replay

# ---------------------------------------------------------------- §5.4 timers


def test_I35_I37_I21_timers_fire_in_order_in_one_clock_jump() -> None:
    """One clock line past three deadlines fires grace end, Go timeout and end-game timeout,
    each at its own time (the end-game timer counts from the automatic Go at 13100)."""
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["blue#1"], S5=[]),
        hands=[["STOP-blue#1"], []],
    )
    prefix = [grab(1, 50, "S2", "blue#1"), call(0, 100, "S1", "STOP-red#1")]
    expect(
        run(head, *prefix),
        2,
        phase="interrupted",
        clock=100,
        stacks=stacks(S5=[]),
        hands=[["STOP-blue#1"], []],
        held=[None, "blue#1"],
        interrupt={"card": "STOP-red#1", "by": 0, "deadline": 3100},
        removed=["STOP-red#1"],
    )
    after = {
        "stacks": stacks(S5=[]),
        "hands": [["STOP-blue#1"], ["blue#1"]],
        "supply": 13,
        "minus_cards": [1, 1],
        "scores": [1, 1],
        "removed": ["STOP-red#1"],
        "last_evaluation": evaluation("STOP-red#1", 0, "red", [0, 0], [0, 1], [1, 1]),
    }
    expect(run(head, *prefix, clock(13099)), 3, phase="waiting_go", go_seat=0, clock=13099, **after)
    expect(run(head, *prefix, clock(13100)), 3, clock=13100, **after)
    expect(run(head, *prefix, clock(28099)), 3, clock=28099, **after)
    expect(
        run(head, *prefix, clock(100000)),
        3,
        phase="game_over",
        clock=100000,
        winners=[0, 1],
        **after,
    )
    expect(
        run(head, *prefix, clock(100000), play(0, 100001, "STOP-blue#1")),
        3,
        error=(5, "game_over", "I-20"),
        phase="game_over",
        clock=100001,
        winners=[0, 1],
        **after,
    )


def test_I37_go_timeout_due_at_the_go_time_fires_first() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"]))
    prefix = [call(1, 100, "S1", "STOP-red#1")]
    common: dict[str, Any] = {
        "stacks": stacks(S1=["red#1"]),
        "supply": 13,
        "minus_cards": [1, 1],
        "scores": [1, 1],
        "removed": ["STOP-red#1"],
        "last_evaluation": evaluation("STOP-red#1", 1, "red", [0, 0], [0, 1], [1, 1]),
    }
    expect(run(head, *prefix, go(1, 10099)), 2, clock=10099, **common)
    expect(
        run(head, *prefix, go(1, 10100)),
        1,
        error=(3, "not_waiting", "I-37"),
        clock=10100,
        **common,
    )


def test_I37_go_timeout_counts_from_the_evaluation_not_the_call() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["red#1"]),
        hands=[[], ["red#2"]],
    )
    prefix = [grab(0, 10, "S2", "red#1"), call(1, 100, "S1", "STOP-red#1"), insert(0, 700, 0)]
    assert output(head, *prefix, clock(10699))["phase"] == "waiting_go"
    data = output(head, *prefix, clock(10700))
    assert (data["phase"], data["go_seat"], data["clock"]) == ("running", None, 10700)


def test_I35_I37_timing_options_are_used_by_replay() -> None:
    head = header(
        options={"sort_grace_ms": 500, "go_timeout_ms": 1000, "min_pause_ms": 200},
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["red#1"]),
    )
    prefix = [grab(0, 10, "S2", "red#1"), call(1, 100, "S1", "STOP-red#1")]
    assert output(head, *prefix)["interrupt"] == {"card": "STOP-red#1", "by": 1, "deadline": 600}
    assert output(head, *prefix, clock(599))["phase"] == "interrupted"
    assert output(head, *prefix, clock(600))["hands"] == [["red#1"], []]
    assert error_of(head, *prefix, go(1, 799)) == (4, "not_waiting", "I-37")
    assert output(head, *prefix, go(1, 800))["phase"] == "running"
    assert output(head, *prefix, clock(1599))["phase"] == "waiting_go"
    assert output(head, *prefix, clock(1600))["phase"] == "running"


def test_I37_replay_min_pause_defaults_to_zero() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"]))
    data = output(head, call(1, 100, "S1", "STOP-red#1"), go(1, 100))
    assert (data["phase"], data["clock"]) == ("running", 100)


def test_I21_endgame_timeout_counts_from_the_last_go() -> None:
    head = header(
        phase="running", stacks=stacks(S5=[]), hands=[["STOP-red#1"], ["STOP-blue#1", "red#1"]]
    )
    prefix = [play(0, 1000, "STOP-red#1"), go(0, 5000)]
    assert output(head, *prefix, clock(19999))["phase"] == "running"
    over = output(head, *prefix, clock(20000))
    assert (over["phase"], over["winners"], over["clock"]) == ("game_over", [1], 20000)
    assert over["hands"] == [[], ["STOP-blue#1", "red#1"]]
    # Without the Go the game waits: no end-game timer outside running; Go timeout first.
    assert output(head, play(0, 1000, "STOP-red#1"), clock(10999))["phase"] == "waiting_go"
    timed = output(head, play(0, 1000, "STOP-red#1"), clock(25999))
    assert (timed["phase"], timed["clock"]) == ("running", 25999)
    assert output(head, play(0, 1000, "STOP-red#1"), clock(26000))["phase"] == "game_over"


def test_I21_IA16_a_held_stop_card_in_the_held_slot_keeps_the_game_going() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1"], S2=["STOP-red#1"], S5=[]))
    data = output(head, grab(1, 5, "S2", "STOP-red#1"), grab(0, 10, "S1", "red#1"))
    assert (data["phase"], data["held"]) == ("running", ["red#1", "STOP-red#1"])
    assert (
        output(head, grab(1, 5, "S2", "STOP-red#1"), grab(0, 10, "S1", "red#1"), clock(15010))[
            "phase"
        ]
        == "game_over"
    )


def test_I21_a_call_that_empties_the_stacks_ends_the_game_after_its_evaluation() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1"], S5=[]), hands=[["red#1"], []])
    expect(
        run(head, call(0, 10, "S1", "STOP-red#1")),
        1,
        phase="game_over",
        clock=10,
        stacks=stacks(S5=[]),
        hands=[["red#1"], []],
        supply=14,
        minus_cards=[0, 1],
        scores=[0, 1],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 0, "red", [1, 0], [1], [0, 1]),
        winners=[0],
    )


def test_I35_timers_never_fire_at_the_end_of_the_record() -> None:
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1"], S2=["red#1"]))
    events = [
        grab(0, 10, "S2", "red#1"),
        call(1, 100, "S1", "STOP-red#1"),
        grab(1, 5000, "S5", None),
    ]
    cut = replay(head, *events, upto=2)
    assert cut.exit_code == 0 and cut.output is not None
    assert (cut.output["phase"], cut.output["clock"], cut.output["applied"]) == (
        "interrupted",
        100,
        2,
    )
    assert cut.output == output(head, *events[:2]) | {"applied": 2}
    # The third line moves the clock past the grace first: its rejection shows the evaluation.
    late = run(head, *events)
    assert late.exit_code == 2 and late.output is not None
    assert (late.output["phase"], late.output["clock"]) == ("waiting_go", 5000)
    assert late.output["error"]["reason"] == "not_running"


def test_I30_clock_lines_only_move_time_and_count_as_applied() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1"]), clock=40)
    expect(run(head, clock(40), clock(41), clock(500)), 3, clock=500, stacks=stacks(S1=["red#1"]))
    assert run(head, clock(39)).exit_code == 1
    assert run(head, grab(0, 40, "S1", "red#1")).exit_code == 0
    assert run(head, grab(0, 39, "S1", "red#1")).exit_code == 1
    over = header(phase="running", stacks=stacks(S5=[]))
    assert output(over, clock(77))["clock"] == 77


def test_I30_a_rejected_event_shows_the_clock_and_timers_it_moved_past() -> None:
    head = header(
        phase="running", stacks=stacks(S1=["STOP-red#1"], S2=["red#1"]), hands=[[], ["red#2"]]
    )
    prefix = [grab(0, 10, "S2", "red#1"), call(1, 100, "S1", "STOP-red#1")]
    expect(
        run(head, *prefix, grab(0, 5000, "S5", "brown#17")),
        2,
        error=(4, "not_running", "I-31"),
        phase="waiting_go",
        go_seat=1,
        clock=5000,
        hands=[["red#1"], ["red#2"]],
        supply=13,
        minus_cards=[1, 1],
        scores=[1, 1],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 1, "red", [1, 1], [0, 1], [1, 1]),
    )


# ---------------------------------------------------------------- the phase after a stop


def test_I17_I35_play_stop_takes_the_card_out_at_once_and_waits_for_held_cards() -> None:
    head = header(
        phase="running", stacks=stacks(S2=["blue#1"]), hands=[["red#1", "STOP-red#1"], ["red#2"]]
    )
    expect(
        run(head, grab(1, 100, "S2", "blue#1"), play(0, 200, "STOP-red#1")),
        2,
        phase="interrupted",
        clock=200,
        hands=[["red#1"], ["red#2"]],
        held=[None, "blue#1"],
        interrupt={"card": "STOP-red#1", "by": 0, "deadline": 3200},
        removed=["STOP-red#1"],
    )


def test_I35_evaluation_waits_for_the_last_held_card() -> None:
    head = header(
        3,
        phase="running",
        stacks=stacks(S1=["STOP-green#1"], S2=["green#1"], S3=["red#1"]),
        hands=[["green#2"], ["red#2"], []],
    )
    prefix = [
        grab(1, 10, "S2", "green#1"),
        grab(2, 11, "S3", "red#1"),
        call(0, 100, "S1", "STOP-green#1"),
        insert(2, 200, 0),
    ]
    expect(
        run(head, *prefix),
        4,
        seats=3,
        phase="interrupted",
        clock=200,
        hands=[["green#2"], ["red#2"], ["red#1"]],
        held=[None, "green#1", None],
        interrupt={"card": "STOP-green#1", "by": 0, "deadline": 3100},
        removed=["STOP-green#1"],
    )
    expect(
        run(head, *prefix, insert(1, 300, 1)),
        5,
        seats=3,
        phase="waiting_go",
        go_seat=0,
        clock=300,
        hands=[["green#2"], ["red#2", "green#1"], ["red#1"]],
        supply=14,
        minus_cards=[0, 0, 1],
        scores=[0, 0, 1],
        removed=["STOP-green#1"],
        last_evaluation=evaluation("STOP-green#1", 0, "green", [1, 1, 0], [2], [0, 0, 1]),
    )
    assert output(head, *prefix, insert(1, 300, 1), clock(10299))["phase"] == "waiting_go"
    assert output(head, *prefix, insert(1, 300, 1), clock(10300))["phase"] == "running"


def test_I35_grace_end_inserts_every_held_card_at_the_right_end() -> None:
    head = header(
        3,
        phase="running",
        stacks=stacks(S1=["SUPER#1"], S2=["green#1"], S3=["red#1"]),
        hands=[["green#2"], ["red#2", "blue#1"], ["red#3"]],
    )
    prefix = [
        grab(1, 10, "S2", "green#1"),
        grab(2, 11, "S3", "red#1"),
        call(0, 100, "S1", "SUPER#1"),
    ]
    expect(
        run(head, *prefix, clock(3100)),
        4,
        seats=3,
        phase="waiting_go",
        go_seat=0,
        clock=3100,
        hands=[["green#2"], ["red#2", "blue#1", "green#1"], ["red#3", "red#1"]],
        supply=14,
        minus_cards=[1, 0, 0],
        scores=[1, 0, 0],
        removed=["SUPER#1"],
        last_evaluation=evaluation("SUPER#1", 0, None, [1, 3, 2], [0], [1, 0, 0]),
    )


def test_I36_fumbles_go_back_to_their_own_stacks_listed_ascending() -> None:
    head = header(
        3,
        options={"drop_penalty": "fumble"},
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["red#1", "blue#1"], S3=["green#1", "blue#2"]),
        hands=[["red#2"], ["red#3"], ["red#4"]],
    )
    prefix = [grab(2, 10, "S2", "red#1"), grab(1, 11, "S3", "green#1")]
    expect(
        run(head, *prefix, call(2, 100, "S1", "STOP-red#1"), clock(3100)),
        4,
        seats=3,
        phase="waiting_go",
        go_seat=2,
        clock=3100,
        stacks=stacks(S2=["red#1", "blue#1"], S3=["green#1", "blue#2"]),
        hands=[["red#2"], ["red#3"], ["red#4"]],
        supply=10,
        minus_cards=[1, 2, 2],
        scores=[1, 2, 2],
        removed=["STOP-red#1"],
        last_evaluation=evaluation(
            "STOP-red#1", 2, "red", [1, 1, 1], [0, 1, 2], [1, 2, 2], fumbled=[1, 2]
        ),
    )


def test_I19_I36_short_supply_hands_out_minimum_then_unsorted_then_fumbles() -> None:
    """Decision (records.md is silent): an I-36 fumble point comes after the I-12/I-18 and
    I-13 points, each group in seat order from the caller (I-19); the rest are extra points.
    Here P2 (minimum) and P0 (unsorted) get the last two cards, the fumbling caller P1 an
    extra point."""
    head = header(
        3,
        options={"drop_penalty": "fumble"},
        phase="running",
        stacks=stacks(S1=["STOP-blue#1"], S2=["red#1"]),
        hands=[["blue#1", "red#2", "blue#2"], ["blue#3"], []],
        supply=2,
    )
    prefix = [grab(1, 10, "S2", "red#1"), call(1, 100, "S1", "STOP-blue#1")]
    expect(
        run(head, *prefix, clock(3100)),
        3,
        seats=3,
        phase="game_over",
        clock=3100,
        stacks=stacks(S2=["red#1"]),
        hands=[["blue#1", "red#2", "blue#2"], ["blue#3"], []],
        supply=0,
        minus_cards=[1, 0, 1],
        extra_points=[0, 1, 0],
        scores=[1, 1, 1],
        removed=["STOP-blue#1"],
        last_evaluation=evaluation(
            "STOP-blue#1", 1, "blue", [2, 1, 0], [2], [1, 1, 1], unsorted=[0], fumbled=[1]
        ),
        winners=[0, 1, 2],
    )


def test_I20_supply_emptied_at_the_grace_end_ends_the_game() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1"], S2=["blue#1"]),
        hands=[["red#1"], []],
        supply=1,
        minus_cards=[4, 2],
    )
    prefix = [grab(1, 10, "S2", "blue#1"), call(0, 20, "S1", "STOP-red#1")]
    expect(
        run(head, *prefix, clock(3020), go(0, 3021)),
        3,
        error=(5, "game_over", "I-20"),
        phase="game_over",
        clock=3021,
        hands=[["red#1"], ["blue#1"]],
        supply=0,
        minus_cards=[4, 3],
        scores=[4, 3],
        removed=["STOP-red#1"],
        last_evaluation=evaluation("STOP-red#1", 0, "red", [1, 0], [1], [0, 1]),
        winners=[1],
    )


# ---------------------------------------------------------------- §5.5 the evaluation record


def test_I18_I19_evaluation_record_shape_and_ascending_seat_lists() -> None:
    """Caller P2 of four: ``minimum``/``unsorted`` are ascending, not in hand-out order
    (P2 gets the last card before P0: seat order from the caller, I-19)."""
    hands = [
        ["red#1", "blue#1", "red#2"],
        ["red#3", "red#4", "STOP-red#1"],
        ["green#1", "yellow#1", "green#2"],
        ["blue#2", "blue#3", "purple#1", "SUPER#2"],
    ]
    head = header(4, phase="running", stacks=stacks(S1=["SUPER#1"]), hands=hands, supply=2)
    result = run(head, call(2, 10, "S1", "SUPER#1"))
    assert result.output is not None
    assert list(result.output) == [
        "game",
        "ruleset",
        "phase",
        "seats",
        "clock",
        "stacks",
        "hands",
        "held",
        "supply",
        "minus_cards",
        "extra_points",
        "scores",
        "go_seat",
        "interrupt",
        "removed",
        "last_evaluation",
        "winners",
        "applied",
    ]
    record = result.output["last_evaluation"]
    assert list(record) == [
        "card",
        "caller",
        "colour",
        "counts",
        "minimum",
        "unsorted",
        "fumbled",
        "awarded",
    ]
    expect(
        result,
        1,
        seats=4,
        phase="game_over",
        clock=10,
        hands=hands,
        supply=0,
        minus_cards=[0, 1, 1, 0],
        extra_points=[1, 0, 0, 0],
        scores=[1, 1, 1, 0],
        removed=["SUPER#1"],
        last_evaluation=evaluation(
            "SUPER#1", 2, None, [3, 2, 3, 3], [1], [1, 1, 1, 0], unsorted=[0, 2]
        ),
        winners=[3],
    )


def test_I17_a_superstop_played_from_the_hand_counts_every_colour() -> None:
    hands = [["SUPER#1", "red#1"], ["red#2", "blue#1", "STOP-blue#1"]]
    head = header(phase="running", hands=hands)
    expect(
        run(head, play(0, 10, "SUPER#1")),
        1,
        phase="waiting_go",
        go_seat=0,
        clock=10,
        hands=[["red#1"], hands[1]],
        supply=14,
        minus_cards=[1, 0],
        scores=[1, 0],
        removed=["SUPER#1"],
        last_evaluation=evaluation("SUPER#1", 0, None, [1, 2], [0], [1, 0]),
    )


def test_I14_removed_lists_stop_cards_in_the_order_they_left() -> None:
    head = header(
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "SUPER#2"], S2=["red#1"]),
        hands=[["STOP-blue#1"], []],
    )
    data = output(
        head,
        play(0, 10, "STOP-blue#1"),
        go(0, 20),
        call(1, 30, "S1", "STOP-red#1"),
        go(1, 40),
        call(0, 50, "S1", "SUPER#2"),
    )
    assert data["removed"] == ["STOP-blue#1", "STOP-red#1", "SUPER#2"]
    assert data["stacks"] == stacks(S2=["red#1"])


def test_I36_a_held_card_from_a_position_is_fumbled_onto_S1() -> None:
    """Decision: a position's held card has no known stack; a fumble puts it on S1."""
    head = header(
        options={"drop_penalty": "fumble"},
        phase="running",
        stacks=stacks(S1=["blue#1"], S2=["STOP-red#1"]),
        hands=[["red#1"], []],
        held=[None, "red#2"],
    )
    data = output(head, call(0, 10, "S2", "STOP-red#1"), clock(3010))
    assert data["stacks"] == stacks(S1=["red#2", "blue#1"])
    assert data["last_evaluation"]["fumbled"] == [1]
    assert data["minus_cards"] == [0, 2]


def test_I11_a_held_card_from_a_waiting_position_may_be_inserted_before_go() -> None:
    """insert has no phase code (records.md §5.6); only the held slot limits it."""
    head = header(stacks=stacks(S1=["red#1"]), hands=[["blue#1"], []], held=["red#2", None])
    data = output(head, insert(0, 5, 1), go(0, 6), grab(0, 7, "S1", "red#1", 0))
    assert data["hands"][0] == ["red#1", "blue#1", "red#2"]
    assert error_of(head, go(0, 5), grab(0, 6, "S1", "red#1")) == (3, "held_full", "I-6")


def test_I3_minus_supply_option_sets_a_seeded_supply() -> None:
    head = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2}
    assert output({**head, "options": {"minus_supply": 3}})["supply"] == 3


def test_I37_a_waiting_position_has_no_go_timeout() -> None:
    """Decision: the Go timeout counts from an evaluation (records.md §5.4); a position in
    waiting_go has none, so only its go seat starts the game, however late."""
    head = header(3, stacks=stacks(S1=["red#1"]), go_seat=2, clock=50)
    data = output(head, clock(10**7))
    assert (data["phase"], data["go_seat"], data["clock"]) == ("waiting_go", 2, 10**7)
    assert output(head, clock(10**7), go(2, 10**7 + 1))["phase"] == "running"
