"""The SVG board: well-formed, every sign drawn on the right of its step (GM-10), cars shown."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from stoptable.games.stopandgo.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
FIXED_KINDS = {
    "stop", "stop_alt", "major_road_ahead", "no_waiting", "no_motor_vehicles", "closed",
    "no_entry", "one_way", "one_way_alt", "compulsory_straight_or_right", "no_turn",
}  # fmt: skip
DIAL_KINDS = {"red", "green", "closed", "no_entry", "major_road_ahead"}


def sid(x: int, y: int) -> str:
    return f"x{x}y{y}".replace("-", "m")


def fixture_map() -> dict[str, Any]:
    """A 3x3 block city with the market in the middle, one lighted crossroads and every sign."""
    dests = {(0, 2): (1, "Town Hall"), (2, 3): (3, "Post Office"), (-2, 3): (13, "Swimming Pool"),
             (3, 2): (7, "Fire Station"), (-3, -1): (22, "Department Store")}  # fmt: skip
    spaces: dict[tuple[int, int], dict[str, Any]] = {}
    edges: list[list[str]] = []

    def add(x: int, y: int, kind: str = "road") -> None:
        if (x, y) in dests:
            n, name = dests[(x, y)]
            spaces[(x, y)] = {"id": sid(x, y), "kind": "destination", "number": n, "name": name,
                              "x": x, "y": y}  # fmt: skip
        else:
            spaces.setdefault((x, y), {"id": sid(x, y), "kind": kind, "x": x, "y": y})

    for gx in (-3, 0, 3):
        for gy in (-3, 0, 3):
            add(gx, gy, "market" if (gx, gy) == (0, 0) else "road" if gx and gy else "crossroads")

    def street(a: tuple[int, int], b: tuple[int, int]) -> None:
        n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        prev = a
        for i in range(1, n + 1):
            p = (a[0] + (b[0] - a[0]) * i // n, a[1] + (b[1] - a[1]) * i // n)
            add(*p)
            edges.append([sid(*prev), sid(*p)])
            prev = p

    for g in (-3, 0, 3):
        street((g, -3), (g, 0))
        street((g, 0), (g, 3))
        street((-3, g), (0, g))
        street((0, g), (3, g))
    for start, end in (((3, 0), (5, 0)), ((0, 3), (0, 5)), ((0, -3), (0, -5)), ((-3, 0), (-5, 0))):
        street(start, end)
    s = sid
    ns_ew = [("green", "red"), ("red", "green"),
             ("green", {"type": "major_road_ahead", "watch": [s(3, 1), s(3, -1)]}),
             ({"type": "major_road_ahead", "watch": [s(2, 0), s(4, 0)]}, "green")]  # fmt: skip
    slots = [
        {"from": s(3, 1), "to": s(3, 0), "signs": [v[0] for v in ns_ew]},
        {"from": s(3, -1), "to": s(3, 0), "signs": [v[0] for v in ns_ew]},
        {"from": s(2, 0), "to": s(3, 0), "signs": [v[1] for v in ns_ew]},
        {"from": s(4, 0), "to": s(3, 0), "signs": [v[1] for v in ns_ew]},
        {"from": s(3, 0), "to": s(2, 0), "signs": ["closed", "none", "none", "none"]},
        {"from": s(3, 0), "to": s(4, 0), "signs": ["none", "no_entry", "none", "none"]},
    ]
    segment_w = [[s(0, -3), s(-1, -3)], [s(-1, -3), s(-2, -3)], [s(-2, -3), s(-3, -3)]]
    segment_n = [[s(3, -3), s(3, -2)], [s(3, -2), s(3, -1)], [s(3, -1), s(3, 0)]]
    signs = [
        {"type": "stop", "from": s(-1, 3), "to": s(0, 3)},
        {"type": "stop_alt", "from": s(1, 3), "to": s(0, 3)},
        {"type": "major_road_ahead", "from": s(0, 4), "to": s(0, 3), "watch": [s(-1, 3), s(1, 3)]},
        {"type": "compulsory_straight_or_right", "from": s(0, 2), "to": s(0, 3),
         "exits": [s(0, 4), s(1, 3)]},
        {"type": "no_turn", "from": s(-2, 0), "to": s(-3, 0), "forbidden_exits": [s(-3, 1)]},
        {"type": "one_way", "from": s(0, -3), "to": s(-1, -3), "segment": segment_w},
        {"type": "no_entry", "from": s(-3, -3), "to": s(-2, -3)},
        {"type": "one_way_alt", "from": s(3, -3), "to": s(3, -2), "segment": segment_n},
        {"type": "no_entry", "from": s(3, 0), "to": s(3, -1)},
        {"type": "closed", "from": s(0, -3), "to": s(1, -3)},
        {"type": "closed", "from": s(3, -3), "to": s(2, -3)},
        {"type": "no_waiting", "from": s(-1, 0), "to": s(-2, 0)},
        {"type": "no_motor_vehicles", "from": s(-4, 0), "to": s(-5, 0)},
    ]  # fmt: skip
    return {"name": "fixture-all-signs", "spaces": list(spaces.values()), "edges": edges,
            "signs": signs, "dial": {"positions": 4, "start": 0, "slots": slots}}  # fmt: skip


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class", "").split()[:1] == [cls]]


def space_points(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Screen centre of each space, read back from its drawing."""
    out = {}
    for g in groups(root, "space"):
        first = next(iter(g))
        if first.tag == f"{SVG}circle":
            out[g.get("data-space", "")] = (float(first.get("cx", 0)), float(first.get("cy", 0)))
        else:
            x, w = float(first.get("x", 0)), float(first.get("width", 0))
            y, h = float(first.get("y", 0)), float(first.get("height", 0))
            out[g.get("data-space", "")] = (x + w / 2, y + h / 2)
    return out


