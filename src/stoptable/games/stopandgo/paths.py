"""Checking one path against G-6 to G-14, and listing every legal path quickly.

Two jobs share the sign lookups of :class:`StopGoMap`:

* :func:`hard_reasons` / :func:`traffic_reasons` give every code a path breaks, in the
  order of records.md §6.4 (used by ``apply`` and by the move error);
* :func:`legal_choices` / :func:`legal_paths` list the paths that break nothing, by a
  depth-first walk over ``(prev, space)`` with the per-dial-position transition table.
  The walk that ignores other cars and the active destination is cached per ``(pos, prev,
  reverse_ok, dial)`` (4680 keys on the default map) as a :class:`Walk`: shortest paths
  first, with each roll's cut, ready-made listings and indexes of the paths each space
  would cut as an occupied end or as the active destination. A turn usually only looks up
  the other cars in those indexes and hands out a ready listing; paths under a
  major-road-ahead sign with a car near it, and cuts among paths that share an outcome,
  go through the full filter.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol

from stoptable.games.stopandgo.board import NO_SPACE, StopGoMap

if TYPE_CHECKING:  # car.py imports this module
    from stoptable.games.stopandgo.car import Car

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
MAX_ROLL: Final = 6


class CarLike(Protocol):
    """What the path rules read of a car."""

    pos: int
    prev: int
    reverse_ok: bool


Candidate = tuple[
    tuple[str, ...],
    tuple[int, int],
    int | None,
    tuple[int, ...],
    tuple[tuple[int, tuple[int, ...]], ...],
    int,
]
"""(path ids, state, outcome, spaces passed between start and end, (space entered, watch
list) of each step under a major-road-ahead sign, state number). ``state`` is the car's
``(prev, pos)`` after the path (for standing still: as it is now), numbered by
``StopGoMap.car_state_number``. ``outcome`` numbers the pair (end, space before the end),
None for standing still: paths with one outcome leave one state."""


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
    game_map: StopGoMap, pos: int, prev: int, reverse_ok: bool, roll: int, dial: int
) -> list[Candidate]:
    """Every path that breaks no rule when no other car and no destination is on the map."""
    table = game_map.transitions(dial)
    start = (game_map.ids[pos],)
    size = len(game_map.ids)
    number = game_map.car_state_number
    out: list[Candidate] = [(start, (prev, pos), None, (), (), number[(prev, pos)])]

    def walk(
        q: int,
        a: int,
        i: int,
        ids: tuple[str, ...],
        inner: tuple[int, ...],
        checks: tuple[tuple[int, tuple[int, ...]], ...],
    ) -> None:
        for t in table[(q, a)]:
            if (t.uturn and (i or not reverse_ok)) or (t.stop and i):
                continue
            b = t.to
            nids = (*ids, t.to_id)
            nchecks = (*checks, (b, t.watch)) if t.watch else checks
            if not t.no_waiting:
                out.append((nids, (a, b), b * size + a, inner, nchecks, number[(a, b)]))
            if i + 1 < roll:
                walk(a, b, i + 1, nids, (*inner, b), nchecks)

    if roll > 0:
        walk(prev, pos, 0, start, (), ())
    return out


class Listing:
    """Legal paths of one turn: ``paths[i]`` (ids) leaves the car in ``states[i]`` (its
    ``(prev, pos)``, numbered ``numbers[i]``) after ``lengths[i]`` spaces. Shared between
    turns when nothing on the map cuts the cached walk: never change one.

    A plain class with typed attributes rather than a NamedTuple: compiled, its fields are
    then native reads, and :meth:`pick` a native call (a NamedTuple's fields and methods
    are generic lookups there)."""

    __slots__ = ("lengths", "numbers", "paths", "states")

    def __init__(
        self,
        paths: tuple[tuple[str, ...], ...],
        states: tuple[tuple[int, int], ...],
        lengths: tuple[int, ...],
        numbers: tuple[int, ...],
    ) -> None:
        self.paths = paths
        self.states = states
        self.lengths = lengths
        self.numbers = numbers

    def pick(self, kept: list[int]) -> Listing:
        """The listing of the entries ``kept`` (indexes, ascending, standing still first)."""
        paths, states, lengths, numbers = self.paths, self.states, self.lengths, self.numbers
        return Listing(
            tuple([paths[i] for i in kept]),
            tuple([states[i] for i in kept]),
            tuple([lengths[i] for i in kept]),
            tuple([numbers[i] for i in kept]),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Listing):
            return NotImplemented
        return (self.paths, self.states, self.lengths, self.numbers) == (
            other.paths, other.states, other.lengths, other.numbers,
        )  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Listing(paths={self.paths!r})"


def _listing(chosen: Sequence[Candidate]) -> Listing:
    return Listing(
        tuple(c[0] for c in chosen),
        tuple(c[1] for c in chosen),
        tuple(len(c[0]) for c in chosen),
        tuple(c[5] for c in chosen),
    )


class Walk:
    """The cached walk of one car state and dial position, shortest paths first, with
    indexes that tell at once which paths other cars or the active destination cut.

    Paths of up to ``r`` steps are the first ``cuts[r]``, so one walk serves every roll.
    A plain class with typed attributes (native reads compiled), like :class:`Listing`.
    """

    __slots__ = ("by_end", "by_inner", "cuts", "distinct", "found", "listings", "shared", "watched")

    def __init__(
        self,
        found: list[Candidate],
        cuts: tuple[int, ...],
        shared: tuple[bool, ...],
        watched: tuple[frozenset[int], ...],
        by_end: dict[int, tuple[int, ...]],
        by_inner: dict[int, tuple[int, ...]],
        listings: tuple[Listing, ...],
        distinct: tuple[Listing, ...],
    ) -> None:
        self.found = found
        self.cuts = cuts
        self.shared = shared
        """Per roll: whether two paths share an outcome."""
        self.watched = watched
        """Per roll: the spaces where a waiting car closes a major-road-ahead step of a
        path. With no other car there, :attr:`by_end` and :attr:`by_inner` say all there
        is to cut."""
        self.by_end = by_end
        """Per space but the market, the paths (indexes, ascending) that end there."""
        self.by_inner = by_inner
        """Per space, the paths (indexes, ascending) that pass it between start and end."""
        self.listings = listings
        """Per roll, every path when nothing cuts the walk."""
        self.distinct = distinct
        """Per roll, the first (shortest) path of each outcome when nothing cuts the walk."""


def _index(found: list[Candidate], market: int) -> Walk:
    by_end: dict[int, list[int]] = {}
    by_inner: dict[int, list[int]] = {}
    for i, c in enumerate(found):
        # Standing still is never cut, nor is ending on the market (it holds every car).
        if i and c[1][1] != market:
            by_end.setdefault(c[1][1], []).append(i)
        for s in c[3]:
            by_inner.setdefault(s, []).append(i)
    cuts = tuple(sum(1 for c in found if len(c[0]) <= r + 1) for r in range(MAX_ROLL + 1))
    whole = _listing(found)
    listings = tuple(
        Listing(whole.paths[:n], whole.states[:n], whole.lengths[:n], whole.numbers[:n])
        for n in cuts
    )
    distinct = []
    for n, listing in zip(cuts, listings, strict=True):
        firsts = _first_per_outcome(found[:n])
        distinct.append(listing if len(firsts) == n else _listing(firsts))
    return Walk(
        found,
        cuts,
        tuple(d is not listing for d, listing in zip(distinct, listings, strict=True)),
        tuple(frozenset(s for c in found[:n] for _, w in c[4] for s in w) for n in cuts),
        {s: tuple(ixs) for s, ixs in by_end.items()},
        {s: tuple(ixs) for s, ixs in by_inner.items()},
        listings,
        tuple(distinct),
    )


def _first_per_outcome(found: Sequence[Candidate]) -> list[Candidate]:
    seen: set[int | None] = set()
    firsts = []
    for c in found:
        if c[2] not in seen:
            seen.add(c[2])
            firsts.append(c)
    return firsts


def candidates(game_map: StopGoMap, car: CarLike, dial: int) -> Walk:
    """The cached walk for this car state and dial position (built on first use)."""
    key = (car.pos, car.prev, car.reverse_ok, dial)
    cache = game_map.path_cache
    found = cache.get(key)
    if found is None:
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        walked = _walk(game_map, car.pos, car.prev, car.reverse_ok, MAX_ROLL, dial)
        walked.sort(key=lambda c: len(c[0]))
        found = cache[key] = _index(walked, game_map.market)
    return found


def fill_path_cache(game_map: StopGoMap) -> int:
    """Walk every car state at every dial position now (a long simulation meets most of
    them anyway); returns how many walks the cache holds."""
    for p in range(game_map.dial_positions):
        for q, a in game_map.transitions(p):
            for reverse_ok in (False, True):
                candidates(game_map, _Parked(a, q, reverse_ok), p)
    return len(game_map.path_cache)


class _Parked:
    __slots__ = ("pos", "prev", "reverse_ok")

    def __init__(self, pos: int, prev: int, reverse_ok: bool) -> None:
        self.pos, self.prev, self.reverse_ok = pos, prev, reverse_ok


def legal_choices(
    game_map: StopGoMap,
    cars: list[Car],
    seat: int,
    roll: int,
    dial: int,
    active_space: int | None,
    distinct_ends: bool = False,
) -> Listing:
    """Every path of ``seat`` that breaks no rule (always includes standing still, first).

    ``distinct_ends=True`` keeps one shortest path per outcome ``(end, space before end)``,
    which is all a bot needs: paths with the same outcome leave the same state.
    """
    car = cars[seat]
    walk = game_map.path_cache.get((car.pos, car.prev, car.reverse_ok, dial))
    if walk is None:
        walk = candidates(game_map, car, dial)
    watched = walk.watched[roll]
    if not watched or not any(c.pos in watched for c in cars if c is not car):
        n = walk.cuts[roll]
        by_end = walk.by_end
        cut: list[int] = []
        # Indexes past this roll's paths cut nothing; each index tuple is ascending.
        for c in cars:
            if c is not car:
                ends = by_end.get(c.pos)
                if ends is not None and ends[0] < n:
                    cut.extend(ends)
        if active_space is not None:
            inner = walk.by_inner.get(active_space)
            if inner is not None and inner[0] < n:
                cut.extend(inner)
        if not cut:
            return walk.distinct[roll] if distinct_ends else walk.listings[roll]
        if not walk.shared[roll]:
            return walk.listings[roll].pick([i for i in range(n) if i not in cut])
    market = game_map.market
    # Standing still never ends on another car's space: only the market holds two cars.
    occupied = [c.pos for c in cars if c is not car and c.pos != market]
    active = NO_SPACE if active_space is None else active_space
    waiting = [c for c in cars if c is not car and c.pos != market and c.prev != NO_SPACE]
    seen: set[int | None] = set()
    result: list[Candidate] = []
    for cand in walk.found[: walk.cuts[roll]]:
        if cand[1][1] in occupied or active in cand[3]:
            continue
        checks = cand[4]
        if checks and any(c.pos in w and c.prev != b for b, w in checks for c in waiting):
            continue
        if distinct_ends:
            # Candidates come shortest first, so the first of an outcome is a shortest one.
            if cand[2] in seen:
                continue
            seen.add(cand[2])
        result.append(cand)
    return _listing(result)


def legal_paths(
    game_map: StopGoMap,
    cars: list[Car],
    seat: int,
    roll: int,
    dial: int,
    active_space: int | None,
    distinct_ends: bool = False,
) -> list[tuple[str, ...]]:
    """The paths of :func:`legal_choices` as tuples of space ids."""
    listing = legal_choices(game_map, cars, seat, roll, dial, active_space, distinct_ends)
    return list(listing.paths)
