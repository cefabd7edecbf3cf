"""Stop it! bots: ``random`` and ``heuristic``, with the reaction-time model of I-52.

A Stop it! bot is real time: it does not pick from a list of legal actions on its turn, it
is *observed* (stop-it.md I-51): ``observe(view, now)`` returns ``None`` (nothing to do)
or ``(request, delay_ms)``; the request reaches the engine ``delay_ms`` later, stamped
``t = now + delay_ms``. The delay is a sample of the bot's own :class:`ReactionTimes`
(reach for a grab, sort for an insert or move, shout for a call or a played stop, go for
Go), and the simulator also draws the bot's ``perceive`` delays from it, so one seed
fixes everything a bot does. A bot sees only its view.

The reaction model lives here rather than in ``sim`` because bots choose their delays and
bots sit below the simulator; the simulator imports it from here.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from math import cos as _cos
from math import exp as _exp
from math import log as _log
from math import sin as _sin
from math import sqrt as _sqrt
from typing import Any, ClassVar, Final, Literal, Protocol

from mypy_extensions import mypyc_attr

from stoptable.bots.base import make_bot, register_bot
from stoptable.core.protocol import JSON
from stoptable.core.rng import Rng
from stoptable.games.stopit.actions import (
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    new_grab,
    new_insert,
)
from stoptable.games.stopit.cards import (
    COLOUR_INDEX,
    COLOURS,
    COMPILED,
    KINDS,
    ROW_TOTAL,
    count_row,
)
from stoptable.games.stopit.views import KindCounts, LeanLook, lean_of

# The math functions are imported by name, not aliased (``_exp: Final = math.exp``):
# interpreted both are one global lookup, but compiled (mypyc) a call of ``math.exp`` by name
# is a C call on an unboxed float, where a call through an alias is a generic Python call
# (a sample cost about 3,900 instructions compiled with the aliases).
_TWOPI: Final = 2.0 * math.pi
_round: Final = float.__round__
"""``round`` of a float, called directly: the builtin first looks ``__round__`` up on its
argument's type (a reaction-time sample is rounded for nearly every look). Compiled,
:func:`round_half_even` instead."""


def round_half_even(x: float) -> int:
    """``round(x)`` for a finite ``x`` >= 0, as native float and int operations compiled
    (``round`` and ``float.__round__`` are generic calls there, about 200 instructions a
    sample): ``x - floor(x)`` is exact, and a half goes to the even neighbour.

    >>> [round_half_even(x) for x in (0.5, 1.5, 2.5, 2.4999, 7.0, 1e6 + 0.5)]
    [0, 2, 2, 2, 7, 1000000]
    """
    whole = math.floor(x)
    rest = x - whole
    if rest > 0.5 or (rest == 0.5 and whole % 2 == 1):
        return whole + 1
    return whole


def _gauss_written_out() -> bool:
    """Whether :meth:`ReactionTimes.sample`'s copy of ``random.Random.gauss`` (Box-Muller,
    the spare value kept in ``gauss_next``) draws exactly what the library does; should a
    Python ever change it, the samples call the library instead."""
    library, copy = random.Random(2024), random.Random(2024)
    copy_: Any = copy  # gauss_next is not in the library's type stubs
    for mu, sigma in ((0.0, 1.0), (5.3, 0.25), (-1.0, 3.0), (2.0, 0.5), (0.5, 0.1)):
        z = copy_.gauss_next
        copy_.gauss_next = None
        if z is None:
            x2pi = copy.random() * _TWOPI
            g2rad = _sqrt(-2.0 * _log(1.0 - copy.random()))
            z = _cos(x2pi) * g2rad
            copy_.gauss_next = _sin(x2pi) * g2rad
        if library.gauss(mu, sigma) != mu + z * sigma:
            return False
    return library.getstate() == copy.getstate()


_GAUSS_WRITTEN_OUT: Final = _gauss_written_out()
Component = Literal["perceive", "reach", "sort", "shout", "go"]


@dataclass(frozen=True, slots=True)
class Timing:
    """One component of the model: ``shift`` and ``median`` in ms, ``sigma`` of the log.

    ``per_card`` is added to the median for every card in the hand (only ``sort`` uses it:
    a bigger hand takes longer to find the slot in).
    """

    shift: float
    median: float
    sigma: float
    per_card: float = 0.0

    def __post_init__(self) -> None:
        if self.shift < 0 or self.median < self.shift or self.sigma < 0 or self.per_card < 0:
            raise ValueError(f"invalid reaction timing {self!r}")


DEFAULT_TIMINGS: Final[Mapping[Component, Timing]] = {
    "perceive": Timing(150, 250, 0.25),
    "reach": Timing(200, 400, 0.20),
    "sort": Timing(150, 300, 0.30, per_card=15),
    "shout": Timing(100, 250, 0.30),
    "go": Timing(1000, 1000, 0.0),
}
"""The defaults of the I-52 table."""


class _Params:
    """One component's numbers as :meth:`ReactionTimes.sample` reads them: typed float
    attributes, which the compiled build keeps unboxed (a tuple of floats in a dict cost
    it an unboxing of each)."""

    __slots__ = ("fixed", "median", "mu", "per_card", "shift", "sigma")

    def __init__(self, t: Timing) -> None:
        self.shift: float = t.shift
        self.median: float = t.median
        self.sigma: float = t.sigma
        self.per_card: float = t.per_card
        self.fixed: bool = not (t.median > t.shift and t.sigma and not t.per_card)
        """The log of the spread is not worked out once: it varies with the hand, the
        spread is not positive or ``sigma`` is 0 (so that ``sample`` tests it alone)."""
        self.mu: float = 0.0 if self.fixed else math.log(t.median - t.shift)
        """``ln(median - shift)`` (0.0 where :attr:`fixed`)."""


def _params(timings: Mapping[Component, Timing]) -> dict[str, _Params]:
    """Per component its :class:`_Params`."""
    return {n: _Params(t) for n, t in timings.items()}


_DEFAULT_PARAMS: Final = _params(DEFAULT_TIMINGS)
"""The defaults' parameters, worked out once and shared (never changed): four bots are
set up for every simulated game."""


class ReactionTimes:
    """A bot's seeded reaction times: ``shift + LogNormal(ln(median - shift), sigma)``.

    Samples are rounded to whole ms and never fall below the shift (nobody reacts in no
    time); the log-normal tail stands for the moments somebody is distracted.

    >>> rt = ReactionTimes(Rng(1))
    >>> rt.sample("go")
    1000
    >>> all(rt.sample("reach") >= 200 for _ in range(100))
    True
    """

    __slots__ = ("_gauss", "_params", "_random", "_spare", "_uniform", "rng", "timings")

    def __init__(self, rng: Rng, timings: Mapping[Component, Timing] | None = None) -> None:
        merged: dict[Component, Timing] = dict(DEFAULT_TIMINGS)
        if timings:
            merged.update(timings)
        self.rng = rng
        self.timings = merged
        self._gauss = rng.gauss_function()
        self._random: Any = getattr(self._gauss, "__self__", None) if _GAUSS_WRITTEN_OUT else None
        """The ``random.Random`` whose ``gauss`` :meth:`sample` writes out (None: it calls
        ``_gauss``)."""
        self._uniform: Any = None if self._random is None else self._random.random
        """Its ``random`` method, bound once: an attribute lookup less per pair of draws."""
        self._spare: dict[str, Any] | None = (
            vars(self._random) if COMPILED and self._random is not None else None
        )
        """Compiled: the ``__dict__`` of ``_random``, where its ``gauss_next`` (the spare
        normal value) lives, read and stored as a dict (native calls; an attribute of a
        ``random.Random`` is a generic get and set there). Interpreted: None, the
        attribute is read directly (faster there)."""
        self._params = _params(merged) if timings else _DEFAULT_PARAMS

    def sample(self, component: Component, hand_size: int = 0) -> int:
        """One delay in whole ms for ``component`` (``hand_size`` matters only for sort)."""
        params = self._params[component]
        shift, sigma = params.shift, params.sigma
        if params.fixed:  # it varies with the hand, or no spread (see _Params)
            spread = params.median + params.per_card * hand_size - shift
            if spread <= 0 or sigma == 0:  # max and round are generic calls compiled
                fixed = shift + spread if spread > 0.0 else shift + 0.0
                return round_half_even(fixed) if COMPILED else round(fixed)
            mu = math.log(spread)
        else:
            mu = params.mu
        r = self._random
        if r is None:
            return round(shift + _exp(self._gauss(mu, sigma)))  # rng.lognormal(mu, sigma)
        # random.Random.gauss(mu, sigma) written out, the same draws (see
        # _gauss_written_out): the bots draw a delay for nearly every look. The floats are
        # typed so that the compiled build keeps them unboxed.
        # One store of gauss_next per sample (the library stores None, then the spare when
        # it draws): the same value is left there either way.
        spare = self._spare
        z: float | None = r.gauss_next if spare is None else spare["gauss_next"]
        following: float | None = None
        if z is None:
            uniform = self._uniform
            first: float = uniform()
            second: float = uniform()
            x2pi = first * _TWOPI
            g2rad = _sqrt(-2.0 * _log(1.0 - second))
            z = _cos(x2pi) * g2rad
            following = _sin(x2pi) * g2rad
        if spare is None:
            r.gauss_next = following
            return _round(shift + _exp(mu + z * sigma))
        spare["gauss_next"] = following
        return round_half_even(shift + _exp(mu + z * sigma))


class StopItBot(Protocol):
    """What the simulator and the live table need from a Stop it! bot (I-51)."""

    name: str
    seat: int
    reaction: ReactionTimes

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        """React to ``view`` seen at ``now``: None, or a request and its delay in ms."""
        ...


def _kind(card: str) -> str:
    return card.partition("#")[0]


def _colour(kind: str) -> str | None:
    """The colour a kind counts for in an evaluation; None for SUPER."""
    if kind == "SUPER":
        return None
    return kind[5:] if kind[0] == "S" else kind


def sorted_position(hand: list[str], card: str) -> int:
    """Where ``card`` goes to keep the hand sorted (I-8): after its colour's block; a new
    colour, before the stop cards; a stop card, at the right end.

    Found in the hand joined into one string (an id holds no newline), so that the search
    runs in C: the index of a card is the number of newlines before it.

    >>> sorted_position(["red#1", "red#2", "blue#1", "STOP-red#1"], "red#3")
    2
    >>> sorted_position(["red#1", "STOP-red#1"], "green#3")
    1
    >>> sorted_position(["red#1", "blue#1", "red#2", "SUPER#1", "STOP-red#1"], "red#3")
    3
    """
    if card[0] == "S":
        return len(hand)
    if COMPILED:  # native loops; the joined string's C search is the faster interpreted
        # the colour told by two code points (cards.COLOUR_LETTERS; a stop card's id starts
        # with "S", a colour card's never): native compares, where startswith is a call
        first, second = ord(card[0]), ord(card[1])
        for index in range(len(hand) - 1, -1, -1):
            other = hand[index]
            if ord(other[0]) == first and ord(other[1]) == second:  # the colour's last card
                return index + 1
        for index, other in enumerate(hand):
            if other[0] == "S":  # the first stop card
                return index
        return len(hand)
    text = "\n" + "\n".join(hand)
    at = text.rfind("\n" + card[: card.index("#") + 1])  # the last card of the colour
    if at >= 0:
        return text.count("\n", 0, at) + 1
    at = text.find("\nS")  # the first stop card
    return len(hand) if at < 0 else text.count("\n", 0, at)


def sorting_move(hand: list[str]) -> tuple[int, int] | None:
    """A move ``(from, to)`` that joins a split colour block, or None if the hand is sorted."""
    if COMPILED:  # the colours by two code points, as in sorted_position (partition is a call)
        seen: dict[int, int] = {}
        before = -1
        for index, card in enumerate(hand):
            first = ord(card[0])
            if first == 83:  # "S": a stop card
                continue
            colour = first << 8 | ord(card[1])
            if colour != before and colour in seen:
                return index, seen[colour] + 1
            seen[colour] = index
            before = colour
        return None
    last: dict[str, int] = {}
    previous = ""
    for index, card in enumerate(hand):
        kind = _kind(card)
        if kind[0] == "S":
            continue
        if kind != previous and kind in last:
            return index, last[kind] + 1
        last[kind] = index
        previous = kind
    return None


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class _Base(ABC):
    """Shared plumbing: the seat, the seeded generator and the reaction times."""

    name = "base"
    lean_view: ClassVar[bool] = False
    """True: the bot decides from the lean part of its view alone (:meth:`look`), and the
    simulator's table shows it just that (``views.lean_look``, cheaper to build than a
    view). A subclass that reads more of the view says False."""

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        """See :class:`StopItBot`: :meth:`look` at the view's lean part."""
        return self.look(lean_of(view), now)

    @abstractmethod
    def look(self, look: LeanLook, now: int) -> tuple[Request, int] | None:
        """React to the lean part of this seat's view (``views.LeanLook``) seen at ``now``,
        as :meth:`observe`. Read-only: its hand may be the game's own list, to be neither
        changed nor kept (copy what is kept)."""

    def __init__(
        self, seat: int, seed: int, timings: Mapping[Component, Timing] | None = None
    ) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.reaction = ReactionTimes(self.rng, timings)

    def scale_reaction(self, factor: float) -> None:
        """Scale every reaction time by ``factor`` (``heuristic@0.8`` in bot lists)."""
        self.reaction = ReactionTimes(self.rng, scaled_timings(factor))

    def _go(
        self, go_seat: int | None, go_after: int | None, now: int
    ) -> tuple[Request, int] | None:
        """Go when this seat is the restarter (I-15), not before ``go_after`` (I-37)."""
        if go_seat != self.seat:
            return None
        assert go_after is not None
        delay = self.reaction.sample("go")
        if go_after - now > delay:  # max(...), which is a generic call compiled
            delay = go_after - now
        return Go(self.seat, now + delay), delay

    def _insert(self, hand: list[str], now: int, pos: int) -> tuple[Request, int]:
        delay = self.reaction.sample("sort", len(hand))
        if COMPILED:  # the native constructor (actions' module docstring)
            return Insert(self.seat, now + delay, pos), delay
        return new_insert(self.seat, now + delay, pos), delay


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class RandomBot(_Base):
    """Does something legal-looking at random: grabs any top card, inserts anywhere,
    calls or plays stop cards by chance. The baseline the heuristic must beat."""

    name = "random"
    lean_view = True

    def look(self, look: LeanLook, now: int) -> tuple[Request, int] | None:
        phase, tops, hand, held, _, _, go_seat, go_after = look
        if phase == "waiting_go":
            return self._go(go_seat, go_after, now)
        if held is not None and phase in ("running", "interrupted"):
            return self._insert(hand, now, self.rng.below(len(hand) + 1))
        if phase != "running":
            return None
        seat, sample = self.seat, self.reaction.sample
        options: list[tuple[str, int, str]] = []
        for stack, top in enumerate(tops):
            if top is not None:
                options.append(("grab", stack, top))
                if top[0] == "S":
                    options.append(("call", stack, top))
        options += [("play", 0, c) for c in hand if c[0] == "S"]
        if not options:
            return None
        verb, stack, card = options[self.rng.below(len(options))]
        if verb == "grab":
            delay = sample("reach")
            if COMPILED:  # the native constructor (actions' module docstring)
                return Grab(seat, now + delay, stack, card), delay
            return new_grab(seat, now + delay, stack, card), delay
        delay = sample("shout")
        if verb == "call":
            return CallStop(seat, now + delay, stack, card), delay
        return PlayStop(seat, now + delay, card), delay


