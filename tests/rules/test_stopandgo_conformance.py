"""Conformance of Stop & Go replay with rules/records.md §1-§3 and §6 (setup, events, output).

Every test replays a record exactly as ``stoptable replay FILE --json`` does and compares the
JSON object, the exit status, the reason codes and rule ids with what the spec demands. The
rules of movement (G-6 to G-21, §6.4 reason order) are in test_stopandgo_conformance_rules.py.
Maps: see test_stopandgo_conformance_helpers.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stoptable.core.records import replay_lines
from stoptable.games import replayer
from stoptable.games.stopandgo.mapgen import DEFAULT_PATH
from tests.rules.test_stopandgo_conformance_helpers import (
    car,
    error,
    grid_map,
    header,
    line_map,
    malformed,
    move,
    ok,
    rejected,
    roll,
)
from tests.support import replay

OUTPUT_KEYS = [
    "game", "ruleset", "phase", "seats", "turn", "roll", "dial", "active", "active_space",
    "deck", "cars", "last_move", "still_turns", "termination", "scores", "winners", "applied",
]  # fmt: skip
FRESH_CAR = {
    "pos": "M", "prev": None, "reverse_ok": False, "tickets": 0, "missed_turns": 0,
    "collected": [],
}  # fmt: skip
GRID_SPACE = {1: "an", 2: "be", 3: "wc", 4: "md"}
BASE: dict[str, Any] = {"game": "stopandgo", "ruleset": "stopgo-standard", "seats": 2}
STOPTABLE = Path(sys.executable).parent / "stoptable"


def _seeded(**more: Any) -> dict[str, Any]:
    return {**BASE, "map": grid_map(), **more}


# -- §6.1 setup from seed or deck ------------------------------------------------------------


def test_G3_GA17_seeded_setup_output_is_complete_and_deterministic() -> None:
    out = ok(_seeded(seats=3, seed=7))
    assert list(out) == OUTPUT_KEYS
    assert (out["game"], out["ruleset"], out["phase"], out["seats"]) == (
        "stopandgo", "stopgo-standard", "playing", 3,
    )  # fmt: skip
    assert (out["turn"], out["roll"], out["dial"], out["last_move"]) == (0, None, 0, None)
    assert sorted([out["active"], *out["deck"]]) == [1, 2, 3, 4]
    assert out["active_space"] == GRID_SPACE[out["active"]]
    assert out["cars"] == [FRESH_CAR] * 3
    assert (out["scores"], out["winners"], out["applied"]) == ([0, 0, 0], None, 0)
    assert ok(_seeded(seats=3, seed=7)) == out
    orders = {tuple([o["active"], *o["deck"]]) for o in (ok(_seeded(seed=s)) for s in range(8))}
    assert len(orders) > 1


def test_G3_deck_header_is_used_instead_of_the_shuffle() -> None:
    out = ok(_seeded(deck=[3, 1, 4, 2], seed=99))
    assert (out["active"], out["active_space"], out["deck"]) == (3, "wc", [1, 4, 2])


def test_G3_without_map_and_position_the_default_map_is_used() -> None:
    out = ok({**BASE, "deck": [22, 5]})
    assert (out["active"], out["active_space"], out["deck"]) == (22, "h11b", [5])
    assert out == ok({**BASE, "deck": [22, 5], "map": str(DEFAULT_PATH)})
    seeded = ok({**BASE, "seed": 3})
    assert sorted([seeded["active"], *seeded["deck"]]) == list(range(1, 26))


def test_G21_destination_count_takes_the_first_cards_of_the_shuffle() -> None:
    full = ok(_seeded(seed=5))
    short = ok(_seeded(seed=5, options={"destination_count": 2}))
    assert [short["active"], *short["deck"]] == [full["active"], *full["deck"]][:2]
    from_deck = ok(_seeded(deck=[3, 1, 4, 2], options={"destination_count": 2}))
    assert (from_deck["active"], from_deck["deck"]) == (3, [1])


def test_G21_destination_list_gives_the_cards_in_order() -> None:
    out = ok(_seeded(seed=5, options={"destination_list": [4, 2]}))
    assert (out["active"], out["active_space"], out["deck"]) == (4, "md", [2])


def test_G3_dial_start_option_sets_the_dial_at_setup_and_as_position_default() -> None:
    assert ok(_seeded(options={"dial_start": 2}))["dial"] == 2
    head = header(grid_map(), [car("M"), car("M")], options={"dial_start": 3}, active=1)
    assert ok(head)["dial"] == 3
    assert ok(header(grid_map(), [car("M"), car("M")], active=1, dial=1))["dial"] == 1


# -- §6.1 setup from a position --------------------------------------------------------------


def test_records_6_1_position_defaults() -> None:
    out = ok(header(grid_map(), [car("s1"), car("M")], active=2))
    assert out["cars"] == [{**FRESH_CAR, "pos": "s1"}, FRESH_CAR]
    assert (out["dial"], out["deck"], out["turn"], out["roll"]) == (0, [], 0, None)
    assert (out["active"], out["active_space"], out["phase"]) == (2, "be", "playing")
    assert (out["last_move"], out["scores"], out["winners"]) == (None, [0, 0], None)


def test_records_6_1_position_values_are_taken_as_given() -> None:
    cars = [
        car("w1", "w", reverse_ok=True, tickets=2, collected=[3]),
        car("M", "s1", missed_turns=0, collected=[4, 2]),
        car("e1", "X", tickets=1),
    ]
    out = ok(header(grid_map(), cars, active=1, deck=[], dial=3, turn=1, roll=5))
    assert out["cars"][0] == {
        "pos": "w1", "prev": "w", "reverse_ok": True, "tickets": 2, "missed_turns": 0,
        "collected": [3],
    }  # fmt: skip
    assert out["cars"][1]["prev"] == "s1" and out["cars"][1]["collected"] == [4, 2]
    assert (out["dial"], out["turn"], out["roll"], out["scores"]) == (3, 1, 5, [1, 2, 0])


def test_records_6_1_map_object_or_path_relative_to_the_record(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    (folder / "maps").mkdir(parents=True)
    (folder / "maps" / "grid.json").write_text(json.dumps(grid_map()), encoding="utf-8")
    head = header("maps/grid.json", [car("s1", "M"), car("M")], active=1)
    lines = [json.dumps({"format": "stoptable-record/1", **head}), json.dumps(roll(2))]
    by_path = replay_lines(lines, replayer, base_dir=folder)
    assert by_path.exit_code == 0 and by_path.output is not None
    assert by_path.output == ok(header(grid_map(), [car("s1", "M"), car("M")], active=1), roll(2))
    seeded = {**BASE, "format": "stoptable-record/1", "map": "maps/grid.json", "deck": [2, 1]}
    result = replay_lines([json.dumps(seeded)], replayer, base_dir=folder)
    assert result.output is not None and result.output["active_space"] == "be"


def test_records_6_1_position_with_roll_set_moves_without_a_roll_line() -> None:
    head = header(line_map(), [car("M"), car("c1", "M")], active=2, roll=3)
    out = ok(head, move(0, "M", "a1", "a2", "a3"))
    assert out["last_move"]["roll"] == 3 and out["cars"][0]["pos"] == "a3"
    malformed(head, roll(4))


def test_G19_position_with_no_active_card_is_over() -> None:
    cars = [car("M", collected=[1, 2]), car("a1", "M", collected=[3])]
    head = header(line_map(), cars, active=None)
    out = ok(head)
    assert (out["phase"], out["turn"], out["roll"]) == ("game_over", None, None)
    assert (out["active"], out["active_space"], out["deck"]) == (None, None, [])
    assert (out["scores"], out["winners"]) == ([2, 1], [0])
    over = rejected(head, move(0, "M"))
    assert over.output is not None
    assert (over.output["error"]["reason"], over.output["error"]["rule"]) == ("game_over", "G-19")
    assert over.output["roll"] is None and over.output["error"]["line"] == 2
    malformed(head, roll(3))


@pytest.mark.parametrize(
    "position",
    [
        {"cars": [car("M"), car("M")], "active": 1},  # no map
        {"map": "GRID", "cars": [car("M")], "active": 1},  # one car for two seats
        {"map": "GRID", "cars": [car("M"), {"prev": "M"}], "active": 1},  # pos missing
        {"map": "GRID", "cars": [car("M"), car("zz")], "active": 1},  # no such space
        {"map": "GRID", "cars": [car("M"), car("s1", "w1")], "active": 1},  # prev not next
        {"map": "GRID", "cars": [car("s1"), car("s1")], "active": 1},  # two on one space
        {"map": "GRID", "cars": [car("M"), car("M", speed=1)], "active": 1},  # unknown car key
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 1, "clock": 0},  # unknown key
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 9},  # no destination 9
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 1, "deck": [1]},  # card twice
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 1, "turn": 2},  # no seat 2
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 1, "roll": 7},  # not a die
        {"map": "GRID", "cars": [car("M"), car("M")], "active": 1, "dial": 4},  # dial has 4
        {"map": "GRID", "cars": [car("M"), car("M", tickets=-1)], "active": 1},
    ],
)
def test_records_6_1_positions_that_do_not_fit_exit_1(position: dict[str, Any]) -> None:
    if position.get("map") == "GRID":
        position = {**position, "map": grid_map()}
    malformed({**BASE, "position": position})


def test_records_6_1_two_cars_may_share_the_market() -> None:
    out = ok(header(grid_map(), [car("M", "s1"), car("M", "cm"), car("M")], active=1))
    assert [c["pos"] for c in out["cars"]] == ["M", "M", "M"]


@pytest.mark.parametrize(
    "more",
    [
        {"ruleset": "abacus-en"},
        {"seed": "1"},
        {"options": {"enforcement": "maybe"}},
        {"options": {"scoring": "most"}},
        {"options": {"turbo": 1}},
        {"deck": [1, 2], "position": {"map": "x", "cars": []}},
        {"deck": [1, 1]},
        {"map": "no-such-map.json"},
        {"map": {"name": "no market", "spaces": [], "edges": []}},
        {"tempo": 3},
    ],
)
def test_records_2_1_bad_headers_exit_1(more: dict[str, Any]) -> None:
    malformed({**BASE, "map": grid_map(), **more})


def test_G2_GA4_player_count_output_is_only_the_header_part_and_the_error() -> None:
    for seats in (1, 7):
        result = replay({**BASE, "seats": seats})
        assert result.exit_code == 2 and result.output is not None
        assert set(result.output) == {"game", "ruleset", "seats", "applied", "error"}
        assert result.output["game"] == "stopandgo" and result.output["seats"] == seats
        assert result.output["applied"] == 0
        err = result.output["error"]
        assert (err["line"], err["reason"], err["rule"]) == (1, "player_count", "G-2")
    six = ok(header(grid_map(), [car("M")] * 6, active=1))
    assert len(six["cars"]) == 6


# -- §6.2 events ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_G5_roll_line_gives_the_roll_and_turns_the_dial_on_1_and_6(value: int) -> None:
    out = ok(header(grid_map(), [car("M"), car("M")], active=1, turn=1, dial=1), roll(value))
    assert (out["roll"], out["turn"], out["applied"]) == (value, 1, 1)
    assert out["dial"] == (2 if value in (1, 6) else 1)


def test_G5_dial_wraps_and_dial_advance_on_option() -> None:
    assert ok(header(grid_map(), [car("M"), car("M")], active=1, dial=3), roll(6))["dial"] == 0
    head = header(grid_map(), [car("M"), car("M")], options={"dial_advance_on": [2]}, active=1)
    assert ok(head, roll(2))["dial"] == 1
    assert ok(head, roll(6))["dial"] == 0


@pytest.mark.parametrize(
    "line",
    [
        {"chance": "roll", "value": 0},
        {"chance": "roll", "value": 7},
        {"chance": "roll", "value": "3"},
        {"chance": "roll", "value": 2.0},
        {"chance": "roll", "value": True},
        {"chance": "roll"},
        {"chance": "shuffle", "value": 3},
        {"chance": "roll", "value": 3, "seat": 0},
        {"clock": 5},
        {"seat": 0, "type": "move"},
        {"seat": 0, "path": ["M"]},
        {"seat": "0", "type": "move", "path": ["M"]},
        {"seat": 2, "type": "move", "path": ["M"]},
        {"seat": 0, "type": "move", "path": ["M", 3]},
        {"seat": 0, "type": "move", "path": ["M", "zz"]},
        {"seat": 0, "type": "move", "path": ["M"], "t": 0},
        {"seat": 0, "type": "pass"},
        [1, 2],
    ],
)
def test_records_6_2_malformed_event_lines_exit_1(line: Any) -> None:
    head = header(grid_map(), [car("M"), car("M")], active=1)
    lines = [json.dumps({"format": "stoptable-record/1", **head}), json.dumps(line)]
    result = replay_lines(lines, replayer)
    assert result.exit_code == 1 and result.message


def test_records_6_2_roll_line_while_a_roll_is_set_exits_1() -> None:
    head = header(grid_map(), [car("M"), car("M")], active=1)
    malformed(head, roll(2), roll(3))
    malformed(header(grid_map(), [car("M"), car("M")], active=1, roll=4), roll(3))
    # A refused move keeps its roll (prevent), so a new roll line would not fit either.
    assert error(head, roll(2), move(1, "M"))["reason"] == "not_your_turn"


def test_records_6_2_a_move_without_a_roll_draws_it_from_the_seed_and_keeps_it() -> None:
    head = header(grid_map(), [car("M"), car("M")], seed=12, active=1)
    wrong = rejected(head, move(1, "M"))
    assert wrong.output is not None
    drawn = wrong.output["roll"]
    assert drawn in range(1, 7)
    assert wrong.output["dial"] == (1 if drawn in (1, 6) else 0)
    err = wrong.output["error"]
    assert (err["reason"], err["rule"], err["line"]) == ("not_your_turn", "G-4", 2)
    right = ok(head, move(0, "M"))
    assert right["last_move"]["roll"] == drawn and right["roll"] is None
    assert right["dial"] == wrong.output["dial"]


def test_records_6_2_after_a_move_roll_is_null_and_the_turn_passes_in_seat_order() -> None:
    head = header(grid_map(), [car("M"), car("M"), car("M")], active=1)
    events = [e for seat in (0, 1, 2, 0) for e in (roll(2), move(seat, "M"))]
    turns = [ok(head, *events, upto=n)["turn"] for n in range(0, 9, 2)]
    assert turns == [0, 1, 2, 0, 1]
    assert ok(head, *events)["roll"] is None


def test_G5_GA6_missed_turn_is_passed_over_at_once_without_roll_or_dial() -> None:
    cars = [car("M"), car("s1", "M", missed_turns=2), car("M")]
    head = header(grid_map(), cars, active=1)
    out = ok(head, roll(3), move(0, "M"))
    assert (out["turn"], out["roll"], out["dial"]) == (2, None, 0)
    assert out["cars"][1]["missed_turns"] == 1 and out["cars"][1]["pos"] == "s1"
    out = ok(head, roll(3), move(0, "M"), roll(6), move(2, "M"))
    assert (out["turn"], out["dial"]) == (0, 1)
    events = [roll(3), move(0, "M"), roll(6), move(2, "M"), roll(2), move(0, "M")]
    out = ok(head, *events)  # seat 1 uses its second missed turn
    assert out["turn"] == 2 and out["cars"][1]["missed_turns"] == 0
    more = [roll(2), move(2, "M"), roll(2), move(0, "M")]
    assert ok(head, *events, *more)["turn"] == 1  # no missed turn left: seat 1 plays


def test_G5_every_other_seat_suspended_gives_the_turn_back() -> None:
    head = header(grid_map(), [car("M"), car("s1", "M", missed_turns=2)], active=1)
    out = ok(head, roll(2), move(0, "M"))
    assert out["turn"] == 0 and out["cars"][1]["missed_turns"] == 1


# -- §6.3 output ------------------------------------------------------------------------------


def test_records_6_3_last_move_object_for_a_move_and_for_standing_still() -> None:
    head = header(grid_map(), [car("s1", "M"), car("M")], active=1)
    out = ok(head, roll(4), move(0, "s1", "X", "n1"))
    assert out["last_move"] == {
        "seat": 0, "path": ["s1", "X", "n1"], "roll": 4, "result": "ok", "reasons": [],
    }  # fmt: skip
    still = ok(head, roll(5), move(0, "s1"))
    assert still["last_move"] == {
        "seat": 0, "path": ["s1"], "roll": 5, "result": "ok", "reasons": [],
    }  # fmt: skip
    assert ok(head, roll(5), move(0, "s1"), roll(2))["last_move"] == still["last_move"]


def test_G20_scores_count_and_sum_and_winners_once_over() -> None:
    cars = [car("n1", "X", collected=[3]), car("M", collected=[2]), car("M", collected=[4])]
    head = header(grid_map(), cars, active=1)
    out = ok(head, roll(2), move(0, "n1", "n", "an"))
    assert (out["phase"], out["scores"], out["winners"]) == ("game_over", [2, 1, 1], [0])
    assert out["cars"][0]["collected"] == [3, 1]
    summed = ok({**head, "options": {"scoring": "sum"}}, roll(2), move(0, "n1", "n", "an"))
    assert (summed["scores"], summed["winners"]) == ([4, 2, 4], [0, 2])
    playing = ok({**head, "options": {"scoring": "sum"}})
    assert (playing["scores"], playing["winners"]) == ([3, 2, 4], None)


# -- §1-§3 replay driver ------------------------------------------------------------------------


def test_records_1_exit_2_output_is_the_state_before_plus_the_error_line() -> None:
    head = header(grid_map(), [car("s1", "M"), car("M")], active=1)
    events = [roll(2), move(0, "s1", "X"), roll(1), move(1, "M", "s1", "X")]
    result = rejected(head, *events)
    assert result.output is not None
    out = dict(result.output)
    err = out.pop("error")
    assert out == ok(head, *events[:3])
    assert out["applied"] == 3 and out["roll"] == 1 and out["dial"] == 1
    assert set(err) >= {"line", "reason", "rule", "message"}
    assert (err["line"], err["reason"], err["rule"]) == (5, "too_far", "G-7")
    assert isinstance(err["message"], str)


def test_records_2_blank_lines_count_and_notes_are_ignored() -> None:
    head = {"format": "stoptable-record/1", "note": "hi", **header(grid_map(), [car("M")] * 2)}
    head["position"]["active"] = 1
    lines = [
        json.dumps(head),
        "",
        json.dumps({**roll(2), "note": "two"}),
        "   ",
        json.dumps({**move(0, "M"), "note": "stay"}),
        json.dumps(move(0, "M")),
    ]
    result = replay_lines(lines, replayer)
    assert result.exit_code == 2 and result.output is not None
    assert result.output["error"]["line"] == 6 and result.output["applied"] == 2
    assert result.output["error"]["reason"] == "not_your_turn"


def test_records_1_upto() -> None:
    head = header(grid_map(), [car("s1", "M"), car("M")], active=1)
    events = [roll(2), move(0, "s1", "X"), roll(3), move(1, "M", "md")]
    assert ok(head, *events, upto=0) == ok(head)
    assert ok(head, *events, upto=2) == ok(head, *events[:2])
    assert ok(head, *events, upto=99) == ok(head, *events)
    lines = [json.dumps({"format": "stoptable-record/1", **head}), json.dumps(roll(2)), "{bad"]
    cut = replay_lines(lines, replayer, upto=1)
    assert cut.exit_code == 0 and cut.output is not None and cut.output["roll"] == 2
    assert replay_lines(lines, replayer).exit_code == 1


# -- the real command -------------------------------------------------------------------------


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(STOPTABLE), "replay", *args], capture_output=True, text=True, cwd=cwd, timeout=60
    )


def _write(path: Path, head: dict[str, Any], *events: Any) -> Path:
    lines = [json.dumps({"format": "stoptable-record/1", **head})]
    lines += [e if isinstance(e, str) else json.dumps(e) for e in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_records_1_command_exit_0_one_json_object_and_map_path(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "grid.json").write_text(json.dumps(grid_map()), encoding="utf-8")
    head = header("grid.json", [car("s1", "M"), car("M")], active=1)
    record = _write(folder / "game.jsonl", head, roll(3), move(0, "s1", "X", "n1"), roll(2))
    run = _run(str(record), "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert list(out) == OUTPUT_KEYS
    assert out["cars"][0]["pos"] == "n1" and out["roll"] == 2 and out["applied"] == 3
    cut = _run(str(record), "--json", "--upto", "1", cwd=tmp_path)
    assert cut.returncode == 0 and json.loads(cut.stdout)["applied"] == 1


def test_records_1_command_exit_2_state_before_and_error(tmp_path: Path) -> None:
    head = header(grid_map(), [car("s1", "M"), car("M")], active=1)
    record = _write(tmp_path / "bad.jsonl", head, roll(1), "", move(0, "s1", "X", "n1"))
    run = _run(str(record), "--json", cwd=tmp_path)
    assert run.returncode == 2
    out = json.loads(run.stdout)
    assert out["error"]["line"] == 4 and out["error"]["reason"] == "too_far"
    assert out["error"]["reasons"] == ["too_far"] and out["error"]["rule"] == "G-7"
    assert out["applied"] == 1 and out["roll"] == 1 and out["cars"][0]["pos"] == "s1"


def test_records_1_command_exit_1_one_line_on_stderr(tmp_path: Path) -> None:
    head = header(grid_map(), [car("s1", "M"), car("M")], active=1)
    record = _write(tmp_path / "junk.jsonl", head, roll(2), {"seat": 0, "type": "fly"})
    run = _run(str(record), "--json", cwd=tmp_path)
    assert run.returncode == 1
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    missing = _run(str(tmp_path / "none.jsonl"), "--json", cwd=tmp_path)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_GM1_GM9_a_record_map_that_fails_reachability_replays() -> None:
    # Destination 1 (an) is closed off at both ends: GM-9 fails, but replay accepts any
    # map in the §6 format (GM-1, GM-9 "who applies it"), so fixtures can test one rule.
    shut = grid_map([
        {"type": "closed", "from": "A", "to": "an"}, {"type": "closed", "from": "n", "to": "an"},
    ])  # fmt: skip
    out = ok(header(shut, [car("s1", "M"), car("M")], active=2), roll(2), move(0, "s1", "X"))
    assert (out["cars"][0]["pos"], out["applied"]) == ("X", 2)
    seeded = ok({**BASE, "map": shut, "deck": [1, 2]})
    assert (seeded["active"], seeded["active_space"]) == (1, "an")


def test_GM1_a_map_that_breaks_its_format_exits_1() -> None:
    odd = grid_map()
    odd["spaces"][0] = {**odd["spaces"][0], "colour": "red"}
    malformed(header(odd, [car("M"), car("M")], active=2))
    dangling = grid_map()
    dangling["edges"].append(["M", "nowhere"])
    malformed({**BASE, "map": dangling})


def test_G2_player_count_comes_before_the_position_is_read() -> None:
    for seats in (1, 7):
        result = replay(header(grid_map(), [car("M")] * seats, active=1))
        assert result.exit_code == 2 and result.output is not None
        assert result.output["error"]["reason"] == "player_count"
        assert set(result.output) == {"game", "ruleset", "seats", "applied", "error"}


def test_records_1_command_negative_upto_exits_1(tmp_path: Path) -> None:
    record = _write(tmp_path / "r.jsonl", {**BASE, "deck": [1, 2]})
    run = _run(str(record), "--json", "--upto", "-1", cwd=tmp_path)
    assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [("--upto", "abc"), ("--upto",), ("--colour",), ()],
    ids=["nan", "noval", "opt", "nofile"],
)
def test_records_1_command_bad_arguments_exit_1_with_one_line(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    record = _write(tmp_path / "r.jsonl", {**BASE, "deck": [1, 2]})
    files = [str(record)] if args else []
    run = _run(*files, "--json", *args, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and run.stdout == ""
