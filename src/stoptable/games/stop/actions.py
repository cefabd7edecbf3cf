"""Stop actions (stop.md S-58): frozen values with a JSON line and a compact text form.

JSON lines are those of records.md §4.3. The text form, documented in docs/notation.md,
reads like ``play R4 achtung``, ``play FC Y1``, ``play RExch left``, ``play GExch swap 2``,
``interject B4 stop``, ``cancel R0``, ``accept reveal B7``, ``draw``, ``pass``,
``call achtung`` and ``call stop``. ``parse_action(a.seat, a.notation()) == a``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from stoptable.core.errors import InvalidNotation, RecordError
from stoptable.core.protocol import JSON
from stoptable.games.stop.cards import EXCH, Card, parse_card
from stoptable.games.stop.ruleset import EXCHANGE_MODES

CALLS: Final = ("achtung", "stop")
NO_CALLS: Final[frozenset[str]] = frozenset()


def _calls_json(calls: frozenset[str]) -> list[str]:
    return [c for c in CALLS if c in calls]


def _calls_text(calls: frozenset[str]) -> str:
    return "".join(" " + c for c in CALLS if c in calls)


@dataclass(frozen=True, slots=True)
class Play:
    """A normal turn play or a victim's response: ``[c]`` or ``[FC, c]`` (S-11, S-45)."""

    seat: int
    cards: tuple[Card, ...]
    calls: frozenset[str] = NO_CALLS
    mode: str | None = None
    target: int | None = None

    def __reduce__(self) -> tuple[type[Play], tuple[Any, ...]]:
        """Copies and pickles go through the constructor: compiled, a frozen
        dataclass cannot be filled in after ``__new__`` (architecture.md, rule 21)."""
        return Play, (self.seat, self.cards, self.calls, self.mode, self.target)

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "seat": self.seat,
            "type": "play",
            "cards": [c.code for c in self.cards],
            "calls": _calls_json(self.calls),
        }
        if self.mode is not None:
            data["mode"] = self.mode
        if self.target is not None:
            data["target"] = self.target
        return data

    def notation(self) -> str:
        text = "play " + " ".join(c.code for c in self.cards)
        if self.mode is not None:
            text += " " + self.mode
        if self.target is not None:
            text += f" {self.target}"
        return text + _calls_text(self.calls)

    @property
    def card(self) -> Card:
        """The coloured card: the one placed last, which becomes the top card."""
        return self.cards[-1]


@dataclass(frozen=True, slots=True)
class Interject:
    """An out-of-turn identical number card (S-18)."""

    seat: int
    card: Card
    calls: frozenset[str] = NO_CALLS

    def __reduce__(self) -> tuple[type[Interject], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return Interject, (self.seat, self.card, self.calls)

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "type": "interject",
            "card": self.card.code,
            "calls": _calls_json(self.calls),
        }

    def notation(self) -> str:
        return f"interject {self.card.code}{_calls_text(self.calls)}"


@dataclass(frozen=True, slots=True)
class Cancel:
    """A 0 of the Card Exchange's colour, placed in the cancel window (S-40)."""

    seat: int
    card: Card
    calls: frozenset[str] = NO_CALLS

    def __reduce__(self) -> tuple[type[Cancel], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return Cancel, (self.seat, self.card, self.calls)

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "type": "cancel",
            "card": self.card.code,
            "calls": _calls_json(self.calls),
        }

    def notation(self) -> str:
        return f"cancel {self.card.code}{_calls_text(self.calls)}"