def evaluation_counts(view: dict[str, JSON], colour: str | None) -> list[int]:
    """Per seat, what an evaluation of ``colour`` (None: superstop) would count now: the
    colour cards in hand plus the held card, which the evaluation waits for (IA-11); stop
    cards never count (I-17)."""
    held = [None if h is None else _kind(h) for h in view["held_cards"]]
    return _totals(view["hand_kinds"], held, colour)


def stop_advantage(totals: list[int], seat: int) -> float:
    """How much an evaluation with these counts hurts the others more than ``seat``: the
    others' mean minus points less seat's own (I-12, I-18; the sorting check is left out,
    as a bot cannot see other hands' order)."""
    low = min(totals)
    hit = totals.count(low)
    mine = 1 if totals[seat] == low else 0
    return (hit - mine) / (len(totals) - 1) - mine


def _totals(
    hand_kinds: list[dict[str, int]], held: list[str | None], colour: str | None
) -> list[int]:
    """Per seat, the count an evaluation of ``colour`` would see; ``held`` are kinds."""
    if colour is None:
        return [
            sum(n for k, n in kinds.items() if k[0] != "S") + (h is not None and h[0] != "S")
            for kinds, h in zip(hand_kinds, held, strict=True)
        ]
    return [kinds.get(colour, 0) + (h == colour) for kinds, h in zip(hand_kinds, held, strict=True)]


