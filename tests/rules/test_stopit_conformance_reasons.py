"""Stop it! conformance: the reason codes of records.md §5.6, their precedence and rule ids.

For each phase, requests that break several rules at once must report the first code of
the §5.6 order (``game_over``; phase codes; ``held_full``/``held_empty``; then
``empty_stack``, ``stale``, ``not_a_stop_card``, ``not_in_hand``, ``bad_position``) with the
rule id of the §5.6 table, and leave exactly the state before the request (records.md §3).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.stopit.scenario import (
    call,
    error_of,
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

# ---------------------------------------------------------------- §5.6 reason codes

_HANDS = [["STOP-blue#1", "red#2"], ["red#3"]]
_STACKS = stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"])


def _state(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A header and prefix events reaching one phase; P1 holds green#1 unless over."""
    if name == "game_over":
        hands = [["red#3"], ["red#2", "blue#2"]]
        head = header(phase="running", stacks=stacks(S1=["red#1"], S5=[]), hands=hands)
        return head, [grab(0, 1, "S1", "red#1")]
    held: list[str | None] = [None, "green#1"]
    if name == "waiting_go":
        return header(stacks=_STACKS, hands=_HANDS, held=held), []
    head = header(phase="running", stacks=_STACKS, hands=_HANDS, held=held)
    if name == "running":
        return head, []
    return head, [call(0, 1, "S1", "STOP-red#1")]


_PRECEDENCE = [
    # game_over beats every other code (P0 holds red#1, P1's hand is empty of it)
    ("game_over", go(0, 5), "game_over", "I-20"),
    ("game_over", grab(1, 5, "S3", None), "game_over", "I-20"),
    ("game_over", grab(0, 5, "S1", "red#9"), "game_over", "I-20"),
    ("game_over", insert(0, 5, 9), "game_over", "I-20"),
    ("game_over", insert(1, 5, 0), "game_over", "I-20"),
    ("game_over", move(1, 5, 0, 9), "game_over", "I-20"),
    ("game_over", call(1, 5, "S3", None), "game_over", "I-20"),
    ("game_over", play(0, 5, "red#3"), "game_over", "I-20"),
    ("game_over", play(1, 5, "STOP-blue#1"), "game_over", "I-20"),
    # waiting_go: phase codes before held_full and the stack codes; insert has none
    ("waiting_go", go(1, 5), "not_go_seat", "I-15"),
    ("waiting_go", grab(1, 5, "S3", None), "not_running", "I-31"),
    ("waiting_go", grab(0, 5, "S1", "red#9"), "not_running", "I-31"),
    ("waiting_go", move(1, 5, 0, 9), "not_running", "I-31"),
    ("waiting_go", call(0, 5, "S2", "blue#1"), "not_running", "I-31"),
    ("waiting_go", play(1, 5, "red#3"), "not_running", "I-31"),
    ("waiting_go", play(0, 5, "STOP-blue#1"), "not_running", "I-31"),
    ("waiting_go", insert(0, 5, 0), "held_empty", "I-32"),
    ("waiting_go", insert(1, 5, 2), "bad_position", "I-32"),
    # running: held_full before empty_stack/stale/not_a_stop_card/bad_position
    ("running", go(0, 5), "not_waiting", "I-37"),
    ("running", grab(1, 5, "S3", None), "held_full", "I-6"),
    ("running", grab(1, 5, "S1", "red#9", 7), "held_full", "I-6"),
    ("running", move(1, 5, 0, 9), "held_full", "I-6"),
    ("running", play(1, 5, "red#3"), "held_full", "I-6"),
    ("running", insert(0, 5, 0), "held_empty", "I-32"),
    ("running", insert(1, 5, 2), "bad_position", "I-32"),
    ("running", insert(1, 5, -1), "bad_position", "I-32"),
    ("running", grab(0, 5, "S3", None), "empty_stack", "I-31"),
    ("running", grab(0, 5, "S3", "red#1"), "stale", "I-31"),
    ("running", grab(0, 5, "S1", None), "stale", "I-31"),
    ("running", grab(0, 5, "S1", "red#1", 9), "stale", "I-31"),
    ("running", grab(0, 5, "S1", "STOP-red#1", 3), "bad_position", "I-32"),
    ("running", grab(0, 5, "S1", "STOP-red#1", -1), "bad_position", "I-32"),
    ("running", move(0, 5, 2, 0), "bad_position", "I-32"),
    ("running", move(0, 5, 0, 2), "bad_position", "I-32"),
    ("running", move(0, 5, -1, 0), "bad_position", "I-32"),
    ("running", call(0, 5, "S3", None), "empty_stack", "I-31"),
    ("running", call(0, 5, "S2", "blue#1"), "not_a_stop_card", "I-33"),
    ("running", play(0, 5, "red#2"), "not_a_stop_card", "I-33"),
    ("running", play(0, 5, "red#3"), "not_a_stop_card", "I-33"),
    ("running", play(0, 5, "STOP-red#2"), "not_in_hand", "I-33"),
    ("running", play(0, 5, "STOP-red#1"), "not_in_hand", "I-33"),
    # interrupted: the phase code before held_full and the stack codes
    ("interrupted", go(0, 5), "not_waiting", "I-37"),
    ("interrupted", grab(1, 5, "S3", None), "interrupted", "I-35"),
    ("interrupted", grab(0, 5, "S1", "red#1"), "interrupted", "I-35"),
    ("interrupted", move(1, 5, 0, 9), "interrupted", "I-35"),
    ("interrupted", move(0, 5, 0, 1), "interrupted", "I-35"),
    ("interrupted", call(0, 5, "S2", "blue#1"), "interrupted", "I-35"),
    ("interrupted", play(0, 5, "STOP-blue#1"), "interrupted", "I-35"),
    ("interrupted", play(1, 5, "red#3"), "interrupted", "I-35"),
    ("interrupted", insert(0, 5, 0), "held_empty", "I-32"),
    ("interrupted", insert(1, 5, 2), "bad_position", "I-32"),
]


