"""Helpers for Stop it! record scenarios: headers with positions, event lines, exact outputs.

``expect(result, applied, **fields)`` compares the whole records.md §5.5 object: every field
not named keeps the value of :func:`state_json`'s baseline.
"""

from __future__ import annotations

from typing import Any

from stoptable.core.records import ReplayResult
from tests.support import replay

STACKS = 5


def header(
    seats: int = 2, options: dict[str, Any] | None = None, **position: Any
) -> dict[str, Any]:
    """A stopit header with an explicit position (stacks default to five empty ones)."""
    position.setdefault("stacks", stacks())
    position.setdefault("hands", [[] for _ in range(seats)])
    data: dict[str, Any] = {"game": "stopit", "ruleset": "stopit-standard", "seats": seats}
    if options:
        data["options"] = options
    data["position"] = position
    return data


FILLER = "brown#17"


def stacks(**tops: list[str]) -> list[list[str]]:
    """``stacks(S1=[...], S3=[...])``: five stacks, top first, the others empty - except S5,
    which holds the filler card brown#17 unless given, so that taking the named cards does
    not exhaust the stacks (I-21)."""
    tops.setdefault("S5", [FILLER])
    return [list(tops.get(f"S{i + 1}", [])) for i in range(STACKS)]


def go(seat: int, t: int) -> dict[str, Any]:
    return {"seat": seat, "type": "go", "t": t}


def grab(
    seat: int, t: int, stack: str, expect: str | None, pos: int | None = None
) -> dict[str, Any]:
    line: dict[str, Any] = {"seat": seat, "type": "grab", "stack": stack, "expect_id": expect}
    if pos is not None:
        line["pos"] = pos
    line["t"] = t
    return line


def insert(seat: int, t: int, pos: int) -> dict[str, Any]:
    return {"seat": seat, "type": "insert", "pos": pos, "t": t}


def move(seat: int, t: int, from_: int, to: int) -> dict[str, Any]:
    return {"seat": seat, "type": "move", "from": from_, "to": to, "t": t}


def call(seat: int, t: int, stack: str, expect: str | None) -> dict[str, Any]:
    return {"seat": seat, "type": "call_stop", "stack": stack, "expect_id": expect, "t": t}


def play(seat: int, t: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "type": "play_stop", "card_id": card, "t": t}


def clock(t: int) -> dict[str, Any]:
    return {"clock": t}


def state_json(seats: int = 2, **fields: Any) -> dict[str, Any]:
    """The §5.5 object of a running game with :func:`stacks` and empty hands, ``fields`` set."""
    data: dict[str, Any] = {
        "game": "stopit",
        "ruleset": "stopit-standard",
        "phase": "running",
        "seats": seats,
        "clock": 0,
        "stacks": stacks(),
        "hands": [[] for _ in range(seats)],
        "held": [None] * seats,
        "supply": 15,
        "minus_cards": [0] * seats,
        "extra_points": [0] * seats,
        "scores": [0] * seats,
        "go_seat": None,
        "interrupt": None,
        "removed": [],
        "last_evaluation": None,
        "winners": None,
    }
    unknown = set(fields) - set(data)
    assert not unknown, unknown
    data.update(fields)
    return data


def evaluation(
    card: str,
    caller: int,
    colour: str | None,
    counts: list[int],
    minimum: list[int],
    awarded: list[int],
    unsorted: list[int] | None = None,
    fumbled: list[int] | None = None,
) -> dict[str, Any]:
    """A ``last_evaluation`` object."""
    return {
        "card": card,
        "caller": caller,
        "colour": colour,
        "counts": counts,
        "minimum": minimum,
        "unsorted": unsorted or [],
        "fumbled": fumbled or [],
        "awarded": awarded,
    }


def expect(
    result: ReplayResult,
    applied: int,
    seats: int = 2,
    error: tuple[int, str, str] | None = None,
    **fields: Any,
) -> None:
    """Assert the exact replay output: exit 0, or exit 2 with ``error`` = (line, reason, rule)."""
    assert result.output is not None, result.message
    output = dict(result.output)
    got_error = output.pop("error", None)
    want = {**state_json(seats, **fields), "applied": applied}
    assert output == want
    if error is None:
        assert result.exit_code == 0
        assert got_error is None
    else:
        assert result.exit_code == 2
        assert got_error is not None
        assert (got_error["line"], got_error["reason"], got_error["rule"]) == error
        assert got_error["message"]


def run(head: dict[str, Any], *events: dict[str, Any]) -> ReplayResult:
    """Replay a scenario (tests.support.replay)."""
    return replay(head, *events)


def output(head: dict[str, Any], *events: dict[str, Any]) -> dict[str, Any]:
    """The output of a scenario that must replay with exit 0."""
    result = replay(head, *events)
    assert result.exit_code == 0, (result.message, result.output)
    assert result.output is not None
    return result.output


def error_of(head: dict[str, Any], *events: dict[str, Any]) -> tuple[int, str, str]:
    """(line, reason, rule) of a scenario that must stop with exit 2."""
    result = replay(head, *events)
    assert result.exit_code == 2, (result.message, result.output)
    assert result.output is not None
    err = result.output["error"]
    return err["line"], err["reason"], err["rule"]
