"""Stop it! requests: what a seat sends, stamped with its arrival time ``t`` (ms).

Every request is a frozen slotted dataclass with ``seat`` and ``t``. ``to_json()`` is the
record line of records.md §5.3; :func:`request_from_json` reads it back, and
:func:`action_from_json` reads the line a client sends, without ``seat`` and ``t`` (the
driver supplies both: the spec's codec). ``notation()`` and :func:`parse_request` are a
compact text form for people and tests (docs/notation.md):

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

:data:`new_grab` and :data:`new_insert` build the two requests bots send most, equal to
``Grab(...)`` and ``Insert(...)``, without the frozen dataclass constructor's cost.

Each request class writes its own ``__init__`` (``dataclasses`` keeps it), so that the
compiled build (mypyc) makes a request natively: compiled, ``Grab(...)`` from compiled
code is a native call that stores the fields natively (those stores bypass ``frozen`` only
because compiled code writes the attributes directly; interpreted they would raise
``FrozenInstanceError``, so the pure build's ``__init__`` sets them as the dataclass's own
does, through ``object.__setattr__``). With the ``__init__`` that ``dataclasses`` writes, a
request was a Python frame and a generic call per field compiled (over 5,000
instructions), and the maker that built one on ``Grab.__new__(Grab)`` about 900, of which
the generic ``__new__`` call 600; natively it is about 150. A native class with an
``__init__`` is made by ``__new__`` only through that ``__init__``, so copies and pickles
go through ``__reduce__`` (the constructor and the fields). The compiled bots call the
classes themselves; the pure ones call the makers.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.protocol import JSON, field_setters
from stoptable.games.stopit.cards import parse_card
from stoptable.games.stopit.ruleset import MAX_STACKS


def _probe() -> None:
    """A function whose type tells which build this module runs in (see COMPILED)."""


COMPILED: Final = not isinstance(_probe, types.FunctionType)
"""This module runs compiled (mypyc): its functions are built-ins, not Python functions."""


def stack_name(stack: int) -> str:
    """``0`` -> ``"S1"``."""
    return f"S{stack + 1}"


def parse_stack(text: object) -> int:
    """``"S1"`` -> ``0``; ValueError unless of the form ``S<n>``, 1 <= n <= MAX_STACKS.

    No game has more stacks than ``stack_count`` allows, so ``S10`` names nothing anywhere.
    """
    if not isinstance(text, str) or len(text) < 2 or text[0] != "S" or not _digits(text[1:]):
        raise ValueError(f"not a stack name: {text!r}")
    number = int(text[1:])
    if number < 1 or text[1] == "0":
        raise ValueError(f"not a stack name: {text!r}")
    if number > MAX_STACKS:
        raise ValueError(f"there is no stack {text} (at most S{MAX_STACKS})")
    return number - 1


@dataclass(frozen=True, slots=True)
class Go:
    """Restart the game (I-4, I-15, I-37)."""

    seat: int
    t: int

    def __init__(self, seat: int, t: int) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)

    def __reduce__(self) -> tuple[type[Go], tuple[int, int]]:
        return Go, (self.seat, self.t)

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

    def __init__(
        self, seat: int, t: int, stack: int, expect_id: str | None, pos: int | None = None
    ) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
            self.stack = stack  # type: ignore[misc]
            self.expect_id = expect_id  # type: ignore[misc]
            self.pos = pos  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)
            object.__setattr__(self, "stack", stack)
            object.__setattr__(self, "expect_id", expect_id)
            object.__setattr__(self, "pos", pos)

    def __reduce__(self) -> tuple[type[Grab], tuple[int, int, int, str | None, int | None]]:
        return Grab, (self.seat, self.t, self.stack, self.expect_id, self.pos)

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

    def __init__(self, seat: int, t: int, pos: int) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
            self.pos = pos  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)
            object.__setattr__(self, "pos", pos)

    def __reduce__(self) -> tuple[type[Insert], tuple[int, int, int]]:
        return Insert, (self.seat, self.t, self.pos)

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

    def __init__(self, seat: int, t: int, from_: int, to: int) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
            self.from_ = from_  # type: ignore[misc]
            self.to = to  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)
            object.__setattr__(self, "from_", from_)
            object.__setattr__(self, "to", to)

    def __reduce__(self) -> tuple[type[Move], tuple[int, int, int, int]]:
        return Move, (self.seat, self.t, self.from_, self.to)

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

    def __init__(self, seat: int, t: int, stack: int, expect_id: str | None) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
            self.stack = stack  # type: ignore[misc]
            self.expect_id = expect_id  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)
            object.__setattr__(self, "stack", stack)
            object.__setattr__(self, "expect_id", expect_id)

    def __reduce__(self) -> tuple[type[CallStop], tuple[int, int, int, str | None]]:
        return CallStop, (self.seat, self.t, self.stack, self.expect_id)

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

    def __init__(self, seat: int, t: int, card_id: str) -> None:
        if COMPILED:  # native stores (see the module docstring)
            self.seat = seat  # type: ignore[misc]
            self.t = t  # type: ignore[misc]
            self.card_id = card_id  # type: ignore[misc]
        else:  # what the frozen dataclass's own __init__ does
            object.__setattr__(self, "seat", seat)
            object.__setattr__(self, "t", t)
            object.__setattr__(self, "card_id", card_id)

    def __reduce__(self) -> tuple[type[PlayStop], tuple[int, int, str]]:
        return PlayStop, (self.seat, self.t, self.card_id)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "play_stop", "card_id": self.card_id, "t": self.t}

    def notation(self) -> str:
        return f"play {self.card_id}"


Request: TypeAlias = Go | Grab | Insert | Move | CallStop | PlayStop
"""Any Stop it! request."""


# The compiled build's makers: the requests the bots send, made by their native
# constructors (see the module docstring), called by name from compiled code.


def compiled_grab(seat: int, t: int, stack: int, expect_id: str | None) -> Grab:
    """``Grab(seat, t, stack, expect_id)`` for the compiled build's :data:`new_grab`."""
    return Grab(seat, t, stack, expect_id)


