"""Conformance of Stop & Go moves with stop-and-go.md G-6..G-21 / GA-* and records.md §6.4.

Each scenario is a record started from an explicit position on a small map object (see
test_stopandgo_conformance_helpers.py for the GRID, LINE and KITCHEN layouts); the checks
read the replay JSON: exit status, ``error.reason``/``reasons``/``rule`` and the state.
"""

from __future__ import annotations

from typing import Any

from tests.rules.test_stopandgo_conformance_helpers import (
    car,
    error,
    grid_map,
    header,
    kitchen_map,
    line_map,
    move,
    ok,
    reasons_of,
    rejected,
    roll,
)

FINE = {"enforcement": "fine"}


def _grid(*signs: dict[str, Any], slots: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return grid_map(list(signs), slots)


def _sign(kind: str, frm: str, to: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "from": frm, "to": to, **more}


# -- §6.4 order of the reason codes -------------------------------------------------------------


def test_records_6_4_hard_codes_in_listed_order_then_traffic() -> None:
    # bad_start (M is not a1), too_far (5 > 1), not_adjacent (M-a2), passes_destination (d1
    # inside), occupied (d1 holds car 1), then the U-turn a5 -> d1.
    head = header(line_map(), [car("a1", "M"), car("d1", "a3")], active=1, roll=1)
    path = ("M", "a2", "a3", "d1", "a5", "d1")
    err = error(head, move(0, *path))
    assert err["reasons"] == [
        "bad_start", "too_far", "not_adjacent", "passes_destination", "occupied", "u_turn",
    ]  # fmt: skip
    assert (err["reason"], err["rule"]) == ("bad_start", "G-6")


def test_records_6_4_hard_codes_rule_ids() -> None:
    head = header(line_map(), [car("a1", "M"), car("a3", "a2")], active=1, roll=2)
    expected = {
        ("a2",): ("bad_start", "G-6"),
        ("a1", "a2", "a3", "d1"): ("too_far", "G-7"),
        ("a1", "a2", "d1"): ("not_adjacent", "G-7"),
        ("a1", "a2", "a3"): ("occupied", "G-8"),
    }
    for path, (code, rule) in expected.items():
        err = error(head, move(0, *path))
        assert (err["reason"], err["reasons"], err["rule"]) == (code, [code], rule), path
    far = header(line_map(), [car("a2", "a1"), car("M")], active=1, roll=4)
    err = error(far, move(0, "a2", "a3", "d1", "a5"))
    assert (err["reasons"], err["rule"]) == (["passes_destination"], "G-9")


def test_records_6_4_G12_every_code_of_one_step_in_listed_order_u_turn_first() -> None:
    # KITCHEN: Y -> X -> Y. The step X -> Y (i = 1) is a U-turn, leaves X against the
    # compulsory direction of Y -> X, and carries closed, no_entry, no_motor_vehicles, the
    # reversed one-way segment, the red dial, major road ahead (car 1 on m1 heads to Y),
    # stop and stop_alt; the path ends by the no-waiting step.
    head = header(kitchen_map(), [car("Y", "e1"), car("m1", "m2")], active=1, roll=2)
    assert reasons_of(head, move(0, "Y", "X", "Y")) == [
        "u_turn", "compulsory_straight_or_right", "closed", "no_entry", "no_motor_vehicles",
        "one_way", "red", "major_road_ahead", "stop", "stop_alt", "no_waiting",
    ]  # fmt: skip


def test_records_6_4_G12_every_code_of_one_step_in_listed_order_no_turn() -> None:
    head = header(kitchen_map(), [car("w1", "w2"), car("m1", "m2")], active=1, roll=2)
    err = error(head, move(0, "w1", "X", "Y"))
    assert err["reasons"] == [
        "compulsory_straight_or_right", "no_turn", "closed", "no_entry", "no_motor_vehicles",
        "one_way", "red", "major_road_ahead", "stop", "stop_alt", "no_waiting",
    ]  # fmt: skip
    assert (err["reason"], err["rule"]) == ("compulsory_straight_or_right", "G-12")


def test_records_6_4_GA20_violation_reasons_use_the_same_order_and_one_ticket() -> None:
    head = header(kitchen_map(), [car("Y", "e1"), car("m1", "m2")], FINE, active=1, roll=2)
    out = ok(head, move(0, "Y", "X", "Y"))
    assert out["last_move"] == {
        "seat": 0, "path": ["Y", "X", "Y"], "roll": 2, "result": "violation",
        "reasons": [
            "u_turn", "compulsory_straight_or_right", "closed", "no_entry", "no_motor_vehicles",
            "one_way", "red", "major_road_ahead", "stop", "stop_alt", "no_waiting",
        ],
    }  # fmt: skip
    assert out["cars"][0] == {
        "pos": "Y", "prev": "e1", "reverse_ok": False, "tickets": 1, "missed_turns": 0,
        "collected": [],
    }  # fmt: skip


def test_records_6_4_traffic_codes_in_path_order_each_once() -> None:
    # red on the first step, a U-turn on the second, both again on the third.
    slots = [{"from": "s1", "to": "X", "signs": ["red", "green", "green", "green"]}]
    head = header(_grid(slots=slots), [car("s1", "M"), car("A", "aw")], active=1, roll=3)
    assert reasons_of(head, move(0, "s1", "X", "s1")) == ["red", "u_turn"]
    assert reasons_of(head, move(0, "s1", "X", "s1", "X")) == ["red", "u_turn"]


def test_records_6_4_steps_between_non_adjacent_spaces_are_skipped() -> None:
    # X was entered from s1 under "straight on or right" (n1, e1): the next step must go
    # there, but X -> n is not a step at all, so only not_adjacent is reported.
    sign = _sign("compulsory_straight_or_right", "s1", "X", exits=["n1", "e1"])
    head = header(_grid(sign), [car("X", "s1"), car("A", "aw")], active=1, roll=2)
    assert reasons_of(head, move(0, "X", "n")) == ["not_adjacent"]
    assert reasons_of(head, move(0, "X", "w1")) == ["compulsory_straight_or_right"]


def test_records_6_4_no_waiting_comes_after_the_step_codes() -> None:
    nw = _sign("no_waiting", "X", "e1")
    stop = _sign("stop", "s1", "X")
    head = header(_grid(nw, stop), [car("M", "cm"), car("A", "aw")], active=1, roll=3)
    assert reasons_of(head, move(0, "M", "s1", "X", "e1")) == ["stop", "no_waiting"]


def test_records_6_4_fine_still_rejects_a_hard_fault_with_every_code() -> None:
    head = header(line_map(), [car("a2", "a1"), car("a5", "d1")], FINE, active=2, roll=2)
    result = rejected(head, move(0, "a2", "a1", "a2", "a3"))
    assert result.output is not None
    assert result.output["error"]["reasons"] == ["too_far", "u_turn"]
    assert result.output["cars"][0]["tickets"] == 0 and result.output["roll"] == 2


# -- G-6 to G-9 hard rules ------------------------------------------------------------------


def test_G6_standing_still_is_legal_and_changes_nothing() -> None:
    cars = [car("a2", "a1", reverse_ok=True), car("M")]
    out = ok(header(line_map(), cars, active=1, roll=6), move(0, "a2"))
    assert out["cars"][0] == {
        "pos": "a2", "prev": "a1", "reverse_ok": True, "tickets": 0, "missed_turns": 0,
        "collected": [],
    }  # fmt: skip
    assert out["last_move"]["result"] == "ok" and out["turn"] == 1


def test_G6_empty_path_is_a_bad_start() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], active=1, roll=3)
    err = error(head, move(0))
    assert (err["reason"], err["reasons"], err["rule"]) == ("bad_start", ["bad_start"], "G-6")


