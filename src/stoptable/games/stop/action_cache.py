"""Pre-built action objects, so the move generator hands out shared values instead of
building a frozen dataclass for every legal move it lists.

Actions are immutable values compared by content, so two equal moves may be the same
object. One :class:`ActionCache` exists per (seat count, exchange modes), the only two
things besides the seat, the cards and the calls that a listed action depends on; it is
built once (a few thousand small objects at most) and shared by every state of that shape.
"""

from __future__ import annotations

from typing import Final

from stoptable.games.stop.actions import Accept, Cancel, Draw, Interject, Pass, Play
from stoptable.games.stop.cards import BY_ORDER, COLOURED, EXCH, FREE_CHOICE, Card

NONE: Final[frozenset[str]] = frozenset()
A: Final = frozenset({"achtung"})
S: Final = frozenset({"stop"})
AS: Final = frozenset({"achtung", "stop"})
CALLSETS: Final = (NONE, A, S, AS)
"""The four call sets the move generator attaches, by index (see :func:`.legal.calls_index`)."""

CardActions = dict[Card, tuple[Play, ...]]


def plays(
    seat: int, cards: tuple[Card, ...], calls: frozenset[str], seats: int, modes: frozenset[str]
) -> tuple[Play, ...]:
    """The plays of ``cards`` with ``calls``: one, or one per exchange mode (and swap target)."""
    if cards[-1].rank != EXCH:
        return (Play(seat, cards, calls),)
    out: list[Play] = []
    for mode in sorted(modes):
        if mode == "swap":
            out.extend(Play(seat, cards, calls, mode, t) for t in range(seats) if t != seat)
        else:
            out.append(Play(seat, cards, calls, mode))
    return tuple(out)


class ActionCache:
    """Every action the move generator can list for one shape of game.

    Indexed ``[calls index][seat][card]``: ``single`` (a coloured card alone, exchange
    modes expanded), ``pair`` (``[FC, card]`` with the card's effect, expanded),
    ``pair_plain`` (``[FC, card]``, no mode: ``free_choice_second_effect=false`` and
    responses), ``interject`` (number cards), ``cancel`` (0s). ``accept[seat]`` is the
    plain accept, ``draw[seat]`` the draw without calls, ``draw_a[seat]`` with ``achtung``,
    ``passes[seat]`` the pass. ``rotation[k]`` is every seat from ``k`` round the table,
    ``after[k]`` every seat from the one after ``k`` (the S-61 offer order after ``k`` placed).

    ``single_o``, ``pair_o``, ``pair_plain_o`` and ``interject_o`` are the same tables as
    lists indexed by ``card.order`` (every one of the 53 orders: the entries of cards the
    dict lacks are never read), for the compiled move generator, which finds cards by
    their order instead of hashing them (:func:`.legal.turn_actions`).
    """

    __slots__ = (
        "accept",
        "after",
        "cancel",
        "draw",
        "draw_a",
        "interject",
        "interject_o",
        "pair",
        "pair_o",
        "pair_plain",
        "pair_plain_o",
        "passes",
        "rotation",
        "single",
        "single_o",
    )

    def __init__(self, seats: int, modes: frozenset[str]) -> None:
        every = range(seats)
        self.single: list[list[CardActions]] = [
            [{c: plays(s, (c,), calls, seats, modes) for c in COLOURED} for s in every]
            for calls in CALLSETS
        ]
        self.pair: list[list[CardActions]] = [
            [{c: plays(s, (FREE_CHOICE, c), calls, seats, modes) for c in COLOURED} for s in every]
            for calls in CALLSETS
        ]
        self.pair_plain: list[list[dict[Card, Play]]] = [
            [{c: Play(s, (FREE_CHOICE, c), calls) for c in COLOURED} for s in every]
            for calls in CALLSETS
        ]
        self.interject: list[list[dict[Card, Interject]]] = [
            [{c: Interject(s, c, calls) for c in COLOURED if c.is_number} for s in every]
            for calls in CALLSETS
        ]
        self.cancel: list[list[dict[Card, Cancel]]] = [
            [{c: Cancel(s, c, calls) for c in COLOURED if c.rank == 0} for s in every]
            for calls in CALLSETS
        ]
        self.single_o: list[list[list[tuple[Play, ...]]]] = [
            [[row.get(c, ()) for c in BY_ORDER] for row in rows] for rows in self.single
        ]
        self.pair_o: list[list[list[tuple[Play, ...]]]] = [
            [[row.get(c, ()) for c in BY_ORDER] for row in rows] for rows in self.pair
        ]
        self.pair_plain_o: list[list[list[Play]]] = [
            [
                [self.pair_plain[i][s].get(c) or Play(s, (FREE_CHOICE, c), calls) for c in BY_ORDER]
                for s in every
            ]
            for i, calls in enumerate(CALLSETS)
        ]
        self.interject_o: list[list[list[Interject]]] = [
            [
                [self.interject[i][s].get(c) or Interject(s, c, calls) for c in BY_ORDER]
                for s in every
            ]
            for i, calls in enumerate(CALLSETS)
        ]
        self.accept = [Accept(s, NONE) for s in every]
        self.draw = [Draw(s, NONE) for s in every]
        self.draw_a = [Draw(s, A) for s in every]
        self.passes = [Pass(s) for s in every]
        self.rotation = [tuple((k + i) % seats for i in every) for k in every]
        self.after = [self.rotation[(k + 1) % seats] for k in every]


_CACHES: dict[tuple[int, frozenset[str]], ActionCache] = {}


def action_cache(seats: int, modes: frozenset[str]) -> ActionCache:
    """The shared cache of this shape, built on first use."""
    key = (seats, modes)
    found = _CACHES.get(key)
    if found is None:
        found = _CACHES[key] = ActionCache(seats, modes)
    return found