class _RowIndexOfId(dict[str, int]):
    """Card id -> the place of its colour in a count row (``cards.count_row``): a colour
    card's or a colour stop card's colour, ``ROW_TOTAL`` for a superstop (it counts every
    colour card, I-18). Each id is worked out the first time it is met (a dict lookup
    later: bots look at every top card and held card many times a game)."""

    def __missing__(self, card: str) -> int:
        colour = _colour(_kind(card))
        index = self[card] = ROW_TOTAL if colour is None else COLOUR_INDEX[colour]
        return index


_ROW_INDEX_OF_ID: Final = _RowIndexOfId()


def row_index(card: str) -> int:
    """``_ROW_INDEX_OF_ID[card]`` told by the id's letters (checked at import against every
    kind): compiled, a few native code-point compares (rule 18), where a lookup in the dict
    subclass is a generic one (the bots look a card up about 700 times a game). The pure
    build keeps the dict, a C lookup there."""
    at = 0
    if card[0] == "S":  # a stop card: STOP-<colour> or SUPER
        if card[1] == "U":
            return ROW_TOTAL
        at = 5
    if card[at] == "r":
        return 0
    if card[at] == "b":
        return 1 if card[at + 1] == "l" else 6
    if card[at] == "y":
        return 2
    if card[at] == "g":
        return 3
    if card[at] == "p":
        return 4
    return 5


