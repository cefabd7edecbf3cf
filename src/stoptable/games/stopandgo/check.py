"""Map validation: everything that makes a map file unusable, each problem named.

:func:`check_map` is what ``stoptable map check FILE`` runs. It reports, in this order, the
shape errors of :mod:`map_model`, the consistency errors of the §6 format (duplicate ids,
dangling edges, signs on steps that do not exist, ``watch`` lists that are not the
perpendicular arms, one-way segments that are not a chain of steps, ...) and then the GM-9
reachability check. ``requirements=True`` adds the requirements of the default map (GM-2 to
GM-8, sign placement included), which fixture maps need not meet.

:func:`load_map` / :func:`load_default_map` return a ready :class:`StopGoMap` or raise
:class:`MapError` listing the problems. They check the §6 format only: the engine and
``stoptable replay`` play any such map (GM-1); a front end that starts games refuses one
that fails GM-9 with :func:`~stoptable.games.stopandgo.playable.require_playable_map`.
Nothing is loaded at import time.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from pathlib import Path

from stoptable.core.errors import InputLimitError, StoptableError
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.limits import check_limits, read_map_file
from stoptable.games.stopandgo.map_model import (
    DialSignModel,
    MapModel,
    SignModel,
    parse_map_model,
)
from stoptable.games.stopandgo.reach import reachability_problems
from stoptable.games.stopandgo.requirements import requirement_problems


class MapError(StoptableError, ValueError):
    """A map that cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid map: " + "; ".join(problems))


def read_map_source(source: object) -> tuple[object, list[str]]:
    """The JSON data of a map given as data, or as a path (``str``/``Path``) to a JSON file.

    Files are read and data is checked within the limits of :mod:`.limits`, before the map
    model sees them, so that no map costs more than those limits allow.
    """
    data = source
    if isinstance(source, (str, Path)):
        try:
            data = read_map_file(Path(source))
        except (OSError, UnicodeDecodeError) as exc:
            return None, [f"cannot read {source}: {exc}"]
        except json.JSONDecodeError as exc:
            return None, [f"{source}: invalid JSON ({exc.msg}, line {exc.lineno})"]
        except InputLimitError as exc:
            return None, [f"{source}: {exc}"]
    try:
        check_limits(data)
    except InputLimitError as exc:
        return None, [str(exc)]
    return data, []


def check_map(source: object, *, requirements: bool = False) -> list[str]:
    """Every problem of a map (data or path); an empty list means the map is valid.

    ``requirements=True`` also checks the requirements of the default map (GM-2 to GM-8:
    size, market, destinations, crossroads and lights, signs present, placement).

    >>> check_map({"name": "empty", "spaces": [], "edges": []})
    ['map: needs exactly one market space, found 0']
    >>> check_map({"name": "bad", "spaces": [{"id": "M", "kind": "park", "x": 0, "y": 0}]})[0]
    "spaces[0] 'M'.kind: Input should be 'road', 'crossroads', 'market' or 'destination'"
    """
    problems, game_map = _compile(source)
    if game_map is None:
        return problems
    problems = reachability_problems(game_map)
    if requirements:
        problems = requirement_problems(game_map) + problems
    return problems


_LOADED: dict[str, StopGoMap] = {}


def loaded_map(name: str) -> StopGoMap | None:
    """The last map called ``name`` that this process loaded, or None.

    A map is public (every player sees the board), and a view names it; this lets a bot
    find the board its view is played on without being handed anything but the view.
    """
    return _LOADED.get(name)


def map_of_model(model: MapModel) -> StopGoMap:
    """The loaded map of ``model``'s name if it was loaded from the same file, else a map
    built from ``model`` (and registered as :func:`load_map` does): how an unpickled
    :class:`StopGoMap` comes back."""
    found = _LOADED.get(model.name)
    if found is not None and found.model == model:
        return found
    game_map = StopGoMap(model)
    _LOADED[game_map.name] = game_map
    return game_map


