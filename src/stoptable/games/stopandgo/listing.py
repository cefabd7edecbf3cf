"""Listing what the seat on turn may drive, remembered until the state changes.

:class:`ListingMixin` is the listing half of :class:`~stoptable.games.stopandgo.state.
StopGoState`: ``legal_actions``, ``legal_paths`` and ``reasons`` (``legal_moves``, the
simulator's every turn, is the state's own: this mixin stays interpreted in the compiled
build, see docs/architecture.md). The last
listing is kept with the key it was made at (``_listed``), so that ``apply`` can take a path
it has just listed without checking it again; any roll or move changes the key.
"""

from __future__ import annotations

from typing import Final

from stoptable.core.errors import InvalidNotation
from stoptable.games.stopandgo.actions import Move
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.car import Car
from stoptable.games.stopandgo.paths import (
    Listing,
    hard_reasons,
    legal_choices,
    traffic_reasons,
)

_NOTHING: Final = Listing((), (), (), ())


class ListingMixin:
    """Legal paths of the state it is mixed into (set up by ``StopGoState.__init__``)."""

    game_map: StopGoMap
    cars: list[Car]
    dial: int
    turn: int
    rolled: int | None
    active: int | None
    over: bool
    _version: int
    _listed: tuple[tuple[int, ...], Listing] | None

    def active_space(self) -> int | None:
        """The map number of the active destination's space (None when none is face up)."""
        return None if self.active is None else self.game_map.destination_space[self.active]

    def legal_actions(self, seat: int) -> list[Move]:
        """Every path ``seat`` may drive now without breaking a rule (G-6 to G-14).

        Empty unless ``seat`` is on turn and has rolled. Standing still is always listed.
        With ``enforcement=fine`` ``apply`` also accepts paths that break traffic rules (as
        violations), but those are never worth driving and are not listed.
        """
        return [Move(seat, p) for p in self.legal_paths(seat)]

    def legal_paths(self, seat: int, distinct_ends: bool = False) -> list[tuple[str, ...]]:
        """The paths of :meth:`legal_actions` as tuples of space ids (fast, for bots).

        ``distinct_ends=True`` keeps one shortest path per outcome (end and heading).
        """
        return list(self._list(seat, distinct_ends).paths)

    def _list(self, seat: int, distinct_ends: bool) -> Listing:
        if self.over or seat != self.turn or self.rolled is None:
            return _NOTHING
        m = self.game_map
        listed = legal_choices(
            m, self.cars, seat, self.rolled, self.dial, self.active_space(), distinct_ends
        )
        # Remembered so that apply() need not check a path it has just listed.
        self._listed = (self._memo_key(), listed)
        return listed

    def _memo_key(self) -> tuple[int, ...]:
        """What the listing of paths depends on besides the cars (``_version`` counts
        every roll and move); ``legal_moves`` and ``apply`` build it in place."""
        return (self._version, self.turn, self.rolled or 0, self.dial)

    def reasons(self, action: Move) -> tuple[list[str], list[str]]:
        """(hard, traffic) reason codes ``action`` breaks now, without applying it."""
        if self.rolled is None:
            raise ValueError("no roll yet: throw the die first")
        path = self._path_numbers(action)
        m = self.game_map
        hard = hard_reasons(m, self.cars, action.seat, path, self.rolled, self.active_space())
        return hard, traffic_reasons(m, self.cars, action.seat, path, self.dial)

    def _path_numbers(self, action: Move) -> list[int]:
        try:
            return [self.game_map.index[s] for s in action.path]
        except KeyError as exc:
            raise InvalidNotation(f"no space {exc.args[0]!r} on the map") from None
