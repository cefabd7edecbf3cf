"""The evaluation of a stop (I-12, I-13, I-17, I-18, I-19), as pure functions of hands.

The state calls :func:`evaluate` once no held card is left and applies what it returns, so
the arithmetic of an evaluation can be read and tested on its own.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
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
_new_evaluation: Final[Callable[..., Evaluation]] = compiled_evaluation if COMPILED else Evaluation


def evaluate(
    card: str,
    caller: int,
    hands: Sequence[Sequence[str]],
    counts: Sequence[dict[str, int]],
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
    """
    colour = colour_of(kinds[card])
    if colour is not None:
        per_seat = tuple(c.get(colour, 0) for c in counts)
    else:
        per_seat = tuple(sum(c.get(x, 0) for x in COLOURS) for c in counts)
    low = min(per_seat)
    minimum = tuple(s for s, n in enumerate(per_seat) if n == low)
    unsorted: tuple[int, ...] = ()
    if sort_check:
        unsorted = tuple(s for s, h in enumerate(hands) if not is_sorted(h, kinds, ignore_stops))
    seats = len(hands)
    order = [(caller + i) % seats for i in range(seats)]
    recipients = (
        [s for s in order if s in minimum]
        + [s for s in order if s in unsorted]
        + [s for s in order if s in fumbled]
    )
    return _new_evaluation(
        card,
        caller,
        colour,
        per_seat,
        minimum,
        unsorted,
        tuple(sorted(fumbled)),
        tuple(recipients),
    )
