"""Stop & Go's action indices and observation encoder, sized from the game's map.

Actions. A path ``[s0, ..., sk]`` (G-6) is named by where the car ends up, how it got
there and, rarely, which route it took: ``index = (number(sk) * K + slot) * R + route``.
``number`` is the space's place in the map's space list (``StopGoMap.ids``); ``slot`` is
the place of the space entered from, ``s(k-1)``, among the spaces that lead into ``sk``
(in map order), and ``slot = K - 1`` stands still (``k = 0``); ``K`` is the map's largest
in-degree plus one (5 on the default map). ``(sk, slot)`` is the car's next ``(prev, pos)``
state, all a path decides besides its tickets; when the engine lists several paths to the
same state (two routes round a block), ``route`` numbers them in the lexicographic order
of their space numbers, up to ``R = 4`` (so ``Discrete(185 * 5 * 4 = 3700)`` on the default
map, where the engine lists one path per state in practice). A fifth route to one state
raises RuntimeError in :meth:`Codec.mask` rather than hide a legal path.

Observations. The seat's view (records.md §6.3) plus the public map, plane by plane as
:data:`planes` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from stoptable.core.protocol import JSON
from stoptable.games import spec
from stoptable.rl.common import MASK_DTYPE, Planes, relative

ROUTES = 4
"""Route slots per car state (the module doc's ``R``)."""
FACTS = spec("stopandgo").facts
MAX_SEATS = int(FACTS["max_seats"])
DIE = int(FACTS["die_faces"])
MAX_DESTINATION = int(FACTS["max_destination"])


class Layout:
    """The numbering of one map: spaces, the spaces leading into each, and sizes."""

    def __init__(self, game_map: Any) -> None:
        self.map = game_map
        self.ids: tuple[str, ...] = tuple(game_map.ids)
        self.number = {sid: i for i, sid in enumerate(self.ids)}
        into: list[list[int]] = [[] for _ in self.ids]
        for a, neighbours in enumerate(game_map.neighbours):
            for b in neighbours:
                into[b].append(a)
        self.into = [{a: slot for slot, a in enumerate(sorted(src))} for src in into]
        self.k = max(len(src) for src in into) + 1
        self.routes = ROUTES
        self.n_spaces = len(self.ids)
        self.n_actions = self.n_spaces * self.k * self.routes
        self.dial_positions = int(game_map.dial_positions)
        self.planes: tuple[tuple[str, int], ...] = (
            ("car_pos: per relative seat, the car's space one-hot", MAX_SEATS * self.n_spaces),
            ("car_from: per relative seat, the prev space's slot (K-1: none)", MAX_SEATS * self.k),
            ("active_space: the face-up destination's space one-hot", self.n_spaces),
            ("active: the face-up destination number one-hot (1-25)", MAX_DESTINATION),
            ("dial: dial position one-hot", self.dial_positions),
            ("roll: this turn's roll one-hot (1-6)", DIE),
            ("turn: relative seat one-hot", MAX_SEATS),
            ("seated: 1 per relative seat that exists", MAX_SEATS),
            ("reverse_ok: per relative seat", MAX_SEATS),
            ("tickets: per relative seat / 3", MAX_SEATS),
            ("missed_turns: per relative seat / 3", MAX_SEATS),
            ("collected: cards per relative seat / 25", MAX_SEATS),
            ("scores: per relative seat / 325", MAX_SEATS),
            ("still_turns: / 60", 1),
            ("deck_size: / 25", 1),
        )
        self.obs_size = sum(width for _, width in self.planes)

    def state_index(self, path: list[str] | tuple[str, ...]) -> int:
        """``number(sk) * K + slot``: the car state a path leads to (see the module doc)."""
        end = self.number[path[-1]]
        if len(path) == 1:
            return end * self.k + self.k - 1
        return end * self.k + self.into[end][self.number[path[-2]]]

    def encode(self, view: Mapping[str, JSON]) -> np.ndarray:
        """The observation of a seat's view; reads nothing but the view and the map."""
        me = view["seat"]
        n = view["seats"]
        cars = view["cars"]
        order = [cars[(me + i) % n] for i in range(n)]
        p = Planes(self.obs_size)
        for i in range(MAX_SEATS):
            p.one_hot(self.n_spaces, self.number[order[i]["pos"]] if i < n else None)
        for i in range(MAX_SEATS):
            slot = None
            if i < n:
                car = order[i]
                pos = self.number[car["pos"]]
                prev = car["prev"]
                slot = self.k - 1 if prev is None else self.into[pos].get(self.number[prev])
            p.one_hot(self.k, slot)
        space = view["active_space"]
        p.one_hot(self.n_spaces, None if space is None else self.number[space])
        active = view["active"]
        p.one_hot(MAX_DESTINATION, None if active is None else int(active) - 1)
        p.one_hot(self.dial_positions, view["dial"])
        roll = view["roll"]
        p.one_hot(DIE, None if roll is None else int(roll) - 1)
        p.one_hot(MAX_SEATS, relative(view["turn"], me, n))
        p.values([1.0] * n, MAX_SEATS)
        p.values([float(c["reverse_ok"]) for c in order], MAX_SEATS)
        p.values([c["tickets"] / 3 for c in order], MAX_SEATS)
        p.values([c["missed_turns"] / 3 for c in order], MAX_SEATS)
        p.values([len(c["collected"]) / 25 for c in order], MAX_SEATS)
        scores = view["scores"]
        p.values([scores[(me + i) % n] / 325 for i in range(n)], MAX_SEATS)
        p.value(view["still_turns"] / 60)
        p.value(view["deck_size"] / 25)
        assert p.at == self.obs_size
        return p.vector


class Codec:
    """Index <-> move for one game on one :class:`Layout`."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._last: dict[tuple[str, ...], int] = {}

    def index(self, action: Any) -> int:
        """The index of a move of the last legal list given to :meth:`mask` (a route's
        number depends on the other routes listed)."""
        return self._last[tuple(action.to_json()["path"])]

    def action(self, index: int, seat: int) -> Any:
        """Always None: a path needs the car's position and the other routes, so only
        :meth:`mask`'s list names the move behind an index."""
        return None

    def indexed(self, legal: list[Any]) -> dict[int, Any]:
        """The move behind each index of a legal list (:meth:`mask`'s, without the mask
        that the batched env does not read)."""
        return self.mask(legal)[1]

    def mask(self, legal: list[Any]) -> tuple[np.ndarray, dict[int, Any]]:
        lay = self.layout
        groups: dict[int, list[tuple[tuple[int, ...], tuple[str, ...], Any]]] = {}
        for action in legal:
            path = tuple(action.to_json()["path"])
            key = (tuple(lay.number[s] for s in path), path, action)
            groups.setdefault(lay.state_index(path), []).append(key)
        mask = np.zeros(lay.n_actions, dtype=MASK_DTYPE)
        chosen: dict[int, Any] = {}
        last: dict[tuple[str, ...], int] = {}
        for state, group in groups.items():
            if len(group) > lay.routes:
                raise RuntimeError(f"{len(group)} legal routes to one car state: {group}")
            group.sort(key=lambda item: item[0])
            for route, (_, path, action) in enumerate(group):
                i = state * lay.routes + route
                chosen[i] = action
                last[path] = i
                mask[i] = 1
        self._last = last
        return mask, chosen
