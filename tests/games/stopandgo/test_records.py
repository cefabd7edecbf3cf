"""Stop & Go records and replay (records.md §2, §3, §6): setup, roll and move lines, the
§6.3 output, the §6.4 reason codes and the malformed lines that exit 1."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stoptable.core.records import RecordWriter, replay_lines
from stoptable.games import replayer
from stoptable.games.stopandgo import new_game
from stoptable.games.stopandgo.mapgen import DEFAULT_PATH
from tests.games.stopandgo.support import MAPS, drive
from tests.support import replay

HEAD: dict[str, Any] = {"game": "stopandgo", "ruleset": "stopgo-standard", "seats": 2}
OUTPUT_KEYS = [
    "game", "ruleset", "phase", "seats", "turn", "roll", "dial", "active", "active_space",
    "deck", "cars", "last_move", "still_turns", "termination", "scores", "winners", "applied",
]  # fmt: skip


def _position(cars: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {**HEAD, "seats": len(cars), "position": {"map": None, "cars": cars, **more}}


def _on_default(cars: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    header = _position(cars, **more)
    header["position"]["map"] = str(DEFAULT_PATH)
    return header


def test_deck_header_roll_lines_and_output_shape() -> None:
    deck = [22, 5, 9]
    result = replay(
        {**HEAD, "deck": deck},
        {"chance": "roll", "value": 6},
        {"seat": 0, "type": "move", "path": ["M", "h12d"]},
        {"chance": "roll", "value": 3},
    )
    assert result.exit_code == 0, result.message
    out = result.output
    assert out is not None and list(out) == OUTPUT_KEYS
    assert (out["active"], out["active_space"], out["deck"]) == (22, "h11b", [5, 9])
    assert (out["dial"], out["turn"], out["roll"], out["applied"]) == (1, 1, 3, 3)
    assert out["cars"][0] == {
        "pos": "h12d", "prev": "M", "reverse_ok": False, "tickets": 0, "missed_turns": 0,
        "collected": [],
    }  # fmt: skip
    assert out["last_move"] == {
        "seat": 0, "path": ["M", "h12d"], "roll": 6, "result": "ok", "reasons": [],
    }  # fmt: skip
    assert out["scores"] == [0, 0] and out["winners"] is None and out["phase"] == "playing"


def test_a_move_without_a_roll_line_rolls_from_the_seed_and_keeps_it_when_refused() -> None:
    path = ["M", "h12d", "h12c", "h12b", "h12a", "X12", "h02d", "h02c"]
    result = replay({**HEAD, "seed": 4}, {"seat": 0, "type": "move", "path": path})
    assert result.exit_code == 2 and result.output is not None
    error = result.output["error"]
    assert error["line"] == 2 and error["reason"] == "too_far" and error["rule"] == "G-7"
    assert error["reasons"] == ["too_far"]
    assert result.output["roll"] is not None and result.output["applied"] == 0
    state = new_game(seats=2, seed=4)
    state.roll()
    assert result.output["roll"] == state.rolled


def test_reasons_hard_first_then_traffic_in_path_order() -> None:
    cars = [{"pos": "h12c", "prev": "h12b"}, {"pos": "h12a", "prev": "X12"}]
    result = replay(
        _on_default(cars, active=1, deck=[2]),
        {"chance": "roll", "value": 1},
        {"seat": 0, "type": "move", "path": ["h12c", "h12b", "h12a"]},
    )
    assert result.output is not None
    assert result.output["error"]["reasons"] == ["too_far", "occupied", "u_turn"]
    stop = replay(
        _on_default([{"pos": "v20b", "prev": "v20c"}, {"pos": "M"}], active=1),
        {"chance": "roll", "value": 4},
        {"seat": 0, "type": "move", "path": ["h12c", "v20a", "X20", "v20a", "X20"]},
    )
    assert stop.output is not None
    assert stop.output["error"]["reasons"] == ["bad_start", "not_adjacent", "stop", "u_turn"]
    assert stop.output["error"]["reason"] == "bad_start"


def test_fine_enforcement_records_a_violation_and_a_ticket() -> None:
    header = _on_default([{"pos": "v20b", "prev": "v20c"}, {"pos": "M"}], active=1)
    header["options"] = {"enforcement": "fine"}
    result = replay(
        header,
        {"chance": "roll", "value": 3},
        {"seat": 0, "type": "move", "path": ["v20b", "v20a", "X20", "h20a"]},
    )
    assert result.exit_code == 0 and result.output is not None
    assert result.output["last_move"]["result"] == "violation"
    assert result.output["last_move"]["reasons"] == ["stop"]
    assert result.output["cars"][0]["pos"] == "v20b" and result.output["cars"][0]["tickets"] == 1


def test_not_your_turn_and_game_over_are_rule_errors() -> None:
    wrong = replay(HEAD, {"chance": "roll", "value": 2}, {"seat": 1, "type": "move", "path": ["M"]})
    assert wrong.exit_code == 2 and wrong.output is not None
    assert wrong.output["error"]["reason"] == "not_your_turn"
    over = {
        **HEAD,
        "position": {
            "map": str(MAPS / "base.json"),
            "cars": [{"pos": "A", "prev": "aw"}, {"pos": "M"}],
            "active": 1,
        },
    }
    done = replay(
        over,
        {"chance": "roll", "value": 1},
        {"seat": 0, "type": "move", "path": ["A", "an"]},
        {"seat": 1, "type": "move", "path": ["M"]},
    )
    assert done.exit_code == 2 and done.output is not None
    assert done.output["error"]["reason"] == "game_over" and done.output["phase"] == "game_over"
    assert done.output["winners"] == [0] and done.output["turn"] is None


@pytest.mark.parametrize(
    "event",
    [
        {"chance": "roll", "value": 7},
        {"chance": "roll", "value": 2, "extra": 1},
        {"chance": "shuffle", "order": []},
        {"seat": 0, "type": "move", "path": ["M", "nowhere"]},
        {"seat": 5, "type": "move", "path": ["M"]},
        {"seat": 0, "type": "jump", "path": ["M"]},
        {"seat": 0, "type": "move", "path": "M"},
        {"seat": 0, "type": "move", "path": ["M"], "speed": 3},
    ],
)
def test_malformed_event_lines_exit_1(event: dict[str, Any]) -> None:
    result = replay(HEAD, event)
    assert result.exit_code == 1 and result.message


def test_roll_lines_that_do_not_fit_exit_1() -> None:
    twice = replay(HEAD, {"chance": "roll", "value": 2}, {"chance": "roll", "value": 3})
    assert twice.exit_code == 1
    over = {
        **HEAD,
        "position": {
            "map": str(MAPS / "base.json"),
            "cars": [{"pos": "M"}, {"pos": "M"}],
            "active": None,
        },
    }
    assert replay(over, {"chance": "roll", "value": 3}).exit_code == 1


@pytest.mark.parametrize(
    "header",
    [
        {**HEAD, "ruleset": "abacus-en"},
        {**HEAD, "options": {"turbo": True}},
        {**HEAD, "deck": [1, 1]},
        {**HEAD, "deck": [99]},
        {**HEAD, "map": "missing.json"},
        {**HEAD, "options": {"destination_count": 30}},
        {**HEAD, "position": {"cars": [{"pos": "M"}, {"pos": "M"}]}},
        {
            **HEAD,
            "position": {
                "map": str(MAPS / "base.json"),
                "cars": [{"pos": "an"}, {"pos": "an"}],
                "active": 2,
            },
        },
        {
            **HEAD,
            "position": {
                "map": str(MAPS / "base.json"),
                "cars": [{"pos": "an", "prev": "M"}, {"pos": "M"}],
                "active": 2,
            },
        },
    ],
)
def test_bad_headers_exit_1(header: dict[str, Any]) -> None:
    result = replay(header)
    assert result.exit_code == 1 and result.message


def test_map_in_a_position_may_be_an_object() -> None:
    data = json.loads((MAPS / "stop.json").read_text(encoding="utf-8"))
    header = {
        **HEAD,
        "position": {"map": data, "cars": [{"pos": "w", "prev": "aw"}, {"pos": "M"}], "active": 4},
    }
    result = replay(
        header,
        {"chance": "roll", "value": 2},
        {"seat": 0, "type": "move", "path": ["w", "w1", "X"]},
    )
    assert result.output is not None and result.output["error"]["reason"] == "stop"


def test_a_whole_seeded_game_replays_to_the_same_state_and_upto_cuts_it() -> None:
    state = new_game(seats=3, seed=9, options={"destination_count": 4})
    writer = RecordWriter(
        {
            "format": "stoptable-record/1",
            **HEAD,
            "seats": 3,
            "seed": 9,
            "options": {"destination_count": 4},
        }
    )
    rnd = random.Random(9)
    snapshots = [state.to_json()]
    while not state.over:
        state.roll()
        writer.add({"chance": "roll", "value": state.rolled})
        move = drive(state, rnd)
        writer.add(move.to_json())
        snapshots.append(state.to_json())
    result = replay_lines(writer.lines(), replayer)
    assert result.exit_code == 0 and result.output is not None
    assert {k: v for k, v in result.output.items() if k != "applied"} == state.to_json()
    middle = len(snapshots) // 2
    cut = replay_lines(writer.lines(), replayer, upto=2 * middle)
    assert cut.output is not None
    assert {k: v for k, v in cut.output.items() if k != "applied"} == snapshots[middle]


def test_the_documented_example_record_replays_to_its_golden_output() -> None:
    folder = MAPS.parent / "records"
    lines = (folder / "example.jsonl").read_text(encoding="utf-8").splitlines()
    expected = json.loads((folder / "example.expected.json").read_text(encoding="utf-8"))
    result = replay_lines(lines, replayer, base_dir=folder)
    assert result.exit_code == 2 and result.output == expected
    assert expected["error"]["reasons"] == ["red"]


def _fixture_map() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((MAPS / "base.json").read_text(encoding="utf-8"))
    return data


def test_GM1_a_record_map_that_breaks_GM8_placement_replays() -> None:
    # Like the §6 example: a one-way segment that starts at a road space, with no no_entry
    # at its far end, and a stop sign on a step out of a crossroads. Valid, so it plays.
    game_map = _fixture_map()
    game_map["signs"] = [
        {"type": "one_way", "from": "A", "to": "an", "segment": [["A", "an"], ["an", "n"]]},
        {"type": "stop", "from": "X", "to": "w1"},
    ]
    cars = [{"pos": "w"}, {"pos": "M"}]
    header = _position(cars, active=1, deck=[2])
    header["position"]["map"] = game_map
    ok = replay(
        header,
        {"chance": "roll", "value": 3},
        {"seat": 0, "type": "move", "path": ["w", "aw", "A", "an"]},
    )
    assert ok.exit_code == 0, ok.message
    assert ok.output is not None and ok.output["cars"][0]["collected"] == [1]
    wrong_way = _position([{"pos": "n"}, {"pos": "M"}], active=1, deck=[2])
    wrong_way["position"]["map"] = game_map
    refused = replay(
        wrong_way, {"chance": "roll", "value": 1}, {"seat": 0, "type": "move", "path": ["n", "an"]}
    )
    assert refused.exit_code == 2 and refused.output is not None
    assert refused.output["error"]["reason"] == "one_way"


def _noted_map(note: object) -> dict[str, Any]:
    game_map = _fixture_map()
    game_map["note"] = note
    game_map["spaces"][0]["note"] = note
    game_map["signs"] = [
        {"type": "no_waiting", "from": "X", "to": "e1", "note": note},
        {"type": "major_road_ahead", "from": "s1", "to": "X", "watch": ["w1", "e1"], "note": note},
    ]
    game_map["dial"] = {
        "positions": 2,
        "note": note,
        "slots": [
            {
                "from": "w1",
                "to": "X",
                "note": note,
                "signs": ["red", {"type": "major_road_ahead", "watch": ["n1", "s1"], "note": note}],
            }
        ],
    }
    return game_map


@pytest.mark.parametrize("where", ["header", "options", "position", "car", "map"])
def test_a_note_string_is_allowed_in_every_object_and_anything_else_is_an_error(
    where: str,
) -> None:
    def header(note: object) -> dict[str, Any]:
        cars = [{"pos": "M"}, {"pos": "M"}]
        head = _position(cars, active=1, deck=[2])
        head["position"]["map"] = _noted_map("map") if where != "map" else _noted_map(note)
        if where == "header":
            head["note"] = note
        elif where == "options":
            head["options"] = {"note": note}
        elif where == "position":
            head["position"]["note"] = note
        elif where == "car":
            head["position"]["cars"][1]["note"] = note
        return head

    roll = {"chance": "roll", "value": 2}
    ok = replay(header("a remark"), roll, {"seat": 0, "type": "move", "path": ["M", "cm", "C"]})
    assert ok.exit_code == 0, ok.message
    assert ok.output is not None and ok.output["cars"][0]["pos"] == "C"
    bad = replay(header(7), roll)
    assert bad.exit_code == 1
    assert bad.message is not None and "note" in bad.message
