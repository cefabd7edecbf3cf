"""GM-2 to GM-8: what the default map must be, beyond being a valid map.

The sign placement of GM-8 lives in :mod:`stoptable.games.stopandgo.placement`.

Fixture maps are valid maps that need not meet these; ``check_map(..., requirements=True)``
and the tests of the default map apply them.
"""

from __future__ import annotations

from collections import deque
from typing import Final, get_args

from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.map_model import DialSignModel, FixedSignType
from stoptable.games.stopandgo.placement import placement_problems

DIAL_SIGNS_REQUIRED: Final = ("red", "green", "closed", "no_entry", "major_road_ahead")
FIXED_SIGNS_REQUIRED: Final = get_args(FixedSignType)
"""GM-7: every fixed sign type of the map format appears at least once."""
STREET_KINDS: Final = ("road", "destination")


def graph_distances(game_map: StopGoMap, start: int) -> list[int | None]:
    """Fewest edges from ``start`` to every space, ignoring signs (None: not connected)."""
    dist: list[int | None] = [None] * len(game_map.ids)
    dist[start] = 0
    queue = deque([(start, 0)])
    while queue:
        a, d = queue.popleft()
        for b in game_map.neighbours[a]:
            if dist[b] is None:
                dist[b] = d + 1
                queue.append((b, d + 1))
    return dist


def quadrant(game_map: StopGoMap, space: int) -> str | None:
    """``NW``/``NE``/``SW``/``SE`` of a space around the market; None on the market's axes."""
    mx, my = game_map.coords[game_map.market]
    x, y = game_map.coords[space]
    if x == mx or y == my:
        return None
    return ("N" if y < my else "S") + ("W" if x < mx else "E")


def requirement_problems(game_map: StopGoMap) -> list[str]:
    """Every way ``game_map`` falls short of GM-2 to GM-8 (empty: it meets them all)."""
    return (
        _layout(game_map)
        + _destinations(game_map)
        + _crossroads(game_map)
        + _signs_present(game_map)
        + placement_problems(game_map)
    )


def _layout(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    n = len(m.ids)
    if not 160 <= n <= 260:
        problems.append(f"GM-2: {n} spaces, not 160-260")
    if None in graph_distances(m, m.market):
        problems.append("GM-2: the road graph is not connected")
    for s, kind in enumerate(m.kinds):
        degree = len(m.neighbours[s])
        if kind in STREET_KINDS and degree != 2:
            problems.append(f"GM-2: street space {m.ids[s]!r} has degree {degree}, not 2")
        if kind == "crossroads" and degree not in (3, 4):
            problems.append(f"GM-2: crossroads {m.ids[s]!r} has degree {degree}, not 3 or 4")
        if kind != "market" and degree < 2:
            problems.append(f"GM-4: {m.ids[s]!r} is a dead end")
    xs = [x for x, _ in m.coords]
    ys = [y for _, y in m.coords]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    mx, my = m.coords[m.market]
    if abs(mx - centre[0]) > 1 or abs(my - centre[1]) > 1:
        problems.append(f"GM-3: the market is at {(mx, my)}, not the centre {centre}")
    if len(m.neighbours[m.market]) < 4:
        problems.append("GM-3: the market has fewer than 4 neighbours")
    return problems


def _destinations(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    if sorted(m.destination_space) != list(range(1, 26)):
        problems.append("GM-5: the destinations are not numbered 1-25")
    names: dict[str, int] = {}
    for number, name in sorted(m.destination_name.items()):
        if name in names:
            problems.append(
                f"GM-5: destination {number} has the building name {name!r} of {names[name]}"
            )
        names.setdefault(name, number)
    dist = graph_distances(m, m.market)
    counts = {"NW": 0, "NE": 0, "SW": 0, "SE": 0}
    for number, s in sorted(m.destination_space.items()):
        label = f"GM-5: destination {number} {m.ids[s]!r}"
        if len(m.neighbours[s]) != 2:
            problems.append(f"{label} is not on a street space of degree 2")
        steps = dist[s]
        if steps is not None and steps < 4:  # not connected at all: GM-2 says so
            problems.append(f"{label} is {steps} spaces from the market, fewer than 4")
        if any(b in m.destination_number for b in m.neighbours[s]):
            problems.append(f"{label} is adjacent to another destination")
        if any((a, s) in m.no_waiting for a in m.neighbours[s]):
            problems.append(f"{label} has a no_waiting sign on a step into it")
        q = quadrant(m, s)
        if q is not None:
            counts[q] += 1
    for q, count in counts.items():
        if count < 5:
            problems.append(f"GM-5: quadrant {q} has {count} destinations, fewer than 5")
    return problems


def _crossroads(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    crossroads = [s for s, k in enumerate(m.kinds) if k == "crossroads"]
    if len(crossroads) < 16:
        problems.append(f"GM-6: {len(crossroads)} crossroads, fewer than 16")
    if len(m.lighted) != 4:
        problems.append(f"GM-6: {len(m.lighted)} lighted crossroads, not 4")
    slotted = {(m.index[s.from_], m.index[s.to]) for s in m.model.dial.slots}
    for x in m.lighted:
        if len(m.neighbours[x]) != 4:
            problems.append(f"GM-6: lighted crossroads {m.ids[x]!r} does not have 4 arms")
        if m.market in m.neighbours[x]:
            problems.append(f"GM-6: lighted crossroads {m.ids[x]!r} is next to the market")
        for a in m.neighbours[x]:
            if (a, x) not in slotted:
                problems.append(f"GM-6: approach {m.ids[a]}->{m.ids[x]} has no dial slot")
    return problems


def _signs_present(m: StopGoMap) -> list[str]:
    problems: list[str] = []
    dial_kinds = {
        v.type if isinstance(v, DialSignModel) else v
        for slot in m.model.dial.slots
        for v in slot.signs
    }
    for kind in DIAL_SIGNS_REQUIRED:
        if kind not in dial_kinds:
            problems.append(f"GM-7: the dial table never shows {kind}")
    fixed = {s.type for s in m.model.signs}
    for kind in FIXED_SIGNS_REQUIRED:
        if kind not in fixed:
            problems.append(f"GM-7: no fixed {kind} sign on the map")
    lighted_ids = {m.ids[x] for x in m.lighted}
    if not any(s.type == "major_road_ahead" and s.to not in lighted_ids for s in m.model.signs):
        problems.append("GM-7: no fixed major_road_ahead at an unlit crossroads")
    if not _closed_street(m):
        problems.append("GM-7: no street closed at both ends")
    return problems


def street_end(m: StopGoMap, x: int, a: int) -> tuple[int, int]:
    """Walk the street that leaves crossroads ``x`` through ``a``: its last step ``(s, y)``."""
    prev, here = x, a
    while m.kinds[here] in STREET_KINDS and len(m.neighbours[here]) == 2:
        nxt = next(b for b in m.neighbours[here] if b != prev)
        prev, here = here, nxt
    return prev, here


def _closed_street(m: StopGoMap) -> bool:
    closed = {(m.index[s.from_], m.index[s.to]) for s in m.model.signs if s.type == "closed"}
    for x, a in closed:
        if m.kinds[x] != "crossroads":
            continue
        s, y = street_end(m, x, a)
        if (y, s) in closed:
            return True
    return False