def load_map(source: object) -> StopGoMap:
    """A map in the §6 format from data or a path; MapError lists every problem.

    GM-9 is not checked (GM-1): fixture maps may break it.
    """
    problems, game_map = _compile(source)
    if problems or game_map is None:
        raise MapError(problems)
    _LOADED[game_map.name] = game_map
    return game_map


@lru_cache(maxsize=1)
def load_default_map() -> StopGoMap:
    """The default map ``maps/default.json`` (loaded and checked on first use, then shared).

    >>> m = load_default_map()
    >>> len(m.ids), m.ids[m.market], len(m.destination_space), m.destination_name[1]
    (185, 'M', 25, 'Town Hall')
    """
    text = resources.files("stoptable.games.stopandgo").joinpath("maps/default.json")
    return load_map(json.loads(text.read_text(encoding="utf-8")))


def _compile(source: object) -> tuple[list[str], StopGoMap | None]:
    data, problems = read_map_source(source)
    if problems:
        return problems, None
    model, problems = parse_map_model(data)
    if model is None:
        return problems, None
    problems = consistency_problems(model)
    if problems:
        return problems, None
    return [], StopGoMap(model)


def perpendicular_arms(
    model: MapModel, neighbours: dict[str, list[str]], frm: str, to: str
) -> set[str]:
    """The approach spaces left and right of the approach ``frm -> to`` (by coordinates).

    They are the neighbours of ``to`` other than ``frm`` and the one straight ahead (the
    neighbour whose direction is nearly opposite to ``frm``'s, if there is one).
    """
    where = {s.id: (s.x, s.y) for s in model.spaces}
    cx, cy = where[to]
    fx, fy = where[frm][0] - cx, where[frm][1] - cy
    others = [n for n in neighbours[to] if n != frm]
    straight = None
    best = -0.7
    for n in others:
        nx, ny = where[n][0] - cx, where[n][1] - cy
        norm = math.hypot(fx, fy) * math.hypot(nx, ny) or 1.0
        cosine = (fx * nx + fy * ny) / norm
        if cosine < best:
            best, straight = cosine, n
    return {n for n in others if n != straight}


def consistency_problems(model: MapModel) -> list[str]:
    """Problems of a well-shaped map whose entries do not fit together."""
    problems: list[str] = []
    kinds: dict[str, str] = {}
    for i, space in enumerate(model.spaces):
        if space.id in kinds:
            problems.append(f"spaces[{i}] {space.id!r}: duplicate id")
        kinds[space.id] = space.kind
    markets = [s.id for s in model.spaces if s.kind == "market"]
    if len(markets) != 1:
        problems.append(f"map: needs exactly one market space, found {len(markets)}")
    numbers: dict[int, str] = {}
    for space in model.spaces:
        if space.number is not None:
            # The destination cards name spaces by number, so a number must be unique;
            # unique building names are a GM-5 requirement of the default map only.
            if space.number in numbers:
                problems.append(
                    f"spaces {space.id!r}: destination number {space.number} is also on "
                    f"{numbers[space.number]!r}"
                )
            numbers[space.number] = space.id
    neighbours: dict[str, list[str]] = {sid: [] for sid in kinds}
    seen_edges: set[frozenset[str]] = set()
    for i, (a, b) in enumerate(model.edges):
        label = f"edges[{i}] {a}-{b}"
        unknown = [x for x in (a, b) if x not in kinds]
        if unknown:
            problems.append(f"{label}: dangling edge, unknown space {unknown[0]!r}")
            continue
        if a == b:
            problems.append(f"{label}: an edge joins two different spaces")
            continue
        if frozenset((a, b)) in seen_edges:
            problems.append(f"{label}: duplicate edge")
            continue
        seen_edges.add(frozenset((a, b)))
        neighbours[a].append(b)
        neighbours[b].append(a)
    if problems:
        return problems
    problems += _sign_problems(model, neighbours)
    problems += _dial_problems(model, neighbours)
    return problems


