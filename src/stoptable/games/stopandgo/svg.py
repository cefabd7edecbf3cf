"""Draw a Stop & Go map, and optionally a position on it, as SVG text.

A pure function of plain data: the map in the JSON format of stop-and-go.md §6 and, if
given, a state in the ``stoptable replay --json`` schema (records.md §6.3). It does no
file I/O, so the command line, the tests and the browser board all call the same code.

GM-10: a sign belongs to a step ``a→b`` and is drawn on the right-hand side of the road
for a car making that step, with a small arrow in the direction of travel. Dial slots are
windows that show the value in force at the current dial position; the lane entering a
lighted crossroads also gets a stop line in the colour of its light.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from xml.sax.saxutils import escape

JSON = Any
Box = tuple[float, float, float, float]
Point = tuple[float, float]

SEAT_COLOURS: Final = ("#e0323c", "#1f6fc5", "#23985a", "#f2a007", "#8443b4", "#0f9aa8")
"""One car colour per seat, P0 to P5."""

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

ROAD: Final = "#5d6168"
ROAD_EDGE: Final = "#3b3e44"
RED: Final = "#d7191f"
BLUE: Final = "#1f5fbf"
INK: Final = "#16324f"
ROAD_HALF: Final = 8.0
SIGN_R: Final = 7.5
SIGN_OFFSET: Final = ROAD_HALF + 5.0 + SIGN_R
PANEL_W: Final = 270.0
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

_RING: Final = f'<circle r="0.86" fill="#fff" stroke="{RED}" stroke-width="0.28"/>'
_SLASH: Final = f'<path d="M-0.62,-0.62 L0.62,0.62" stroke="{RED}" stroke-width="0.22"/>'
_HEAD_RIGHT: Final = '<path d="M0.8,0 L0.3,-0.32 L0.3,0.32Z" fill="#fff"/>'
_OCTAGON: Final = " ".join(
    f"{math.cos(math.pi / 8 + i * math.pi / 4) * 1.08:.3f},"
    f"{math.sin(math.pi / 8 + i * math.pi / 4) * 1.08:.3f}"
    for i in range(8)
)
_STOP_TEXT: Final = (
    '<text y="{y}" font-size="{s}" font-weight="bold" fill="{c}" text-anchor="middle">STOP</text>'
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


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _el(tag: str, body: str = "", **attrs: object) -> str:
    """One SVG element; ``stroke_width`` becomes ``stroke-width``, floats are rounded."""
    text = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{_f(v) if isinstance(v, float) else v}"'
        for k, v in attrs.items()
    )
    return f"<{tag}{text}>{body}</{tag}>" if body else f"<{tag}{text}/>"


def _text(x: float, y: float, text: str, size: float, fill: str = "#222", bold: bool = False,
          anchor: str = "middle", halo: bool = False) -> str:  # fmt: skip
    extra = ' stroke="#fff" stroke-width="3" paint-order="stroke"' if halo else ""
    weight = "bold" if bold else "normal"
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}"{extra}>{escape(text)}</text>')  # fmt: skip


def _arrow(x: float, y: float, d: Point, length: float, colour: str, width: float) -> str:
    """A straight arrow centred on (x, y) pointing along the unit vector ``d``."""
    dx, dy = d
    hx, hy = dx * length / 2, dy * length / 2
    x0, y0, x1, y1 = x - hx, y - hy, x + hx, y + hy
    head = max(2.5, length * 0.38)
    hx, hy, nx, ny = x1 - dx * head, y1 - dy * head, -dy * head * 0.6, dx * head * 0.6
    stem = f"M{_f(x0)},{_f(y0)} L{_f(hx)},{_f(hy)}"
    tip = f"M{_f(x1)},{_f(y1)} L{_f(hx + nx)},{_f(hy + ny)} L{_f(hx - nx)},{_f(hy - ny)}Z"
    return _el("path", d=stem, stroke=colour, stroke_width=width) + _el("path", d=tip, fill=colour)


def sign_glyph(
    kind: str, x: float, y: float, r: float, d: Point = (0.0, -1.0), turn: str = "left"
) -> str:
    """The picture of one sign kind centred on (x, y) with radius ``r``.

    ``d`` is the screen direction of travel: one-way arrows point along it. ``turn`` is the
    turn a ``no_turn`` sign forbids as the driver sees it (``left``, ``right``, ``straight``).
    """
    transform = f"translate({_f(x)},{_f(y)}) scale({r:.2f})"
    if kind in ("one_way", "one_way_alt"):
        transform += f" rotate({_f(math.degrees(math.atan2(d[1], d[0])))})"
    if kind == "no_turn" and turn == "right":
        transform += " scale(-1,1)"
    key = "no_turn_straight" if kind == "no_turn" and turn == "straight" else kind
    return _el("g", GLYPHS.get(key, GLYPHS["none"]), transform=transform)


@dataclass(frozen=True, slots=True)
class _Space:
    id: str
    kind: str
    x: float
    y: float
    number: int | None
    name: str | None


@dataclass(frozen=True, slots=True)
class _Spot:
    """One sign as drawn: where, which way its step goes, and whether it is a dial window."""

    kind: str
    x: float
    y: float
    d: Point
    turn: str
    window: bool
    step: tuple[str, str]


def _slot_kind(value: JSON) -> str:
    return str(value.get("type", "none")) if isinstance(value, Mapping) else str(value)


def _slot_value(slot: Mapping[str, JSON], dial: int) -> str:
    values = slot.get("signs") or ["none"]
    return _slot_kind(values[dial % len(values)])


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


def _free_place(placed: Sequence[_Spot], m: Point, d: Point, base: float, room: float) -> Point:
    """Slide a sign along its step until it clears the signs already placed."""
    for k in (0, -1, 1, -2, 2, -3, 3, -4, 4):
        shift = base + k * 5.0
        x, y = m[0] + d[0] * shift, m[1] + d[1] * shift
        if abs(shift) <= room and all(
            math.hypot(x - p.x, y - p.y) >= 2 * SIGN_R + 5 for p in placed
        ):
            return x, y
    return m[0] + d[0] * base, m[1] + d[1] * base


def _spots(data: Mapping[str, JSON], pts: Mapping[str, Point], dial: int) -> list[_Spot]:
    """Every sign at its drawing place (GM-10); dial windows show position ``dial``."""
    by_step: dict[tuple[str, str], list[tuple[str, bool, Sequence[str]]]] = {}
    for sign in data.get("signs", []):
        exits = sign.get("forbidden_exits") or sign.get("exits") or []
        by_step.setdefault((sign["from"], sign["to"]), []).append((sign["type"], False, exits))
    for slot in data.get("dial", {}).get("slots", []):
        by_step.setdefault((slot["from"], slot["to"]), []).append(
            (_slot_value(slot, dial), True, [])
        )
    out: list[_Spot] = []
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
            out.append(_Spot(kind, x, y, (dx, dy), turn, window, (a, b)))
    return out


def _spot_svg(spot: _Spot) -> str:
    dx, dy = spot.d
    ax, ay = spot.x + dy * (SIGN_R + 3.5), spot.y - dx * (SIGN_R + 3.5)
    small = _arrow(ax, ay, spot.d, 9, "#1b1b1b", 1.3)
    if spot.window:
        s, side = SIGN_R + 2.5, _f(2 * SIGN_R + 5)
        frame = (f'<rect x="{_f(spot.x - s)}" y="{_f(spot.y - s)}" width="{side}" height="{side}" '
                 'rx="3" fill="#22252a" stroke="#f5c400" stroke-width="1.2"/>')  # fmt: skip
        body = frame + sign_glyph(spot.kind, spot.x, spot.y, SIGN_R - 0.5, spot.d) + small
    else:
        pole = _el("circle", cx=spot.x, cy=spot.y, r=SIGN_R + 1, fill="#fff", opacity=0.85)
        body = pole + sign_glyph(spot.kind, spot.x, spot.y, SIGN_R, spot.d, spot.turn) + small
    # The step and kind travel with the drawing, for the browser board and for tests.
    cls = "window" if spot.window else "sign"
    return _el("g", body, class_=cls, data_kind=spot.kind, data_from=spot.step[0],
               data_to=spot.step[1], data_x=spot.x, data_y=spot.y)  # fmt: skip


def _spaces(data: Mapping[str, JSON]) -> dict[str, _Space]:
    out = {}
    for s in data.get("spaces", []):
        sid = str(s["id"])
        out[sid] = _Space(sid, str(s.get("kind", "road")), float(s["x"]), float(s["y"]),
                          s.get("number"), s.get("name"))  # fmt: skip
    return out


def _lights(data: Mapping[str, JSON], spaces: Mapping[str, _Space]) -> dict[str, str]:
    """Lighted crossroads (targets of dial slots) and their plate labels.

    A short space id (the default map names them L1 to L4) is the label; longer ids are
    replaced by L1, L2, ... in map order so that the label fits on the plate.
    """
    targets = {slot["to"] for slot in data.get("dial", {}).get("slots", [])}
    lit = [s.id for s in spaces.values() if s.kind == "crossroads" and s.id in targets]
    return {sid: sid if len(sid) <= 3 else f"L{i + 1}" for i, sid in enumerate(lit)}


_STOP_RED: Final = "#e8242b"
_LINE_COLOURS: Final = {"red": _STOP_RED, "closed": _STOP_RED, "no_entry": _STOP_RED,
                        "green": "#1fb14a", "major_road_ahead": "#f5a400"}  # fmt: skip


def _stop_lines(data: Mapping[str, JSON], pts: Mapping[str, Point], dial: int) -> str:
    """A bar across the right-hand lane where a dial slot's step enters, in the light's colour."""
    out = []
    for slot in data.get("dial", {}).get("slots", []):
        a, b = slot["from"], slot["to"]
        colour = _LINE_COLOURS.get(_slot_value(slot, dial))
        if colour is None or a not in pts or b not in pts:
            continue
        dx, dy, _ = _unit(pts[a], pts[b])
        cx, cy = pts[b][0] - dx * (ROAD_HALF + 5), pts[b][1] - dy * (ROAD_HALF + 5)
        line = f"M{_f(cx - dy)},{_f(cy + dx)} L{_f(cx - dy * ROAD_HALF)},{_f(cy + dx * ROAD_HALF)}"
        out.append(_el("path", d=line, stroke=colour, stroke_width=3.5))
    return "".join(out)


def _overlap(box: Box, boxes: Sequence[Box]) -> float:
    total = 0.0
    for x0, y0, x1, y1 in boxes:
        ox, oy = min(box[2], x1) - max(box[0], x0), min(box[3], y1) - max(box[1], y0)
        if ox > 0 and oy > 0:
            total += ox * oy
    return total


def _label_place(
    x: float, y: float, text: str, size: float, boxes: Sequence[Box]
) -> tuple[float, float, str, Box]:
    """The place around a destination where its name covers the least of the drawing."""
    w, h, gap = len(text) * size * 0.58, size * 1.1, 14.0
    candidates = [
        (x + gap, y + size * 0.35, "start", (x + gap, y - h / 2, x + gap + w, y + h / 2)),
        (x - gap, y + size * 0.35, "end", (x - gap - w, y - h / 2, x - gap, y + h / 2)),
    ]
    for ty, top in ((y - gap - 2, y - gap - h), (y + gap + size, y + gap)):
        candidates.append((x, ty, "middle", (x - w / 2, top, x + w / 2, top + h)))
        candidates.append((x - 6, ty, "start", (x - 6, top, x - 6 + w, top + h)))
        candidates.append((x + 6, ty, "end", (x + 6 - w, top, x + 6, top + h)))
    return min(candidates, key=lambda c: _overlap(c[3], boxes))


def _car(x: float, y: float, angle: float, colour: str, seat: int) -> str:
    body = (f'<rect x="-11" y="-7" width="22" height="14" rx="4" fill="{colour}" stroke="#111" '
            'stroke-width="1.3"/><rect x="2" y="-5" width="5" height="10" rx="1.5" '
            'fill="#cfe8ff" stroke="#111" stroke-width="0.6"/>')  # fmt: skip
    hx, hy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    turn = f"translate({_f(x)},{_f(y)}) rotate({_f(angle)})"
    car = _el("g", body, transform=turn, class_=f"car seat{seat}", data_seat=seat)
    return car + _text(x - hx * 4, y - hy * 4 + 3.6, str(seat), 10, "#fff", bold=True)


def _cars(state: Mapping[str, JSON], spaces: Mapping[str, _Space], pts: Mapping[str, Point]) -> str:
    """Every car on its space, turned the way it heads; cars on the market share it in a ring."""
    cars = list(state.get("cars") or [])
    market = [
        i for i, c in enumerate(cars) if getattr(spaces.get(c.get("pos")), "kind", "") == "market"
    ]
    out = []
    for seat, car in enumerate(cars):
        pos, prev = car.get("pos"), car.get("prev")
        if pos not in pts:
            continue
        x, y = pts[pos]
        angle = -90.0
        if seat in market:
            theta = 2 * math.pi * market.index(seat) / len(market) - math.pi / 2
            radius = 0 if len(market) == 1 else 13 if len(market) <= 4 else 16
            x, y = x + radius * math.cos(theta), y + radius * math.sin(theta)
        elif prev in pts:
            angle = math.degrees(math.atan2(y - pts[prev][1], x - pts[prev][0]))
        out.append(_car(x, y, angle, SEAT_COLOURS[seat % len(SEAT_COLOURS)], seat))
    return "".join(out)


def _dial_disc(cx: float, cy: float, r: float, positions: int, dial: int) -> str:
    out = []
    for k in range(positions):
        a0 = 2 * math.pi * k / positions - math.pi / 2
        a1 = a0 + 2 * math.pi / positions
        arc = (
            f"M{_f(cx)},{_f(cy)} L{_f(cx + r * math.cos(a0))},{_f(cy + r * math.sin(a0))} "
            f"A{_f(r)},{_f(r)} 0 0 1 {_f(cx + r * math.cos(a1))},{_f(cy + r * math.sin(a1))}Z"
        )
        fill = "#f5c400" if k == dial % positions else "#e9e6dc"
        out.append(_el("path", d=arc, fill=fill, stroke="#555", stroke_width=1))
    return "".join(out)


def _players(state: Mapping[str, JSON], x0: float, y: float) -> tuple[list[str], float]:
    out = []
    winners, scores = state.get("winners") or [], state.get("scores") or []
    for seat, car in enumerate(state.get("cars") or []):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        out.append(_el("rect", x=x0, y=y - 10, width=14, height=12, rx=3, fill=colour,
                       stroke="#111"))  # fmt: skip
        collected = list(car.get("collected") or [])
        score = scores[seat] if seat < len(scores) else len(collected)
        star = " ★" if seat in winners else ""
        line = f"P{seat}{star}  score {score}  tickets {car.get('tickets', 0)}"
        if car.get("missed_turns"):
            line += f"  misses {car['missed_turns']}"
        out.append(_text(x0 + 20, y, line, 12, anchor="start", bold=seat == state.get("turn")))
        if collected:
            y += 15
            cards = "cards " + " ".join(map(str, collected))
            out.append(_text(x0 + 20, y, cards, 10, "#555", anchor="start"))
        y += 19
    return out, y


def _turn_line(state: Mapping[str, JSON]) -> str:
    turn, roll = state.get("turn"), state.get("roll")
    line = f"P{turn} to play" if turn is not None else ""
    if state.get("phase") == "game_over":
        line = "Game over"
    return line + (f"   die: {roll}" if roll is not None else "")


def _panel(data: Mapping[str, JSON], state: Mapping[str, JSON] | None, x0: float, dial: int,
           names: Mapping[int, str]) -> tuple[str, float]:  # fmt: skip
    """The side panel: title, dial, whose turn, players, and the key of this map's signs."""
    positions = int((data.get("dial") or {}).get("positions", 4) or 4)
    out = [
        _text(x0, 34, str(data.get("name", "Stop & Go")), 17, "#1b1b1b", bold=True, anchor="start"),
        _dial_disc(x0 + 22, 72, 18, positions, dial),
        _text(x0 + 50, 70, f"Dial position {dial % positions} of {positions}", 12, anchor="start"),
    ]
    y = 112.0
    if state is not None:
        active = state.get("active")
        goal = "No destination left"
        if active is not None:
            goal = f"Destination {active} {names.get(int(active), '')}"
        out.append(_text(x0 + 50, 88, _turn_line(state), 12, bold=True, anchor="start"))
        out.append(_el("rect", x=x0, y=y - 14, width=PANEL_W - 24, height=20, rx=4, fill="#ffe066"))
        out.append(_text(x0 + 6, y + 1, goal, 12, "#1b1b1b", bold=True, anchor="start"))
        rows, y = _players(state, x0, y + 28)
        out.extend(rows)
    out.append(_text(x0, y + 8, "Signs", 13, "#1b1b1b", bold=True, anchor="start"))
    y += 16
    kinds = {str(sign["type"]) for sign in data.get("signs", [])}
    for slot in (data.get("dial") or {}).get("slots", []):
        kinds.update(_slot_kind(value) for value in slot.get("signs", []))
    for kind in [k for k in SIGN_NAMES if k in kinds]:
        y += 20
        out.append(sign_glyph(kind, x0 + 10, y - 4, SIGN_R, (1.0, 0.0)))
        out.append(_text(x0 + 26, y, SIGN_NAMES[kind], 11, anchor="start"))
    y += 22
    out.append(f'<rect x="{_f(x0 + 2)}" y="{_f(y - 12)}" width="16" height="16" rx="3" '
               'fill="#22252a" stroke="#f5c400"/>')  # fmt: skip
    out.append(_text(x0 + 26, y, "Dial window (traffic light)", 11, anchor="start"))
    y += 20
    out.append(_arrow(x0 + 10, y - 4, (1.0, 0.0), 12, "#1b1b1b", 1.3))
    out.append(_text(x0 + 26, y, "Way the sign applies", 11, anchor="start"))
    return "".join(out), y + 20