def test_G6_G7_any_length_up_to_the_roll() -> None:
    head = header(line_map(), [car("M", "c1"), car("c2", "c1")], active=2, roll=4)
    for end in range(1, 5):
        path = ["M", "a1", "a2", "a3", "d1"][: end + 1]
        out = ok(head, move(0, *path))
        assert out["cars"][0]["pos"] == path[-1] and out["cars"][0]["prev"] == path[-2]


def test_G8_market_holds_any_number_and_cars_may_be_passed() -> None:
    head = header(line_map(), [car("a2", "a3"), car("M", "b3"), car("a1", "M")], active=2, roll=2)
    out = ok(head, move(0, "a2", "a1", "M"))
    assert [c["pos"] for c in out["cars"]] == ["M", "M", "a1"]
    through = header(line_map(), [car("M", "c1"), car("a1", "a2"), car("c2")], active=2, roll=3)
    assert ok(through, move(0, "M", "a1", "a2", "a3"))["cars"][0]["pos"] == "a3"


def test_G9_GA7_a_non_active_destination_may_be_passed_the_active_one_ends_the_move() -> None:
    head = header(line_map(), [car("a3", "a2"), car("M")], active=2, deck=[1], roll=3)
    out = ok(head, move(0, "a3", "d1", "a5"))
    assert out["cars"][0]["collected"] == [] and out["active"] == 2
    short = header(line_map(), [car("a3", "a2"), car("M")], active=1, deck=[2], roll=6)
    out = ok(short, move(0, "a3", "d1"))  # pips left over are lost
    assert out["cars"][0]["collected"] == [1] and out["active"] == 2


