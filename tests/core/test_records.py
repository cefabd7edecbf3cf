"""The game-agnostic record reader and replay driver (records.md §1-§3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stoptable.core.errors import IllegalAction, RecordError, UnknownGame
from stoptable.core.records import (
    Header,
    PlayerCountError,
    RecordWriter,
    Replayer,
    parse_header,
    replay_lines,
)


class CounterReplayer:
    """A toy game: events {"seat": k, "type": "add", "n": int}; n < 0 is illegal."""

    def setup(self, header: Header) -> dict[str, Any]:
        if not 2 <= header.seats <= 4:
            raise PlayerCountError("X-1", "2-4 players")
        return {"total": 0, "finished": False}

    def apply_event(self, state: dict[str, Any], event: dict[str, Any]) -> None:
        if set(event) != {"seat", "type", "n"}:
            raise RecordError("bad event")
        if event["n"] < 0:
            raise IllegalAction("negative", "X-2", "n must be >= 0")
        state["total"] += event["n"]

    def finish(self, state: dict[str, Any]) -> None:
        state["finished"] = True

    def output(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"game": "stop", "total": state["total"], "finished": state["finished"]}


def lookup(game: str) -> Replayer:
    if game != "stop":
        raise UnknownGame(f"unknown game {game!r}")
    return CounterReplayer()


HEADER = {"format": "stoptable-record/1", "game": "stop", "ruleset": "x", "seats": 2}


def lines(*events: dict[str, Any], header: dict[str, Any] = HEADER) -> list[str]:
    return [json.dumps(header)] + [json.dumps(e) for e in events]


def add(n: int) -> dict[str, Any]:
    return {"seat": 0, "type": "add", "n": n}


def test_replay_applies_every_event_and_finishes() -> None:
    result = replay_lines(lines(add(1), add(2)), lookup)
    assert result.exit_code == 0
    assert result.output == {"game": "stop", "total": 3, "finished": True, "applied": 2}


def test_upto_stops_early_and_never_parses_the_rest() -> None:
    text = [*lines(add(1), add(2)), "this is not json"]
    result = replay_lines(text, lookup, upto=1)
    assert result.exit_code == 0
    assert result.output is not None and result.output["total"] == 1
    assert result.output["applied"] == 1


def test_upto_zero_is_the_setup_state() -> None:
    result = replay_lines(lines(add(5)), lookup, upto=0)
    assert result.output is not None and result.output["applied"] == 0


def test_blank_lines_count_for_line_numbers() -> None:
    text = [*lines(add(1)), "", json.dumps(add(-1))]
    result = replay_lines(text, lookup)
    assert result.exit_code == 2
    assert result.output is not None
    assert result.output["error"] == {
        "line": 4,
        "reason": "negative",
        "rule": "X-2",
        "message": "n must be >= 0",
    }
    assert result.output["total"] == 1
    assert result.output["applied"] == 1


def test_notes_are_ignored() -> None:
    result = replay_lines(lines({**add(1), "note": "hello"}), lookup)
    assert result.exit_code == 0


def test_player_count_error_output() -> None:
    result = replay_lines(lines(header={**HEADER, "seats": 9}), lookup)
    assert result.exit_code == 2
    assert result.output == {
        "game": "stop",
        "ruleset": "x",
        "seats": 9,
        "applied": 0,
        "error": {"line": 1, "reason": "player_count", "rule": "X-1", "message": "2-4 players"},
    }


@pytest.mark.parametrize(
    "text",
    [
        [],
        ["{"],
        ["[1]"],
        [json.dumps({**HEADER, "format": "other"})],
        [json.dumps({**HEADER, "colour": "red"})],
        [json.dumps({**HEADER, "game": "chess"})],
        [json.dumps({**HEADER, "seats": "2"})],
        [json.dumps({**HEADER, "seed": 1.5})],
        [json.dumps({**HEADER, "deck": [], "position": {}})],
        [json.dumps(HEADER), "{not json"],
        [json.dumps(HEADER), "[]"],
        [json.dumps(HEADER), json.dumps({"seat": 0, "type": "add"})],
        [json.dumps(HEADER), json.dumps({**add(1), "note": 3})],
        [json.dumps(HEADER), json.dumps({**add(1), "note": None})],
    ],
)
def test_malformed_records_exit_1_with_a_message(text: list[str]) -> None:
    result = replay_lines(text, lookup)
    assert result.exit_code == 1
    assert result.output is None
    assert result.message and "\n" not in result.message


def test_negative_upto_is_a_bad_argument() -> None:
    assert replay_lines(lines(), lookup, upto=-1).exit_code == 1


def test_header_round_trips_through_writer(tmp_path: Path) -> None:
    header = parse_header({**HEADER, "seed": 7, "options": {"a": 1}})
    writer = RecordWriter(header)
    writer.add(add(3))
    path = tmp_path / "game.jsonl"
    writer.write(path)
    text = path.read_text(encoding="utf-8").splitlines()
    assert parse_header(json.loads(text[0])).to_json() == header.to_json()
    assert replay_lines(text, lookup).output == {
        "game": "stop",
        "total": 3,
        "finished": True,
        "applied": 1,
    }
