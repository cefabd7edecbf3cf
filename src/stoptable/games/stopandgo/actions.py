"""The one action of Stop & Go: drive a path (G-6), and its notation.

Record line: ``{"seat": 0, "type": "move", "path": ["M", "a1", "a2"]}``.
Text form: ``move M a1 a2`` (space ids separated by spaces; ``move M`` stands still).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, overload

from stoptable.core.errors import InvalidNotation
from stoptable.core.protocol import field_setters
from stoptable.games.stopandgo.map_model import ID_PATTERN

_SPACE_ID: Final = re.compile(ID_PATTERN)
MOVE_KEYS: Final = frozenset({"type", "path", "note"})
"""The keys of a move line once the driver has taken ``seat`` off (records.md §6.2)."""


def is_space_id(word: object) -> bool:
    """Whether ``word`` can name a space of some map (letters, digits and ``_``, GM-1 §6).

    Whether the game's own map has it is for the engine to say: ``apply`` raises
    InvalidNotation for a space the map lacks.

    >>> is_space_id("h12c"), is_space_id("a-b"), is_space_id(3)
    (True, False, False)
    """
    return isinstance(word, str) and _SPACE_ID.match(word) is not None


@dataclass(frozen=True, slots=True)
class Move:
    """Seat ``seat`` drives ``path`` = ``(s0, s1, ..., sk)``; ``s0`` is where the car stands.

    >>> m = Move.parse("move M a1 a2", seat=1)
    >>> m
    Move(seat=1, path=('M', 'a1', 'a2'))
    >>> m.notation(), m.to_json()
    ('move M a1 a2', {'seat': 1, 'type': 'move', 'path': ['M', 'a1', 'a2']})
    >>> m.steps
    2
    """

    seat: int
    path: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Move], tuple[int, tuple[str, ...]]]:
        """Copies and pickles go through the constructor: compiled, a frozen dataclass
        cannot be filled in after ``__new__`` (architecture.md, rule 21)."""
        return Move, (self.seat, self.path)

    @property
    def steps(self) -> int:
        """``k``, the number of spaces entered (0 = stand still)."""
        return max(len(self.path) - 1, 0)

    @property
    def end(self) -> str:
        """The space the car ends on."""
        return self.path[-1]

    def to_json(self) -> dict[str, Any]:
        """The record line of records.md §6.2."""
        return {"seat": self.seat, "type": "move", "path": list(self.path)}

    def notation(self) -> str:
        """``move s0 s1 ... sk``."""
        return " ".join(("move", *self.path))

    @staticmethod
    def parse(text: str, seat: int) -> Move:
        """Read ``move s0 s1 ...`` (the ``move`` word may be left out)."""
        words = text.split()
        if words and words[0].lower() == "move":
            words = words[1:]
        if not words:
            raise InvalidNotation(f"not a move: {text!r} (write: move s0 s1 ...)")
        if not all(is_space_id(w) for w in words):
            raise InvalidNotation(f"not a move: {text!r} (space ids are letters, digits, _)")
        return Move(seat, tuple(words))

    @staticmethod
    def from_line(data: Mapping[str, Any], seat: int) -> Move:
        """The move of a records.md §6.2 line without ``seat`` (the driver supplies it):
        ``{"type": "move", "path": [...]}``; InvalidNotation if it is not one.

        >>> Move.from_line({"type": "move", "path": ["M", "a1"]}, seat=2)
        Move(seat=2, path=('M', 'a1'))
        """
        unknown = sorted(set(data) - MOVE_KEYS)
        if unknown:
            raise InvalidNotation(f"a move has no key {unknown[0]!r}")
        if data.get("type") != "move":
            raise InvalidNotation(f"unknown action type {data.get('type')!r} (Stop & Go: move)")
        if "note" in data and not isinstance(data["note"], str):
            raise InvalidNotation("'note' must be a string")
        path = data.get("path")
        if not isinstance(path, list):  # empty is well formed: the engine says bad_start
            raise InvalidNotation("'path' must be a list of space ids")
        for space in path:
            if not is_space_id(space):
                raise InvalidNotation(f"no space {space!r}: space ids are letters, digits, _")
        return Move(seat, tuple(path))

    @staticmethod
    def from_json(data: dict[str, Any]) -> Move:
        """The action of a record line (its keys are checked by the replayer)."""
        return Move(int(data["seat"]), tuple(data["path"]))


def _move_maker() -> Callable[[int, tuple[str, ...]], Move]:
    """``Move(seat, path)``, built field by field (``core.protocol.field_setters``): the
    simulator's bots make one nearly every turn, and the frozen dataclass ``__init__``
    costs about twice this in both builds. Falls back to the constructor should Move's
    fields change."""
    setters = field_setters(Move, ("seat", "path"))
    if setters is None:
        return Move
    set_seat, set_path = setters
    new = Move.__new__  # object.__new__ interpreted; compiled, the native class's own

    def make(seat: int, path: tuple[str, ...]) -> Move:
        move: Move = new(Move)
        set_seat(move, seat)
        set_path(move, path)
        return move

    return make


new_move: Final = _move_maker()
"""A fast ``Move(seat, path)`` for bots and :class:`LegalMoves`."""


def compiled_move(seat: int, path: tuple[str, ...]) -> Move:
    """``Move(seat, path)`` in the compiled build: both fields stored as the native class's
    attributes, by a direct call from compiled code (there :data:`new_move` is a generic
    call of a closure that calls a generic setter per field, about 1,600 instructions).
    Interpreted these stores would raise ``FrozenInstanceError``: only code that has
    checked ``core.protocol.COMPILED`` calls this (the compiled build's rule 12, as
    ``core.protocol.compiled_event``)."""
    move: Move = Move.__new__(Move)
    move.seat = seat  # type: ignore[misc]  # compiled only: a native store (see above)
    move.path = path  # type: ignore[misc]
    return move


class LegalMoves(Sequence[Move]):
    """The legal moves of one turn as the engine listed them, cheap to hand to a bot.

    A sequence of :class:`Move` built on demand (a bot usually looks at one), with what the
    engine already knows of each: ``paths[i]`` (space ids) and ``states[i]``, the car's
    ``(prev, pos)`` in map numbers after the move (for standing still: as it is now). The
    map is public, so this says no more than the paths themselves. ``lengths[i]`` is
    ``len(paths[i])``, ``numbers[i]`` is ``StopGoMap.car_state_number[states[i]]``.
    """

    __slots__ = ("lengths", "numbers", "paths", "seat", "states")

    def __init__(
        self,
        seat: int,
        paths: tuple[tuple[str, ...], ...],
        states: tuple[tuple[int, int], ...],
        lengths: tuple[int, ...],
        numbers: tuple[int, ...],
    ) -> None:
        self.seat = seat
        self.paths = paths
        self.states = states
        self.lengths = lengths
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.paths)

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [new_move(self.seat, p) for p in self.paths[i]]
        return new_move(self.seat, self.paths[i])

    def __repr__(self) -> str:
        return f"LegalMoves(seat={self.seat}, paths={list(self.paths)!r})"
