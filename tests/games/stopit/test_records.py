"""Stop it! records: setup lines, clock lines and the exit-1 cases of records.md."""

from __future__ import annotations

from typing import Any

import pytest

from stoptable.games.stopit import standard_deck
from tests.games.stopit.scenario import clock, go, grab, header, output, run, stacks

BASE: dict[str, Any] = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2}


@pytest.mark.parametrize(
    "head",
    [
        {**BASE, "options": {"nonsense": 1}},
        {**BASE, "deck": [*standard_deck()[:-1], "red#1"]},
        {**BASE, "deck": "cards"},
        {**BASE, "position": {"hands": [[], []]}},
        {**BASE, "position": {"stacks": [[]] * 4, "hands": [[], []]}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[]]}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [["red#1"], ["red#1"]]}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[], []], "phase": "interrupted"}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[], []], "go_seat": 2}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[], []], "supply": -1}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[], []], "turn": 0}},
        {**BASE, "position": {"stacks": [[]] * 5, "hands": [[], []], "held": ["x", None]}},
        {**BASE, "options": {"first_go_seat": 3}},
    ],
)
def test_bad_setups_are_malformed(head: dict[str, Any]) -> None:
    result = run(head)
    assert result.exit_code == 1 and result.message


@pytest.mark.parametrize(
    "line",
    [
        {"clock": -1},
        {"clock": "5"},
        {"clock": 5, "seat": 0},
        {"chance": "roll", "value": 1},
        {"seat": 2, "type": "go", "t": 5},
        {"seat": 0, "type": "grab", "stack": "S6", "expect_id": None, "t": 5},
        {"seat": 0, "type": "go", "t": 5, "extra": 1},
    ],
)
def test_bad_lines_are_malformed(line: dict[str, Any]) -> None:
    result = run(header(phase="running", clock=3), line)
    assert result.exit_code == 1 and result.message and "line 2" in result.message


def test_t_below_the_clock_is_malformed() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "red#2"]))
    result = run(head, grab(0, 10, "S1", "red#1"), grab(1, 9, "S1", "red#2"))
    assert result.exit_code == 1 and "line 3" in (result.message or "")
    assert run(head, clock(10), go(0, 9)).exit_code == 1


def test_position_defaults_and_clock() -> None:
    data = output(header(3, stacks=stacks(S1=["red#1"]), clock=500))
    assert (data["phase"], data["go_seat"], data["clock"], data["supply"]) == (
        "waiting_go",
        0,
        500,
        15,
    )
    assert output(header(3, clock=500), clock(700))["clock"] == 700


def test_upto_and_notes() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "red#2"]))
    first = {**grab(0, 10, "S1", "red#1"), "note": "P0 is fast"}
    result = run(head, first, grab(1, 20, "S1", "red#2"))
    assert result.exit_code == 0 and result.output is not None
    assert result.output["held"] == ["red#1", "red#2"] and result.output["applied"] == 2
