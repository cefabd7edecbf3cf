"""GM-9: the reachability validator.

For every dial position, the graph of car states ``(pos, prev)`` under the fixed signs and
the dial signs at that position, ignoring other cars and treating stop signs as passable:
every destination must be reachable from the market, and the market from every way of
arriving at a destination, leaving with ``reverse_ok`` (a U-turn allowed on the first step).
"""

from __future__ import annotations

from collections import deque

from stoptable.games.stopandgo.board import NO_SPACE, StopGoMap

State = tuple[int, int]
"""``(prev, pos)``, the key of :meth:`StopGoMap.transitions`."""


def reachable(game_map: StopGoMap, p: int, start: State, reverse_ok: bool) -> set[State]:
    """Every ``(prev, pos)`` a car starting in ``start`` can reach at dial position ``p``."""
    table = game_map.transitions(p)
    seen: set[State] = {start}
    queue: deque[tuple[State, bool]] = deque([(start, reverse_ok)])
    while queue:
        (q, a), first = queue.popleft()
        for t in table[(q, a)]:
            if t.uturn and not first:
                continue
            state = (a, t.to)
            if state not in seen:
                seen.add(state)
                queue.append((state, False))
    return seen


def reaching_market(game_map: StopGoMap, p: int) -> set[State]:
    """Every ``(prev, pos)`` from which a car can reach the market at dial position ``p``.

    Without a U-turn (it is allowed only on the first step of a move, which
    :func:`reachability_problems` tries by hand). One backward search over all car states,
    so that GM-9 costs one pass per dial position rather than one per destination arrival.
    """
    table = game_map.transitions(p)
    back: dict[State, list[State]] = {}
    for (q, a), outs in table.items():
        for t in outs:
            if not t.uturn:
                back.setdefault((a, t.to), []).append((q, a))
    seen = {state for state in table if state[1] == game_map.market}
    queue = deque(seen)
    while queue:
        for state in back.get(queue.popleft(), ()):
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return seen


def reachability_problems(game_map: StopGoMap) -> list[str]:
    """GM-9 problems, one per destination and dial position that fails."""
    problems: list[str] = []
    market = game_map.market
    for p in range(game_map.dial_positions):
        from_market = reachable(game_map, p, (NO_SPACE, market), False)
        to_market = reaching_market(game_map, p)
        table = game_map.transitions(p)
        for number, space in sorted(game_map.destination_space.items()):
            name = f"destination {number} {game_map.ids[space]!r}"
            arrivals = [
                (q, a) for q, a in from_market if a == space and (q, a) not in game_map.no_waiting
            ]
            if not arrivals:
                problems.append(f"{name}: not reachable from the market at dial position {p}")
                continue
            for q, a in arrivals:
                # As reachable(..., reverse_ok=True) would find: the first step may turn.
                if not any((a, t.to) in to_market for t in table[(q, a)]):
                    problems.append(
                        f"{name}: the market is not reachable after arriving from "
                        f"{game_map.ids[q]!r} at dial position {p}"
                    )
    return problems
