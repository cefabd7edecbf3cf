"""The limits of a Stop & Go map file, checked on the raw JSON before anything else reads it.

A map comes from a file or a record that anyone can write, and what it holds sets the cost
of everything done with it: the GM-9 check walks every car state once per dial position,
the engine lists every path of a roll from a car state (exponential in the neighbours a
space has), the SVG drawing covers every edge with boxes that names avoid, and a big
integer coordinate does not even fit a float. So :func:`check_limits` runs before the
pydantic model and the validators, on plain JSON data, in one linear pass.
It looks only at what it can count (lists, numbers, strings) and leaves every question of
shape and consistency to :mod:`map_model` and :mod:`check`.

The limits are several times what a playable map needs (the default map has 185 spaces,
200 edges, 25 destinations, crossroads of degree 4, a 4-position dial and coordinates 0 to
20, every step one grid unit long) and low enough that checking and drawing any map within
them takes about a second.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any, Final

from stoptable.core.errors import InputLimitError
from stoptable.core.limits import loads, read_text

MAX_MAP_BYTES: Final = 1024 * 1024
"""A map file (1 MiB); the default map is 20 kB."""
MAX_SPACES: Final = 500
"""Spaces of a map; GM-2 asks 160 to 260 of the default map."""
MAX_EDGES: Final = 1000
"""Edges of a map: two per space, as on a grid."""
MAX_NEIGHBOURS: Final = 6
"""Edges at one space; a crossroads has 3 or 4, the market at least 4. The engine lists
every path of a roll, about n * (n - 1) ** 5 of them with n neighbours a space: 18,750
for 6, 134,456 for 8 (a second or more per car state)."""
MAX_DESTINATIONS: Final = 25
"""Destination spaces: there are 25 destination cards, numbered 1 to 25 (§1)."""
MAX_SIGNS: Final = 300
"""Fixed signs, and dial slots: at most one of a kind per step in practice."""
MAX_SEGMENT_STEPS: Final = 100
"""Steps of one one-way segment (a street between two crossroads)."""
MAX_DIAL_POSITIONS: Final = 8
"""Positions of the dial; the game's dial has 4. The GM-9 check runs once per position."""
MAX_COORDINATE: Final = 1000
"""Largest ``|x|`` or ``|y|``; the default map spans 0 to 20."""
MAX_STEP_LENGTH: Final = 4
"""Longest edge, in grid units: an edge joins neighbouring spaces (1 on the default map),
and the drawing covers each edge with boxes that destination names must avoid."""
MAX_NAME_CHARS: Final = 64
"""A map name, space id or building name: they are printed and drawn."""


def read_map_file(path: Path) -> Any:
    """The JSON of a map file read within the limits of :mod:`stoptable.core.limits`.

    Raises ``OSError``/``UnicodeDecodeError`` (unreadable), ``json.JSONDecodeError`` (not
    JSON) or :class:`InputLimitError` (not a regular file, too big, nested too deep).
    """
    return loads(read_text(path, MAX_MAP_BYTES))


