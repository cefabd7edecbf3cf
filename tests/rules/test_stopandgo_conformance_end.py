"""Conformance of Stop & Go with stop-and-go.md G-15..G-21 and GA-5, GA-9, GA-11, GA-21:
collecting, prevent and fine, tickets and missed turns, new cards, the end and the scores.

Records start from explicit positions on the maps of test_stopandgo_conformance_helpers.py.
"""

from __future__ import annotations

import json
from typing import Any

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
    reasons_of,
    rejected,
    roll,
    space,
)

FINE = {"enforcement": "fine"}


def test_G15_collecting_sets_the_car_and_turns_up_the_next_card() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], active=1, deck=[3, 2], roll=4)
    out = ok(head, move(0, "a2", "a3", "d1"))
    assert out["cars"][0] == {
        "pos": "d1", "prev": "a3", "reverse_ok": True, "tickets": 0, "missed_turns": 0,
        "collected": [1],
    }  # fmt: skip
    assert (out["active"], out["active_space"], out["deck"]) == (3, "b3", [2])
    assert (out["scores"], out["phase"], out["turn"]) == ([1, 0], "playing", 1)


def test_G15_a_move_that_does_not_end_on_the_active_space_collects_nothing() -> None:
    head = header(line_map(), [car("d1", "a3"), car("M")], active=1, deck=[2], roll=2)
    out = ok(head, move(0, "d1", "a5", "d2"))  # d2 is destination 2, not active
    assert out["cars"][0]["collected"] == [] and (out["active"], out["deck"]) == (1, [2])


def test_G16_GA3_prevent_refuses_a_traffic_fault_and_keeps_the_roll() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], active=1, roll=2)
    result = rejected(head, move(0, "a2", "a1"))
    assert result.output is not None
    err = result.output["error"]
    assert (err["reason"], err["reasons"], err["rule"]) == ("u_turn", ["u_turn"], "G-10")
    assert (result.output["roll"], result.output["turn"], result.output["applied"]) == (2, 0, 0)
    assert result.output["cars"][0]["tickets"] == 0 and result.output["last_move"] is None


def test_G16_GA5_fine_returns_the_car_to_its_last_stopping_place_with_its_state() -> None:
    cars = [car("b3", "M", reverse_ok=True, collected=[3]), car("c1", "M")]
    head = header(line_map(), cars, FINE, active=1, roll=3)
    out = ok(head, move(0, "b3", "b2", "b3", "M"))  # U-turn on b2 (the first step is free)
    assert out["cars"][0] == {
        "pos": "b3", "prev": "M", "reverse_ok": True, "tickets": 1, "missed_turns": 0,
        "collected": [3],
    }  # fmt: skip
    assert out["last_move"] == {
        "seat": 0, "path": ["b3", "b2", "b3", "M"], "roll": 3, "result": "violation",
        "reasons": ["u_turn"],
    }  # fmt: skip
    assert (out["turn"], out["roll"]) == (1, None)


def test_G16_fine_collects_nothing_on_an_offending_path() -> None:
    head = header(line_map(), [car("a3", "d1"), car("M")], FINE, active=1, deck=[2], roll=1)
    out = ok(head, move(0, "a3", "d1"))  # a U-turn into the active destination
    assert out["last_move"]["result"] == "violation"
    assert out["cars"][0]["collected"] == [] and out["cars"][0]["pos"] == "a3"
    assert (out["active"], out["deck"], out["scores"]) == (1, [2], [0, 0])


def test_G16_fine_a_legal_path_is_ok_and_gets_no_ticket() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], FINE, active=1, roll=1)
    out = ok(head, move(0, "a2", "a3"))
    assert out["last_move"]["result"] == "ok" and out["cars"][0]["tickets"] == 0


def test_G17_GA6_third_ticket_costs_three_turns_and_the_car_keeps_its_space() -> None:
    head = header(line_map(), [car("a2", "a1", tickets=2), car("c1", "c2")], FINE, active=2, roll=1)
    out = ok(head, move(0, "a2", "a1"))
    assert (out["cars"][0]["tickets"], out["cars"][0]["missed_turns"]) == (0, 3)
    assert (out["cars"][0]["pos"], out["turn"]) == ("a2", 1)
    events = [move(0, "a2", "a1")]
    for left in (2, 1, 0):  # each time seat 0's turn comes, it is passed over at once
        events += [roll(2), move(1, *(["c1", "M"] if left == 2 else ["M"]))]
        out = ok(head, *events)
        assert (out["turn"], out["cars"][0]["missed_turns"]) == (1, left)
    assert ok(head, *events, roll(2), move(1, "M"))["turn"] == 0
    assert reasons_of(head, *events[:1], roll(3), move(1, "c1", "M", "a1", "a2")) == ["occupied"]