def _step_problem(label: str, frm: str, to: str, neighbours: dict[str, list[str]]) -> str | None:
    for x in (frm, to):
        if x not in neighbours:
            return f"{label}: unknown space {x!r}"
    if to not in neighbours[frm]:
        return f"{label}: the step {frm}->{to} does not exist (not adjacent)"
    return None


def _sign_problems(model: MapModel, neighbours: dict[str, list[str]]) -> list[str]:
    problems: list[str] = []
    for i, sign in enumerate(model.signs):
        label = f"signs[{i}] {sign.type} {sign.from_}->{sign.to}"
        problem = _step_problem(label, sign.from_, sign.to, neighbours)
        if problem:
            problems.append(problem)
            continue
        if sign.watch is not None:
            problems += _watch_problem(label, model, neighbours, sign.from_, sign.to, sign.watch)
        for name, listed in (("exits", sign.exits), ("forbidden_exits", sign.forbidden_exits)):
            if listed is None:
                continue
            allowed = set(neighbours[sign.to]) - {sign.from_}
            wrong = [x for x in listed if x not in allowed]
            if wrong or not listed:
                problems.append(
                    f"{label}: {name} must be neighbours of {sign.to} other than {sign.from_}"
                    f" (bad: {', '.join(wrong) or 'empty list'})"
                )
        if sign.segment is not None:
            problems += _segment_problems(label, sign, neighbours)
    return problems


def _watch_problem(
    label: str,
    model: MapModel,
    neighbours: dict[str, list[str]],
    frm: str,
    to: str,
    watch: tuple[str, ...],
) -> list[str]:
    wanted = perpendicular_arms(model, neighbours, frm, to)
    if set(watch) != wanted or len(watch) != len(set(watch)):
        return [
            f"{label}: watch must be the perpendicular arms {sorted(wanted)}, not {list(watch)}"
        ]
    return []


def _segment_problems(
    label: str,
    sign: SignModel,
    neighbours: dict[str, list[str]],
) -> list[str]:
    """The segment is a chain of existing steps that holds the sign's own step (§6);
    where it starts and ends and its no_entry signs are GM-8 placement (requirements)."""
    segment = sign.segment or ()
    problems: list[str] = []
    if not segment:
        return [f"{label}: a one-way segment needs at least one step"]
    for j, (a, b) in enumerate(segment):
        problem = _step_problem(f"{label}: segment[{j}]", a, b, neighbours)
        if problem:
            problems.append(problem)
        if j and segment[j - 1][1] != a:
            problems.append(f"{label}: segment[{j}] {a}->{b} does not continue {segment[j - 1]}")
    if (sign.from_, sign.to) not in segment:
        problems.append(f"{label}: the sign's step is not a step of its segment")
    return problems


def _dial_problems(model: MapModel, neighbours: dict[str, list[str]]) -> list[str]:
    dial = model.dial
    problems: list[str] = []
    if dial.start >= dial.positions:
        problems.append(f"dial: start {dial.start} is not below positions {dial.positions}")
    seen: set[tuple[str, str]] = set()
    for i, slot in enumerate(dial.slots):
        label = f"dial.slots[{i}] {slot.from_}->{slot.to}"
        problem = _step_problem(label, slot.from_, slot.to, neighbours)
        if problem:
            problems.append(problem)
            continue
        if (slot.from_, slot.to) in seen:
            problems.append(f"{label}: a second slot on the same step")
        seen.add((slot.from_, slot.to))
        if len(slot.signs) != dial.positions:
            problems.append(
                f"{label}: {len(slot.signs)} signs, the dial has {dial.positions} positions"
            )
        for p, value in enumerate(slot.signs):
            if isinstance(value, DialSignModel) and value.watch is not None:
                problems += _watch_problem(
                    f"{label} position {p}", model, neighbours, slot.from_, slot.to, value.watch
                )
    return problems