if any(row_index(f"{kind}#1") != _ROW_INDEX_OF_ID[f"{kind}#1"] for kind in KINDS) or any(
    row_index(colour + "#1") != i for i, colour in enumerate(COLOURS)
):
    raise RuntimeError("row_index no longer tells the colours of COLOURS")
_UNKNOWN: Final = -2_000_000
"""A standing not worked out yet in a look (no standing is this low)."""
_UNKNOWNS: Final = [_UNKNOWN] * (ROW_TOTAL + 1)
"""A look's standings before any is worked out, copied per look (never changed)."""


def _standing(
    index: int,
    rows: list[list[int]],
    held_cards: list[str | None],
    others: list[int],
    mine: list[int],
) -> int:
    """The fewest cards of the colour at ``index`` of the count rows (``ROW_TOTAL``:
    every colour card) that another seat would show in an evaluation - its hand's, plus
    its held card when that is a colour card (the evaluation waits for it, IA-11; a held
    stop card never counts, I-17) - less this seat's own count; this seat holds no card
    when it asks. Rows are lists of ints, so this is a native loop compiled (it was a
    loop over dicts keyed by kind names).

    An evaluation hurts the others more than this seat (:func:`stop_advantage` > 0) exactly
    when this is < 0: with this seat not among the lowest the advantage is hit / (n - 1) > 0;
    with it among them it is (hit - 1) / (n - 1) - 1 <= 0.
    """
    lowest = 1_000_000
    for other in others:
        count = rows[other][index]
        held = held_cards[other]
        if (
            held is not None
            and held[0] != "S"  # a colour card (cards.STOP_INITIAL)
            and (
                index == ROW_TOTAL
                or (row_index(held) if COMPILED else _ROW_INDEX_OF_ID[held]) == index
            )
        ):
            count += 1
        if count < lowest:
            lowest = count
    return lowest - mine[index]


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class HeuristicBot(_Base):
    """Plays the way a sensible person does.

    - keeps its hand sorted: a grabbed card goes next to its colour, stop cards to the
      right; a split block is mended first;
    - calls a visible stop, or plays one from its hand, when the evaluation hurts the
      others more than itself (:func:`stop_advantage` > 0);
    - otherwise snatches a visible stop card (so nobody can call it against it now, and it
      can play it later), else grabs the colour in which it stands lowest compared to the
      others, so that it is never the minimum when a stop turns up.

    It remembers the hand it expects after its own insert or move, so that it checks the
    order only when something else changed the hand (an automatic insert at the end of a
    sort grace, I-35): simulations observe bots hundreds of times per game.
    """

    name = "heuristic"
    lean_view = True

    def __init__(
        self, seat: int, seed: int, timings: Mapping[Component, Timing] | None = None
    ) -> None:
        super().__init__(seat, seed, timings)
        self._expect: list[str] = []
        self._stops: list[str] = []
        """The stop cards in ``_expect``, in hand order."""
        self._order = [(seat + offset) % 5 for offset in range(5)]
        self._others: list[int] = []
        """The other seats (set on the first grab, when the seat count is known)."""

    def look(self, look: LeanLook, now: int) -> tuple[Request, int] | None:
        phase, tops, hand, held, hand_kinds, held_cards, go_seat, go_after = look
        if phase == "waiting_go":
            return self._go(go_seat, go_after, now)
        seat = self.seat
        if held is not None and phase != "game_over":
            pos = sorted_position(hand, held)
            stop = held[0] == "S"  # a stop card (cards.STOP_INITIAL)
            if stop or hand != self._expect:
                self._stops = [c for c in hand if c[0] == "S"]
                if stop:
                    self._stops.append(held)
            expect = hand.copy()
            expect.insert(pos, held)
            self._expect = expect
            delay = self.reaction.sample("sort", len(hand))
            if COMPILED:  # the native constructor (actions' module docstring)
                return Insert(seat, now + delay, pos), delay
            return new_insert(seat, now + delay, pos), delay
        if phase != "running":
            return None
        if hand != self._expect:
            self._stops = [c for c in hand if c[0] == "S"]
            fix = sorting_move(hand)
            if fix is not None:
                expect = list(hand)
                expect.insert(fix[1], expect.pop(fix[0]))
                self._expect = expect
                delay = self.reaction.sample("sort", len(hand))
                return Move(seat, now + delay, fix[0], fix[1]), delay
            self._expect = hand.copy()  # the look's hand may be the game's own list
        others = self._others
        if len(others) != len(hand_kinds) - 1:
            others = self._others = [s for s in range(len(hand_kinds)) if s != seat]
        # the counts as rows of ints (views.KindCounts; a view from elsewhere: made here)
        # (a type test, then the attribute: getattr with a default is a slower generic call)
        rows: list[list[int]] | None = (
            hand_kinds.rows if type(hand_kinds) is KindCounts else getattr(hand_kinds, "rows", None)
        )
        if rows is None:
            rows = [count_row(counts) for counts in hand_kinds]
        mine = rows[seat]
        # row index (a colour; ROW_TOTAL: superstop) -> the fewest cards of it another
        # seat has, less this seat's own: < 0 is exactly stop_advantage > 0 (see
        # _standing), and it is also what a grab of the colour is worth; each is worked
        # out once per look.
        standing = _UNKNOWNS.copy()
        snatch = None
        for stack, card in enumerate(tops):
            if card is not None and card[0] == "S":  # a stop card (cards.STOP_INITIAL)
                index = row_index(card) if COMPILED else _ROW_INDEX_OF_ID[card]
                value = standing[index]
                if value == _UNKNOWN:
                    value = standing[index] = _standing(index, rows, held_cards, others, mine)
                if value < 0:
                    delay = self.reaction.sample("shout")
                    return CallStop(seat, now + delay, stack, card), delay
                if snatch is None:
                    snatch = stack
        for card in self._stops:
            index = row_index(card) if COMPILED else _ROW_INDEX_OF_ID[card]
            value = standing[index]
            if value == _UNKNOWN:
                value = standing[index] = _standing(index, rows, held_cards, others, mine)
            if value < 0:
                delay = self.reaction.sample("shout")
                return PlayStop(seat, now + delay, card), delay
        choice = (
            snatch
            if snatch is not None
            else self._best_grab(tops, standing, rows, held_cards, others, mine)
        )
        if choice is None:
            return None
        delay = self.reaction.sample("reach")
        if COMPILED:  # the native constructor (actions' module docstring)
            return Grab(seat, now + delay, choice, tops[choice]), delay
        return new_grab(seat, now + delay, choice, tops[choice]), delay

    def _best_grab(
        self,
        tops: list[str | None],
        standing: list[int],
        rows: list[list[int]],
        held_cards: list[str | None],
        others: list[int],
        mine: list[int],
    ) -> int | None:
        """The colour card worth most: the lower this seat stands in its colour compared to
        the lowest other seat (``standing``, filled in as colours come up), the more; far
        ahead, another card of it is nearly worthless. Ties go to the stack that comes first
        counting from this seat's own offset, so that equal bots do not all reach for the
        same stack. No top is a stop card here (the bot would snatch it)."""
        # a list either way: compiled, a list|range union is iterated generically
        order = self._order if len(tops) == 5 else list(range(len(tops)))
        best, best_value = None, -1_000_000
        for stack in order:
            card = tops[stack]
            if card is None:
                continue
            index = row_index(card) if COMPILED else _ROW_INDEX_OF_ID[card]
            value = standing[index]
            if value == _UNKNOWN:
                value = standing[index] = _standing(index, rows, held_cards, others, mine)
            if value > best_value:
                best, best_value = stack, value
        return best