def test_G17_tickets_limit_and_missed_turns_on_limit_options() -> None:
    options = {**FINE, "tickets_limit": 2, "missed_turns_on_limit": 1}
    head = header(line_map(), [car("a2", "a1", tickets=1), car("M")], options, active=2, roll=1)
    out = ok(head, move(0, "a2", "a1"))
    assert (out["cars"][0]["tickets"], out["cars"][0]["missed_turns"]) == (0, 1)
    out = ok(head, move(0, "a2", "a1"), roll(2), move(1, "M"))
    assert (out["turn"], out["cars"][0]["missed_turns"]) == (1, 0)
    one = header(line_map(), [car("a2", "a1"), car("M")], options, active=2, roll=1)
    assert ok(one, move(0, "a2", "a1"))["cars"][0]["tickets"] == 1


def test_G18_GA9_a_card_turned_up_under_a_standing_car_is_not_collected() -> None:
    cars = [car("a3", "a2"), car("b3", "b2")]
    head = header(line_map(), cars, active=1, deck=[3, 2], roll=1)
    out = ok(head, move(0, "a3", "d1"))
    assert (out["active"], out["active_space"]) == (3, "b3")
    assert out["cars"][1]["collected"] == []
    still = ok(head, move(0, "a3", "d1"), roll(4), move(1, "b3"))
    assert still["cars"][1]["collected"] == [] and still["active"] == 3
    # It must leave and drive on again: through the market, where U-turns are allowed.
    back = ok(head, move(0, "a3", "d1"), roll(2), move(1, "b3", "M", "b3"))
    assert back["cars"][1]["collected"] == [3] and back["active"] == 2
    assert back["cars"][1]["reverse_ok"] is True


def test_G18_GA9_the_standing_car_blocks_the_new_destination() -> None:
    head = header(line_map(), [car("a3", "a2"), car("b3", "b2")], active=1, deck=[3], roll=1)
    events = [move(0, "a3", "d1"), roll(2), move(1, "b3"), roll(6)]
    assert reasons_of(head, *events, move(0, "d1", "a3", "a2", "a1", "M", "b3")) == ["occupied"]


def test_G18_collect_on_reveal_option_collects_at_once() -> None:
    cars = [car("a3", "a2"), car("b3", "b2")]
    options = {"collect_on_reveal": True}
    head = header(line_map(), cars, options, active=1, deck=[3, 2], roll=1)
    out = ok(head, move(0, "a3", "d1"))
    assert out["cars"][1]["collected"] == [3] and out["cars"][1]["reverse_ok"] is True
    assert (out["active"], out["deck"], out["turn"]) == (2, [], 1)


def test_G19_the_last_card_ends_the_game() -> None:
    head = header(line_map(), [car("a3", "a2"), car("M")], active=1, roll=1)
    out = ok(head, move(0, "a3", "d1"))
    assert (out["phase"], out["turn"], out["roll"]) == ("game_over", None, None)
    assert (out["active"], out["active_space"], out["deck"]) == (None, None, [])
    assert (out["scores"], out["winners"]) == ([1, 0], [0])
    err = error(head, move(0, "a3", "d1"), move(1, "M"))
    assert (err["reason"], err["rule"], err["line"]) == ("game_over", "G-19", 3)
    malformed(head, move(0, "a3", "d1"), roll(2))


def test_G20_GA18_ties_share_the_win_in_both_scoring_modes() -> None:
    cars = [car("a3", "a2", collected=[2]), car("M", collected=[3]), car("c1", collected=[])]
    for scoring, scores, winners in (("count", [2, 1, 0], [0]), ("sum", [3, 3, 0], [0, 1])):
        head = header(line_map(), cars, {"scoring": scoring}, active=1, roll=1)
        out = ok(head, move(0, "a3", "d1"))
        assert (out["scores"], out["winners"]) == (scores, winners), scoring
    tie = [car("a3", "a2"), car("M", collected=[2]), car("c1", collected=[3])]
    out = ok(header(line_map(), tie, active=1, roll=1), move(0, "a3", "d1"))
    assert (out["scores"], out["winners"]) == ([1, 1, 1], [0, 1, 2])


