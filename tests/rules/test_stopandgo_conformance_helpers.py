"""Shared maps and record builders of the Stop & Go conformance tests (no tests here).

The maps are small explicit map objects (stop-and-go.md §6) handed to records inside the
``position`` (records.md §6.1), so every scenario can be read off its test. Coordinates:
x grows east, y grows south.

GRID (``grid_map``)::

    A -an- n -nb- B        an, be, wc, md: destinations 1-4
    |      |      |
    aw     n1     be       X: 4-way crossroads, arms n1 (N), e1 (E), s1 (S), w1 (W)
    |      |      |        n, w, e: 3-way crossroads
    w -w1- X -e1- e
    |      |      |
    wc     s1     ed
    |      |      |
    C -cm- M -md- D        M: the market

LINE (``line_map``)::

    c2
    |
    c1
    |
    b2 - b3 - M - a1 - a2 - a3 - d1 - a5 - d2      b3 = 3, d1 = 1, d2 = 2 (destinations)

KITCHEN (``kitchen_map``): two adjacent crossroads X and Y whose step X->Y carries every
sign at once, to pin the order of the reason codes inside one step::

             n2          m2          n2 = 1, w2 = 2, e2 = 3 (destinations)
             |           |
             n1          m1
             |           |
    w2 - w1 - X ------- Y - e1 - e2
             |           |
             s1          t1
             |           |
             M --------- t2
"""

from __future__ import annotations

from typing import Any

from stoptable.core.records import ReplayResult
from tests.support import replay

NAMES = {1: "Town Hall", 2: "Railway Station", 3: "Post Office", 4: "Cathedral"}
JSONObj = dict[str, Any]


def space(sid: str, kind: str, x: int, y: int, number: int | None = None) -> JSONObj:
    """One space of a map object; destinations get their number and building name."""
    data: JSONObj = {"id": sid, "kind": "destination" if number else kind, "x": x, "y": y}
    if number:
        data["number"] = number
        data["name"] = NAMES[number]
    return data


def grid_map(signs: list[JSONObj] | None = None, slots: list[JSONObj] | None = None) -> JSONObj:
    """The GRID map with the given fixed signs and dial slots (4 dial positions)."""
    spaces = [
        space("A", "road", 0, 0), space("an", "", 1, 0, 1), space("n", "crossroads", 2, 0),
        space("nb", "road", 3, 0), space("B", "road", 4, 0),
        space("aw", "road", 0, 1), space("n1", "road", 2, 1), space("be", "", 4, 1, 2),
        space("w", "crossroads", 0, 2), space("w1", "road", 1, 2), space("X", "crossroads", 2, 2),
        space("e1", "road", 3, 2), space("e", "crossroads", 4, 2),
        space("wc", "", 0, 3, 3), space("s1", "road", 2, 3), space("ed", "road", 4, 3),
        space("C", "road", 0, 4), space("cm", "road", 1, 4), space("M", "market", 2, 4),
        space("md", "", 3, 4, 4), space("D", "road", 4, 4),
    ]  # fmt: skip
    edges = [
        ["A", "an"], ["an", "n"], ["n", "nb"], ["nb", "B"], ["A", "aw"], ["aw", "w"],
        ["B", "be"], ["be", "e"], ["w", "w1"], ["w1", "X"], ["X", "e1"], ["e1", "e"],
        ["n", "n1"], ["n1", "X"], ["X", "s1"], ["s1", "M"], ["w", "wc"], ["wc", "C"],
        ["e", "ed"], ["ed", "D"], ["C", "cm"], ["cm", "M"], ["M", "md"], ["md", "D"],
    ]  # fmt: skip
    return {
        "name": "conformance-grid",
        "spaces": spaces,
        "edges": edges,
        "signs": signs or [],
        "dial": {"positions": 4, "start": 0, "slots": slots or []},
    }


def line_map() -> JSONObj:
    """The LINE map: one street through the market, destinations 1-3, no signs."""
    spaces = [
        space("M", "market", 0, 0), space("a1", "road", 1, 0), space("a2", "road", 2, 0),
        space("a3", "road", 3, 0), space("d1", "", 4, 0, 1), space("a5", "road", 5, 0),
        space("d2", "", 6, 0, 2), space("b3", "", -1, 0, 3), space("b2", "road", -2, 0),
        space("c1", "road", 0, -1), space("c2", "road", 0, -2),
    ]  # fmt: skip
    edges = [
        ["M", "a1"], ["a1", "a2"], ["a2", "a3"], ["a3", "d1"], ["d1", "a5"], ["a5", "d2"],
        ["M", "b3"], ["b3", "b2"], ["M", "c1"], ["c1", "c2"],
    ]  # fmt: skip
    return {"name": "conformance-line", "spaces": spaces, "edges": edges}