def _factory(cls: type[_Base]) -> Any:
    def make(seat: int, seed: int) -> _Base:
        return cls(seat, seed)

    return make


BOTS: Final[dict[str, type[_Base]]] = {"random": RandomBot, "heuristic": HeuristicBot}
for _name, _cls in BOTS.items():
    register_bot("stopit", _name, _factory(_cls))


def scaled_timings(factor: float) -> dict[Component, Timing]:
    """The I-52 defaults with every shift, median and per-card term times ``factor``.

    >>> scaled_timings(0.5)["reach"]
    Timing(shift=100.0, median=200.0, sigma=0.2, per_card=0.0)
    """
    if not factor > 0:
        raise ValueError(f"a reaction-time factor must be > 0, not {factor}")
    return {
        name: Timing(t.shift * factor, t.median * factor, t.sigma, t.per_card * factor)
        for name, t in DEFAULT_TIMINGS.items()
    }


def make_stopit_bot(spec: str, seat: int, seed: int) -> StopItBot:
    """A bot from ``name`` or ``name@factor``: the factor scales its reaction times (I-52
    per-bot parameters; ``heuristic@0.8`` reacts 20% faster). ValueError if unknown."""
    bot: _Base = make_bot("stopit", spec, seat, seed)
    return bot


__all__ = [
    "DEFAULT_TIMINGS",
    "HeuristicBot",
    "RandomBot",
    "ReactionTimes",
    "StopItBot",
    "Timing",
    "evaluation_counts",
    "make_stopit_bot",
    "scaled_timings",
    "sorted_position",
    "sorting_move",
    "stop_advantage",
]
