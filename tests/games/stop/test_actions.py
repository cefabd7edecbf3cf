"""Actions: the records.md §4.3 JSON lines and the compact text form, both round-trip."""

from __future__ import annotations

import pytest

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.games.stop import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
    action_from_json,
    parse_action,
    parse_card,
)

C = parse_card
A = frozenset({"achtung"})
S = frozenset({"stop"})

EXAMPLES = [
    ("play R4 achtung", Play(0, (C("R4"),), A)),
    ("play FC Y1", Play(0, (C("FC"), C("Y1")))),
    ("play RExch left", Play(0, (C("RExch"),), mode="left")),
    ("play GExch swap 2", Play(0, (C("GExch"),), mode="swap", target=2)),
    ("play FC GExch right achtung stop", Play(0, (C("FC"), C("GExch")), A | S, "right")),
    ("play FC", Play(0, (C("FC"),))),
    ("play FC FC", Play(0, (C("FC"), C("FC")))),
    ("interject B4 stop", Interject(0, C("B4"), S)),
    ("cancel R0", Cancel(0, C("R0"))),
    ("accept", Accept(0)),
    ("accept reveal B7", Accept(0, reveal_play=C("B7"))),
    ("accept reveal B7 achtung", Accept(0, A, C("B7"))),
    ("draw", Draw(0)),
    ("draw achtung", Draw(0, A)),
    ("pass", Pass(0)),
    ("call achtung", CallAchtung(0)),
    ("call stop", CallStop(0)),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_S58_text_and_json_round_trip(text: str, action: object) -> None:
    parsed = parse_action(0, text)
    assert parsed == action
    assert parsed.notation() == text
    assert action_from_json(parsed.to_json()) == parsed


def test_S24_calls_order_is_irrelevant_in_text() -> None:
    assert parse_action(3, "play R4 stop achtung") == Play(3, (C("R4"),), A | S)


def test_json_lines_look_like_records_md() -> None:
    assert Play(1, (C("FC"), C("GExch")), A, "swap", 0).to_json() == {
        "seat": 1,
        "type": "play",
        "cards": ["FC", "GExch"],
        "calls": ["achtung"],
        "mode": "swap",
        "target": 0,
    }
    assert Pass(2).to_json() == {"seat": 2, "type": "pass"}
    assert action_from_json({"seat": 0, "type": "draw"}) == Draw(0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "play",
        "play R4 up",
        "play R4 left",
        "play RExch swap x",
        "pass now",
        "draw R4",
        "accept B7",
        "accept reveal",
        "interject",
        "cancel R0 B0",
        "call",
        "call out",
        "play R4 achtung achtung",
        "play Q4",
    ],
)
def test_bad_text_is_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(0, text)


@pytest.mark.parametrize(
    "line",
    [
        {"seat": 0, "type": "fly"},
        {"seat": "0", "type": "draw"},
        {"seat": True, "type": "draw"},
        {"type": "draw"},
        {"seat": 0, "type": "draw", "card": "R4"},
        {"seat": 0, "type": "draw", "calls": ["shout"]},
        {"seat": 0, "type": "draw", "calls": "achtung"},
        {"seat": 0, "type": "draw", "calls": ["stop", "stop"]},
        {"seat": 0, "type": "play", "cards": []},
        {"seat": 0, "type": "play", "cards": ["R4", "FC"]},
        {"seat": 0, "type": "play", "cards": ["R44"]},
        {"seat": 0, "type": "play", "cards": "R4"},
        {"seat": 0, "type": "play", "cards": ["RExch"], "mode": "up"},
        {"seat": 0, "type": "play", "cards": ["RExch"], "mode": "swap", "target": "1"},
        {"seat": 0, "type": "interject", "card": 4},
        {"seat": 0, "type": "accept", "reveal_play": "B77"},
        {"seat": 0, "type": "pass", "calls": []},
    ],
)
def test_malformed_lines_are_record_errors(line: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        action_from_json(line)