def test_the_fixture_is_a_valid_map() -> None:
    from stoptable.games.stopandgo.check import check_map

    assert check_map(fixture_map()) == []


def test_GM10_svg_is_well_formed_and_draws_every_sign_kind() -> None:
    data = fixture_map()
    fixed: set[str] = set()
    shown: set[str] = set()
    for dial in range(4):
        root = parse(render_svg(data, {"dial": dial, "cars": []}))
        assert root.tag == f"{SVG}svg"
        fixed |= {g.get("data-kind", "") for g in groups(root, "sign")}
        shown |= {g.get("data-kind", "") for g in groups(root, "window")}
    assert fixed == FIXED_KINDS
    assert shown - {"none"} == DIAL_KINDS


def test_GM10_each_sign_stands_on_the_right_of_its_step_with_an_arrow() -> None:
    root = parse(render_svg(fixture_map()))
    pts = space_points(root)
    spots = groups(root, "sign") + groups(root, "window")
    assert len(spots) == len(fixture_map()["signs"]) + len(fixture_map()["dial"]["slots"])
    for g in spots:
        (ax, ay), (bx, by) = pts[g.get("data-from", "")], pts[g.get("data-to", "")]
        x, y = float(g.get("data-x", 0)), float(g.get("data-y", 0))
        dx, dy = bx - ax, by - ay
        mx, my = (ax + bx) / 2, (ay + by) / 2
        # On screen (y down) the right of a driver heading (dx, dy) is (-dy, dx).
        side = (x - mx) * -dy + (y - my) * dx
        assert side > 0.3 * math.hypot(dx, dy) * 10, g.attrib
        assert len(list(g.iter(f"{SVG}path"))) >= 2  # the small arrow: stem and head


def test_G13_dial_windows_show_the_current_position() -> None:
    data = fixture_map()
    approach = {"data-from": sid(2, 0), "data-to": sid(3, 0)}

    def window_kind(dial: int) -> str:
        root = parse(render_svg(data, {"dial": dial, "cars": []}))
        for g in groups(root, "window"):
            if all(g.get(k) == v for k, v in approach.items()):
                return g.get("data-kind", "")
        raise AssertionError("no window on the W approach")

    assert [window_kind(p) for p in range(4)] == ["red", "green", "major_road_ahead", "green"]
    assert window_kind(4) == "red"  # positions wrap around