def check_limits(data: object) -> None:
    """Raise :class:`InputLimitError` naming the first limit of this module that ``data`` passes.

    Data of the wrong shape is let through: the map model reports it with its place.

    >>> check_limits({"spaces": [], "edges": [], "dial": {"positions": 100000}})
    Traceback (most recent call last):
    ...
    stoptable.core.errors.InputLimitError: the dial has 100000 positions; the limit is 8
    """
    if not isinstance(data, dict):
        return
    _check_name("the map name", data.get("name"))
    spaces = _counted(data, "spaces", "spaces", MAX_SPACES)
    where = _check_spaces(spaces)
    edges = _counted(data, "edges", "edges", MAX_EDGES)
    _check_edges(edges, where)
    signs = _counted(data, "signs", "signs", MAX_SIGNS)
    for sign in signs:
        if isinstance(sign, dict):
            _check_sign(sign)
    dial = data.get("dial")
    if isinstance(dial, dict):
        positions = _number(dial.get("positions"))
        if positions is not None and positions > MAX_DIAL_POSITIONS:
            raise InputLimitError(
                f"the dial has {positions} positions; the limit is {MAX_DIAL_POSITIONS}"
            )
        for slot in _counted(dial, "slots", "dial slots", MAX_SIGNS):
            if isinstance(slot, dict):
                _counted(slot, "signs", "values in one dial slot", MAX_DIAL_POSITIONS)
                for value in _list(slot.get("signs")):
                    if isinstance(value, dict):
                        _counted(value, "watch", "watched spaces", MAX_NEIGHBOURS)


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _counted(data: dict[str, Any], key: str, what: str, limit: int) -> list[Any]:
    items = _list(data.get(key))
    if len(items) > limit:
        raise InputLimitError(f"the map has {len(items)} {what}; the limit is {limit}")
    return items


def _number(value: object) -> int | float | None:
    """``value`` if it is a JSON number (``bool`` is not), else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def _check_name(what: str, value: object) -> None:
    if isinstance(value, str) and len(value) > MAX_NAME_CHARS:
        raise InputLimitError(f"{what} has {len(value)} characters; the limit is {MAX_NAME_CHARS}")


def _check_spaces(spaces: list[Any]) -> dict[str, tuple[float, float]]:
    """Coordinates, names and the number of destinations; the place of every space."""
    where: dict[str, tuple[float, float]] = {}
    destinations = 0
    for space in spaces:
        if not isinstance(space, dict):
            continue
        _check_name("a space id", space.get("id"))
        _check_name("a building name", space.get("name"))
        destinations += space.get("kind") == "destination"
        x, y = _number(space.get("x")), _number(space.get("y"))
        for value in (x, y):
            # abs() and not float(): an integer too big for a float must be refused too.
            if value is not None and not abs(value) <= MAX_COORDINATE:
                raise InputLimitError(
                    f"a coordinate of {_short(value)}; "
                    f"the limit is {MAX_COORDINATE} either side of 0"
                )
        sid = space.get("id")
        if isinstance(sid, str) and x is not None and y is not None:
            # A duplicate id (reported by the check) leaves its edges' length unknown.
            where[sid] = (math.nan, math.nan) if sid in where else (float(x), float(y))
    if destinations > MAX_DESTINATIONS:
        raise InputLimitError(
            f"the map has {destinations} destinations; the limit is {MAX_DESTINATIONS}"
        )
    return where


def _short(value: float) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def _check_edges(edges: list[Any], where: dict[str, tuple[float, float]]) -> None:
    degree: Counter[str] = Counter()
    for edge in edges:
        if not (isinstance(edge, list) and len(edge) == 2):
            continue
        a, b = edge
        if not (isinstance(a, str) and isinstance(b, str)):
            continue
        degree[a] += 1
        degree[b] += 1
        # With a duplicate id the distance is NaN, and NaN > limit is False.
        if a in where and b in where and math.dist(where[a], where[b]) > MAX_STEP_LENGTH:
            raise InputLimitError(
                f"the edge {a[:MAX_NAME_CHARS]!r}-{b[:MAX_NAME_CHARS]!r} is "
                f"{math.dist(where[a], where[b]):.1f} units long; the limit is {MAX_STEP_LENGTH}"
            )
    for space, count in degree.items():
        if count > MAX_NEIGHBOURS:
            raise InputLimitError(
                f"space {space[:MAX_NAME_CHARS]!r} has {count} neighbours; "
                f"the limit is {MAX_NEIGHBOURS}"
            )


def _check_sign(sign: dict[str, Any]) -> None:
    for key in ("watch", "exits", "forbidden_exits"):
        _counted(sign, key, f"spaces in one sign's {key!r}", MAX_NEIGHBOURS)
    _counted(sign, "segment", "steps in one one-way segment", MAX_SEGMENT_STEPS)