def _space_svg(s: _Space, x: float, y: float, light: str | None, active: bool) -> str:
    if s.kind == "market":
        plaza = (f'<rect x="{_f(x - 25)}" y="{_f(y - 25)}" width="50" height="50" rx="10" '
                 'fill="#e6cf91" stroke="#8a6d2b" stroke-width="2"/>')  # fmt: skip
        return plaza + _text(x, y - 30, "MARKET", 10, "#6b521c", True, halo=True)
    if s.kind == "crossroads":
        h, edge, width = (
            ROAD_HALF + 2,
            ("#f5c400", 2.5) if light else (ROAD_EDGE, 1.5),
            2 * ROAD_HALF + 4,
        )
        plate = _el("rect", x=x - h, y=y - h, width=width, height=width, rx=3, fill=ROAD,
                    stroke=edge[0], stroke_width=edge[1])  # fmt: skip
        return plate + (_text(x, y + 3.2, light, 8.5, "#ffd43b", True) if light else "")
    if s.kind == "destination":
        ring = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="19" fill="#ffe066" opacity="0.75" '
                'stroke="#f08c00" stroke-width="3"/>')  # fmt: skip
        disc = _el("circle", cx=x, cy=y, r=10.5, fill="#fff", stroke=INK, stroke_width=2.2)
        return (ring if active else "") + disc + _text(x, y + 4, str(s.number), 10.5, INK, True)
    return _el("rect", x=x - 4, y=y - 4, width=8, height=8, rx=2, fill="#d9d4c5")