@dataclass(frozen=True, slots=True)
class Accept:
    """The victim takes the pending effect; ``reveal_play`` for the ja Draw X (S-44)."""

    seat: int
    calls: frozenset[str] = NO_CALLS
    reveal_play: Card | None = None

    def __reduce__(self) -> tuple[type[Accept], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return Accept, (self.seat, self.calls, self.reveal_play)

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "seat": self.seat,
            "type": "accept",
            "calls": _calls_json(self.calls),
        }
        if self.reveal_play is not None:
            data["reveal_play"] = self.reveal_play.code
        return data

    def notation(self) -> str:
        text = "accept"
        if self.reveal_play is not None:
            text += " reveal " + self.reveal_play.code
        return text + _calls_text(self.calls)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one card; the turn ends (S-14)."""

    seat: int
    calls: frozenset[str] = NO_CALLS

    def __reduce__(self) -> tuple[type[Draw], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return Draw, (self.seat, self.calls)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "draw", "calls": _calls_json(self.calls)}

    def notation(self) -> str:
        return "draw" + _calls_text(self.calls)


@dataclass(frozen=True, slots=True)
class Pass:
    """Only when nothing can be drawn and nothing played (S-17)."""

    seat: int

    def __reduce__(self) -> tuple[type[Pass], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return Pass, (self.seat,)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "pass"}

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class CallAchtung:
    """Standalone Achtung call inside the ja window (S-26)."""

    seat: int

    def __reduce__(self) -> tuple[type[CallAchtung], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return CallAchtung, (self.seat,)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "call_achtung"}

    def notation(self) -> str:
        return "call achtung"


@dataclass(frozen=True, slots=True)
class CallStop:
    """Late Stop inside the ja window (S-28)."""

    seat: int

    def __reduce__(self) -> tuple[type[CallStop], tuple[Any, ...]]:
        """As :meth:`Play.__reduce__`."""
        return CallStop, (self.seat,)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "type": "call_stop"}

    def notation(self) -> str:
        return "call stop"


StopAction: TypeAlias = Play | Interject | Cancel | Accept | Draw | Pass | CallAchtung | CallStop

_FIELDS: Final = {
    "play": {"cards", "calls", "mode", "target"},
    "interject": {"card", "calls"},
    "cancel": {"card", "calls"},
    "accept": {"calls", "reveal_play"},
    "draw": {"calls"},
    "pass": set(),
    "call_achtung": set(),
    "call_stop": set(),
}


def _card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a card code")
    try:
        return parse_card(value)
    except InvalidNotation as exc:
        raise RecordError(str(exc)) from None


def _calls(obj: dict[str, Any]) -> frozenset[str]:
    raw = obj.get("calls", [])
    if not isinstance(raw, list) or not all(c in CALLS for c in raw) or len(set(raw)) != len(raw):
        raise RecordError("'calls' must be a list of distinct 'achtung'/'stop'")
    return frozenset(raw)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def action_from_json(obj: dict[str, Any]) -> StopAction:
    """The action of a records.md §4.3 line (without ``note``); RecordError if malformed."""
    if not isinstance(obj, dict):
        raise RecordError("an action must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise RecordError(f"unknown action type {kind!r}")
    unknown = sorted(set(obj) - _FIELDS[kind] - {"seat", "type", "note"})
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r:.80} in a {kind} line")
    if not isinstance(obj.get("note", ""), str):
        raise RecordError("'note' must be a string (records.md §2)")
    seat = obj.get("seat")
    if not _int(seat):
        raise RecordError("'seat' must be an integer")
    assert isinstance(seat, int)
    if kind == "play":
        raw = obj.get("cards")
        if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
            raise RecordError("'cards' must be [c] or ['FC', c]")
        cards = tuple(_card(c, "'cards'") for c in raw)
        if len(cards) == 2 and not cards[0].is_free:
            raise RecordError("a two-card play must be ['FC', c]")
        mode = obj.get("mode")
        if mode is not None and mode not in EXCHANGE_MODES:
            raise RecordError("'mode' must be left, right or swap")
        target = obj.get("target")
        if target is not None and not _int(target):
            raise RecordError("'target' must be a seat number")
        return Play(seat, cards, _calls(obj), mode, target)
    if kind in ("interject", "cancel"):
        card = _card(obj.get("card"), "'card'")
        return (Interject if kind == "interject" else Cancel)(seat, card, _calls(obj))
    if kind == "accept":
        reveal = obj.get("reveal_play")
        chosen = None if reveal is None else _card(reveal, "'reveal_play'")
        return Accept(seat, _calls(obj), chosen)
    if kind == "draw":
        return Draw(seat, _calls(obj))
    if kind == "pass":
        return Pass(seat)
    if kind == "call_achtung":
        return CallAchtung(seat)
    return CallStop(seat)


def _split_calls(words: list[str]) -> tuple[list[str], frozenset[str]]:
    calls: set[str] = set()
    while words and words[-1] in CALLS:
        if words[-1] in calls:
            raise InvalidNotation(f"call {words[-1]!r} given twice")
        calls.add(words.pop())
    return words, frozenset(calls)


def _text_card(word: str) -> Card:
    return parse_card(word)


def parse_action(seat: int, text: str) -> StopAction:
    """Read the compact text form; InvalidNotation if it is not one.

    >>> parse_action(0, "play GExch swap 2 achtung").to_json()["target"]
    2
    >>> parse_action(1, "accept reveal B7").notation()
    'accept reveal B7'
    """
    words = text.split()
    if not words:
        raise InvalidNotation("empty action")
    head, rest = words[0], words[1:]
    if head == "call":
        if rest == ["achtung"]:
            return CallAchtung(seat)
        if rest == ["stop"]:
            return CallStop(seat)
        raise InvalidNotation("expected 'call achtung' or 'call stop'")
    if head == "pass":
        if rest:
            raise InvalidNotation("'pass' takes nothing")
        return Pass(seat)
    rest, calls = _split_calls(rest)
    if head == "draw":
        if rest:
            raise InvalidNotation("'draw' takes only calls")
        return Draw(seat, calls)
    if head == "accept":
        if not rest:
            return Accept(seat, calls)
        if len(rest) == 2 and rest[0] == "reveal":
            return Accept(seat, calls, _text_card(rest[1]))
        raise InvalidNotation("expected 'accept [reveal CARD] [calls]'")
    if head in ("interject", "cancel"):
        if len(rest) != 1:
            raise InvalidNotation(f"expected '{head} CARD [calls]'")
        card = _text_card(rest[0])
        return (Interject if head == "interject" else Cancel)(seat, card, calls)
    if head == "play":
        return _parse_play(seat, rest, calls)
    raise InvalidNotation(f"unknown action {head!r}")


def _parse_play(seat: int, rest: list[str], calls: frozenset[str]) -> Play:
    if not rest:
        raise InvalidNotation("'play' needs a card")
    cards = [_text_card(rest.pop(0))]
    if cards[0].is_free and rest and rest[0] not in EXCHANGE_MODES:
        cards.append(_text_card(rest.pop(0)))
    mode: str | None = None
    target: int | None = None
    if rest and rest[0] in EXCHANGE_MODES:
        mode = rest.pop(0)
        if rest:
            if not (rest[0].isascii() and rest[0].isdigit()):  # not "١" nor "²"
                raise InvalidNotation(f"bad swap target {rest[0]!r}")
            target = int(rest.pop(0))
    if rest:
        raise InvalidNotation(f"unexpected {' '.join(rest)!r} in a play")
    if mode is not None and cards[-1].rank != EXCH:
        raise InvalidNotation("a mode goes only with a Card Exchange")
    return Play(seat, tuple(cards), calls, mode, target)