def test_G8_G9_occupied_active_destination_cannot_be_entered() -> None:
    head = header(line_map(), [car("a3", "a2"), car("d1", "a5")], active=1, roll=3)
    assert reasons_of(head, move(0, "a3", "d1")) == ["occupied"]
    assert reasons_of(head, move(0, "a3", "d1", "a5")) == ["passes_destination"]


# -- G-10, G-11, GA-21 U-turns -----------------------------------------------------------------


def test_G10_u_turn_refused_outside_the_market_with_its_rule() -> None:
    head = header(line_map(), [car("a2", "a1"), car("M")], active=2, roll=2)
    err = error(head, move(0, "a2", "a1"))
    assert (err["reasons"], err["rule"]) == (["u_turn"], "G-10")
    assert reasons_of(head, move(0, "a2", "a3", "a2")) == ["u_turn"]


def test_G10_GA21_u_turn_on_the_market_and_leaving_it_any_way() -> None:
    head = header(line_map(), [car("a1", "a2"), car("c2")], active=2, roll=2)
    out = ok(head, move(0, "a1", "M", "a1"))
    assert (out["cars"][0]["pos"], out["cars"][0]["prev"]) == ("a1", "M")
    on_market = header(line_map(), [car("M", "a1"), car("c2")], active=2, roll=1)
    assert ok(on_market, move(0, "M", "a1"))["cars"][0]["pos"] == "a1"


def test_G10_no_heading_before_the_first_move() -> None:
    head = header(line_map(), [car("a2"), car("M")], active=2, roll=1)
    assert ok(head, move(0, "a2", "a1"))["cars"][0]["prev"] == "a2"
    assert ok(head, move(0, "a2", "a3"))["cars"][0]["prev"] == "a2"


def test_G10_any_arm_but_the_one_it_came_from_at_a_crossroads() -> None:
    head = header(grid_map(), [car("X", "s1"), car("A", "aw")], active=1, roll=1)
    for arm in ("n1", "e1", "w1"):
        assert ok(head, move(0, "X", arm))["cars"][0]["pos"] == arm
    assert reasons_of(head, move(0, "X", "s1")) == ["u_turn"]


def test_G11_GA8_u_turn_once_on_the_first_step_after_collecting() -> None:
    head = header(line_map(), [car("a3", "a2"), car("c1", "M")], active=1, deck=[2], roll=1)
    events = [move(0, "a3", "d1"), roll(2), move(1, "c1", "c2")]
    out = ok(head, *events)
    assert out["cars"][0]["reverse_ok"] is True and out["cars"][0]["collected"] == [1]
    out = ok(head, *events, roll(2), move(0, "d1", "a3", "a2"))
    assert (out["cars"][0]["pos"], out["cars"][0]["reverse_ok"]) == ("a2", False)
    assert reasons_of(head, *events, roll(3), move(0, "d1", "a5", "d1")) == ["u_turn"]
    # Any move with k >= 1 clears it, U-turn or not; k = 0 keeps it.
    kept = ok(head, *events, roll(2), move(0, "d1"))
    assert kept["cars"][0]["reverse_ok"] is True
    cleared = ok(head, *events, roll(2), move(0, "d1", "a5"))
    assert cleared["cars"][0]["reverse_ok"] is False


def test_G11_reverse_after_collect_false_gives_no_permission() -> None:
    options = {"reverse_after_collect": False}
    head = header(line_map(), [car("a3", "a2"), car("M")], options, active=1, deck=[2], roll=1)
    out = ok(head, move(0, "a3", "d1"))
    assert out["cars"][0]["reverse_ok"] is False
    assert reasons_of(
        head, move(0, "a3", "d1"), roll(1), move(1, "M"), roll(1), move(0, "d1", "a3")
    ) == ["u_turn"]


# -- G-12 to G-14 signs and the dial ---------------------------------------------------------


