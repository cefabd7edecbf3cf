"""Stop it! card ids and kinds (stop-it.md §0, I-1; records.md §5.1).

A card is a plain ``str`` id such as ``"blue#7"``, ``"STOP-red#2"`` or ``"SUPER#1"``. Each
colour has 17 identical-looking cards, so the ``#tag`` makes every physical card unique and
lets a grab name exactly the card its player saw (I-31). The **kind** is the id without the
tag; only kinds matter to the rules.
"""

from __future__ import annotations

import re
import types
from collections import Counter
from collections.abc import Iterable
from typing import Final

from stoptable.core.rng import Rng

COLOURS: Final = ("red", "blue", "yellow", "green", "purple", "orange", "brown")
"""The seven colours, in the canonical order used for views and counts."""

SUPER: Final = "SUPER"
"""The kind of the two superstop cards."""

STOP_KINDS: Final = tuple(f"STOP-{c}" for c in COLOURS)
"""The kinds of the fourteen stop cards (two per colour)."""

KINDS: Final = COLOURS + STOP_KINDS + (SUPER,)
"""Every kind, canonical order: colours, stop cards by colour, superstop."""

COMPOSITION: Final[dict[str, int]] = {
    **{c: 17 for c in COLOURS},
    **{s: 2 for s in STOP_KINDS},
    SUPER: 2,
}
"""How many cards of each kind the 135-card deck holds (I-1, IA-1)."""

STOP_INITIAL: Final = "S"
"""Every stop kind and stop card id (``STOP-red``, ``SUPER#1``) starts with this letter and
no colour one does, so hot loops tell a stop card by ``card[0] == "S"`` (written with the
literal): compiled (mypyc), a native compare of one code point, where a string comparison
such as ``card < "T"`` is a generic rich compare (about 120 instructions); interpreted, a
read of a cached one-letter string. (Checked at import against every kind; ids start with
their kind, :data:`_ID`.)"""
if not all(k[0] == STOP_INITIAL for k in (*STOP_KINDS, SUPER)) or any(
    c[0] == STOP_INITIAL for c in COLOURS
):
    raise RuntimeError("STOP_INITIAL no longer tells stop kinds from colour kinds")

COLOUR_LETTERS: Final = 2
"""The letters that tell the seven colours apart at the start of a colour card's id
(``re``, ``bl``, ``ye``, ``gr``, ``pu``, ``or``, ``br``), so a hot loop tells a colour card's
colour by two code points instead of a kind lookup (checked at import)."""
if len({c[:COLOUR_LETTERS] for c in COLOURS}) != len(COLOURS):
    raise RuntimeError("COLOUR_LETTERS no longer tell the colours apart")

DECK_SIZE: Final = sum(COMPOSITION.values())
MINUS_CARDS: Final = 15
"""The physical minus cards; 135 + 15 = 150 components (I-1)."""

_ID: Final = re.compile(
    r"^(?:(?:STOP-)?(?:red|blue|yellow|green|purple|orange|brown)|SUPER)#[A-Za-z0-9]+$"
)
_KIND_ORDER: Final = {kind: i for i, kind in enumerate(KINDS)}
KIND_ORDER: Final[dict[str, int]] = _KIND_ORDER
"""Kind -> its place in :data:`KINDS` (:func:`kind_index` as a dict, for native loops)."""
_COLOUR_OF: Final[dict[str, str | None]] = {
    **{c: c for c in COLOURS},
    **{f"STOP-{c}": c for c in COLOURS},
    SUPER: None,
}


def parse_card(card_id: object) -> str:
    """The kind of a card id; ValueError if ``card_id`` is not an id of records.md §5.1.

    >>> parse_card("STOP-blue#2")
    'STOP-blue'
    """
    if not isinstance(card_id, str) or not _ID.match(card_id):
        raise ValueError(f"not a Stop it! card id: {card_id!r}")
    return card_id.partition("#")[0]


def kind_of(card_id: str) -> str:
    """The kind of a well-formed id, without checking it (``"red#3"`` -> ``"red"``)."""
    return card_id.partition("#")[0]


