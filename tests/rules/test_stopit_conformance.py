"""Stop it! conformance, record side: setup (records.md §5.2), action lines (§5.3), the
common record rules (§2, §3: unknown keys, notes, player_count, --upto, exit statuses) and
the real ``stoptable replay FILE --json`` command, once per exit status.

The play side (timers, evaluation, reason codes) is in test_stopit_conformance_play.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stoptable.games.stopit import COMPOSITION, kind_of, standard_deck
from tests.games.stopit.scenario import (
    call,
    clock,
    expect,
    go,
    grab,
    header,
    insert,
    move,
    output,
    run,
    stacks,
    state_json,
)
from tests.support import replay

BASE: dict[str, Any] = {"game": "stopit", "ruleset": "stopit-standard", "seats": 2}
STOPTABLE = Path(sys.executable).with_name("stoptable")

# ---------------------------------------------------------------- §5.2 setup


def test_I3_I4_seeded_setup_and_every_default() -> None:
    data = output({**BASE, "seats": 3, "seed": 7})
    dealt = data.pop("stacks")
    want = {**state_json(3, phase="waiting_go", go_seat=0), "applied": 0}
    del want["stacks"]
    assert data == want
    assert [len(s) for s in dealt] == [27] * 5
    assert sorted(c for s in dealt for c in s) == sorted(standard_deck())
    assert output({**BASE, "seed": 0})["stacks"] == output(BASE)["stacks"]
    assert output({**BASE, "seed": 1})["stacks"] != output(BASE)["stacks"]


def test_I1_seeded_ids_use_tags_1_to_17_and_1_to_2() -> None:
    ids = set(standard_deck())
    assert {f"red#{n}" for n in range(1, 18)} <= ids and "red#18" not in ids
    assert {"STOP-brown#1", "STOP-brown#2", "SUPER#1", "SUPER#2"} <= ids
    assert "STOP-brown#3" not in ids and "SUPER#3" not in ids
    assert Counter(kind_of(c) for c in ids) == Counter(COMPOSITION)


def test_I4_IA3_first_go_seat_option_names_the_go_seat() -> None:
    head = {**BASE, "seats": 3, "options": {"first_go_seat": 2}}
    assert output(head)["go_seat"] == 2
    assert output(head, go(2, 0))["phase"] == "running"


def test_I1_IA1_deck_must_have_the_I1_composition() -> None:
    deck = standard_deck()
    assert run({**BASE, "deck": deck}).exit_code == 0
    tags = [c.replace("#", "#x") for c in deck]  # any [A-Za-z0-9]+ tag is an id
    assert output({**BASE, "deck": tags})["stacks"][0][0] == tags[0]
    red_for_blue = ["red#99" if c == "blue#1" else c for c in deck]
    for bad in (
        red_for_blue,
        [*deck, "red#99"],
        deck[:-1],
        [*deck[:-1], "pink#1"],
        [*deck[:-1], "red#a-b"],
        [*deck[:-1], deck[0]],
        [*deck[:-1], 5],
    ):
        result = run({**BASE, "deck": bad})
        assert result.exit_code == 1 and result.output is None and result.message


def test_I3_deck_deals_top_first_round_robin() -> None:
    deck = standard_deck()
    data = output({**BASE, "deck": deck}, go(0, 0), grab(1, 1, "S1", deck[0], 0))
    assert [s[0] for s in data["stacks"]] == [deck[5], *deck[1:5]]
    assert data["hands"] == [[], [deck[0]]]
    three = output({**BASE, "deck": deck, "options": {"stack_count": 3}})
    assert three["stacks"] == [deck[0::3], deck[1::3], deck[2::3]]


def test_I3_position_defaults() -> None:
    head = {**BASE, "position": {"stacks": stacks(S1=["red#1"]), "hands": [["blue#1"], []]}}
    expect(
        run(head),
        0,
        phase="waiting_go",
        go_seat=0,
        stacks=stacks(S1=["red#1"]),
        hands=[["blue#1"], []],
    )
    shifted = {**head, "seats": 3, "options": {"minus_supply": 7, "first_go_seat": 2}}
    shifted["position"] = {**head["position"], "hands": [["blue#1"], [], []]}
    data = output(shifted)
    assert (data["supply"], data["go_seat"], data["held"]) == (7, 2, [None, None, None])


def test_I3_I22_position_with_every_key() -> None:
    head = header(
        3,
        stacks=stacks(S2=["STOP-red#1", "red#1"]),
        hands=[["red#2", "blue#1"], [], ["SUPER#1"]],
        held=[None, "green#1", None],
        supply=9,
        minus_cards=[1, 2, 3],
        extra_points=[0, 1, 0],
        phase="running",
        go_seat=1,
        clock=1234,
    )
    expect(
        run(head),
        0,
        seats=3,
        clock=1234,
        stacks=stacks(S2=["STOP-red#1", "red#1"]),
        hands=[["red#2", "blue#1"], [], ["SUPER#1"]],
        held=[None, "green#1", None],
        supply=9,
        minus_cards=[1, 2, 3],
        extra_points=[0, 1, 0],
        scores=[1, 3, 3],
    )
    waiting = {**head, "position": {**head["position"], "phase": "waiting_go"}}
    assert output(waiting)["go_seat"] == 1


def test_I3_position_and_options_may_carry_a_note() -> None:
    head = header(note="a position", stacks=stacks(S1=["red#1"], S2=["STOP-red#1"]))
    head["options"] = {"note": "house rules: none", "sort_grace_ms": 100}
    data = output(head, go(0, 0), grab(0, 1, "S1", "red#1"), call(1, 2, "S2", "STOP-red#1"))
    assert data["interrupt"] == {"card": "STOP-red#1", "by": 1, "deadline": 102}
    head["position"]["note"] = 5
    assert run(head).exit_code == 1
    assert run({**header(), "note": "header note"}).exit_code == 0
    assert run({**header(), "note": 5}).exit_code == 1


@pytest.mark.parametrize(
    "position",
    [
        {"hands": [[], []]},
        {"stacks": stacks()},
        {"stacks": stacks(), "hands": [[], [], []]},
        {"stacks": [*stacks(), []], "hands": [[], []]},
        {"stacks": stacks(S1=["super#1"]), "hands": [[], []]},
        {"stacks": stacks(S1=["STOP-SUPER#1"]), "hands": [[], []]},
        {"stacks": stacks(S1=["red#"]), "hands": [[], []]},
        {"stacks": stacks(S1=["red"]), "hands": [[], []]},
        {"stacks": stacks(S1=["STOP-red#1", "STOP-red#2"]), "hands": [["STOP-red#3"], []]},
        {"stacks": stacks(S1=["red#1"]), "hands": [[], []], "held": [None, "red#1"]},
        {"stacks": stacks(), "hands": [[], []], "held": [None]},
        {"stacks": stacks(), "hands": [[], []], "minus_cards": [0, -1]},
        {"stacks": stacks(), "hands": [[], []], "extra_points": [0]},
        {"stacks": stacks(), "hands": [[], []], "clock": -1},
        {"stacks": stacks(), "hands": [[], []], "supply": "15"},
        {"stacks": stacks(), "hands": [[], []], "phase": "game_over"},
        {"stacks": stacks(), "hands": [[], []], "go_seat": -1},
        {"stacks": stacks(), "hands": [[], []], "pending": None},
    ],
)
def test_I3_malformed_positions_exit_1(position: dict[str, Any]) -> None:
    result = run({**BASE, "position": position})
    assert result.exit_code == 1 and result.output is None
    assert result.message and result.message.startswith("line 1")


def test_I3_eighteen_cards_of_a_colour_are_too_many() -> None:
    reds = [f"red#{n}" for n in range(1, 19)]
    assert (
        run({**BASE, "position": {"stacks": [reds, [], [], [], []], "hands": [[], []]}}).exit_code
        == 1
    )
    assert (
        run(
            {**BASE, "position": {"stacks": [reds[:17], [], [], [], []], "hands": [[], []]}}
        ).exit_code
        == 0
    )


def test_I3_a_position_uses_the_stack_count_option() -> None:
    head = {**BASE, "options": {"stack_count": 3}}
    head["position"] = {"stacks": [["red#1"], [], ["blue#1"]], "hands": [[], []]}
    assert output(head)["stacks"] == [["red#1"], [], ["blue#1"]]
    head["position"] = {"stacks": stacks(), "hands": [[], []]}
    assert run(head).exit_code == 1


@pytest.mark.parametrize(
    "head",
    [
        {**BASE, "deck": standard_deck(), "position": {"stacks": stacks(), "hands": [[], []]}},
        {**BASE, "map": "maps/default.json"},
        {**BASE, "colour": "red"},
        {**BASE, "ruleset": "stopit-deluxe"},
        {**BASE, "ruleset": "abacus-en"},
        {**BASE, "options": {"sort_grace": 5}},
        {**BASE, "options": {"drop_penalty": "on"}},
        {**BASE, "options": {"stack_count": 0}},
        {**BASE, "options": {"sort_grace_ms": -1}},
        {**BASE, "options": {"sort_check_every_evaluation": 1}},
        {**BASE, "seed": "7"},
        {**BASE, "seats": "2"},
        {"game": "stopit", "ruleset": "stopit-standard"},
    ],
)
def test_I3_invalid_headers_exit_1(head: dict[str, Any]) -> None:
    result = run(head)
    assert result.exit_code == 1 and result.output is None and result.message


@pytest.mark.parametrize("seats", [0, 1, 7, 12])
def test_I2_player_count_output(seats: int) -> None:
    """Exit 2 on line 1 with only game, ruleset, seats, applied and error - for a seeded,
    a dealt and a positioned setup alike; later lines are not read."""
    for head in (
        {**BASE, "seats": seats},
        {**BASE, "seats": seats, "deck": standard_deck()},
        {**header(2, stacks=stacks()), "seats": seats},
    ):
        result = run(head, go(0, 5), {"bad": "line"})
        assert result.exit_code == 2 and result.output is not None
        error = result.output.pop("error")
        assert result.output == {
            "game": "stopit",
            "ruleset": "stopit-standard",
            "seats": seats,
            "applied": 0,
        }
        assert set(error) == {"line", "reason", "rule", "message"} and error["message"]
        assert (error["line"], error["reason"], error["rule"]) == (1, "player_count", "I-2")


# ---------------------------------------------------------------- §5.3 action lines

_RUNNING = header(phase="running", stacks=stacks(S1=["red#1"]), hands=[["STOP-red#1"], []])


@pytest.mark.parametrize(
    "line",
    [
        {"seat": 0, "type": "go"},
        {"seat": 0, "type": "go", "t": -1},
        {"seat": 0, "type": "go", "t": 1.5},
        {"seat": 0, "type": "go", "t": "5"},
        {"seat": 0, "type": "go", "t": True},
        {"seat": 0, "type": "go", "t": None},
        {"type": "go", "t": 5},
        {"seat": -1, "type": "go", "t": 5},
        {"seat": 2, "type": "go", "t": 5},
        {"seat": True, "type": "go", "t": 5},
        {"seat": "0", "type": "go", "t": 5},
        {"seat": 0, "t": 5},
        {"seat": 0, "type": "stop", "t": 5},
        {"seat": 0, "type": "go", "t": 5, "stack": "S1"},
        {"seat": 0, "type": "grab", "stack": "S1", "t": 5},
        {"seat": 0, "type": "grab", "expect_id": "red#1", "t": 5},
        {"seat": 0, "type": "grab", "stack": "S6", "expect_id": None, "t": 5},
        {"seat": 0, "type": "grab", "stack": "S0", "expect_id": None, "t": 5},
        {"seat": 0, "type": "grab", "stack": "s1", "expect_id": None, "t": 5},
        {"seat": 0, "type": "grab", "stack": 1, "expect_id": None, "t": 5},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": "red", "t": 5},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": 3, "t": 5},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": "red#1", "pos": "0", "t": 5},
        {"seat": 0, "type": "grab", "stack": "S1", "expect_id": "red#1", "card": "x", "t": 5},
        {"seat": 0, "type": "insert", "t": 5},
        {"seat": 0, "type": "insert", "pos": 0.0, "t": 5},
        {"seat": 0, "type": "insert", "pos": 0, "to": 1, "t": 5},
        {"seat": 0, "type": "move", "from": 0, "t": 5},
        {"seat": 0, "type": "move", "to": 0, "t": 5},
        {"seat": 0, "type": "move", "from": 0, "to": None, "t": 5},
        {"seat": 0, "type": "call_stop", "stack": "S1", "t": 5},
        {"seat": 0, "type": "call_stop", "expect_id": "STOP-red#1", "t": 5},
        {"seat": 0, "type": "call_stop", "stack": "S9", "expect_id": None, "t": 5},
        {"seat": 0, "type": "call_stop", "stack": "S1", "expect_id": "STOP-red", "t": 5},
        {"seat": 0, "type": "call_stop", "stack": "S1", "expect_id": None, "pos": 0, "t": 5},
        {"seat": 0, "type": "play_stop", "t": 5},
        {"seat": 0, "type": "play_stop", "card_id": None, "t": 5},
        {"seat": 0, "type": "play_stop", "card_id": "STOP-pink#1", "t": 5},
        {"seat": 0, "type": "play_stop", "card_id": "STOP-red#1", "stack": "S1", "t": 5},
        {"clock": 5, "t": 5},
        {"clock": 4.5},
        {"clock": None},
        {"chance": "shuffle", "order": []},
    ],
)
def test_I30_malformed_action_lines_exit_1(line: dict[str, Any]) -> None:
    result = run(_RUNNING, line)
    assert result.exit_code == 1 and result.output is None
    assert result.message and "line 2" in result.message


def test_I30_t_may_equal_the_clock_but_never_go_below_it() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "red#2"]), clock=100)
    data = output(head, grab(0, 100, "S1", "red#1"), insert(0, 100, 0))
    assert (data["clock"], data["hands"][0]) == (100, ["red#1"])
    for late in (grab(1, 99, "S1", "red#2"), clock(99), go(0, 0)):
        result = run(head, grab(0, 100, "S1", "red#1"), late)
        assert result.exit_code == 1 and "line 3" in (result.message or "")
    below_after_timer = run(head, clock(5000), move(0, 4999, 0, 0))
    assert below_after_timer.exit_code == 1


def test_I7_move_and_insert_lines_change_the_hand_order() -> None:
    head = header(
        phase="running", stacks=stacks(S1=["red#1"]), hands=[["blue#1", "green#1", "red#2"], []]
    )
    data = output(
        head, move(0, 1, 2, 0), move(0, 2, 1, 2), grab(0, 3, "S1", "red#1"), insert(0, 4, 1)
    )
    assert data["hands"][0] == ["red#2", "red#1", "green#1", "blue#1"]
    same = output(head, move(0, 1, 1, 1))
    assert same["hands"][0] == ["blue#1", "green#1", "red#2"]


# ---------------------------------------------------------------- §2, §3 common rules


def test_I30_notes_are_ignored_on_every_line() -> None:
    head = header(note="start", phase="running", stacks=stacks(S1=["red#1"]))
    plain = output(head, grab(0, 5, "S1", "red#1"), clock(9))
    noted = output(
        head, {**grab(0, 5, "S1", "red#1"), "note": "fast"}, {"clock": 9, "note": "tick"}
    )
    assert noted == plain
    assert run(head, {**grab(0, 5, "S1", "red#1"), "note": 3}).exit_code == 1


def test_I30_exit_2_is_the_state_before_with_the_1_based_line() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "blue#1"]))
    lines = [
        json.dumps({"format": "stoptable-record/1", **head}),
        "",
        json.dumps(grab(0, 10, "S1", "red#1")),
        "   ",
        json.dumps(grab(1, 20, "S1", "red#1")),
        "not even json",
        json.dumps(grab(1, 30, "S1", "blue#1")),
    ]
    from stoptable.core.records import replay_lines
    from stoptable.games import replayer

    result = replay_lines(lines, replayer)
    expect(
        result,
        1,
        error=(5, "stale", "I-31"),
        clock=20,
        stacks=stacks(S1=["blue#1"]),
        held=["red#1", None],
    )
    assert replay_lines(lines, replayer, upto=1).exit_code == 0
    assert replay_lines(lines[:4] + lines[6:], replayer).exit_code == 0


def test_I30_upto_semantics() -> None:
    head = header(phase="running", stacks=stacks(S1=["red#1", "blue#1"]))
    events = [grab(0, 10, "S1", "red#1"), clock(20), insert(0, 30, 0), grab(1, 40, "S1", "red#1")]
    setup = replay(head, *events, upto=0)
    assert setup.exit_code == 0 and setup.output == {
        **state_json(stacks=stacks(S1=["red#1", "blue#1"])),
        "applied": 0,
    }
    for n in range(len(events)):
        cut = replay(head, *events, upto=n)
        assert cut.exit_code == 0
        assert cut.output == replay(head, *events[:n]).output
    assert replay(head, *events, upto=3).output == output(head, *events[:3])
    for n in (4, 5, 100):
        assert replay(head, *events, upto=n).output == replay(head, *events).output
    assert replay(head, *events).exit_code == 2
    assert replay(head, *events, upto=-1).exit_code == 1


# ---------------------------------------------------------------- the real command


def _command(tmp_path: Path, lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return subprocess.run(
        [str(STOPTABLE), "replay", str(path), "--json", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


_CLI_HEAD = json.dumps(
    {"format": "stoptable-record/1", **header(phase="running", stacks=stacks(S1=["STOP-red#1"]))}
)


def test_I30_I31_command_exit_statuses(tmp_path: Path) -> None:
    ok = _command(tmp_path, [_CLI_HEAD, json.dumps(call(1, 10, "S1", "STOP-red#1"))])
    assert ok.returncode == 0, ok.stderr
    data = json.loads(ok.stdout)
    assert (data["phase"], data["go_seat"], data["applied"]) == ("waiting_go", 1, 1)
    assert "error" not in data
    illegal = _command(
        tmp_path,
        [_CLI_HEAD, json.dumps(call(1, 10, "S1", "STOP-red#1")), json.dumps(go(0, 11))],
    )
    assert illegal.returncode == 2
    data = json.loads(illegal.stdout)
    assert data["error"]["line"] == 3 and data["error"]["reason"] == "not_go_seat"
    assert data["error"]["rule"] == "I-15" and data["clock"] == 11 and data["applied"] == 1
    malformed = _command(tmp_path, [_CLI_HEAD, json.dumps({"clock": 5, "seat": 0})])
    assert malformed.returncode == 1
    assert malformed.stdout == ""
    assert len(malformed.stderr.strip().splitlines()) == 1 and "Traceback" not in malformed.stderr
    upto = _command(
        tmp_path, [_CLI_HEAD, json.dumps(call(1, 10, "S1", "STOP-red#1")), "{"], "--upto", "1"
    )
    assert upto.returncode == 0 and json.loads(upto.stdout)["applied"] == 1
    seats = _command(tmp_path, [json.dumps({"format": "stoptable-record/1", **BASE, "seats": 9})])
    assert seats.returncode == 2 and json.loads(seats.stdout)["error"]["reason"] == "player_count"
