"""Stop & Go signs in SVG: the picture of each sign kind and where it stands (GM-10).

A sign belongs to a step ``a→b`` and is drawn on the right-hand side of the road for a car
making that step, with a small arrow in the direction of travel. Dial slots are windows
that show the value in force at the current dial position; the lane entering a lighted
crossroads also gets a stop line in the colour of its light.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from stoptable.games.stopandgo.svg_base import (
    BLUE,
    JSON,
    RED,
    ROAD_HALF,
    SIGN_OFFSET,
    SIGN_R,
    Point,
    arrow,
    element,
    num,
)

SIGN_NAMES: Final = {
    "red": "Red light",
    "green": "Green light",
    "closed": "Closed for all vehicles",
    "no_entry": "No entry",
    "major_road_ahead": "Major road ahead",
    "no_waiting": "No waiting",
    "no_motor_vehicles": "Motor cars prohibited",
    "one_way": "One-way street",
    "one_way_alt": "One-way street (square)",
    "stop": "Stop at crossing",
    "stop_alt": "Stop at crossing (triangle)",
    "compulsory_straight_or_right": "Straight on or right",
    "no_turn": "No turn",
}

_RING: Final = f'<circle r="0.86" fill="#fff" stroke="{RED}" stroke-width="0.28"/>'
_SLASH: Final = f'<path d="M-0.62,-0.62 L0.62,0.62" stroke="{RED}" stroke-width="0.22"/>'
_HEAD_RIGHT: Final = '<path d="M0.8,0 L0.3,-0.32 L0.3,0.32Z" fill="#fff"/>'
_OCTAGON: Final = " ".join(
    f"{math.cos(math.pi / 8 + i * math.pi / 4) * 1.08:.3f},"
    f"{math.sin(math.pi / 8 + i * math.pi / 4) * 1.08:.3f}"
    for i in range(8)
)
_STOP_TEXT: Final = (
    '<text class="art" y="{y}" font-size="{s}" font-weight="bold" fill="{c}" '
    'text-anchor="middle">STOP</text>'
)

# Each sign drawn in unit space (radius 1, driver looking up), placed by a transform.
GLYPHS: Final[dict[str, str]] = {
    "red": '<circle r="1" fill="#e8242b" stroke="#111" stroke-width="0.1"/>',
    "green": '<circle r="1" fill="#1fb14a" stroke="#111" stroke-width="0.1"/>',
    "closed": _RING,
    "no_entry": f'<circle r="1" fill="{RED}"/>'
    '<rect x="-0.66" y="-0.17" width="1.32" height="0.34" fill="#fff"/>',
    "major_road_ahead": '<polygon points="-1.15,-0.78 1.15,-0.78 0,1.15" fill="#fff" '
    f'stroke="{RED}" stroke-width="0.26" stroke-linejoin="round"/>',
    "stop_alt": '<polygon points="-1.15,0.78 1.15,0.78 0,-1.15" fill="#fff" '
    f'stroke="{RED}" stroke-width="0.26" stroke-linejoin="round"/>'
    + _STOP_TEXT.format(y="0.58", s="0.44", c="#111"),
    "no_waiting": f'<circle r="0.86" fill="{BLUE}" stroke="{RED}" stroke-width="0.28"/>'
    f'<path d="M-0.6,-0.6 L0.6,0.6" stroke="{RED}" stroke-width="0.28"/>',
    "no_motor_vehicles": _RING + '<path d="M-0.52,0.18 V-0.02 L-0.26,-0.06 L-0.13,-0.28 '
    'H0.22 L0.36,-0.06 L0.52,-0.01 V0.18Z" fill="#111"/>'
    '<circle cx="-0.27" cy="0.2" r="0.12" fill="#111"/>'
    '<circle cx="0.27" cy="0.2" r="0.12" fill="#111"/>',
    "one_way": '<rect x="-1.3" y="-0.78" width="2.6" height="1.56" rx="0.15" fill="#1f5fbf" '
    'stroke="#fff" stroke-width="0.1"/><path d="M-0.85,0 H0.35" stroke="#fff" '
    'stroke-width="0.24"/>' + _HEAD_RIGHT,
    "one_way_alt": '<rect x="-0.95" y="-0.95" width="1.9" height="1.9" rx="0.15" fill="#1f5fbf" '
    'stroke="#fff" stroke-width="0.1"/><path d="M-0.65,0 H0.35" stroke="#fff" '
    'stroke-width="0.24"/>' + _HEAD_RIGHT,
    "stop": f'<polygon points="{_OCTAGON}" fill="{RED}" stroke="#fff" stroke-width="0.1"/>'
    + _STOP_TEXT.format(y="0.19", s="0.52", c="#fff"),
    "compulsory_straight_or_right": f'<circle r="1" fill="{BLUE}"/>'
    '<path d="M-0.25,0.65 V-0.3 M-0.25,0.3 Q-0.25,-0.02 0.12,-0.02" stroke="#fff" '
    'stroke-width="0.17" fill="none"/><path d="M-0.25,-0.72 L-0.5,-0.3 L0,-0.3Z" fill="#fff"/>'
    '<path d="M0.62,-0.02 L0.16,-0.27 L0.16,0.23Z" fill="#fff"/>',
    "no_turn": _RING + '<path d="M0.22,0.55 V0.02 Q0.22,-0.3 -0.12,-0.3" stroke="#111" '
    'stroke-width="0.17" fill="none"/><path d="M-0.55,-0.3 L-0.12,-0.55 L-0.12,-0.05Z" '
    'fill="#111"/>' + _SLASH,
    "no_turn_straight": _RING + '<path d="M0,0.55 V-0.15" stroke="#111" stroke-width="0.17"/>'
    '<path d="M0,-0.58 L-0.25,-0.15 L0.25,-0.15Z" fill="#111"/>' + _SLASH,
    "none": '<circle r="0.5" fill="#3a3d42"/>',
}
"""Sign pictures; ``no_turn`` forbids a left turn and is mirrored for a right one."""


def sign_glyph(
    kind: str, x: float, y: float, r: float, d: Point = (0.0, -1.0), turn: str = "left"
) -> str:
    """The picture of one sign kind centred on (x, y) with radius ``r``.

    ``d`` is the screen direction of travel: one-way arrows point along it. ``turn`` is the
    turn a ``no_turn`` sign forbids as the driver sees it (``left``, ``right``, ``straight``).
    """
    transform = f"translate({num(x)},{num(y)}) scale({r:.2f})"
    if kind in ("one_way", "one_way_alt"):
        transform += f" rotate({num(math.degrees(math.atan2(d[1], d[0])))})"
    if kind == "no_turn" and turn == "right":
        transform += " scale(-1,1)"
    key = "no_turn_straight" if kind == "no_turn" and turn == "straight" else kind
    return element("g", GLYPHS.get(key, GLYPHS["none"]), transform=transform)


@dataclass(frozen=True, slots=True)
class Spot:
    """One sign as drawn: where, which way its step goes, and whether it is a dial window."""

    kind: str
    x: float
    y: float
    d: Point
    turn: str
    window: bool
    step: tuple[str, str]


def slot_kind(value: JSON) -> str:
    """The sign kind of one dial value, written as a string or as an object."""
    return str(value.get("type", "none")) if isinstance(value, Mapping) else str(value)


def _slot_value(slot: Mapping[str, JSON], dial: int) -> str:
    values = slot.get("signs") or ["none"]
    return slot_kind(values[dial % len(values)])


def _unit(a: Point, b: Point) -> tuple[float, float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length, length


def _turn(pts: Mapping[str, Point], a: str, b: str, exits: Sequence[str]) -> str:
    """Which way the first listed exit of ``b`` lies for a driver on ``a→b``."""
    if not exits or exits[0] not in pts:
        return "left"
    dx, dy, _ = _unit(pts[a], pts[b])
    fx, fy, _ = _unit(pts[b], pts[exits[0]])
    cross = dx * fy - dy * fx  # screen y points down: positive is a right turn
    return "straight" if abs(cross) < 0.3 else "right" if cross > 0 else "left"


def _free_place(placed: Sequence[Spot], m: Point, d: Point, base: float, room: float) -> Point:
    """Slide a sign along its step until it clears the signs already placed."""
    for k in (0, -1, 1, -2, 2, -3, 3, -4, 4):
        shift = base + k * 5.0
        x, y = m[0] + d[0] * shift, m[1] + d[1] * shift
        if abs(shift) <= room and all(
            math.hypot(x - p.x, y - p.y) >= 2 * SIGN_R + 5 for p in placed
        ):
            return x, y
    return m[0] + d[0] * base, m[1] + d[1] * base


def sign_spots(data: Mapping[str, JSON], pts: Mapping[str, Point], dial: int) -> list[Spot]:
    """Every sign at its drawing place (GM-10); dial windows show position ``dial``."""
    by_step: dict[tuple[str, str], list[tuple[str, bool, Sequence[str]]]] = {}
    for sign in data.get("signs", []):
        exits = sign.get("forbidden_exits") or sign.get("exits") or []
        by_step.setdefault((sign["from"], sign["to"]), []).append((sign["type"], False, exits))
    for slot in data.get("dial", {}).get("slots", []):
        by_step.setdefault((slot["from"], slot["to"]), []).append(
            (_slot_value(slot, dial), True, [])
        )
    out: list[Spot] = []
    # Windows first, so that the traffic lights keep their places next to the crossroads.
    for (a, b), signs in sorted(by_step.items(), key=lambda kv: not any(w for _, w, _ in kv[1])):
        if a not in pts or b not in pts:
            continue
        dx, dy, length = _unit(pts[a], pts[b])
        rx, ry = -dy, dx  # the driver's right-hand side on screen
        mid = (
            (pts[a][0] + pts[b][0]) / 2 + rx * SIGN_OFFSET,
            (pts[a][1] + pts[b][1]) / 2 + ry * SIGN_OFFSET,
        )
        for i, (kind, window, exits) in enumerate(signs):
            base = (i - (len(signs) - 1) / 2) * (2 * SIGN_R + 5)
            x, y = _free_place(out, mid, (dx, dy), base, length / 2)
            turn = _turn(pts, a, b, exits) if kind == "no_turn" else "left"
            out.append(Spot(kind, x, y, (dx, dy), turn, window, (a, b)))
    return out


def spot_svg(spot: Spot) -> str:
    dx, dy = spot.d
    ax, ay = spot.x + dy * (SIGN_R + 3.5), spot.y - dx * (SIGN_R + 3.5)
    small = arrow(ax, ay, spot.d, 9, "#1b1b1b", 1.3)
    if spot.window:
        s, side = SIGN_R + 2.5, num(2 * SIGN_R + 5)
        frame = (f'<rect x="{num(spot.x - s)}" y="{num(spot.y - s)}" width="{side}" '
                 f'height="{side}" rx="3" fill="#22252a" stroke="#f5c400" '
                 'stroke-width="1.2"/>')  # fmt: skip
        body = frame + sign_glyph(spot.kind, spot.x, spot.y, SIGN_R - 0.5, spot.d) + small
    else:
        pole = element("circle", cx=spot.x, cy=spot.y, r=SIGN_R + 1, fill="#fff", opacity=0.85)
        body = pole + sign_glyph(spot.kind, spot.x, spot.y, SIGN_R, spot.d, spot.turn) + small
    # The step and kind travel with the drawing, for the browser board and for tests.
    cls = "window" if spot.window else "sign"
    return element("g", body, class_=cls, data_kind=spot.kind, data_from=spot.step[0],
               data_to=spot.step[1], data_x=spot.x, data_y=spot.y)  # fmt: skip


_STOP_RED: Final = "#e8242b"
_LINE_COLOURS: Final = {"red": _STOP_RED, "closed": _STOP_RED, "no_entry": _STOP_RED,
                        "green": "#1fb14a", "major_road_ahead": "#f5a400"}  # fmt: skip


def stop_lines(data: Mapping[str, JSON], pts: Mapping[str, Point], dial: int) -> str:
    """A bar across the right-hand lane where a dial slot's step enters, in the light's colour."""
    out = []
    for slot in data.get("dial", {}).get("slots", []):
        a, b = slot["from"], slot["to"]
        colour = _LINE_COLOURS.get(_slot_value(slot, dial))
        if colour is None or a not in pts or b not in pts:
            continue
        dx, dy, _ = _unit(pts[a], pts[b])
        cx, cy = pts[b][0] - dx * (ROAD_HALF + 5), pts[b][1] - dy * (ROAD_HALF + 5)
        line = (
            f"M{num(cx - dy)},{num(cy + dx)} L{num(cx - dy * ROAD_HALF)},{num(cy + dx * ROAD_HALF)}"
        )
        out.append(element("path", d=line, stroke=colour, stroke_width=3.5))
    return "".join(out)