def kitchen_map() -> JSONObj:
    """The KITCHEN map: the step X->Y carries every fixed sign and a red dial slot."""
    spaces = [
        space("X", "crossroads", 0, 0), space("Y", "crossroads", 1, 0),
        space("n1", "road", 0, -1), space("n2", "", 0, -2, 1),
        space("w1", "road", -1, 0), space("w2", "", -2, 0, 2),
        space("e1", "road", 2, 0), space("e2", "", 3, 0, 3),
        space("m1", "road", 1, -1), space("m2", "road", 1, -2),
        space("s1", "road", 0, 1), space("M", "market", 0, 2),
        space("t1", "road", 1, 1), space("t2", "road", 1, 2),
    ]  # fmt: skip
    edges = [
        ["X", "Y"], ["X", "n1"], ["n1", "n2"], ["X", "w1"], ["w1", "w2"], ["Y", "e1"],
        ["e1", "e2"], ["Y", "m1"], ["m1", "m2"], ["X", "s1"], ["s1", "M"], ["Y", "t1"],
        ["t1", "t2"], ["t2", "M"],
    ]  # fmt: skip
    xy = {"from": "X", "to": "Y"}
    signs = [
        {"type": "compulsory_straight_or_right", "from": "Y", "to": "X", "exits": ["n1"]},
        {"type": "compulsory_straight_or_right", "from": "w1", "to": "X", "exits": ["n1", "s1"]},
        {"type": "no_turn", "from": "w1", "to": "X", "forbidden_exits": ["Y"]},
        {"type": "stop_alt", **xy},
        {"type": "no_waiting", **xy},
        {"type": "stop", **xy},
        {"type": "major_road_ahead", **xy, "watch": ["m1", "t1"]},
        {"type": "one_way", "from": "Y", "to": "X", "segment": [["Y", "X"]]},
        {"type": "no_motor_vehicles", **xy},
        {"type": "no_entry", **xy},
        {"type": "closed", **xy},
    ]
    slots = [{**xy, "signs": ["red", "green", "green", "green"]}]
    return {
        "name": "conformance-kitchen",
        "spaces": spaces,
        "edges": edges,
        "signs": signs,
        "dial": {"positions": 4, "start": 0, "slots": slots},
    }


def car(pos: str, prev: str | None = None, **more: Any) -> JSONObj:
    """A §6.1 car object (``prev`` omitted when None, to use the default)."""
    data: JSONObj = {"pos": pos}
    if prev is not None:
        data["prev"] = prev
    data.update(more)
    return data


def header(
    game_map: JSONObj | str,
    cars: list[JSONObj],
    options: JSONObj | None = None,
    seed: int | None = None,
    **position: Any,
) -> JSONObj:
    """A record header starting from a §6.1 position on ``game_map``."""
    head: JSONObj = {
        "game": "stopandgo",
        "ruleset": "stopgo-standard",
        "seats": len(cars),
        "position": {"map": game_map, "cars": cars, **position},
    }
    if options:
        head["options"] = options
    if seed is not None:
        head["seed"] = seed
    return head


def roll(value: int) -> JSONObj:
    """A roll chance line."""
    return {"chance": "roll", "value": value}


def move(seat: int, *path: str) -> JSONObj:
    """A move line."""
    return {"seat": seat, "type": "move", "path": list(path)}


def ok(head: JSONObj, *events: JSONObj, upto: int | None = None) -> JSONObj:
    """Replay a record that must exit 0; its output."""
    result = replay(head, *events, upto=upto)
    assert result.exit_code == 0, (result.message, result.output)
    assert result.output is not None
    return result.output


def rejected(head: JSONObj, *events: JSONObj) -> ReplayResult:
    """Replay a record that must exit 2; the result (output holds ``error``)."""
    result = replay(head, *events)
    assert result.exit_code == 2, (result.message, result.output)
    assert result.output is not None and "error" in result.output
    return result


def error(head: JSONObj, *events: JSONObj) -> JSONObj:
    """The ``error`` object of a record that must exit 2."""
    out = rejected(head, *events).output
    assert out is not None
    err: JSONObj = out["error"]
    return err


def malformed(head: JSONObj, *events: JSONObj, upto: int | None = None) -> str:
    """Replay a record that must exit 1; its message."""
    result = replay(head, *events, upto=upto)
    assert result.exit_code == 1, result.output
    assert result.message
    return result.message


def reasons_of(head: JSONObj, *events: JSONObj) -> list[str]:
    """``error.reasons`` of a refused move, checking ``reason`` = ``reasons[0]``."""
    err = error(head, *events)
    assert err["reason"] == err["reasons"][0]
    return list(err["reasons"])
