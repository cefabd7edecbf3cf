"""Checking one path against G-6 to G-14, and listing every legal path quickly.

Two jobs share the sign lookups of :class:`StopGoMap`:

* :func:`hard_reasons` / :func:`traffic_reasons` give every code a path breaks, in the
  order of records.md §6.4 (used by ``apply`` and by the move error);
* :func:`legal_paths` lists the paths that break nothing, by a depth-first walk over
  ``(prev, space)`` with the per-dial-position transition table. The walk that ignores
  other cars is cached per ``(pos, prev, reverse_ok, roll, dial, active)``; other cars
  (occupied ends, waiting cars before a major-road-ahead sign) are filtered afterwards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final, Protocol

from stoptable.games.stopandgo.board import NO_SPACE, StopGoMap

RULE_OF: Final = {
    "bad_start": "G-6",
    "too_far": "G-7",
    "not_adjacent": "G-7",
    "passes_destination": "G-9",
    "occupied": "G-8",
    "u_turn": "G-10",
    "compulsory_straight_or_right": "G-12",
    "no_turn": "G-12",
    "closed": "G-12",
    "no_entry": "G-12",
    "no_motor_vehicles": "G-12",
    "one_way": "G-12",
    "red": "G-13",
    "major_road_ahead": "G-12",
    "stop": "G-12",
    "stop_alt": "G-12",
    "no_waiting": "G-12",
    "not_your_turn": "G-4",
    "game_over": "G-19",
}
"""The rule id reported with each reason code (records.md §6.4)."""

HARD_CODES: Final = frozenset(
    {"bad_start", "too_far", "not_adjacent", "passes_destination", "occupied"}
)
_CACHE_LIMIT: Final = 200_000


class CarLike(Protocol):
    """What the path rules read of a car."""

    pos: int
    prev: int
    reverse_ok: bool


Candidate = tuple[tuple[str, ...], int, int, tuple[tuple[int, tuple[int, ...]], ...]]
"""(path ids, end space, space before the end, (space entered, watch list) per watched step)."""


def is_waiting(car: CarLike, towards: int, market: int) -> bool:
    """GA-11: a car waits to cross into ``towards`` if it heads there (prev not it, not null)."""
    return car.pos != market and car.prev != NO_SPACE and car.prev != towards


def hard_reasons(
    game_map: StopGoMap,
    cars: Sequence[CarLike],
    seat: int,
    path: Sequence[int],
    roll: int,
    active_space: int | None,
) -> list[str]:
    """The hard rules G-6 to G-9 that ``path`` breaks, in reason-code order."""
    car = cars[seat]
    if not path:
        return ["bad_start"]
    reasons: list[str] = []
    if path[0] != car.pos:
        reasons.append("bad_start")
    k = len(path) - 1
    if k > roll:
        reasons.append("too_far")
    if any(not game_map.is_adjacent(a, b) for a, b in itertools.pairwise(path)):
        reasons.append("not_adjacent")
    if active_space is not None and active_space in path[1:k]:
        reasons.append("passes_destination")
    end = path[-1]
    if (
        k >= 1
        and end != game_map.market
        and any(c.pos == end for i, c in enumerate(cars) if i != seat)
    ):
        reasons.append("occupied")
    return reasons


def traffic_reasons(
    game_map: StopGoMap, cars: Sequence[CarLike], seat: int, path: Sequence[int], dial: int
) -> list[str]:
    """The traffic rules G-10 to G-14 that ``path`` breaks: path order, each code once."""
    car = cars[seat]
    shown = game_map.dial[dial]
    market = game_map.market
    found: list[str] = []
    for i in range(len(path) - 1):
        a, b = path[i], path[i + 1]
        if not game_map.is_adjacent(a, b):
            continue
        q = car.prev if i == 0 else path[i - 1]
        step = (a, b)
        codes: list[str] = []
        if q != NO_SPACE and b == q and a != market and not (i == 0 and car.reverse_ok):
            codes.append("u_turn")
        allowed = game_map.compulsory_exits.get((q, a))
        if allowed is not None and b not in allowed:
            codes.append("compulsory_straight_or_right")
        if b in game_map.forbidden_exits.get((q, a), ()):
            codes.append("no_turn")
        bans = game_map.step_bans.get(step, ())
        dial_sign = shown.get(step)
        dial_kind = dial_sign.kind if dial_sign is not None else ""
        for code in ("closed", "no_entry", "no_motor_vehicles", "one_way"):
            if code in bans or dial_kind == code:
                codes.append(code)
        if dial_kind == "red":
            codes.append("red")
        watch = game_map.fixed_watch.get(step, ())
        if dial_sign is not None and dial_kind == "major_road_ahead":
            watch = watch + dial_sign.watch
        if watch and any(
            c.pos in watch and is_waiting(c, b, market) for j, c in enumerate(cars) if j != seat
        ):
            codes.append("major_road_ahead")
        if i > 0:
            codes.extend(game_map.stop_signs.get(step, ()))
        found.extend(c for c in codes if c not in found)
    if len(path) >= 2 and (path[-2], path[-1]) in game_map.no_waiting and "no_waiting" not in found:
        found.append("no_waiting")
    return found


def _walk(
    game_map: StopGoMap, pos: int, prev: int, reverse_ok: bool, roll: int, dial: int, active: int
) -> list[Candidate]:
    """Every path that breaks no rule when no other car is on the map."""
    table = game_map.transitions(dial)
    start = (game_map.ids[pos],)
    out: list[Candidate] = [(start, pos, prev, ())]
    checks0: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def walk(
        q: int,
        a: int,
        i: int,
        ids: tuple[str, ...],
        checks: tuple[tuple[int, tuple[int, ...]], ...],
    ) -> None:
        for t in table[(q, a)]:
            if (t.uturn and (i or not reverse_ok)) or (t.stop and i):
                continue
            b = t.to
            nids = (*ids, t.to_id)
            nchecks = (*checks, (b, t.watch)) if t.watch else checks
            if not t.no_waiting:
                out.append((nids, b, a, nchecks))
            if i + 1 < roll and b != active:
                walk(a, b, i + 1, nids, nchecks)

    if roll > 0:
        walk(prev, pos, 0, start, checks0)
    return out


def candidates(
    game_map: StopGoMap, car: CarLike, roll: int, dial: int, active_space: int | None
) -> list[Candidate]:
    """The cached walk for this car, roll, dial position and active destination."""
    active = NO_SPACE if active_space is None else active_space
    key = (car.pos, car.prev, int(car.reverse_ok), roll, dial, active)
    cache = game_map.path_cache
    found = cache.get(key)
    if found is None:
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        found = _walk(game_map, car.pos, car.prev, car.reverse_ok, roll, dial, active)
        cache[key] = found
    return found  # type: ignore[return-value]


def legal_paths(
    game_map: StopGoMap,
    cars: Sequence[CarLike],
    seat: int,
    roll: int,
    dial: int,
    active_space: int | None,
    distinct_ends: bool = False,
) -> list[tuple[str, ...]]:
    """Every path of ``seat`` that breaks no rule (always includes standing still).

    ``distinct_ends=True`` keeps one shortest path per outcome ``(end, space before end)``,
    which is all a bot needs: paths with the same outcome leave the same state.
    """
    market = game_map.market
    others = [c for i, c in enumerate(cars) if i != seat]
    occupied = {c.pos for c in others if c.pos != market}
    result: list[tuple[str, ...]] = []
    best: dict[tuple[int, int], int] = {}
    for ids, end, before, checks in candidates(game_map, cars[seat], roll, dial, active_space):
        if len(ids) > 1 and end in occupied:
            continue
        if checks and any(
            c.pos in watch and is_waiting(c, b, market) for b, watch in checks for c in others
        ):
            continue
        if distinct_ends:
            key = (end, before if len(ids) > 1 else NO_SPACE - 1)
            seen = best.get(key)
            if seen is not None:
                if len(result[seen]) > len(ids):
                    result[seen] = ids
                continue
            best[key] = len(result)
        result.append(ids)
    return result
