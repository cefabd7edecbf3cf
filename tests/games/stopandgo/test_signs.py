"""One fixture map per sign type (tests/games/stopandgo/maps) and a test of that sign (G-12).

Fixture layout (x east, y south)::

    A -an- n -nb- B          an, be, wc, md are destinations 1-4
    |      |      |
    aw     n1     be         X is a 4-way crossroads; its arms are
    |      |      |          n1 (north), e1 (east), s1 (south), w1 (west)
    w -w1- X -e1- e
    |      |      |
    wc     s1     ed
    |      |      |
    C -cm- M -md- D          M is the market
"""

from __future__ import annotations

from typing import Any

from stoptable.games.stopandgo import Move
from tests.games.stopandgo.support import car, codes, fixture, is_legal, position


def _at(sign: str, *cars: dict[str, Any], roll: int = 3, dial: int = 0) -> Any:
    return position(fixture(sign), list(cars), roll=roll, dial=dial)


def test_G12_GA10_stop_only_as_the_first_step() -> None:
    state = _at("stop", car("w", "aw"), car("M"))
    assert codes(state, 0, "w", "w1", "X") == ["stop"]
    assert is_legal(state, 0, "w", "w1")
    at_line = _at("stop", car("w1", "w"), car("M"))
    assert is_legal(at_line, 0, "w1", "X", "e1")


def test_G12_stop_alt_only_as_the_first_step() -> None:
    state = _at("stop_alt", car("e", "be"), car("M"))
    assert codes(state, 0, "e", "e1", "X") == ["stop_alt"]
    assert is_legal(_at("stop_alt", car("e1", "e"), car("M")), 0, "e1", "X", "w1")


def test_G12_GA11_major_road_ahead_waits_for_cars_heading_in_from_the_sides() -> None:
    waiting = _at("major_road_ahead", car("s1", "M"), car("w1", "w"))
    assert codes(waiting, 0, "s1", "X", "n1") == ["major_road_ahead"]
    assert waiting.legal_paths(0) == [("s1",)]
    for other in (car("w1", "X"), car("w1"), car("X", "w1"), car("n1", "n")):
        free = _at("major_road_ahead", car("s1", "M"), other)
        assert codes(free, 0, "s1", "X", "e1") == [], other
    the_other = _at("major_road_ahead", car("w1", "w"), car("s1", "M"))
    assert is_legal(the_other, 0, "w1", "X", "n1")  # only the signed approach must wait


def test_G12_GA12_no_waiting_only_for_cars_entering_by_the_signed_step() -> None:
    state = _at("no_waiting", car("s1", "M"), car("be", "B"))
    assert codes(state, 0, "s1", "X", "e1") == ["no_waiting"]
    assert is_legal(state, 0, "s1", "X", "e1", "e")
    other_way = _at("no_waiting", car("e", "be"), car("M"))
    assert is_legal(other_way, 0, "e", "e1")


def test_G12_GA14_no_motor_vehicles_closed_no_entry_forbid_the_step() -> None:
    for sign in ("no_motor_vehicles", "closed"):
        state = _at(sign, car("s1", "M"), car("an", "A"))
        assert codes(state, 0, "s1", "X", "n1") == [sign]
        state.turn = 1
        assert codes(state, 1, "an", "n", "n1") == [sign]
    entry = _at("no_entry", car("s1", "M"), car("e", "be"))
    assert codes(entry, 0, "s1", "X", "e1") == ["no_entry"]
    entry.turn = 1
    assert is_legal(entry, 1, "e", "e1", "X", "w1")


def test_G12_GA13_one_way_forbids_reversing_the_segment() -> None:
    for sign in ("one_way", "one_way_alt"):
        state = _at(sign, car("e", "be"), car("e1"))
        assert codes(state, 0, "e", "e1") == ["occupied", "no_entry", "one_way"]
        state.turn = 1
        assert codes(state, 1, "e1", "X") == ["one_way"]
        assert is_legal(state, 1, "e1", "e", "ed")
        with_flow = _at(sign, car("s1", "M"), car("M"))
        assert is_legal(with_flow, 0, "s1", "X", "e1", "e")


def test_G12_compulsory_straight_or_right_also_on_a_later_move() -> None:
    sign = "compulsory_straight_or_right"
    state = _at(sign, car("s1", "M"), car("M"))
    assert codes(state, 0, "s1", "X", "w1") == [sign]
    assert is_legal(state, 0, "s1", "X", "n1") and is_legal(state, 0, "s1", "X", "e1")
    state.apply(Move(0, ("s1", "X")))
    state.apply_roll(1)
    state.apply(Move(1, ("M",)))
    state.apply_roll(2)
    assert codes(state, 0, "X", "w1") == [sign]


def test_G12_GA15_no_turn_forbids_the_listed_exit() -> None:
    state = _at("no_turn", car("s1", "M"), car("M"))
    assert codes(state, 0, "s1", "X", "w1") == ["no_turn"]
    assert is_legal(state, 0, "s1", "X", "e1") and is_legal(state, 0, "s1", "X", "n1")
    later = _at("no_turn", car("X", "s1"), car("M"))
    assert codes(later, 0, "X", "w1") == ["no_turn"]


def test_G13_GA2_dial_slots_follow_the_dial_position() -> None:
    expected = {
        0: {("w1", "X"): ["red"], ("s1", "X"): [], ("X", "n1"): []},
        1: {("w1", "X"): [], ("s1", "X"): ["red"]},
        2: {("w1", "X"): ["no_entry"], ("s1", "X"): ["closed"]},
        3: {("s1", "X"): [], ("X", "n1"): ["closed"]},
    }
    starts = {"w1": car("w1", "w"), "s1": car("s1", "M"), "X": car("X", "e1")}
    for dial, steps in expected.items():
        for (a, b), wanted in steps.items():
            state = _at("dial", starts[a], car("an", "A"), dial=dial)
            assert codes(state, 0, a, b) == wanted, (dial, a, b)
    waiting = _at("dial", car("s1", "M"), car("e1", "e"), dial=3)
    assert codes(waiting, 0, "s1", "X", "n1") == ["major_road_ahead", "closed"]
    assert codes(waiting, 0, "s1", "X", "w1") == ["major_road_ahead"]
    leaving = _at("dial", car("s1", "M"), car("e1", "X"), dial=3)
    assert codes(leaving, 0, "s1", "X", "w1") == []
