"""The evaluation of a stop (I-12, I-13, I-17, I-18, I-19), as pure functions of hands.

The state calls :func:`evaluate` once no held card is left and applies what it returns, so
the arithmetic of an evaluation can be read and tested on its own.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from stoptable.games.stopit.cards import COLOURS, SUPER, colour_of


def is_sorted(hand: Sequence[str], kinds: dict[str, str], ignore_stops: bool = True) -> bool:
    """I-8: the cards of each colour form one block; stop cards ignored (or, with
    ``ignore_stops=False``, part of their colour's block, superstops a block of their own).

    >>> k = {"a": "red", "b": "blue", "c": "red", "s": "STOP-green"}
    >>> is_sorted(["a", "c", "b"], k), is_sorted(["b", "a", "b"], k), is_sorted(["a", "s", "c"], k)
    (True, False, True)
    """
    seen: set[str] = set()
    previous = ""
    if ignore_stops:
        # The usual case, written for the usual card: one of the same kind as the card
        # before it (``previous`` is never a stop kind, so a match is a colour card). An
        # evaluation checks every hand, one card at a time.
        for card in hand:
            kind = kinds[card]
            if kind == previous or kind[0] == "S":
                continue
            if kind in seen:
                return False
            seen.add(kind)
            previous = kind
        return True
    for card in hand:
        kind = kinds[card]
        if kind[0] == "S":
            kind = colour_of(kind) or SUPER
        if kind != previous:
            if kind in seen:
                return False
            seen.add(kind)
            previous = kind
    return True


def hand_sorted(hand: list[str]) -> bool:
    """``is_sorted(hand, kinds)`` (stop cards ignored) for a hand of card ids, read from the
    ids alone: an id starts with its kind (``cards.parse_card``), a stop card's with "S"
    (``cards.STOP_INITIAL``) and a colour card's with the two letters that tell its colour
    (``cards.COLOUR_LETTERS``). Compiled, a loop of code-point compares, where the kind
    lookups, the set and the iteration over a ``Sequence`` of :func:`is_sorted` cost
    about 3,600 instructions a hand (an evaluation checks every hand).

    >>> hand_sorted(["red#1", "STOP-blue#1", "red#2", "blue#3", "brown#1"])
    True
    >>> hand_sorted(["red#1", "blue#1", "red#2"]), hand_sorted(["blue#1", "brown#1", "blue#2"])
    (False, False)
    """
    seen: list[int] = []
    previous = -1
    for card in hand:
        first = ord(card[0])
        if first == 83:  # "S": a stop card
            continue
        colour = first << 8 | ord(card[1])  # COLOUR_LETTERS: two
        if colour == previous:
            continue
        for other in seen:
            if other == colour:
                return False
        seen.append(colour)
        previous = colour
    return True


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What one evaluation decides: the record of records.md §5.5 and the recipients."""

    card: str
    caller: int
    colour: str | None
    counts: tuple[int, ...]
    minimum: tuple[int, ...]
    unsorted: tuple[int, ...]
    fumbled: tuple[int, ...]
    recipients: tuple[int, ...]
    """Each entry is one minus point due, in the I-19 order."""


def compiled_evaluation(
    card: str,
    caller: int,
    colour: str | None,
    counts: tuple[int, ...],
    minimum: tuple[int, ...],
    unsorted: tuple[int, ...],
    fumbled: tuple[int, ...],
    recipients: tuple[int, ...],
) -> Evaluation:
    """``Evaluation(...)`` in the compiled build: the fields stored natively from compiled
    code (compiled only: interpreted the stores would raise FrozenInstanceError), where
    the dataclass constructor costs about 11,000 instructions compiled
    (``core.protocol.compiled_event`` says more)."""
    result: Evaluation = Evaluation.__new__(Evaluation)
    result.card = card  # type: ignore[misc]  # compiled only: a native store
    result.caller = caller  # type: ignore[misc]
    result.colour = colour  # type: ignore[misc]
    result.counts = counts  # type: ignore[misc]
    result.minimum = minimum  # type: ignore[misc]
    result.unsorted = unsorted  # type: ignore[misc]
    result.fumbled = fumbled  # type: ignore[misc]
    result.recipients = recipients  # type: ignore[misc]
    return result


COMPILED: Final = not isinstance(compiled_evaluation, types.FunctionType)
"""This module runs compiled (mypyc): its functions are built-ins, not Python functions."""


def evaluate(
    card: str,
    caller: int,
    hands: list[list[str]],
    counts: list[dict[str, int]],
    kinds: dict[str, str],
    sort_check: bool,
    ignore_stops: bool,
    fumbled: Sequence[int] = (),
) -> Evaluation:
    """Decide the evaluation of ``card`` called or played by ``caller``.

    ``counts[s]`` is seat s's number of cards per kind in hand. A colour stop counts the
    colour cards of its colour (I-12), a superstop every colour card (I-18); held stop cards
    never count (I-17). ``sort_check`` says whether the I-13 check is made. The recipients
    are the smallest counts, then the unsorted hands, then the fumbles (I-36), each in
    seat order starting with the caller (I-19).

    Written as loops over lists of ints (native compiled; an evaluation ran about 23,000
    instructions compiled as comprehensions over tuples and ``Sequence``s).
    """
    colour = colour_of(kinds[card])
    per_seat: list[int] = []
    if colour is not None:
        for count in counts:
            per_seat.append(count.get(colour, 0))
    else:
        for count in counts:
            total = 0
            for each in COLOURS:
                total += count.get(each, 0)
            per_seat.append(total)
    seats = len(hands)
    low = min(per_seat)
    minimum = [s for s in range(seats) if per_seat[s] == low]
    unsorted: list[int] = []
    if sort_check:
        if ignore_stops and COMPILED:
            unsorted = [s for s in range(seats) if not hand_sorted(hands[s])]
        else:
            unsorted = [s for s in range(seats) if not is_sorted(hands[s], kinds, ignore_stops)]
    recipients: list[int] = []
    for group in (minimum, unsorted, list(fumbled)):
        if not group:
            continue
        member = [False] * seats
        for seat in group:
            if 0 <= seat < seats:
                member[seat] = True
        for offset in range(seats):  # seat order from the caller (I-19)
            seat = (caller + offset) % seats
            if member[seat]:
                recipients.append(seat)
    if COMPILED:  # the native maker, called by name (rule 12)
        return compiled_evaluation(
            card,
            caller,
            colour,
            tuple(per_seat),
            tuple(minimum),
            tuple(unsorted),
            tuple(sorted(fumbled)),
            tuple(recipients),
        )
    return Evaluation(
        card,
        caller,
        colour,
        tuple(per_seat),
        tuple(minimum),
        tuple(unsorted),
        tuple(sorted(fumbled)),
        tuple(recipients),
    )
