"""Stop & Go bots: ``random`` and ``heuristic``.

Both see only the seat's view and the legal moves. The map is public (it is the board),
so the heuristic bot reads it - by the name the view gives - and precomputes, once per
map, how far every car state ``(prev, pos)`` is from every destination at every dial
position: a reverse Dijkstra over the step graph in which a step that the current dial
forbids costs a wait (:data:`LIGHT_WAIT`) and a step behind a stop sign costs the pips a
car loses by having to end its move at the line (:data:`STOP_WAIT`).

A path's only lasting effect is its end space and the space before it (G-15), so the bot
scores each legal move by that pair: the tables it ranks by are lists indexed by the map's
car-state numbers, so a move costs one lookup. The simulator hands it a
:class:`~stoptable.games.stopandgo.SeatView` and a
:class:`~stoptable.games.stopandgo.LegalMoves` (the same information, in map numbers);
it takes plain view dicts and Move lists as well and chooses alike. Maps other than the
default one are made known with :func:`use_map` (the simulator and the terminal game do it
for ``--map``).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from operator import add
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from stoptable.bots.base import register_bot
from stoptable.core.protocol import COMPILED, JSON
from stoptable.core.rng import Rng
from stoptable.games.stopandgo import StopGoMap, load_default_map
from stoptable.games.stopandgo.actions import LegalMoves, Move, compiled_move, new_move
from stoptable.games.stopandgo.board import NO_SPACE
from stoptable.games.stopandgo.check import loaded_map
from stoptable.games.stopandgo.views import SeatView

LIGHT_WAIT: Final = 3.0
"""Extra cost of a step the dial forbids now: about the turns until the dial moves on."""
STOP_WAIT: Final = 2.0
"""Extra cost of a stop-sign step taken mid-move: the move must end before the line."""
QUEUE_WAIT: Final = 4.0
"""Extra cost of stopping where every way on leads into the destination another car holds:
that car may itself be waiting for this one to move (G-8, G-9)."""
FAR: Final = float("inf")
LENGTH_SCALE: Final = 8.0
"""A move's key is ``cost * LENGTH_SCALE + path length``: costs are whole numbers (every wait
above is), paths have at most 7 spaces, so the key orders moves as (cost, length) does."""
assert all(float(w).is_integer() for w in (LIGHT_WAIT, STOP_WAIT, QUEUE_WAIT))

State = tuple[int, int]
"""A car state ``(prev, pos)`` in map numbers; ``prev`` is NO_SPACE before the first move."""

_MAPS: dict[str, StopGoMap] = {}
_PLANS: dict[int, MapPlan] = {}


def use_map(game_map: StopGoMap) -> None:
    """Make ``game_map`` known to the bots under its name (the view names the map)."""
    _MAPS[game_map.name] = game_map


def map_of(view: dict[str, JSON]) -> StopGoMap:
    """The map a view is played on: a map given to :func:`use_map`, else the map of that
    name that the game loaded (``loaded_map``), else the default map."""
    name = str(view.get("map"))
    found = _MAPS.get(name) or loaded_map(name)
    if found is None:
        default = load_default_map()
        if default.name != name:
            raise ValueError(f"unknown map {name!r}: pass it to stoptable.bots.stopandgo.use_map")
        found = default
    _MAPS[name] = found
    return found


class MapPlan:
    """Cost-to-go tables of one map: per destination space and dial position, lazily."""

    def __init__(self, game_map: StopGoMap) -> None:
        self.map = game_map
        positions = game_map.dial_positions
        # Steps out of each arrival, with the dial positions at which each one is allowed.
        allowed: dict[State, dict[int, tuple[bool, set[int]]]] = {}
        for p in range(positions):
            for (q, a), outs in game_map.transitions(p).items():
                slot = allowed.setdefault((q, a), {})
                for t in outs:
                    if not t.uturn:
                        slot.setdefault(t.to, (t.stop, set()))[1].add(p)
        self.steps: dict[State, tuple[tuple[int, bool, frozenset[int]], ...]] = {
            s: tuple((b, stop, frozenset(ps)) for b, (stop, ps) in outs.items())
            for s, outs in allowed.items()
        }
        self._tables: dict[tuple[int, int], dict[State, float]] = {}
        self._values: dict[tuple[int, int], dict[State, float]] = {}
        self._backs: dict[int, dict[State, list[tuple[State, float]]]] = {}
        self.keys: dict[tuple[int, int, bool], tuple[list[float], list[float]]] = {}
        """:meth:`move_keys` built so far, by ``(target, dial position, held)``."""

    def step_cost(self, stop: bool, open_at: frozenset[int], p: int, first: bool) -> float:
        """What one step costs at dial ``p``; ``first`` steps cross a stop line for free."""
        cost = 1.0 if p in open_at else 1.0 + LIGHT_WAIT
        return cost + STOP_WAIT if stop and not first else cost

    def _back(self, p: int) -> dict[State, list[tuple[State, float]]]:
        """Reverse steps at dial ``p``: for each arrival state, the states it is reached from."""
        found = self._backs.get(p)
        if found is None:
            found = {}
            for (q, a), outs in self.steps.items():
                for b, stop, open_at in outs:
                    cost = self.step_cost(stop, open_at, p, False)
                    found.setdefault((a, b), []).append(((q, a), cost))
            self._backs[p] = found
        return found

    def table(self, target: int, p: int) -> dict[State, float]:
        """Cost from every car state to reach ``target`` at dial position ``p`` (Dijkstra)."""
        key = (target, p)
        found = self._tables.get(key)
        if found is not None:
            return found
        back = self._back(p)
        dist: dict[State, float] = {}
        heap: list[tuple[float, State]] = [(0.0, s) for s in self.steps if s[1] == target]
        while heap:
            d, s = heapq.heappop(heap)
            if s in dist:
                continue
            dist[s] = d
            for before, cost in back.get(s, ()):
                if before not in dist:
                    heapq.heappush(heap, (d + cost, before))
        self._tables[key] = dist
        return dist

    def values(self, target: int, p: int) -> dict[State, float]:
        """:meth:`value` of every state at once (cached): what the bot looks up per move."""
        key = (target, p)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = {s: self._value(s, target, p) for s in self.steps}
        return found

    def value(self, state: State, target: int, p: int) -> float:
        """Cost to go from a car that has just stopped in ``state`` (its next step is first).

        A car already standing on the target must drive off and come back (G-18).
        """
        return self.values(target, p).get(state, FAR)

    def _value(self, state: State, target: int, p: int) -> float:
        dist = self.table(target, p)
        best = FAR
        for b, stop, open_at in self.steps.get(state, ()):
            rest = dist.get((state[1], b), FAR)
            if rest < FAR:
                best = min(best, self.step_cost(stop, open_at, p, True) + rest)
        return best

    def move_keys(self, target: int, p: int, held: bool) -> tuple[list[float], list[float]]:
        """What the bot ranks moves by (cached): per end state (by its number in
        ``StopGoMap.car_state_number``), ``cost * LENGTH_SCALE`` of a move that drives there
        and of standing still there.

        Driving onto the target collects (-1, best of all); standing on it does not (G-18).
        ``held`` (another car holds the target) adds :data:`QUEUE_WAIT` to states whose
        every way on leads into the target.
        """
        key = (target, p, held)
        found = self.keys.get(key)
        if found is None:
            values = self.values(target, p)
            stand = []
            for s in self.map.car_states:
                v = values.get(s, FAR)
                if held and v < FAR and self.only_into(s, target):
                    v += QUEUE_WAIT
                stand.append(LENGTH_SCALE * v)
            drive = [
                -LENGTH_SCALE if s[1] == target else v
                for s, v in zip(self.map.car_states, stand, strict=True)
            ]
            found = self.keys[key] = (drive, stand)
        return found

    def only_into(self, state: State, target: int) -> bool:
        """Whether every step out of ``state`` enters ``target``."""
        outs = self.steps.get(state, ())
        return bool(outs) and all(b == target for b, _, _ in outs)


def plan_for(game_map: StopGoMap) -> MapPlan:
    """The shared plan of a map (built on first use)."""
    plan = _PLANS.get(id(game_map))
    if plan is None or plan.map is not game_map:
        plan = _PLANS[id(game_map)] = MapPlan(game_map)
    return plan


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class RandomBot:
    """Picks uniformly among the legal moves it is given."""

    name = "random"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)

    def act(self, view: Mapping[str, JSON], legal: Sequence[Any]) -> Any:
        return legal[self.rng.below(len(legal))]


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class HeuristicBot:
    """Drives the legal move whose end state is nearest the active destination.

    Collecting beats everything; then the lowest cost-to-go (:class:`MapPlan`) of the end
    state; among equal costs the shorter path, and then its own Rng decides.

    It reads a plain view dict and a list of Moves, or (what the simulator gives it every
    turn, to save time) a :class:`SeatView` and a :class:`LegalMoves`, which say the same
    in map numbers.
    """

    name = "heuristic"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self._plan: MapPlan | None = None

    def act(self, view: dict[str, JSON] | SeatView, legal: Sequence[Any]) -> Any:
        # ``type(...) is``, not ``isinstance``: compiled, LegalMoves and SeatView share the
        # isinstance cache of Sequence and Mapping, and a plain list or dict would pass
        # (docs/architecture.md, the compiled build's rule 7).
        if type(legal) is not LegalMoves or type(view) is not SeatView:
            return self._act_plain(view, legal)
        return self.act_listed(view, legal)

    def act_listed(self, view: SeatView, legal: LegalMoves) -> Move:
        """:meth:`act` on the simulator's forms, every turn: what :meth:`_act_plain` and
        :meth:`_choose` do, written out as loops over typed values, so that compiled each
        read is native (``map`` over bound methods and lists made from them were generic
        calls there: 17 k instructions a choice)."""
        paths = legal.paths
        target = view.active_space
        i = 0
        if len(paths) > 1 and target is not None:
            seat = self.seat
            held = False  # another car stands on the target
            for k, car in enumerate(view.cars):
                if k != seat and car[0] == target:
                    held = True
                    break
            plan = self._plan
            if plan is None or plan.map is not view.game_map:
                plan = self._plan = plan_for(view.game_map)
            dial = view.dial
            tables = plan.keys.get((target, dial, held))
            drive, stand = tables if tables is not None else plan.move_keys(target, dial, held)
            numbers, lengths = legal.numbers, legal.lengths
            # The key of a move is drive[number] + length, but standing still (listed
            # first by the engine) is stand[number] + 1: the first lowest key wins.
            best = stand[numbers[0]] + 1
            ties = 1
            for k in range(1, len(numbers)):
                key = drive[numbers[k]] + lengths[k]
                if key < best:
                    best, i, ties = key, k, 1
                elif key == best:
                    ties += 1
            if best == FAR:
                i = self.rng.below(len(paths))
            elif ties > 1:
                tied = [0] if stand[numbers[0]] + 1 == best else []
                for k in range(1, len(numbers)):
                    if drive[numbers[k]] + lengths[k] == best:
                        tied.append(k)
                i = tied[self.rng.below(len(tied))]
        if COMPILED:  # a native store by a direct call (the compiled build's rule 12)
            return compiled_move(legal.seat, paths[i])
        return new_move(legal.seat, paths[i])

    def _act_plain(self, view: dict[str, JSON] | SeatView, legal: Sequence[Any]) -> Any:
        """:meth:`act` on any view and any sequence of Moves."""
        if len(legal) == 1:
            return legal[0]
        if type(view) is SeatView:
            game_map, target, dial = view.game_map, view.active_space, view.dial
            if target is None:
                return legal[0]
            spaces = [c[0] for c in view.cars]
            held = spaces.count(target) > (spaces[self.seat] == target)
        else:
            view = cast(dict[str, JSON], view)  # not a SeatView (``type`` does not narrow)
            game_map = map_of(view)
            target_id = view.get("active_space")
            if target_id is None:
                return legal[0]
            target = game_map.index[str(target_id)]
            dial = int(view.get("dial") or 0)
            cars: list[Any] = view.get("cars") or []
            held = any(c.get("pos") == target_id for i, c in enumerate(cars) if i != self.seat)
        numbers: Sequence[int]
        lengths: Sequence[int]
        if type(legal) is LegalMoves:
            numbers, lengths = legal.numbers, legal.lengths
        else:
            lengths = [len(move.path) for move in legal]
            index, number, here = game_map.index, game_map.car_state_number, self._here(view)
            numbers = [
                number[here if len(m.path) < 2 else (index[m.path[-2]], index[m.path[-1]])]
                for m in legal
            ]
        i = self._choose(game_map, target, dial, held, numbers, lengths)
        return legal[self.rng.below(len(legal)) if i is None else i]

    def _choose(
        self,
        game_map: StopGoMap,
        target: int,
        dial: int,
        held: bool,
        numbers: Sequence[int],
        lengths: Sequence[int],
    ) -> int | None:
        """The index of the best move, or None when none leads anywhere (choose at random)."""
        plan = self._plan
        if plan is None or plan.map is not game_map:
            plan = self._plan = plan_for(game_map)
        tables = plan.keys.get((target, dial, held))
        drive, stand = tables if tables is not None else plan.move_keys(target, dial, held)
        keys = list(map(add, map(drive.__getitem__, numbers), lengths))
        # Standing still (the engine lists it first) is the one path of length 1.
        stay = 0 if lengths[0] == 1 else lengths.index(1) if 1 in lengths else None
        if stay is not None:
            keys[stay] = stand[numbers[stay]] + 1
        best = min(keys)
        if best == FAR:
            return None
        if keys.count(best) == 1:
            return keys.index(best)
        ties = [i for i, key in enumerate(keys) if key == best]
        return ties[self.rng.below(len(ties))]

    def _here(self, view: dict[str, JSON] | SeatView) -> State:
        """The car's ``(prev, pos)`` now."""
        if type(view) is SeatView:
            pos, prev = view.cars[self.seat][:2]
            return (NO_SPACE if prev is None else prev, pos)
        view = cast(dict[str, JSON], view)  # not a SeatView (``type`` does not narrow)
        index = map_of(view).index
        car = view["cars"][self.seat]
        return (NO_SPACE if car.get("prev") is None else index[car["prev"]], index[car["pos"]])


register_bot("stopandgo", "random", RandomBot)
register_bot("stopandgo", "heuristic", HeuristicBot)

__all__ = ["HeuristicBot", "MapPlan", "RandomBot", "map_of", "plan_for", "use_map"]
