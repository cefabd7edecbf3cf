"""The generator of the default map ``maps/default.json`` (stop-and-go.md §5, GA-1).

The old town is a 5 x 5 lattice of junctions 5 grid units apart, the market place at the
centre, joined by streets of four spaces. The corner junctions are bends; the other 20
are crossroads (T-junctions on the edge, four-way inside), four of them lighted (L1 NW,
L2 NE, L3 SE, L4 SW, diagonal to the market). Signs make several shortest routes a
choice: one-way streets on the edges, a closed street, a pedestrian street, stop signs,
priority signs, a compulsory direction and a no-turn sign near the market.

Stop signs stand only on streets without a destination: a car that must end its move on
the stop line cannot pass a car that waits there for an occupied destination next to it,
and two such cars would block each other for good.

Run ``python -m stoptable.games.stopandgo.mapgen`` to rewrite the JSON; the tests check
that the file equals what this module builds.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any, Final

SPACING: Final = 5
SIZE: Final = 5
NAMES: Final = (
    "Town Hall", "Railway Station", "Post Office", "Cathedral", "Museum", "Hospital",
    "Fire Station", "Police Station", "Theatre", "Library", "School", "University",
    "Swimming Pool", "Stadium", "Zoo", "Castle", "Harbour", "Bus Station", "Bank", "Hotel",
    "Cinema", "Department Store", "Concert Hall", "City Park", "Exhibition Centre",
)  # fmt: skip

# Destination number -> street space (street id + a..d along the street). Six per quadrant
# and one on the southern axis; numbers are spread so that "sum" scoring has no hot corner.
DESTINATIONS: Final = {
    1: "h01b", 2: "h30b", 3: "v03c", 4: "h33c", 5: "v10b", 6: "h21c", 7: "v12c",
    8: "v43b", 9: "h00c", 10: "v30c", 11: "h04c", 12: "h23b", 13: "v01b", 14: "h31b",
    15: "h13c", 16: "v11c", 17: "v32c", 18: "v23c", 19: "h20c", 20: "v02b", 21: "h34b",
    22: "h11b", 23: "h03b", 24: "v40b", 25: "h24c",
}  # fmt: skip
LIGHTS: Final = {(1, 1): "L1", (3, 1): "L2", (3, 3): "L3", (1, 3): "L4"}
CENTRE: Final = (2, 2)


def node(i: int, j: int) -> str:
    """The id of lattice junction (i, j): ``M``, ``L1``-``L4``, bends ``Bij``, else ``Xij``."""
    if (i, j) == CENTRE:
        return "M"
    if (i, j) in LIGHTS:
        return LIGHTS[(i, j)]
    if i in (0, SIZE - 1) and j in (0, SIZE - 1):
        return f"B{i}{j}"
    return f"X{i}{j}"


def street(kind: str, i: int, j: int) -> list[str]:
    """The four spaces of street ``h`` (east from (i, j)) or ``v`` (south from (i, j))."""
    return [f"{kind}{i}{j}{c}" for c in "abcd"]


def arm(i: int, j: int, direction: str) -> str:
    """The street space next to junction (i, j) in compass ``direction``."""
    return {
        "E": f"h{i}{j}a",
        "W": f"h{i - 1}{j}d",
        "S": f"v{i}{j}a",
        "N": f"v{i}{j - 1}d",
    }[direction]


def _spaces_and_edges() -> tuple[list[dict[str, Any]], list[list[str]]]:
    number_of = {space: n for n, space in DESTINATIONS.items()}
    spaces: list[dict[str, Any]] = []
    edges: list[list[str]] = []

    def add(sid: str, x: int, y: int, kind: str) -> None:
        entry: dict[str, Any] = {"id": sid, "kind": kind, "x": x, "y": y}
        if sid in number_of:
            n = number_of[sid]
            entry.update(kind="destination", number=n, name=NAMES[n - 1])
        spaces.append(entry)

    for j in range(SIZE):
        for i in range(SIZE):
            sid = node(i, j)
            kind = {"M": "market"}.get(sid, "road" if sid.startswith("B") else "crossroads")
            add(sid, i * SPACING, j * SPACING, kind)
    for j in range(SIZE):
        for i in range(SIZE):
            for kind, di, dj in (("h", 1, 0), ("v", 0, 1)):
                if i + di >= SIZE or j + dj >= SIZE:
                    continue
                chain = street(kind, i, j)
                for step, sid in enumerate(chain, start=1):
                    add(sid, i * SPACING + di * step, j * SPACING + dj * step, "road")
                line = [node(i, j), *chain, node(i + di, j + dj)]
                edges += [[a, b] for a, b in itertools.pairwise(line)]
    return spaces, edges


def _sign(kind: str, frm: str, to: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "from": frm, "to": to, **extra}


def _one_way(kind: str, line: list[str]) -> list[dict[str, Any]]:
    """A one-way segment along ``line`` (junction, street, junction), no entry at its end."""
    segment = [[a, b] for a, b in itertools.pairwise(line)]
    return [
        _sign(kind, line[0], line[1], segment=segment),
        _sign("no_entry", line[-1], line[-2]),
    ]


def _signs() -> list[dict[str, Any]]:
    signs: list[dict[str, Any]] = []
    signs += _one_way("one_way", ["X20", *street("h", 2, 0), "X30"])
    signs += _one_way("one_way_alt", ["X02", *street("v", 0, 2), "X03"])
    signs += _one_way("one_way", ["X42", *street("v", 4, 2), "X43"])
    # Closed: the east edge between X41 and X42; pedestrian street on the south edge.
    signs += [_sign("closed", "X41", "v41a"), _sign("closed", "X42", "v41d")]
    signs += [_sign("no_motor_vehicles", "X14", "h14a"), _sign("no_motor_vehicles", "X24", "h14d")]
    signs += [
        _sign("stop", arm(2, 0, "S"), "X20"),
        _sign("stop_alt", arm(0, 2, "E"), "X02"),
        _sign("stop", arm(3, 4, "N"), "X34"),
        _sign("major_road_ahead", arm(2, 1, "N"), "X21", watch=[arm(2, 1, "W"), arm(2, 1, "E")]),
        _sign("major_road_ahead", arm(2, 3, "S"), "X23", watch=[arm(2, 3, "W"), arm(2, 3, "E")]),
        _sign(
            "compulsory_straight_or_right", arm(1, 2, "W"), "X12",
            exits=[arm(1, 2, "E"), arm(1, 2, "S")],
        ),
        _sign("no_turn", arm(3, 2, "E"), "X32", forbidden_exits=[arm(3, 2, "S")]),
        _sign("no_waiting", "X21", arm(2, 1, "S")),
        _sign("no_waiting", "X23", arm(2, 3, "N")),
        _sign("no_waiting", "M", arm(2, 2, "E")),
        # Side roads meeting the west and south edges, and no waiting right before L3 from
        # the east: a car held by its red light there must wait one space back.
        _sign("stop", arm(0, 1, "N"), "X01"),
        _sign("stop_alt", arm(1, 4, "N"), "X14"),
        _sign("no_waiting", "h33b", arm(3, 3, "E")),
    ]  # fmt: skip
    return signs


def _dial() -> dict[str, Any]:
    """§5 default dial: Lk reads local phase q = (p + k - 1) mod 4."""
    slots: list[dict[str, Any]] = []
    for k, (i, j) in enumerate(sorted(LIGHTS, key=lambda ij: LIGHTS[ij]), start=1):
        light = node(i, j)
        ns = [arm(i, j, "N"), arm(i, j, "S")]
        ew = [arm(i, j, "E"), arm(i, j, "W")]
        table = {
            0: ("green", "red"),
            1: ("red", "green"),
            2: ("green", {"type": "major_road_ahead", "watch": ns}),
            3: ({"type": "major_road_ahead", "watch": ew}, "green"),
        }
        for direction in "NESW":
            column = 0 if direction in "NS" else 1
            signs = [table[(p + k - 1) % 4][column] for p in range(4)]
            slots.append({"from": arm(i, j, direction), "to": light, "signs": signs})
        exit_sign = {1: ("W", "closed", 0), 2: ("N", "no_entry", 1)}.get(k)
        if exit_sign is not None:
            direction, kind, phase = exit_sign
            signs = [kind if (p + k - 1) % 4 == phase else "none" for p in range(4)]
            slots.append({"from": light, "to": arm(i, j, direction), "signs": signs})
    return {"positions": 4, "start": 0, "slots": slots}


def build_default_map() -> dict[str, Any]:
    """The default map as JSON data."""
    spaces, edges = _spaces_and_edges()
    return {
        "name": "old-town",
        "note": "Generated by stoptable.games.stopandgo.mapgen; x east, y south.",
        "spaces": spaces,
        "edges": edges,
        "signs": _signs(),
        "dial": _dial(),
    }


def render_json(data: dict[str, Any]) -> str:
    """The JSON text of a map: one space, edge, sign or slot per line, for readable diffs."""
    parts = [
        "{",
        f'  "name": {json.dumps(data["name"])},',
        f'  "note": {json.dumps(data["note"])},',
    ]
    for key in ("spaces", "edges", "signs"):
        rows = ",\n".join(f"    {json.dumps(row)}" for row in data[key])
        parts.append(f'  "{key}": [\n{rows}\n  ],')
    dial = data["dial"]
    slots = ",\n".join(f"      {json.dumps(slot)}" for slot in dial["slots"])
    parts.append(
        f'  "dial": {{"positions": {dial["positions"]}, "start": {dial["start"]}, '
        f'"slots": [\n{slots}\n  ]}}'
    )
    parts.append("}")
    return "\n".join(parts) + "\n"


DEFAULT_PATH: Final = Path(__file__).parent / "maps" / "default.json"


def main(argv: list[str]) -> int:
    """Write the default map (to the path given, or over ``maps/default.json``)."""
    target = Path(argv[0]) if argv else DEFAULT_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_json(build_default_map()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