def _streets(edges: Sequence[tuple[str, str]], pts: Mapping[str, Point]) -> tuple[str, list[Box]]:
    """The road network (kerb, asphalt, centre line) and the boxes labels should avoid."""
    d = " ".join(
        f"M{_f(pts[a][0])},{_f(pts[a][1])} L{_f(pts[b][0])},{_f(pts[b][1])}" for a, b in edges
    )
    svg = (f'<path d="{d}" stroke="{ROAD_EDGE}" stroke-width="{_f(2 * ROAD_HALF + 3)}" '
           'stroke-linecap="round" fill="none"/>'
           f'<path d="{d}" stroke="{ROAD}" stroke-width="{_f(2 * ROAD_HALF)}" '
           'stroke-linecap="round" fill="none"/>'
           f'<path d="{d}" stroke="#e8e4d8" stroke-width="1" stroke-dasharray="4 5" '
           'fill="none"/>')  # fmt: skip
    boxes: list[Box] = []
    for a, b in edges:
        (ax, ay), (bx, by) = pts[a], pts[b]
        n = max(1, int(math.hypot(bx - ax, by - ay) / 6))
        for i in range(n + 1):
            px, py = ax + (bx - ax) * i / n, ay + (by - ay) * i / n
            boxes.append((px - ROAD_HALF, py - ROAD_HALF, px + ROAD_HALF, py + ROAD_HALF))
    return svg, boxes