def test_G21_a_shorter_game_ends_after_its_cards() -> None:
    head: dict[str, Any] = {
        "game": "stopandgo",
        "ruleset": "stopgo-standard",
        "seats": 2,
        "map": line_map(),
        "options": {"destination_list": [3]},
    }
    out = ok(head, roll(1), move(0, "M", "b3"))
    assert (out["phase"], out["winners"], out["scores"]) == ("game_over", [0], [1, 0])


def _corner_map() -> dict[str, Any]:
    """A crossroads Z whose west arm is the market: M - Z - a, b north, c south."""
    spaces = [
        space("Z", "crossroads", 0, 0), space("M", "market", -1, 0), space("m2", "road", -2, 0),
        space("a", "road", 1, 0), space("a1", "", 2, 0, 3), space("b", "road", 0, -1),
        space("b1", "", 0, -2, 1), space("c", "road", 0, 1), space("c1", "", 0, 2, 2),
    ]  # fmt: skip
    edges = [["Z", "M"], ["M", "m2"], ["Z", "a"], ["a", "a1"], ["Z", "b"], ["b", "b1"]]
    edges += [["Z", "c"], ["c", "c1"]]
    signs = [{"type": "major_road_ahead", "from": "c", "to": "Z", "watch": ["M", "a"]}]
    return {"name": "conformance-corner", "spaces": spaces, "edges": edges, "signs": signs}


def test_GA11_GA21_cars_on_the_market_are_not_waiting() -> None:
    on_market = header(_corner_map(), [car("c", "c1"), car("M", "m2")], active=1, roll=2)
    assert ok(on_market, move(0, "c", "Z", "b"))["cars"][0]["pos"] == "b"
    on_arm = header(_corner_map(), [car("c", "c1"), car("a", "a1")], active=1, roll=2)
    assert reasons_of(on_arm, move(0, "c", "Z", "b")) == ["major_road_ahead"]


def test_GA21_a_car_may_enter_and_leave_the_market_by_the_same_street_mid_move() -> None:
    head = header(grid_map(), [car("s1", "X"), car("A")], active=1, roll=4)
    out = ok(head, move(0, "s1", "M", "s1", "X"))
    assert (out["cars"][0]["pos"], out["cars"][0]["prev"]) == ("X", "s1")


def _default_dial_expected(arm: str, q: int, watch: dict[str, list[str]]) -> Any:
    """GA-2 table: what the approach from ``arm`` (N, S, E or W) shows at local phase q."""
    north_south = ["green", "red", "green", {"type": "major_road_ahead", "watch": watch["EW"]}]
    east_west = ["red", "green", {"type": "major_road_ahead", "watch": watch["NS"]}, "green"]
    return (north_south if arm in "NS" else east_west)[q]


def test_GA2_G13_default_dial_table_with_phase_offsets_and_exit_slots() -> None:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    where = {s["id"]: (s["x"], s["y"]) for s in data["spaces"]}
    assert data["dial"]["positions"] == 4
    slots = {(s["from"], s["to"]): s["signs"] for s in data["dial"]["slots"]}
    for k in range(1, 5):
        light = f"L{k}"
        lx, ly = where[light]
        arms: dict[str, str] = {}
        for a, b in data["edges"]:
            other = a if b == light else b if a == light else None
            if other is not None:
                dx, dy = where[other][0] - lx, where[other][1] - ly  # y grows south
                arms[{(0, -1): "N", (0, 1): "S", (1, 0): "E", (-1, 0): "W"}[(dx, dy)]] = other
        assert sorted(arms) == ["E", "N", "S", "W"], light
        watch = {"NS": [arms["N"], arms["S"]], "EW": [arms["E"], arms["W"]]}
        for arm, space_id in arms.items():
            shown = slots[(space_id, light)]
            for p in range(4):
                want = _default_dial_expected(arm, (p + k - 1) % 4, watch)
                got = shown[p]
                if isinstance(want, dict):
                    assert isinstance(got, dict) and got["type"] == want["type"], (light, arm, p)
                    assert sorted(got["watch"]) == sorted(want["watch"]), (light, arm, p)
                else:
                    assert got == want, (light, arm, p)
        exits = {
            arm: slots.get((light, space_id)) for arm, space_id in arms.items()
            if (light, space_id) in slots
        }  # fmt: skip
        q_of = [(p + k - 1) % 4 for p in range(4)]
        if k == 1:
            assert set(exits) == {"W"}
            assert exits["W"] == ["closed" if q == 0 else "none" for q in q_of]
        elif k == 2:
            assert set(exits) == {"N"}
            assert exits["N"] == ["no_entry" if q == 1 else "none" for q in q_of]
        else:
            assert exits == {}
