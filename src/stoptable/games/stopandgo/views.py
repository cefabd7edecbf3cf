"""What a seat may know: the records.md §6.3 fields, as a snapshot taken every turn.

:class:`SeatView` is taken once per turn by the simulator, so it only copies a few numbers
and the cars as the state keeps them for views (immutable tuples, one rebuilt per move);
the JSON dict of ``state.view(seat)`` is built from it only when someone reads it as a
mapping. ``public_state`` (and so ``view`` and ``to_json``) is
built from the same snapshot, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from stoptable.core.protocol import JSON, view_header

if TYPE_CHECKING:
    from stoptable.games.stopandgo.board import StopGoMap
    from stoptable.games.stopandgo.ruleset import Ruleset
    from stoptable.games.stopandgo.state import StopGoState

CarView = tuple[int, int | None, bool, int, int, tuple[int, ...]]
"""A car as a view shows it, in map numbers: ``(pos, prev, reverse_ok, tickets,
missed_turns, collected)``; ``prev`` is None while null."""


def scores_of(scoring: str, collected: Iterable[Sequence[int]]) -> list[int]:
    """Per seat: cards collected (``count``) or the sum of their numbers (``sum``)."""
    if scoring == "sum":
        return [sum(cards) for cards in collected]
    return [len(cards) for cards in collected]


MoveParts = tuple[int, tuple[str, ...], int, str, list[str]]
"""A move's seat, path, roll, result and reasons: records.md §6.3's ``last_move`` before
it is made a dict (:func:`move_dict`)."""


def move_dict(parts: MoveParts) -> dict[str, JSON]:
    """records.md §6.3's ``last_move`` object of a move's parts."""
    seat, path, roll, result, reasons = parts
    return {"seat": seat, "path": list(path), "roll": roll, "result": result, "reasons": reasons}


class SeatView(Mapping[str, JSON]):
    """An immutable snapshot of what ``seat`` (None: a spectator) may know.

    As a mapping it is exactly ``state.view(seat)``. As attributes it gives, in map numbers,
    what bots read every turn: ``game_map`` (the board is public), ``dial``,
    ``active_space`` (None when no card is face up) and ``cars`` (:data:`CarView` per seat).
    The deck order, the only hidden thing, is not in it: only ``deck_size``.
    """

    __slots__ = (
        "_data", "_made", "_move", "active", "active_space", "cars", "deck_size", "dial",
        "game_map", "over", "roll", "ruleset", "seat", "still_turns", "termination", "turn",
        "winners",
    )  # fmt: skip

    def __init__(self, state: StopGoState, seat: int | None) -> None:
        self.seat = seat
        self.game_map: StopGoMap = state.game_map
        self.ruleset: Ruleset = state.ruleset
        self.over = over = state.over
        self.turn = state.turn
        self.roll = state.rolled
        self.dial = state.dial
        self.active = active = state.active
        self.active_space = None if active is None else state.game_map.destination_space[active]
        self.cars: tuple[CarView, ...] = state.car_views()
        # last_move's parts, made a dict only if read (bots never read it); the engine
        # replaces them on every move and never changes them in place
        self._move = state._move
        self._made = state._last_move
        self.deck_size = len(state.deck)
        self.still_turns = state.still_turns
        self.termination = state.termination
        self.winners: list[int] | None = None
        if over:
            outcome = state.result()
            self.winners = list(outcome.winners) if outcome else []
        self._data: dict[str, JSON] | None = None

    @property
    def last_move(self) -> dict[str, JSON] | None:
        """records.md §6.3's ``last_move`` at the snapshot (:attr:`.StopGoState.last_move`)."""
        made = self._made
        if made is None and self._move is not None:
            made = self._made = move_dict(self._move)
        return made

    def public(self) -> dict[str, JSON]:
        """A new dict of everything of §6.3 but ``deck``, in the §6.3 order."""
        ids = self.game_map.ids
        cars: list[JSON] = [
            {
                "pos": ids[pos],
                "prev": None if prev is None else ids[prev],
                "reverse_ok": reverse_ok,
                "tickets": tickets,
                "missed_turns": missed,
                "collected": list(collected),
            }
            for pos, prev, reverse_ok, tickets, missed, collected in self.cars
        ]
        space = self.active_space
        return {
            "game": "stopandgo",
            "ruleset": self.ruleset.name,
            "phase": "game_over" if self.over else "playing",
            "seats": len(self.cars),
            "turn": None if self.over else self.turn,
            "roll": self.roll,
            "dial": self.dial,
            "active": self.active,
            "active_space": None if space is None else ids[space],
            "cars": cars,
            "last_move": None if self.last_move is None else dict(self.last_move),
            "still_turns": self.still_turns,
            "termination": self.termination,
            "scores": scores_of(self.ruleset.scoring, (car[5] for car in self.cars)),
            "winners": None if self.winners is None else list(self.winners),
        }

    def to_dict(self) -> dict[str, JSON]:
        """A new dict equal to ``state.view(seat)`` at the time of the snapshot: the shared
        view header (``game``, ``ruleset``, ``seats``, ``phase``, ``seat``) first."""
        public = self.public()
        data: dict[str, JSON] = dict(
            view_header("stopandgo", self.ruleset.name, len(self.cars), public["phase"], self.seat)
        )
        for key, value in public.items():
            data.setdefault(key, value)
        data["deck_size"] = self.deck_size
        data["map"] = self.game_map.name
        return data

    def _mapping(self) -> dict[str, JSON]:
        if self._data is None:
            self._data = self.to_dict()
        return self._data

    def __getitem__(self, key: str) -> JSON:
        return self._mapping()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, turn={self.turn}, active={self.active})"


def public_state(state: StopGoState) -> dict[str, JSON]:
    """Everything of §6.3 but ``deck``."""
    return SeatView(state, None).public()
