"""The 112-card Stop deck (stop.md S-1 to S-4, records.md §4.1).

There is exactly one :class:`Card` object per card code (53 codes), built once at import
time, so that the engine can compare cards by identity and hold hands as plain lists. Two
physical copies of ``B4`` are the same object: a hand is a multiset (stop.md §0), so the
copies never need telling apart.
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Final

from stoptable.core.errors import InvalidNotation

COLOURS: Final = ("R", "B", "G", "Y")
"""Colour letters in canonical order (S-2, records.md §4.1)."""

SKIP: Final = 10
EXCH: Final = 11
DRAWX: Final = 12
FREE: Final = 13
"""Ranks of the symbol cards; number cards have ranks 0..9."""

_SYMBOL_NAMES: Final = {SKIP: "Skip", EXCH: "Exch", DRAWX: "DrawX"}
_SCORE: Final = {0: 0, 1: 1, 2: 20, 3: 3, 4: 4, 5: 5, 7: 7, 8: 8, 9: 9, SKIP: 10, EXCH: 30}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card code. Compare with ``is``/``==`` (identity: there is one object per code).

    ``colour`` is 0..3 (R, B, G, Y) or -1 for FC; ``rank`` 0..9 for numbers, then SKIP,
    EXCH, DRAWX, FREE; ``number`` is the rank with 6 and 9 merged (S-4: 6≡9), -1 for symbol
    cards; ``order`` is the canonical sort key of records.md §4.1.

    >>> parse_card("B9").number == parse_card("B6").number
    True
    """

    code: str
    colour: int
    rank: int
    number: int
    order: int
    twin: int

    @property
    def is_number(self) -> bool:
        """A number card 0-9 (S-3)."""
        return self.number >= 0

    @property
    def is_free(self) -> bool:
        """The black Free Choice card."""
        return self.rank == FREE

    @property
    def colour_letter(self) -> str | None:
        """R, B, G or Y; None for FC."""
        return COLOURS[self.colour] if self.colour >= 0 else None

    def value(self, nine: bool) -> int:
        """Minus points (S-53) and Draw X count (S-43, S-44); ``nine``: six_nine_value=nine."""
        if self.rank == 6:
            return 9 if nine else 6
        if self.rank == DRAWX:
            return 40
        if self.rank == FREE:
            return 50
        return _SCORE[self.rank]

    def draw_count(self, nine: bool) -> int:
        """Cards a Draw X makes you take for this number card (S-43, S-44): 2 is 2, not 20."""
        if self.rank == 6 or (self.rank == 9 and nine):
            return 9 if nine else 6
        return self.rank

    def identical(self, other: Card) -> bool:
        """Same colour and same number under 6≡9 (S-4); symbol cards are never identical."""
        return self.number >= 0 and self.colour == other.colour and self.number == other.number

    def __hash__(self) -> int:
        """The compiled build's hash (its class would otherwise be unhashable: a C class
        that compares with ``<`` inherits no hash); the interpreted build replaces it with
        ``object.__hash__`` below. Either agrees with ``==``, which is identity."""
        return self.order

    def __lt__(self, other: Card) -> bool:
        """Canonical order (records.md §4.1), so ``sorted(hand)`` lists a hand as records do."""
        return self.order < other.order

    def __le__(self, other: Card) -> bool:
        return self.order <= other.order

    def __gt__(self, other: Card) -> bool:
        return self.order > other.order

    def __ge__(self, other: Card) -> bool:
        return self.order >= other.order

    def __repr__(self) -> str:
        return f"parse_card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _same(self: Card, other: object) -> bool:
    """``Card.__eq__`` of the interpreted build: identity, as without it (see below)."""
    return self is other


def _compiled() -> bool:
    """Whether this module runs compiled (mypyc): its functions are then built-ins."""
    return not isinstance(_same, types.FunctionType)


COMPILED: Final = _compiled()
"""This module (and so the build it belongs to) is the mypyc build (docs/architecture.md)."""

if not COMPILED:
    # Cards compare and hash by identity (one object per code). Interpreted, a class with
    # ``__lt__`` and no ``__eq__`` pays two inherited ``object.__eq__`` calls per ``==``,
    # and the engine scans hands (``in``, ``remove``, ``count``) constantly: an ``__eq__``
    # of its own is three times faster; and a ``__hash__`` in Python would slow every set
    # and dict of cards, so ``object.__hash__`` (C) takes its place. Both are set after
    # the class is made: an ``__eq__`` in the body would set ``__hash__`` to None. The
    # compiled class compares in C (identity without an ``__eq__``) and hashes by
    # ``order``, one native read.
    setattr(Card, "__eq__", _same)  # noqa: B010
    setattr(Card, "__hash__", object.__hash__)  # noqa: B010


def _build() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for c, letter in enumerate(COLOURS):
        for rank in range(13):
            name = str(rank) if rank < 10 else _SYMBOL_NAMES[rank]
            number = (6 if rank == 9 else rank) if rank < 10 else -1
            twin = c * 13 + (number if number >= 0 else rank)
            cards[letter + name] = Card(letter + name, c, rank, number, c * 13 + rank, twin)
    cards["FC"] = Card("FC", -1, FREE, -1, 52, 52)
    return cards


CARDS: Final = _build()
"""Every card object by code."""

FREE_CHOICE: Final = CARDS["FC"]

BY_ORDER: Final = tuple(sorted(CARDS.values(), key=lambda card: card.order))
"""The 53 card objects in canonical order; ``BY_ORDER[card.order] is card``."""

IDENTICAL: Final[dict[Card, tuple[Card, ...]]] = {
    card: tuple(other for other in BY_ORDER if card.identical(other)) for card in BY_ORDER
}
"""For each card, the cards identical to it (S-4): itself and its 6/9 twin; none for symbols."""

ORDER: Final[dict[Card, int]] = {card: card.order for card in BY_ORDER}
"""``card.order`` by card: ``sorted(cards, key=ORDER.__getitem__)`` sorts without a Python call
per card."""

COLOURED: Final = BY_ORDER[:-1]
"""The 52 coloured cards in canonical order (FC sorts last)."""

DECK_CARDS: Final = tuple(
    [card for card in BY_ORDER if card is not FREE_CHOICE for _ in range(2)] + [FREE_CHOICE] * 8
)
"""The 112 cards of S-1 as objects, canonical order."""

FULL_DECK: Final = tuple(card.code for card in DECK_CARDS)
"""The 112 card codes of S-1, canonical order."""

DECK_COUNTS: Final = Counter(DECK_CARDS)


def parse_card(code: str) -> Card:
    """The card of a code (``"B4"``, ``"RSkip"``, ``"GExch"``, ``"YDrawX"``, ``"FC"``).

    >>> parse_card("RExch").rank == EXCH
    True
    """
    card = CARDS.get(code) if isinstance(code, str) else None
    if card is None:
        raise InvalidNotation(f"not a Stop card code: {code!r}")
    return card


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """The cards in canonical order (records.md §4.1)."""
    return sorted(cards, key=_ORDER_KEY)


_ORDER_KEY: Final = attrgetter("order")


def codes(cards: Iterable[Card]) -> list[str]:
    """Codes of the cards in canonical order."""
    return [card.code for card in sorted(cards, key=_ORDER_KEY)]