def compiled_insert(seat: int, t: int, pos: int) -> Insert:
    """``Insert(seat, t, pos)`` for the compiled build's :data:`new_insert`."""
    return Insert(seat, t, pos)


def _grab_maker() -> Callable[[int, int, int, str | None], Grab]:
    """``Grab(seat, t, stack, expect_id)``, built by setting its slots directly.

    Bots send a request for nearly every look, and the frozen dataclass ``__init__`` (one
    generic ``object.__setattr__`` per field, through a Python frame) costs about twice
    this (``core.protocol.field_setters``, in both builds). The result is an ordinary,
    equal Grab; should Grab's fields change, this falls back to the constructor.
    Compiled: :func:`compiled_grab`."""
    if COMPILED:
        return compiled_grab
    setters = field_setters(Grab, ("seat", "t", "stack", "expect_id", "pos"))
    if setters is None:
        return Grab
    set_seat, set_t, set_stack, set_expect, set_pos = setters
    new = Grab.__new__  # object.__new__ interpreted; compiled, the native class's own

    def make(seat: int, t: int, stack: int, expect_id: str | None) -> Grab:
        grab: Grab = new(Grab)
        set_seat(grab, seat)
        set_t(grab, t)
        set_stack(grab, stack)
        set_expect(grab, expect_id)
        set_pos(grab, None)
        return grab

    return make


def _insert_maker() -> Callable[[int, int, int], Insert]:
    """``Insert(seat, t, pos)``, built as :func:`_grab_maker` builds a Grab."""
    if COMPILED:
        return compiled_insert
    setters = field_setters(Insert, ("seat", "t", "pos"))
    if setters is None:
        return Insert
    set_seat, set_t, set_pos = setters
    new = Insert.__new__

    def make(seat: int, t: int, pos: int) -> Insert:
        insert: Insert = new(Insert)
        set_seat(insert, seat)
        set_t(insert, t)
        set_pos(insert, pos)
        return insert

    return make


