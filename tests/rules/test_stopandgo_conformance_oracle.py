"""records.md §6.4 against an independent reading of G-6..G-14: random paths on busy maps.

``expected_reasons`` re-derives the reason list straight from the spec text (hard rules in
their order, then per step u_turn, compulsory_straight_or_right, no_turn, closed, no_entry,
no_motor_vehicles, one_way, red, major_road_ahead, stop, stop_alt, each code once, then
no_waiting) on the map object itself, sharing no code with the engine. Random positions,
dial positions, rolls and paths (mostly walks along the map, some with jumps) are then
replayed under ``prevent`` and ``fine`` and the replay output must agree with it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.test_stopandgo_conformance_helpers import (
    car,
    grid_map,
    header,
    kitchen_map,
    move,
)
from tests.support import replay

STEP_CODES = [
    "u_turn", "compulsory_straight_or_right", "no_turn", "closed", "no_entry",
    "no_motor_vehicles", "one_way", "red", "major_road_ahead", "stop", "stop_alt",
]  # fmt: skip


def _s(kind: str, frm: str, to: str, **more: Any) -> dict[str, Any]:
    return {"type": kind, "from": frm, "to": to, **more}


BUSY = grid_map(
    [
        _s("stop", "w1", "X"),
        _s("no_turn", "w1", "X", forbidden_exits=["s1"]),
        _s("stop_alt", "e1", "X"),
        _s("major_road_ahead", "n1", "X", watch=["w1", "e1"]),
        _s("compulsory_straight_or_right", "s1", "X", exits=["n1", "e1"]),
        _s("no_waiting", "X", "e1"),
        _s("no_motor_vehicles", "nb", "B"),
        _s("closed", "md", "D"),
        _s("closed", "D", "md"),
        _s("one_way", "n", "n1", segment=[["n", "n1"], ["n1", "X"]]),
        _s("no_entry", "X", "n1"),
        _s("stop", "aw", "w"),
        _s("no_waiting", "ed", "e"),
    ],
    [
        {"from": "s1", "to": "X", "signs": [
            "green", "red", "closed", {"type": "major_road_ahead", "watch": ["w1", "e1"]},
        ]},
        {"from": "X", "to": "w1", "signs": ["none", "none", "none", "no_entry"]},
        {"from": "e1", "to": "X", "signs": ["red", "green", "no_entry", "green"]},
    ],
)  # fmt: skip
MARKET = "M"


class Board:
    """The map object with the lookups the reading below needs."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.spaces = [s["id"] for s in data["spaces"]]
        self.destinations = {
            s["number"]: s["id"] for s in data["spaces"] if s["kind"] == "destination"
        }
        self.neighbours: dict[str, list[str]] = {sid: [] for sid in self.spaces}
        for a, b in data["edges"]:
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)


BOARDS = [Board(BUSY), Board(kitchen_map())]


def _fixed(board: Board, a: str, b: str) -> list[dict[str, Any]]:
    return [s for s in board.data["signs"] if (s["from"], s["to"]) == (a, b)]


def _dial(board: Board, a: str, b: str, dial: int) -> dict[str, Any] | None:
    for slot in board.data["dial"]["slots"]:
        if (slot["from"], slot["to"]) == (a, b):
            value = slot["signs"][dial]
            return value if isinstance(value, dict) else {"type": value}
    return None


def _step_codes(
    board: Board, cars: list[dict[str, Any]], path: list[str], i: int, dial: int
) -> list[str]:
    me = cars[0]
    a, b = path[i], path[i + 1]
    q = me.get("prev") if i == 0 else path[i - 1]
    found: set[str] = set()
    if q is not None and b == q and a != MARKET and not (i == 0 and me.get("reverse_ok")):
        found.add("u_turn")
    for sign in _fixed(board, q, a) if q is not None else []:
        if sign["type"] == "compulsory_straight_or_right" and b not in sign["exits"]:
            found.add("compulsory_straight_or_right")
        if sign["type"] == "no_turn" and b in sign["forbidden_exits"]:
            found.add("no_turn")
    signs = list(_fixed(board, a, b))
    shown = _dial(board, a, b, dial)
    if shown is not None:
        signs.append(shown)
    watch: list[str] = []
    for sign in signs:
        kind = sign["type"]
        if kind in ("closed", "no_entry", "no_motor_vehicles", "red"):
            found.add(kind)
        if kind == "major_road_ahead":
            watch += sign["watch"]
        if kind in ("stop", "stop_alt") and i > 0:
            found.add(kind)
    for sign in board.data["signs"]:
        if sign["type"] in ("one_way", "one_way_alt") and [b, a] in sign["segment"]:
            found.add("one_way")
    for other in cars[1:]:
        prev = other.get("prev")
        waiting = other["pos"] != MARKET and prev is not None and prev != b
        if other["pos"] in watch and waiting:
            found.add("major_road_ahead")
    return [c for c in STEP_CODES if c in found]


