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
from typing import Final

from stoptable.games.stopandgo.svg_base import (
    FONT,
    INK,
    JSON,
    PANEL_W,
    ROAD,
    ROAD_EDGE,
    ROAD_HALF,
    SIGN_R,
    Box,
    Point,
    arrow,
    element,
    num,
    text_svg,
)
from stoptable.games.stopandgo.svg_signs import (
    GLYPHS,
    SIGN_NAMES,
    sign_glyph,
    sign_spots,
    slot_kind,
    spot_svg,
    stop_lines,
)

__all__ = ["GLYPHS", "SEAT_COLOURS", "SIGN_NAMES", "render_svg", "sign_glyph"]

SEAT_COLOURS: Final = ("#e0323c", "#1f6fc5", "#23985a", "#f2a007", "#8443b4", "#0f9aa8")
"""One car colour per seat, P0 to P5."""
LEGEND_W: Final = 180.0
"""The side panel's width when it holds only the key of signs (``legend_only``)."""


@dataclass(frozen=True, slots=True)
class _Space:
    id: str
    kind: str
    x: float
    y: float
    number: int | None
    name: str | None


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


class _Boxes:
    """The boxes names should avoid, bucketed in square cells of ``CELL`` pixels.

    The overlap of a small box with all of them then looks only at the boxes in its own
    cells, so placing every name costs time linear in the drawing, not quadratic. Overlaps
    are added in the order the boxes came, so the sums are those of a plain scan.
    """

    CELL: Final = 48.0

    def __init__(self, boxes: Sequence[Box]) -> None:
        self.boxes: list[Box] = []
        self.cells: dict[tuple[int, int], list[int]] = {}
        for box in boxes:
            self.append(box)

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self.CELL
        xs = range(math.floor(box[0] / c), math.floor(box[2] / c) + 1)
        return [
            (i, j) for i in xs for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)
        ]

    def append(self, box: Box) -> None:
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(len(self.boxes))
        self.boxes.append(box)

    def overlap(self, box: Box) -> float:
        """The total area of ``box`` covered by the boxes (counted once per box)."""
        near = sorted({i for cell in self._cells(box) for i in self.cells.get(cell, ())})
        total = 0.0
        for i in near:
            x0, y0, x1, y1 = self.boxes[i]
            ox, oy = min(box[2], x1) - max(box[0], x0), min(box[3], y1) - max(box[1], y0)
            if ox > 0 and oy > 0:
                total += ox * oy
        return total