@pytest.mark.parametrize(("phase", "event", "reason", "rule"), _PRECEDENCE)
def test_I20_I31_I35_I6_I32_I33_reason_precedence(
    phase: str, event: dict[str, Any], reason: str, rule: str
) -> None:
    head, prefix = _state(phase)
    before = run(head, *prefix)
    assert before.exit_code == 0 and before.output is not None
    assert before.output["phase"] == phase
    result = run(head, *prefix, event)
    assert result.exit_code == 2 and result.output is not None
    error = result.output.pop("error")
    line = len(prefix) + 2
    assert (error["line"], error["reason"], error["rule"]) == (line, reason, rule)
    assert result.output == {**before.output, "clock": 5}


@pytest.mark.parametrize(
    ("phase", "event"),
    [
        ("waiting_go", insert(1, 5, 1)),
        ("waiting_go", go(0, 5)),
        ("running", insert(1, 5, 1)),
        ("running", call(1, 5, "S1", "STOP-red#1")),
        ("running", play(0, 5, "STOP-blue#1")),
        ("running", move(0, 5, 1, 1)),
        ("running", grab(0, 5, "S2", "blue#1", 2)),
        ("interrupted", insert(1, 5, 0)),
    ],
)
def test_I7_I11_I32_IA19_accepted_requests_in_each_phase(phase: str, event: dict[str, Any]) -> None:
    head, prefix = _state(phase)
    result = run(head, *prefix, event)
    assert result.exit_code == 0, result.output
    assert result.output is not None and result.output["applied"] == len(prefix) + 1


def test_I33_I34_stale_calls_and_their_rules() -> None:
    """A call naming a card under the top is ``stale``; a call that lost the race to a grab
    of its card is ``stale`` by I-34. ``expect_id`` null on a non-empty stack lost no race."""
    head = header(phase="running", stacks=stacks(S1=["STOP-red#1", "STOP-blue#1"]))
    assert error_of(head, call(0, 5, "S1", "STOP-blue#1"))[1] == "stale"
    assert error_of(head, call(0, 5, "S1", None))[1:] == ("stale", "I-31")
    assert error_of(head, grab(1, 5, "S1", "STOP-red#1"), call(0, 6, "S1", "STOP-red#1")) == (
        3,
        "stale",
        "I-34",
    )
    assert error_of(head, grab(1, 5, "S1", "STOP-red#1", 0), call(0, 6, "S1", "STOP-red#1")) == (
        3,
        "stale",
        "I-34",
    )
    assert error_of(
        head, call(0, 5, "S1", "STOP-red#1"), go(0, 6), grab(1, 7, "S1", "STOP-red#1")
    ) == (
        4,
        "stale",
        "I-34",
    )


def test_I31_grab_that_lost_to_another_grab_is_stale_by_I31() -> None:
    head = header(3, phase="running", stacks=stacks(S1=["red#1", "blue#1"]))
    result = run(head, grab(2, 7, "S1", "red#1"), grab(0, 7, "S1", "red#1"))
    expect(
        result,
        1,
        seats=3,
        error=(3, "stale", "I-31"),
        clock=7,
        stacks=stacks(S1=["blue#1"]),
        held=[None, None, "red#1"],
    )


def test_I37_go_before_the_minimum_pause_and_by_the_wrong_seat() -> None:
    head = header(
        3, options={"min_pause_ms": 1000}, phase="running", stacks=stacks(S1=["STOP-red#1"])
    )
    prefix = [call(2, 100, "S1", "STOP-red#1")]
    assert error_of(head, *prefix, go(0, 500)) == (3, "not_go_seat", "I-15")
    assert error_of(head, *prefix, go(0, 1100)) == (3, "not_go_seat", "I-15")
    assert error_of(head, *prefix, go(2, 1099)) == (3, "not_waiting", "I-37")
    assert output(head, *prefix, go(2, 1100))["phase"] == "running"