def test_G12_GA10_stop_sign_only_as_the_first_step() -> None:
    game_map = _grid(_sign("stop", "w1", "X"))
    head = header(game_map, [car("w", "aw"), car("A", "an")], active=3, roll=3)
    err = error(head, move(0, "w", "w1", "X"))
    assert (err["reasons"], err["rule"]) == (["stop"], "G-12")
    out = ok(
        head, move(0, "w", "w1"), roll(1), move(1, "A", "aw"), roll(2), move(0, "w1", "X", "n1")
    )
    assert out["cars"][0]["pos"] == "n1"


def test_G12_GA11_major_road_ahead_waits_for_cars_heading_in_from_the_sides() -> None:
    game_map = _grid(_sign("major_road_ahead", "s1", "X", watch=["w1", "e1"]))
    for other, refused in (
        (car("w1", "w"), True),  # heading toward X
        (car("e1", "e", missed_turns=2), True),  # a suspended car waits as well
        (car("w1", "X"), False),  # heading away
        (car("w1"), False),  # no heading yet
        (car("X", "w1"), False),  # on the crossroads itself
        (car("n1", "n"), False),  # straight ahead, not left or right
    ):
        head = header(game_map, [car("s1", "M"), other], active=1, roll=2)
        path = ("s1", "X", "e1" if other["pos"] == "n1" else "n1")
        if refused:
            err = error(head, move(0, *path))
            assert (err["reasons"], err["rule"]) == (["major_road_ahead"], "G-12"), other
        else:
            assert ok(head, move(0, *path))["cars"][0]["pos"] == path[-1], other


def test_G12_GA12_no_waiting_forbids_ending_by_the_signed_step_only() -> None:
    game_map = _grid(_sign("no_waiting", "X", "e1"))
    head = header(game_map, [car("s1", "M"), car("A", "an")], active=1, roll=3)
    err = error(head, move(0, "s1", "X", "e1"))
    assert (err["reasons"], err["rule"]) == (["no_waiting"], "G-12")
    assert ok(head, move(0, "s1", "X", "e1", "e"))["cars"][0]["pos"] == "e"
    other_way = header(game_map, [car("e", "be"), car("A", "an")], active=1, roll=1)
    assert ok(other_way, move(0, "e", "e1"))["cars"][0]["pos"] == "e1"


def test_G12_GA14_closed_no_entry_no_motor_vehicles_forbid_the_step() -> None:
    for kind in ("closed", "no_entry", "no_motor_vehicles"):
        head = header(_grid(_sign(kind, "X", "e1")), [car("s1", "M"), car("A")], active=1, roll=3)
        assert reasons_of(head, move(0, "s1", "X", "e1", "e")) == [kind]
        assert ok(head, move(0, "s1", "X", "n1"))["cars"][0]["pos"] == "n1"


def test_G12_GA13_one_way_forbids_every_step_against_the_segment() -> None:
    one_way = _sign("one_way_alt", "n", "n1", segment=[["n", "n1"], ["n1", "X"]])
    game_map = _grid(one_way, _sign("no_entry", "X", "n1"))
    head = header(game_map, [car("n1", "X"), car("A")], active=1, roll=2)
    err = error(head, move(0, "n1", "n"))
    assert (err["reasons"], err["rule"]) == (["one_way"], "G-12")
    at_x = header(game_map, [car("X", "s1"), car("A")], active=1, roll=2)
    assert reasons_of(at_x, move(0, "X", "n1", "n")) == ["no_entry", "one_way"]
    with_flow = header(game_map, [car("n", "nb"), car("A")], active=1, roll=2)
    assert ok(with_flow, move(0, "n", "n1", "X"))["cars"][0]["pos"] == "X"


def test_G12_compulsory_straight_or_right_also_binds_the_next_move() -> None:
    sign = _sign("compulsory_straight_or_right", "s1", "X", exits=["n1", "e1"])
    head = header(_grid(sign), [car("s1", "M"), car("A", "an")], active=1, roll=2)
    err = error(head, move(0, "s1", "X", "w1"))
    assert (err["reasons"], err["rule"]) == (["compulsory_straight_or_right"], "G-12")
    later = [move(0, "s1", "X"), roll(1), move(1, "A", "aw"), roll(2)]
    assert reasons_of(head, *later, move(0, "X", "w1")) == ["compulsory_straight_or_right"]
    assert ok(head, *later, move(0, "X", "e1"))["cars"][0]["pos"] == "e1"


