"""Stop it! requests: what a seat sends, stamped with its arrival time ``t`` (ms).

Every request is a frozen slotted dataclass with ``seat`` and ``t``. ``to_json()`` is the
action line of records.md §5.3; ``request_from_json`` reads it back. ``notation()`` and
:func:`parse_request` are a compact text form for people and tests:

====================  ==========================================
``go``                Go (I-37)
``grab S2 brown#4``   Grab the top card of S2, expected to be brown#4 (I-31)
``grab S2 -``         ... expecting the stack to be empty
``grab S2 red#1 @3``  atomic grab + insert at index 3 (I-32)
``insert 3``          insert the held card at index 3
``move 4 0``          move the hand card at index 4 to index 0 (I-7)
``stop S1 STOP-red#2`` call Stop on the stop card on top of S1 (I-10, I-33)
``play STOP-red#1``   play a stop card from the hand (I-17)
====================  ==========================================

Stacks are 0-based ints in Python (``stack=1`` is ``S2``) and ``"S<n>"`` in text and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.protocol import JSON
from stoptable.games.stopit.cards import parse_card


def stack_name(stack: int) -> str:
    """``0`` -> ``"S1"``."""
    return f"S{stack + 1}"


def parse_stack(text: object) -> int:
    """``"S1"`` -> ``0``; ValueError if not of the form ``S<n>`` with n >= 1."""
    if not isinstance(text, str) or len(text) < 2 or text[0] != "S" or not text[1:].isdigit():
        raise ValueError(f"not a stack name: {text!r}")
    number = int(text[1:])
    if number < 1 or text[1] == "0":
        raise ValueError(f"not a stack name: {text!r}")
    return number - 1


@dataclass(frozen=True, slots=True)
class Go:
    """Restart the game (I-4, I-15, I-37)."""

    seat: int
    t: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "go", "t": self.t}

    def notation(self) -> str:
        return "go"


@dataclass(frozen=True, slots=True)
class Grab:
    """Take the top card of ``stack``, which must be ``expect_id`` (I-31); None: empty.

    With ``pos`` the card goes straight into the hand at that index (I-32 sugar).
    """

    seat: int
    t: int
    stack: int
    expect_id: str | None
    pos: int | None = None

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "seat": self.seat,
            "type": "grab",
            "stack": stack_name(self.stack),
            "expect_id": self.expect_id,
        }
        if self.pos is not None:
            data["pos"] = self.pos
        data["t"] = self.t
        return data

    def notation(self) -> str:
        text = f"grab {stack_name(self.stack)} {self.expect_id or '-'}"
        return text if self.pos is None else f"{text} @{self.pos}"


@dataclass(frozen=True, slots=True)
class Insert:
    """Put the held card into the hand at index ``pos`` (I-7, I-32)."""

    seat: int
    t: int
    pos: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "insert", "pos": self.pos, "t": self.t}

    def notation(self) -> str:
        return f"insert {self.pos}"


@dataclass(frozen=True, slots=True)
class Move:
    """Reorder the hand: remove the card at ``from_``, insert it at ``to`` (I-7)."""

    seat: int
    t: int
    from_: int
    to: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "move", "from": self.from_, "to": self.to, "t": self.t}

    def notation(self) -> str:
        return f"move {self.from_} {self.to}"


@dataclass(frozen=True, slots=True)
class CallStop:
    """Call Stop on the stop or superstop card ``expect_id`` on top of ``stack`` (I-10)."""

    seat: int
    t: int
    stack: int
    expect_id: str | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "type": "call_stop",
            "stack": stack_name(self.stack),
            "expect_id": self.expect_id,
            "t": self.t,
        }

    def notation(self) -> str:
        return f"stop {stack_name(self.stack)} {self.expect_id or '-'}"


@dataclass(frozen=True, slots=True)
class PlayStop:
    """Play the stop or superstop card ``card_id`` from the hand (I-17)."""

    seat: int
    t: int
    card_id: str

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "play_stop", "card_id": self.card_id, "t": self.t}

    def notation(self) -> str:
        return f"play {self.card_id}"


Request: TypeAlias = Go | Grab | Insert | Move | CallStop | PlayStop
"""Any Stop it! request."""

_FIELDS: Final[dict[str, frozenset[str]]] = {
    "go": frozenset(),
    "grab": frozenset({"stack", "expect_id", "pos"}),
    "insert": frozenset({"pos"}),
    "move": frozenset({"from", "to"}),
    "call_stop": frozenset({"stack", "expect_id"}),
    "play_stop": frozenset({"card_id"}),
}
_REQUIRED: Final[dict[str, frozenset[str]]] = {
    **_FIELDS,
    "grab": frozenset({"stack", "expect_id"}),
}


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be an integer")
    return value


def _expect(obj: dict[str, Any]) -> str | None:
    value = obj.get("expect_id")
    if value is None:
        return None
    try:
        parse_card(value)
    except ValueError as exc:
        raise RecordError(f"'expect_id': {exc}") from None
    return str(value)


def _stack(obj: dict[str, Any]) -> int:
    try:
        return parse_stack(obj.get("stack"))
    except ValueError as exc:
        raise RecordError(f"'stack': {exc}") from None


def request_from_json(obj: object) -> Request:
    """Read an action line of records.md §5.3; RecordError if it is malformed.

    Only the shape is checked here; whether the seat or stack exists is the state's business.

    >>> line = {"seat": 1, "type": "grab", "stack": "S2", "expect_id": "brown#4", "t": 250}
    >>> request_from_json(line)
    Grab(seat=1, t=250, stack=1, expect_id='brown#4', pos=None)
    """
    if not isinstance(obj, dict):
        raise RecordError("an action must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise RecordError(f"unknown action type {kind!r}")
    extra = set(obj) - _FIELDS[kind] - {"seat", "type", "t"}
    if extra:
        raise RecordError(f"unknown key {sorted(extra)[0]!r} in a {kind} line")
    missing = (_REQUIRED[kind] | {"seat", "t"}) - set(obj)
    if missing:
        raise RecordError(f"missing key {sorted(missing)[0]!r} in a {kind} line")
    seat, t = _int(obj, "seat"), _int(obj, "t")
    if seat < 0 or t < 0:
        raise RecordError("'seat' and 't' must be >= 0")
    if kind == "go":
        return Go(seat, t)
    if kind == "grab":
        pos = None if obj.get("pos") is None else _int(obj, "pos")
        return Grab(seat, t, _stack(obj), _expect(obj), pos)
    if kind == "insert":
        return Insert(seat, t, _int(obj, "pos"))
    if kind == "move":
        return Move(seat, t, _int(obj, "from"), _int(obj, "to"))
    if kind == "call_stop":
        return CallStop(seat, t, _stack(obj), _expect(obj))
    card = obj.get("card_id")
    try:
        parse_card(card)
    except ValueError as exc:
        raise RecordError(f"'card_id': {exc}") from None
    return PlayStop(seat, t, str(card))


def _text_int(word: str) -> int:
    if not word.lstrip("-").isdigit():
        raise InvalidNotation(f"not an integer: {word!r}")
    return int(word)


def _text_card(word: str) -> str | None:
    if word == "-":
        return None
    try:
        parse_card(word)
    except ValueError as exc:
        raise InvalidNotation(str(exc)) from None
    return word


def _text_stack(word: str) -> int:
    try:
        return parse_stack(word)
    except ValueError as exc:
        raise InvalidNotation(str(exc)) from None


def parse_request(seat: int, t: int, text: str) -> Request:
    """Read the compact notation (see the module docstring); InvalidNotation if unreadable.

    >>> parse_request(0, 120, "grab S3 red#5 @0")
    Grab(seat=0, t=120, stack=2, expect_id='red#5', pos=0)
    """
    words = text.split()
    if not words:
        raise InvalidNotation("empty request")
    verb, args = words[0].lower(), words[1:]
    arity = {"go": (0,), "grab": (2, 3), "insert": (1,), "move": (2,), "stop": (2,), "play": (1,)}
    if verb not in arity:
        raise InvalidNotation(f"unknown request {verb!r} (go, grab, insert, move, stop, play)")
    if len(args) not in arity[verb]:
        raise InvalidNotation(f"wrong number of arguments for {verb!r}: {text!r}")
    if verb == "go":
        return Go(seat, t)
    if verb == "grab":
        pos = None
        if len(args) == 3:
            if not args[2].startswith("@"):
                raise InvalidNotation(f"the position of a grab is written @n: {args[2]!r}")
            pos = _text_int(args[2][1:])
        return Grab(seat, t, _text_stack(args[0]), _text_card(args[1]), pos)
    if verb == "insert":
        return Insert(seat, t, _text_int(args[0]))
    if verb == "move":
        return Move(seat, t, _text_int(args[0]), _text_int(args[1]))
    if verb == "stop":
        return CallStop(seat, t, _text_stack(args[0]), _text_card(args[1]))
    card = _text_card(args[0])
    if card is None:
        raise InvalidNotation("play needs a card id")
    return PlayStop(seat, t, card)