def test_state_draws_cars_legend_and_active_destination() -> None:
    state = {
        "phase": "playing", "turn": 1, "roll": 4, "dial": 2, "active": 13,
        "active_space": sid(-2, 3), "scores": [0, 1, 0],
        "cars": [
            {"pos": sid(0, 0), "prev": None, "tickets": 0, "missed_turns": 0, "collected": []},
            {"pos": sid(3, 1), "prev": sid(3, 2), "tickets": 2, "collected": [7]},
            {"pos": sid(0, 0), "prev": None, "tickets": 0, "missed_turns": 3, "collected": []},
        ],
    }  # fmt: skip
    text = render_svg(fixture_map(), state)
    root = parse(text)
    cars = groups(root, "car")
    assert sorted(int(g.get("data-seat", -1)) for g in cars) == [0, 1, 2]
    heading_up = next(g for g in cars if g.get("data-seat") == "1")
    assert "rotate(-90)" in heading_up.get("transform", "")  # from y=2 to y=1: north
    assert "Destination 13 Swimming Pool" in text
    assert "P1 to play" in text and "die: 4" in text and "misses 3" in text
    assert "cards 7" in text
    active = next(g for g in groups(root, "space") if g.get("data-space") == sid(-2, 3))
    assert len(list(active.iter(f"{SVG}circle"))) == 2  # the highlight ring and the disc


def test_without_state_no_cars_and_names_are_escaped() -> None:
    data = fixture_map()
    data["name"] = "Town <&> Country"
    root = parse(render_svg(data))
    assert groups(root, "car") == []
    assert any(t.text == "Town <&> Country" for t in root.iter(f"{SVG}text"))


@pytest.mark.parametrize("unit", [30.0, 60.0])
def test_unit_scales_the_board(unit: float) -> None:
    root = parse(render_svg(fixture_map(), unit=unit))
    assert float(root.get("width", 0)) > 10 * unit


def test_default_map_plates_carry_the_lighted_crossroads_names() -> None:
    from stoptable.games.stopandgo import load_default_map

    game_map = load_default_map()
    data = game_map.model.model_dump(by_alias=True, exclude_none=True)
    root = parse(render_svg(data))
    plates = {g.get("data-space"): g for g in groups(root, "space")}
    for space in game_map.lighted:
        name = game_map.ids[space]
        texts = [t.text for t in plates[name].iter(f"{SVG}text")]
        assert len(texts) == 1 and texts[0].startswith("L")
        assert len(name) > 3 or texts[0] == name


def test_marks_label_spaces_for_move_choices() -> None:
    root = parse(render_svg(fixture_map(), marks={sid(0, 1): "1", sid(1, 0): "2", "nowhere": "3"}))
    marks = {g.get("data-space"): g for g in groups(root, "mark")}
    assert set(marks) == {sid(0, 1), sid(1, 0)}
    assert [t.text for t in marks[sid(1, 0)].iter(f"{SVG}text")] == ["2"]


def test_legend_only_leaves_words_to_the_page_and_cars_stand_apart() -> None:
    """The browser board (``legend_only``): no title, dial text or players in the panel,
    every word it does draw names its catalogue key; cars are numbered from 1 as seats are
    shown and those sharing the market do not cover each other."""
    state = {
        "phase": "playing", "turn": 0, "roll": 2, "dial": 0, "active": 13,
        "active_space": sid(-2, 3), "scores": [0, 0, 0, 0],
        "cars": [{"pos": sid(0, 0), "prev": None, "tickets": 0, "collected": []}] * 4,
    }  # fmt: skip
    full = parse(render_svg(fixture_map(), state))
    root = parse(render_svg(fixture_map(), state, legend_only=True))
    assert float(root.get("width", 0)) < float(full.get("width", 0))
    words = [t for t in root.iter(f"{SVG}text") if t.text and any(c.isalpha() for c in t.text)]
    assert "P0 to play" not in [t.text for t in words]
    keyed = {t.get("data-text") for t in words}
    assert {"sg.signs", "sg.market", "sg.place.13", "sg.sign.stop"} <= keyed
    unkeyed = {t.text for t in words if not t.get("data-text") and "art" not in t.get("class", "")}
    assert not {w for w in unkeyed if len(w) > 2}, unkeyed  # light slots (L1) may stay
    cars = groups(root, "car")
    centres = []
    for g in cars:
        x, y = g.get("transform", "").split(")")[0].removeprefix("translate(").split(",")
        centres.append((float(x), float(y)))
    assert len(set(centres)) == 4
    for i, a in enumerate(centres):  # a car is 40 long and 26 wide, turned upright here
        for b in centres[i + 1 :]:
            assert abs(a[0] - b[0]) >= 26 or abs(a[1] - b[1]) >= 40, (a, b)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "18"]
    assert sorted(labels) == ["1", "2", "3", "4"]  # the cars' numbers, large