def test_G12_GA15_no_turn_forbids_the_listed_exit_also_on_the_next_move() -> None:
    sign = _sign("no_turn", "s1", "X", forbidden_exits=["w1"])
    head = header(_grid(sign), [car("s1", "M"), car("A", "an")], active=1, roll=2)
    err = error(head, move(0, "s1", "X", "w1"))
    assert (err["reasons"], err["rule"]) == (["no_turn"], "G-12")
    later = [move(0, "s1", "X"), roll(1), move(1, "A", "aw"), roll(2)]
    assert reasons_of(head, *later, move(0, "X", "w1")) == ["no_turn"]
    assert ok(head, *later, move(0, "X", "n1"))["cars"][0]["pos"] == "n1"


DIAL_SLOTS = [
    {"from": "s1", "to": "X", "signs": ["green", "red", "closed", "no_entry"]},
    {"from": "w1", "to": "X", "signs": [
        "red", "green", {"type": "major_road_ahead", "watch": ["n1", "s1"]}, "none",
    ]},
    {"from": "X", "to": "e1", "signs": ["none", "none", "none", "closed"]},
]  # fmt: skip


def test_G13_only_the_value_of_the_current_dial_position_is_in_force() -> None:
    game_map = _grid(slots=DIAL_SLOTS)
    cars = [car("s1", "M"), car("n1", "n")]  # car 1 waits to cross into X from the north
    found = {}
    for dial in range(4):
        head = header(game_map, cars, active=1, roll=2, dial=dial)
        result = rejected(head, move(0, "s1", "X", "w1")) if dial else None
        found[dial] = [] if result is None else result.output["error"]["reasons"]  # type: ignore[index]
    assert found == {0: [], 1: ["red"], 2: ["closed"], 3: ["no_entry"]}
    head = header(game_map, [car("w1", "w"), car("n1", "n")], active=1, roll=2, dial=2)
    assert reasons_of(head, move(0, "w1", "X", "e1")) == ["major_road_ahead"]


def test_G13_exit_slots_bind_cars_leaving_the_crossroads() -> None:
    head = header(_grid(slots=DIAL_SLOTS), [car("X", "n1"), car("A")], active=1, roll=1, dial=3)
    assert reasons_of(head, move(0, "X", "e1")) == ["closed"]
    assert ok(head, move(0, "X", "w1"))["cars"][0]["pos"] == "w1"


def test_G13_G5_GA19_the_dial_turns_before_the_move() -> None:
    head = header(_grid(slots=DIAL_SLOTS), [car("s1", "M"), car("A")], active=1)
    assert reasons_of(head, roll(6), move(0, "s1", "X")) == ["red"]  # 0 -> 1: red
    assert ok(head, roll(5), move(0, "s1", "X"))["cars"][0]["pos"] == "X"
    out = ok(head, roll(1), move(0, "s1"))  # stood still: the dial turned anyway
    assert out["dial"] == 1


def test_G14_GA16_a_car_on_the_crossroads_may_leave_and_one_may_wait_at_red() -> None:
    head = header(_grid(slots=DIAL_SLOTS), [car("X", "s1"), car("s1", "M")], active=1, dial=1)
    out = ok(head, roll(2), move(0, "X", "n1", "n"))
    assert out["cars"][0]["pos"] == "n"
    assert reasons_of(head, roll(2), move(0, "X", "n1", "n"), roll(2), move(1, "s1", "X")) == [
        "red"
    ]
    waited = ok(head, roll(2), move(0, "X", "n1", "n"), roll(2), move(1, "s1"))
    assert waited["cars"][1]["pos"] == "s1" and waited["turn"] == 0


def test_records_6_4_fixed_and_dial_signs_of_one_step_share_the_listed_order() -> None:
    # The step w1 -> X is the second step of w -> w1 -> X -> n1; car 1 on s1 heads north.
    major = {"type": "major_road_ahead", "watch": ["n1", "s1"]}
    cases = [
        ("closed", "no_entry", ["closed", "no_entry"]),
        ("no_motor_vehicles", "closed", ["closed", "no_motor_vehicles"]),
        ("closed", "closed", ["closed"]),
        ("stop", "red", ["red", "stop"]),
        ("stop_alt", major, ["major_road_ahead", "stop_alt"]),
    ]
    for fixed, shown, expected in cases:
        slots = [{"from": "w1", "to": "X", "signs": [shown, "none", "none", "none"]}]
        game_map = _grid(_sign(fixed, "w1", "X"), slots=slots)
        head = header(game_map, [car("w", "aw"), car("s1", "M")], active=1, roll=3)
        assert reasons_of(head, move(0, "w", "w1", "X", "n1")) == expected, (fixed, shown)