def _label_place(
    x: float, y: float, text: str, size: float, boxes: _Boxes
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
    return min(candidates, key=lambda c: boxes.overlap(c[3]))


def _car(x: float, y: float, angle: float, colour: str, seat: int) -> str:
    """A car as large as a space allows, in its seat's colour with a white outline (it
    stands out on the road and on a coloured sign), numbered from 1 as seats are shown."""
    body = (f'<rect x="-20" y="-13" width="40" height="26" rx="7" fill="{colour}" stroke="#fff" '
            'stroke-width="3.5"/><rect x="-20" y="-13" width="40" height="26" rx="7" fill="none" '
            'stroke="#111" stroke-width="1.3"/><rect x="6" y="-9" width="8" height="18" '
            'rx="2" fill="#cfe8ff" stroke="#111" stroke-width="0.8"/>')  # fmt: skip
    hx, hy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    turn = f"translate({num(x)},{num(y)}) rotate({num(angle)})"
    car = element("g", body, transform=turn, class_=f"car seat{seat}", data_seat=seat)
    label = text_svg(x - hx * 6, y - hy * 6 + 6.5, str(seat + 1), 18, "#fff", bold=True)
    return car + label.replace("<text ", '<text stroke="#111" stroke-width="0.8" ', 1)


def _cars(state: Mapping[str, JSON], spaces: Mapping[str, _Space], pts: Mapping[str, Point]) -> str:
    """Every car on its space, turned the way it heads; cars on the market share it."""
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
            # side by side in a grid (two or three abreast), facing up, none hiding another
            i, cols = market.index(seat), 2 if len(market) <= 4 else 3
            cols = min(cols, len(market))
            rows = math.ceil(len(market) / cols)
            x += (i % cols - (cols - 1) / 2) * 30
            y += (i // cols - (rows - 1) / 2) * 44
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
            f"M{num(cx)},{num(cy)} L{num(cx + r * math.cos(a0))},{num(cy + r * math.sin(a0))} "
            f"A{num(r)},{num(r)} 0 0 1 {num(cx + r * math.cos(a1))},{num(cy + r * math.sin(a1))}Z"
        )
        fill = "#f5c400" if k == dial % positions else "#e9e6dc"
        out.append(element("path", d=arc, fill=fill, stroke="#555", stroke_width=1))
    return "".join(out)


def _players(state: Mapping[str, JSON], x0: float, y: float) -> tuple[list[str], float]:
    out = []
    winners, scores = state.get("winners") or [], state.get("scores") or []
    for seat, car in enumerate(state.get("cars") or []):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        out.append(element("rect", x=x0, y=y - 10, width=14, height=12, rx=3, fill=colour,
                       stroke="#111"))  # fmt: skip
        collected = list(car.get("collected") or [])
        score = scores[seat] if seat < len(scores) else len(collected)
        star = " ★" if seat in winners else ""
        line = f"P{seat}{star}  score {score}  tickets {car.get('tickets', 0)}"
        if car.get("missed_turns"):
            line += f"  misses {car['missed_turns']}"
        out.append(text_svg(x0 + 20, y, line, 12, anchor="start", bold=seat == state.get("turn")))
        if collected:
            y += 15
            cards = "cards " + " ".join(map(str, collected))
            out.append(text_svg(x0 + 20, y, cards, 10, "#555", anchor="start"))
        y += 19
    return out, y


def _turn_line(state: Mapping[str, JSON]) -> str:
    turn, roll = state.get("turn"), state.get("roll")
    line = f"P{turn} to play" if turn is not None else ""
    if state.get("phase") == "game_over":
        line = "Game over"
    return line + (f"   die: {roll}" if roll is not None else "")


def _panel(data: Mapping[str, JSON], state: Mapping[str, JSON] | None, x0: float, dial: int,
           names: Mapping[int, str], legend_only: bool = False) -> tuple[str, float]:  # fmt: skip
    """The side panel: title, dial, whose turn, players, and the key of this map's signs.
    ``legend_only``: the key alone (the browser board shows the rest in its own panel, in
    the page's language); its words carry their catalogue keys (``data-text``)."""
    positions = int((data.get("dial") or {}).get("positions", 4) or 4)
    out = []
    y = 10.0
    if not legend_only:
        out += [
            text_svg(x0, 34, str(data.get("name", "Stop & Go")), 17, "#1b1b1b", True, "start"),
            _dial_disc(x0 + 22, 72, 18, positions, dial),
            text_svg(
                x0 + 50, 70, f"Dial position {dial % positions} of {positions}", 12, anchor="start"
            ),
        ]
        y = 112.0
    if state is not None and not legend_only:
        active = state.get("active")
        goal = "No destination left"
        if active is not None:
            goal = f"Destination {active} {names.get(int(active), '')}"
        out.append(text_svg(x0 + 50, 88, _turn_line(state), 12, bold=True, anchor="start"))
        out.append(
            element("rect", x=x0, y=y - 14, width=PANEL_W - 24, height=20, rx=4, fill="#ffe066")
        )
        out.append(text_svg(x0 + 6, y + 1, goal, 12, "#1b1b1b", bold=True, anchor="start"))
        rows, y = _players(state, x0, y + 28)
        out.extend(rows)
    out.append(text_svg(x0, y + 8, "Signs", 13, "#1b1b1b", True, "start", key="sg.signs"))
    y += 16
    kinds = {str(sign["type"]) for sign in data.get("signs", [])}
    for slot in (data.get("dial") or {}).get("slots", []):
        kinds.update(slot_kind(value) for value in slot.get("signs", []))
    for kind in [k for k in SIGN_NAMES if k in kinds]:
        y += 20
        out.append(sign_glyph(kind, x0 + 10, y - 4, SIGN_R, (1.0, 0.0)))
        out.append(
            text_svg(x0 + 26, y, SIGN_NAMES[kind], 11, anchor="start", key=f"sg.sign.{kind}")
        )
    y += 22
    out.append(f'<rect x="{num(x0 + 2)}" y="{num(y - 12)}" width="16" height="16" rx="3" '
               'fill="#22252a" stroke="#f5c400"/>')  # fmt: skip
    out.append(text_svg(x0 + 26, y, "Dial window (traffic light)", 11, anchor="start",
                        key="sg.legend.window"))  # fmt: skip
    y += 20
    out.append(arrow(x0 + 10, y - 4, (1.0, 0.0), 12, "#1b1b1b", 1.3))
    out.append(text_svg(x0 + 26, y, "Way the sign applies", 11, anchor="start",
                        key="sg.legend.way"))  # fmt: skip
    return "".join(out), y + 20


def _space_svg(s: _Space, x: float, y: float, light: str | None, active: bool) -> str:
    if s.kind == "market":
        plaza = (f'<rect x="{num(x - 25)}" y="{num(y - 25)}" width="50" height="50" rx="10" '
                 'fill="#e6cf91" stroke="#8a6d2b" stroke-width="2"/>')  # fmt: skip
        return plaza + text_svg(
            x, y - 30, "MARKET", 10, "#6b521c", True, halo=True, key="sg.market"
        )
    if s.kind == "crossroads":
        h, edge, width = (
            ROAD_HALF + 2,
            ("#f5c400", 2.5) if light else (ROAD_EDGE, 1.5),
            2 * ROAD_HALF + 4,
        )
        plate = element("rect", x=x - h, y=y - h, width=width, height=width, rx=3, fill=ROAD,
                    stroke=edge[0], stroke_width=edge[1])  # fmt: skip
        return plate + (text_svg(x, y + 3.2, light, 8.5, "#ffd43b", True) if light else "")
    if s.kind == "destination":
        ring = (f'<circle cx="{num(x)}" cy="{num(y)}" r="19" fill="#ffe066" opacity="0.75" '
                'stroke="#f08c00" stroke-width="3"/>')  # fmt: skip
        disc = element("circle", cx=x, cy=y, r=10.5, fill="#fff", stroke=INK, stroke_width=2.2)
        return (ring if active else "") + disc + text_svg(x, y + 4, str(s.number), 10.5, INK, True)
    return element("rect", x=x - 4, y=y - 4, width=8, height=8, rx=2, fill="#d9d4c5")


def _streets(edges: Sequence[tuple[str, str]], pts: Mapping[str, Point]) -> tuple[str, list[Box]]:
    """The road network (kerb, asphalt, centre line) and the boxes labels should avoid."""
    d = " ".join(
        f"M{num(pts[a][0])},{num(pts[a][1])} L{num(pts[b][0])},{num(pts[b][1])}" for a, b in edges
    )
    svg = (f'<path d="{d}" stroke="{ROAD_EDGE}" stroke-width="{num(2 * ROAD_HALF + 3)}" '
           'stroke-linecap="round" fill="none"/>'
           f'<path d="{d}" stroke="{ROAD}" stroke-width="{num(2 * ROAD_HALF)}" '
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
    legend_only: bool = False,
) -> str:
    """The SVG text of the map ``data`` (stop-and-go.md §6), with ``state`` drawn on it if given.

    ``state`` uses the keys of the replay output (records.md §6.3): ``cars`` (``pos``,
    ``prev``, ``tickets``, ``missed_turns``, ``collected``), ``dial``, ``active``,
    ``active_space``, ``turn``, ``roll``, ``phase``, ``scores`` and ``winners``; missing
    keys are left out of the drawing. Without a state the windows show the dial start.
    ``marks`` labels spaces (space id -> short text), e.g. where each legal move ends.
    ``legend_only`` leaves the title, dial and players out of the side panel (the browser
    board shows them itself, in its page's language).
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
    spots = sign_spots(data, pts, dial)
    names = {int(s.number): str(s.name) for s in spaces.values() if s.number is not None}
    panel, panel_h = _panel(data, state, map_w + 14, dial, names, legend_only)
    panel_w = LEGEND_W if legend_only else PANEL_W
    width, height = map_w + panel_w, max(map_h, panel_h)
    edges = [(str(a), str(b)) for a, b in data.get("edges", []) if a in pts and b in pts]
    streets, road_boxes = _streets(edges, pts)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
        f'viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}">',
        element("rect", width=width, height=height, fill="#f4f1e8"),
        element("rect", x=pad / 3, y=pad / 3, width=map_w - pad * 2 / 3, height=map_h - pad * 2 / 3,
            rx=14, fill="#dfe8d2"),
        element("rect", x=map_w, y=0, width=panel_w, height=height, fill="#fbfaf6"),
        streets,
    ]  # fmt: skip
    r = SIGN_R + 2
    boxes = _Boxes(road_boxes + [(p.x - r, p.y - r, p.x + r, p.y + r) for p in spots])
    active = state.get("active_space") if state is not None else None
    lights = _lights(data, spaces)
    for s in spaces.values():
        body = _space_svg(s, *pts[s.id], lights.get(s.id), s.id == active)
        parts.append(element("g", body, class_=f"space {s.kind}", data_space=s.id))
    parts.append(stop_lines(data, pts, dial))
    parts.extend(spot_svg(spot) for spot in spots)
    for s in spaces.values():
        if s.kind == "destination" and s.name:
            tx, ty, anchor, box = _label_place(*pts[s.id], s.name, 10, boxes)
            boxes.append(box)
            key = f"sg.place.{s.number}" if s.number is not None else None
            label = text_svg(tx, ty, s.name, 10, INK, s.id == active, anchor, True, key)
            parts.append(label)
    for sid, label in (marks or {}).items():
        if sid in pts:
            x, y = pts[sid]
            disc = element(
                "circle", cx=x, cy=y, r=9, fill="#b0309a", stroke="#fff", stroke_width=1.5
            )
            body = disc + text_svg(x, y + 3.5, label, 9.5, "#fff", bold=True)
            parts.append(element("g", body, class_="mark", data_space=sid))
    if state is not None:
        parts.append(_cars(state, spaces, pts))
    parts.extend([panel, "</svg>"])
    return "\n".join(parts)