def colour_of(kind: str) -> str | None:
    """The colour of a kind: a colour card's or a stop card's colour; None for SUPER."""
    return _COLOUR_OF[kind]


def is_stop_kind(kind: str) -> bool:
    """True for stop and superstop kinds (the cards that can be called or played)."""
    return kind[0] == "S"


COLOUR_INDEX: Final[dict[str, int]] = {colour: i for i, colour in enumerate(COLOURS)}
"""A colour kind's index in :data:`COLOURS`: its place in a count row."""
ROW_TOTAL: Final = len(COLOURS)
"""The index of a count row's total of colour cards (a superstop's count, I-18)."""


def count_row(counts: dict[str, int]) -> list[int]:
    """The count row of ``{kind: count}``: the colour cards per colour of :data:`COLOURS`,
    then their total; stop cards are left out (they never count, I-17)."""
    row = [counts.get(colour, 0) for colour in COLOURS]
    row.append(sum(row))
    return row


def kind_index(kind: str) -> int:
    """The position of ``kind`` in :data:`KINDS` (for canonical ordering)."""
    return _KIND_ORDER[kind]


def canonical_counts(counts: dict[str, int]) -> dict[str, int]:
    """``counts`` with its keys in canonical kind order and zero counts left out."""
    if COMPILED:  # a native loop over the 15 kinds; sorted's key is a generic call there
        return {k: n for k in KINDS if (n := counts.get(k, 0))}
    return {k: counts[k] for k in sorted(counts, key=_KIND_ORDER.__getitem__) if counts[k]}


def _probe() -> None:
    """A function whose type tells which build this module runs in (see COMPILED)."""


COMPILED: Final = not isinstance(_probe, types.FunctionType)
"""This module runs compiled (mypyc; its functions are then built-ins): the Stop it! modules
are compiled together (scripts/build_compiled.py), so a split between a compiled and an
interpreted way of doing the same thing is taken on this (docs/architecture.md, rule 13)."""


def standard_deck() -> list[str]:
    """The 135 ids of a seeded setup, unshuffled: tags 1..17 (colours), 1..2 (stop, super)."""
    return [f"{kind}#{tag}" for kind in KINDS for tag in range(1, COMPOSITION[kind] + 1)]


def shuffle_deck(rng: Rng, deck: list[str]) -> None:
    """``rng.shuffle(deck)``: the same draws, the same order (every simulated game deals a
    shuffled deck). Compiled, the Fisher-Yates swaps run as a native loop over the list,
    where ``Rng.shuffle``'s ``map``/``zip`` over a ``MutableSequence`` are generic calls
    (about 2,000 instructions a swap, 280,000 a deal); interpreted, ``Rng.shuffle``'s
    draws in C stay the faster."""
    if COMPILED:
        draw = rng.random_function()
        for i in range(len(deck) - 1, 0, -1):
            j = int(draw() * (i + 1))  # Rng.shuffle's int((i + 1) * random())
            deck[i], deck[j] = deck[j], deck[i]
        return
    rng.shuffle(deck)


def check_composition(ids: Iterable[str], exact: bool) -> dict[str, str]:
    """Map each id to its kind; ValueError for a bad or repeated id or too many of a kind.

    With ``exact`` the ids must be the whole I-1 deck (135 cards, 17 of each colour ...);
    otherwise any sub-multiset of it.
    """
    kinds: dict[str, str] = {}
    for card in ids:
        if card in kinds:
            raise ValueError(f"card id {card!r} appears twice")
        kinds[card] = parse_card(card)
    counts = Counter(kinds.values())
    for kind, n in counts.items():
        if n > COMPOSITION[kind]:
            raise ValueError(f"{n} cards of kind {kind!r}, the deck has {COMPOSITION[kind]}")
    if exact and len(kinds) != DECK_SIZE:
        raise ValueError(f"a deck has {DECK_SIZE} cards, not {len(kinds)}")
    return kinds
