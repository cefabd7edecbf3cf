"""The compiled city map: spaces as integers, adjacency and sign lookups per step.

A :class:`StopGoMap` is built once per map file from a validated
:class:`~stoptable.games.stopandgo.map_model.MapModel` (use
:func:`stoptable.games.stopandgo.load_map` / ``load_default_map``, which check the map
first). It is immutable as far as the rules go and shared by every state of every game on
that map; the only thing it grows is its caches of transitions and path enumerations.

Spaces are numbered in file order; ``-1`` never names a space (it stands for a null
``prev`` inside the engine only). Steps are pairs ``(a, b)`` of space numbers.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from stoptable.games.stopandgo.map_model import DialSignModel, MapModel

if TYPE_CHECKING:
    from stoptable.games.stopandgo.paths import Walk

NO_SPACE: Final = -1
STEP_BAN_ORDER: Final = ("closed", "no_entry", "no_motor_vehicles", "one_way")
"""Fixed signs that forbid a step outright, in the reason order of records.md §6.4."""

Step = tuple[int, int]


@dataclass(frozen=True, slots=True)
class DialSign:
    """What a dial slot shows at one position: ``kind`` and, for major road ahead, ``watch``."""

    kind: str
    watch: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Transition:
    """One step a car may take out of ``a`` after entering it from ``q``, before dynamic checks.

    Steps forbidden for good (fixed bans, red or closed on the dial, compulsory direction,
    no turn) are left out. What remains depends on the move: ``uturn`` (allowed only on the
    first step with ``reverse_ok``), ``stop`` (allowed only as the first step), ``watch``
    (forbidden while another car waits there) and ``no_waiting`` (may not be the last step).
    """

    to: int
    to_id: str
    uturn: bool
    stop: bool
    watch: tuple[int, ...]
    no_waiting: bool


class StopGoMap:
    """A loaded, validated map with every lookup the engine, bots and renderer need.

    Public attributes (read only):

    * ``name``, ``model`` (the validated file, for drawing: coordinates, signs, dial slots);
    * ``ids``, ``index`` (id -> number), ``kinds``, ``coords`` (``(x, y)``, y grows south);
    * ``neighbours[s]``: adjacent spaces of space ``s``;
    * ``car_states``: every ``(prev, pos)`` a car can be in (``prev`` NO_SPACE or a
      neighbour of ``pos``), numbered by ``car_state_number`` (for tables indexed by state);
    * ``market``: the market space; ``destination_space[n]`` / ``destination_number[s]`` /
      ``destination_name[n]``: the numbered buildings;
    * ``dial_positions``, ``dial_start``; ``lighted``: crossroads with dial slots on their
      approaches (sorted by space number).
    """

    def __init__(self, model: MapModel) -> None:
        self.model = model
        self.name = model.name
        self.ids: tuple[str, ...] = tuple(s.id for s in model.spaces)
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.ids)}
        self.kinds: tuple[str, ...] = tuple(s.kind for s in model.spaces)
        self.coords: tuple[tuple[int, int], ...] = tuple((s.x, s.y) for s in model.spaces)
        adjacency: list[list[int]] = [[] for _ in self.ids]
        for a, b in model.edges:
            adjacency[self.index[a]].append(self.index[b])
            adjacency[self.index[b]].append(self.index[a])
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(n) for n in adjacency)
        self.car_states: tuple[Step, ...] = tuple(
            (q, a) for a, outs in enumerate(self.neighbours) for q in (NO_SPACE, *outs)
        )
        self.car_state_number: dict[Step, int] = {s: i for i, s in enumerate(self.car_states)}
        self.market: int = self.kinds.index("market")
        self.destination_space: dict[int, int] = {}
        self.destination_name: dict[int, str] = {}
        for i, space in enumerate(model.spaces):
            if space.number is not None and space.name is not None:
                self.destination_space[space.number] = i
                self.destination_name[space.number] = space.name
        self.destination_number: dict[int, int] = {s: n for n, s in self.destination_space.items()}
        self.dial_positions: int = model.dial.positions
        self.dial_start: int = model.dial.start
        self._compile_signs()
        self._transitions: dict[int, dict[Step, tuple[Transition, ...]]] = {}
        self._distances: dict[int, tuple[int, ...]] = {}
        self.path_cache: dict[tuple[int, int, bool, int], Walk] = {}
        """Scratch space of :mod:`stoptable.games.stopandgo.paths` (enumerations per key)."""

    def __copy__(self) -> StopGoMap:
        """A map never changes once loaded (its caches only fill up): copies share it, as
        :meth:`.StopGoState.copy` does."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StopGoMap:
        return self

    def __reduce__(self) -> tuple[Any, tuple[MapModel]]:
        """A pickle carries the validated file only; unpickled, the map of that name
        already loaded in the process if it is the same file, else one built from it
        (compiled, a native class is made only through its ``__init__``: architecture.md,
        rule 21)."""
        from stoptable.games.stopandgo.check import map_of_model  # (check imports board)

        return map_of_model, (self.model,)

    # -- compilation -------------------------------------------------------------------

    def _compile_signs(self) -> None:
        ix = self.index
        bans: dict[Step, list[str]] = {}
        self.fixed_watch: dict[Step, tuple[int, ...]] = {}
        self.stop_signs: dict[Step, tuple[str, ...]] = {}
        self.no_waiting: frozenset[Step]
        self.compulsory_exits: dict[Step, frozenset[int]] = {}
        self.forbidden_exits: dict[Step, frozenset[int]] = {}
        no_waiting: set[Step] = set()
        stops: dict[Step, list[str]] = {}
        for sign in self.model.signs:
            step = (ix[sign.from_], ix[sign.to])
            kind = sign.type
            if kind in ("closed", "no_entry", "no_motor_vehicles"):
                bans.setdefault(step, []).append(kind)
            elif kind in ("one_way", "one_way_alt"):
                for a, b in sign.segment or ():
                    bans.setdefault((ix[b], ix[a]), []).append("one_way")
            elif kind in ("stop", "stop_alt"):
                stops.setdefault(step, []).append(kind)
            elif kind == "major_road_ahead":
                self.fixed_watch[step] = tuple(ix[w] for w in sign.watch or ())
            elif kind == "no_waiting":
                no_waiting.add(step)
            elif kind == "compulsory_straight_or_right":
                self.compulsory_exits[step] = frozenset(ix[e] for e in sign.exits or ())
            elif kind == "no_turn":
                self.forbidden_exits[step] = frozenset(ix[e] for e in sign.forbidden_exits or ())
        self.step_bans: dict[Step, tuple[str, ...]] = {
            step: tuple(k for k in STEP_BAN_ORDER if k in kinds) for step, kinds in bans.items()
        }
        self.stop_signs = {
            step: tuple(k for k in ("stop", "stop_alt") if k in kinds)
            for step, kinds in stops.items()
        }
        self.no_waiting = frozenset(no_waiting)
        self.dial: tuple[dict[Step, DialSign], ...] = tuple({} for _ in range(self.dial_positions))
        lighted: set[int] = set()
        for slot in self.model.dial.slots:
            step = (ix[slot.from_], ix[slot.to])
            if self.kinds[step[1]] == "crossroads":
                lighted.add(step[1])
            for p, value in enumerate(slot.signs):
                shown: str = value.type if isinstance(value, DialSignModel) else value
                if shown in ("none", "green"):
                    continue
                watch = value.watch if isinstance(value, DialSignModel) else None
                self.dial[p][step] = DialSign(shown, tuple(ix[w] for w in watch or ()))
        self.lighted: tuple[int, ...] = tuple(sorted(lighted))

    # -- lookups -----------------------------------------------------------------------

    def is_adjacent(self, a: int, b: int) -> bool:
        """Whether ``a -> b`` is a step of the map."""
        return b in self.neighbours[a]

    def space(self, space_id: str) -> int:
        """The number of the space ``space_id`` (KeyError if the map has no such space)."""
        return self.index[space_id]

    def transitions(self, p: int) -> dict[Step, tuple[Transition, ...]]:
        """Per ``(q, a)`` arrival (``q`` = NO_SPACE for none), the steps out of ``a`` at dial ``p``.

        Built lazily once per dial position and kept.
        """
        table = self._transitions.get(p)
        if table is None:
            table = self._build_transitions(p)
            self._transitions[p] = table
        return table

    def _build_transitions(self, p: int) -> dict[Step, tuple[Transition, ...]]:
        dial = self.dial[p]
        table: dict[Step, tuple[Transition, ...]] = {}
        for a, outs in enumerate(self.neighbours):
            for q in (NO_SPACE, *outs):
                allowed = self.compulsory_exits.get((q, a))
                forbidden = self.forbidden_exits.get((q, a), frozenset())
                found: list[Transition] = []
                for b in outs:
                    step = (a, b)
                    shown = dial.get(step)
                    if step in self.step_bans or b in forbidden:
                        continue
                    if (allowed is not None and b not in allowed) or (
                        shown is not None and shown.kind in ("red", "closed", "no_entry")
                    ):
                        continue
                    watch = self.fixed_watch.get(step, ())
                    if shown is not None and shown.kind == "major_road_ahead":
                        watch = tuple(dict.fromkeys(watch + shown.watch))
                    found.append(
                        Transition(
                            to=b,
                            to_id=self.ids[b],
                            uturn=b == q and a != self.market,
                            stop=step in self.stop_signs,
                            watch=watch,
                            no_waiting=step in self.no_waiting,
                        )
                    )
                table[(q, a)] = tuple(found)
        return table

    def distances_to(self, target: int) -> tuple[int, ...]:
        """Fewest steps from every space to ``target`` along steps no fixed sign bans.

        A cheap guide for bots and tests: it ignores U-turns, the dial and other cars, so it
        is a lower bound of the real distance. Unreachable spaces get ``len(ids)``.
        """
        known = self._distances.get(target)
        if known is not None:
            return known
        far = len(self.ids)
        dist = [far] * far
        dist[target] = 0
        queue = deque([target])
        while queue:
            b = queue.popleft()
            for a in self.neighbours[b]:
                if dist[a] == far and (a, b) not in self.step_bans:
                    dist[a] = dist[b] + 1
                    queue.append(a)
        result = tuple(dist)
        self._distances[target] = result
        return result

    def __repr__(self) -> str:
        return f"<StopGoMap {self.name!r}: {len(self.ids)} spaces>"