def render_svg(
    data: Mapping[str, JSON],
    state: Mapping[str, JSON] | None = None,
    unit: float = 46.0,
    marks: Mapping[str, str] | None = None,
) -> str:
    """The SVG text of the map ``data`` (stop-and-go.md §6), with ``state`` drawn on it if given.

    ``state`` uses the keys of the replay output (records.md §6.3): ``cars`` (``pos``,
    ``prev``, ``tickets``, ``missed_turns``, ``collected``), ``dial``, ``active``,
    ``active_space``, ``turn``, ``roll``, ``phase``, ``scores`` and ``winners``; missing
    keys are left out of the drawing. Without a state the windows show the dial start.
    ``marks`` labels spaces (space id -> short text), e.g. where each legal move ends.
    """
    spaces = _spaces(data)
    dial_data = data.get("dial") or {}
    dial = int(dial_data.get("start", 0))
    if state is not None and state.get("dial") is not None:
        dial = int(state["dial"])
    xs, ys = [s.x for s in spaces.values()] or [0.0], [s.y for s in spaces.values()] or [0.0]
    pad = 56.0
    x0, y0 = min(xs), min(ys)
    pts = {sid: (pad + (s.x - x0) * unit, pad + (s.y - y0) * unit) for sid, s in spaces.items()}
    map_w, map_h = (max(xs) - min(xs)) * unit + 2 * pad, (max(ys) - min(ys)) * unit + 2 * pad
    spots = _spots(data, pts, dial)
    names = {int(s.number): str(s.name) for s in spaces.values() if s.number is not None}
    panel, panel_h = _panel(data, state, map_w + 14, dial, names)
    width, height = map_w + PANEL_W, max(map_h, panel_h)
    edges = [(str(a), str(b)) for a, b in data.get("edges", []) if a in pts and b in pts]
    streets, boxes = _streets(edges, pts)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}">',
        _el("rect", width=width, height=height, fill="#f4f1e8"),
        _el("rect", x=pad / 3, y=pad / 3, width=map_w - pad * 2 / 3, height=map_h - pad * 2 / 3,
            rx=14, fill="#dfe8d2"),
        _el("rect", x=map_w, y=0, width=PANEL_W, height=height, fill="#fbfaf6"),
        streets,
    ]  # fmt: skip
    r = SIGN_R + 2
    boxes.extend((p.x - r, p.y - r, p.x + r, p.y + r) for p in spots)
    active = state.get("active_space") if state is not None else None
    lights = _lights(data, spaces)
    for s in spaces.values():
        body = _space_svg(s, *pts[s.id], lights.get(s.id), s.id == active)
        parts.append(_el("g", body, class_=f"space {s.kind}", data_space=s.id))
    parts.append(_stop_lines(data, pts, dial))
    parts.extend(_spot_svg(spot) for spot in spots)
    for s in spaces.values():
        if s.kind == "destination" and s.name:
            tx, ty, anchor, box = _label_place(*pts[s.id], s.name, 10, boxes)
            boxes.append(box)
            parts.append(_text(tx, ty, s.name, 10, INK, s.id == active, anchor, halo=True))
    for sid, label in (marks or {}).items():
        if sid in pts:
            x, y = pts[sid]
            disc = _el("circle", cx=x, cy=y, r=9, fill="#b0309a", stroke="#fff", stroke_width=1.5)
            body = disc + _text(x, y + 3.5, label, 9.5, "#fff", bold=True)
            parts.append(_el("g", body, class_="mark", data_space=sid))
    if state is not None:
        parts.append(_cars(state, spaces, pts))
    parts.extend([panel, "</svg>"])
    return "\n".join(parts)