def expected_reasons(
    board: Board, cars: list[dict[str, Any]], path: list[str], roll: int, dial: int, active: int
) -> tuple[list[str], list[str]]:
    """(hard, traffic) codes of ``path`` for seat 0, read from the spec text alone."""
    me = cars[0]
    if not path:
        return ["bad_start"], []
    k = len(path) - 1
    hard = []
    if path[0] != me["pos"]:
        hard.append("bad_start")
    if k > roll:
        hard.append("too_far")
    adjacent = [path[i + 1] in board.neighbours[path[i]] for i in range(k)]
    if not all(adjacent):
        hard.append("not_adjacent")
    if board.destinations[active] in path[1:k]:
        hard.append("passes_destination")
    if k >= 1 and path[-1] != MARKET and any(c["pos"] == path[-1] for c in cars[1:]):
        hard.append("occupied")
    traffic: list[str] = []
    for i in range(k):
        if adjacent[i]:
            traffic += [c for c in _step_codes(board, cars, path, i, dial) if c not in traffic]
    if k >= 1 and any(s["type"] == "no_waiting" for s in _fixed(board, path[-2], path[-1])):
        traffic.append("no_waiting")
    return hard, traffic


@st.composite
def scenarios(
    draw: st.DrawFn,
) -> tuple[Board, list[dict[str, Any]], list[str], int, int, int]:
    board = draw(st.sampled_from(BOARDS))
    spaces, neighbours = board.spaces, board.neighbours
    count = draw(st.integers(2, 3))
    spots = draw(st.lists(st.sampled_from(spaces), min_size=count, max_size=count, unique=True))
    cars = []
    for spot in spots:
        prev = draw(st.sampled_from([None, *neighbours[spot]]))
        cars.append(car(spot, prev, reverse_ok=draw(st.booleans())))
    start = spots[0] if draw(st.integers(0, 9)) else draw(st.sampled_from(spaces))
    path = [start]
    for _ in range(draw(st.integers(0, 7))):
        jump = draw(st.integers(0, 11)) == 0
        path.append(draw(st.sampled_from(spaces if jump else neighbours[path[-1]])))
    if draw(st.integers(0, 30)) == 0:
        path = []
    active = draw(st.sampled_from(sorted(board.destinations)))
    return board, cars, path, draw(st.integers(1, 6)), draw(st.integers(0, 3)), active


@settings(max_examples=60, deadline=None)
@given(scenarios(), st.sampled_from(["prevent", "fine"]))
def test_records_6_4_G7_G14_reasons_match_an_independent_reading_of_the_spec(
    scenario: tuple[Board, list[dict[str, Any]], list[str], int, int, int], enforcement: str
) -> None:
    board, cars, path, roll, dial, active = scenario
    head = header(
        board.data, cars, {"enforcement": enforcement}, active=active, roll=roll, dial=dial
    )
    result = replay(head, move(0, *path))
    hard, traffic = expected_reasons(board, cars, path, roll, dial, active)
    assert result.output is not None, result.message
    if hard or (traffic and enforcement == "prevent"):
        assert result.exit_code == 2
        err = result.output["error"]
        assert err["reasons"] == hard + traffic and err["reason"] == err["reasons"][0]
    else:
        assert result.exit_code == 0
        out = result.output
        last = out["last_move"]
        assert last["reasons"] == traffic
        assert last["result"] == ("violation" if traffic else "ok")
        assert out["cars"][1:] == [{**FRESH, **c} for c in cars[1:]]
        assert out["cars"][0] == expected_car(board, cars[0], path, traffic, active)
        collected = bool(path[1:]) and not traffic and path[-1] == board.destinations[active]
        assert (out["active"], out["phase"]) == (
            (None, "game_over") if collected else (active, "playing")
        )
        assert out["turn"] == (None if collected else 1) and out["roll"] is None


FRESH = {"prev": None, "reverse_ok": False, "tickets": 0, "missed_turns": 0, "collected": []}


def expected_car(
    board: Board, me: dict[str, Any], path: list[str], traffic: list[str], active: int
) -> dict[str, Any]:
    """G-15/G-16: the moving car after an accepted path (no card left after ``active``)."""
    after = {**FRESH, **me}
    if traffic:  # back to the last stopping place, one ticket
        after["tickets"] += 1
    elif len(path) > 1:
        arrived = path[-1] == board.destinations[active]
        after.update(pos=path[-1], prev=path[-2], reverse_ok=arrived)
        if arrived:
            after["collected"] = [active]
    return after