new_grab: Final = _grab_maker()
"""A fast ``Grab(seat, t, stack, expect_id)`` for bots (see :func:`_grab_maker`)."""
new_insert: Final = _insert_maker()
"""A fast ``Insert(seat, t, pos)`` for bots."""

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


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(obj: Mapping[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidNotation(f"{key!r} must be an integer")
    return value


def _card(obj: Mapping[str, Any], key: str) -> str:
    value = obj.get(key)
    try:
        parse_card(value)
    except ValueError as exc:
        raise InvalidNotation(f"{key!r}: {exc}") from None
    return str(value)


def _expect(obj: Mapping[str, Any]) -> str | None:
    return None if obj.get("expect_id") is None else _card(obj, "expect_id")


def _stack(obj: Mapping[str, Any]) -> int:
    try:
        return parse_stack(obj.get("stack"))
    except ValueError as exc:
        raise InvalidNotation(f"'stack': {exc}") from None


def _stamp(seat: int, t: int | None) -> int:
    """The arrival time the driver stamps (I-30); a Stop it! request cannot do without."""
    if t is None:
        raise InvalidNotation("a Stop it! request needs its arrival time t (I-30)")
    if not _is_int(seat) or not _is_int(t) or seat < 0 or t < 0:
        raise InvalidNotation(f"seat and t must be integers >= 0, not {seat!r} and {t!r}")
    return t


def action_from_json(data: Mapping[str, JSON], seat: int, t: int | None) -> Request:
    """Read a records.md §5.3 line *without* ``seat`` and ``t``, which the driver supplies
    (the server knows the seat from its token and stamps the arrival time, I-30).

    InvalidNotation if the line is malformed: not an object, an unknown type or key, a
    missing or mistyped field, a card id that cannot be, or a stack beyond ``S9``. Whether
    the stack exists in *this* game is checked when the request is applied.

    >>> action_from_json({"type": "grab", "stack": "S2", "expect_id": "brown#4"}, 1, 250)
    Grab(seat=1, t=250, stack=1, expect_id='brown#4', pos=None)
    """
    if not isinstance(data, Mapping):
        raise InvalidNotation("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidNotation(f"unknown action type {kind!r}")
    extra = set(data) - _FIELDS[kind] - {"type", "note"}
    if extra:
        raise InvalidNotation(f"unknown key {sorted(extra)[0]!r} in a {kind} line")
    missing = _REQUIRED[kind] - set(data)
    if missing:
        raise InvalidNotation(f"missing key {sorted(missing)[0]!r} in a {kind} line")
    if not isinstance(data.get("note", ""), str):
        raise InvalidNotation("'note' must be a string (records.md §2)")
    t = _stamp(seat, t)
    if kind == "go":
        return Go(seat, t)
    if kind == "grab":
        pos = None if data.get("pos") is None else _int(data, "pos")
        return Grab(seat, t, _stack(data), _expect(data), pos)
    if kind == "insert":
        return Insert(seat, t, _int(data, "pos"))
    if kind == "move":
        return Move(seat, t, _int(data, "from"), _int(data, "to"))
    if kind == "call_stop":
        return CallStop(seat, t, _stack(data), _expect(data))
    return PlayStop(seat, t, _card(data, "card_id"))


def request_from_json(obj: object) -> Request:
    """Read a whole record line of records.md §5.3 (with ``seat`` and ``t``); RecordError
    if it is malformed. The rest of the line is read by :func:`action_from_json`.

    >>> line = {"seat": 1, "type": "grab", "stack": "S2", "expect_id": "brown#4", "t": 250}
    >>> request_from_json(line)
    Grab(seat=1, t=250, stack=1, expect_id='brown#4', pos=None)
    """
    if not isinstance(obj, dict):
        raise RecordError("an action must be a JSON object")
    for key in ("seat", "t"):
        if key not in obj:
            raise RecordError(f"missing key {key!r} in an action line")
        if not _is_int(obj[key]) or obj[key] < 0:
            raise RecordError(f"{key!r} must be an integer >= 0")
    rest = {k: v for k, v in obj.items() if k != "seat" and k != "t"}
    try:
        return action_from_json(rest, obj["seat"], obj["t"])
    except InvalidNotation as exc:
        raise RecordError(str(exc)) from None


def _digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes ``"١"`` (read as 1) and ``"²"`` (which
    ``int`` refuses), so ``S١`` would name stack S1.

    >>> _digits("12"), _digits("١"), _digits("²"), _digits("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def _text_int(word: str) -> int:
    if not _digits(word.removeprefix("-")):
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


def parse_action(text: str, seat: int, t: int | None) -> Request:
    """:func:`parse_request` in the argument order of ``GameSpec.parse_action``; ``t`` is
    the arrival time the driver stamps (InvalidNotation without it)."""
    return parse_request(seat, _stamp(seat, t), text)


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
