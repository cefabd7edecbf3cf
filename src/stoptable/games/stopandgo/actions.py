"""The one action of Stop & Go: drive a path (G-6), and its notation.

Record line: ``{"seat": 0, "type": "move", "path": ["M", "a1", "a2"]}``.
Text form: ``move M a1 a2`` (space ids separated by spaces; ``move M`` stands still).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stoptable.core.errors import InvalidNotation


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
        if not all(w.replace("_", "").isalnum() for w in words):
            raise InvalidNotation(f"not a move: {text!r} (space ids are letters, digits, _)")
        return Move(seat, tuple(words))

    @staticmethod
    def from_json(data: dict[str, Any]) -> Move:
        """The action of a record line (its keys are checked by the replayer)."""
        return Move(int(data["seat"]), tuple(data["path"]))
