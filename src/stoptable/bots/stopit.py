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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from stoptable.bots.base import register_bot
from stoptable.core.protocol import JSON
from stoptable.core.rng import Rng
from stoptable.games.stopit.requests import CallStop, Go, Grab, Insert, Move, PlayStop, Request

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

    __slots__ = ("_lognormal", "_params", "rng", "timings")

    def __init__(self, rng: Rng, timings: Mapping[Component, Timing] | None = None) -> None:
        merged: dict[Component, Timing] = dict(DEFAULT_TIMINGS)
        if timings:
            merged.update(timings)
        self.rng = rng
        self.timings = merged
        self._lognormal = rng.lognormal
        self._params = {n: (t.shift, t.median, t.sigma, t.per_card) for n, t in merged.items()}

    def sample(self, component: Component, hand_size: int = 0) -> int:
        """One delay in whole ms for ``component`` (``hand_size`` matters only for sort)."""
        shift, median, sigma, per_card = self._params[component]
        spread = median + per_card * hand_size - shift
        if spread <= 0 or sigma == 0:
            return round(shift + max(spread, 0.0))
        return round(shift + self._lognormal(math.log(spread), sigma))


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

    >>> sorted_position(["red#1", "red#2", "blue#1", "STOP-red#1"], "red#3")
    2
    >>> sorted_position(["red#1", "STOP-red#1"], "green#3")
    1
    """
    kind = _kind(card)
    if kind[0] == "S":
        return len(hand)
    first_stop = len(hand)
    for index in range(len(hand) - 1, -1, -1):
        other = _kind(hand[index])
        if other == kind:
            return index + 1
        if other[0] == "S":
            first_stop = index
    return first_stop


def sorting_move(hand: list[str]) -> tuple[int, int] | None:
    """A move ``(from, to)`` that joins a split colour block, or None if the hand is sorted."""
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


class _Base:
    """Shared plumbing: the seat, the seeded generator and the reaction times."""

    name = "base"

    def __init__(
        self, seat: int, seed: int, timings: Mapping[Component, Timing] | None = None
    ) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.reaction = ReactionTimes(self.rng, timings)

    def _go(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        """Go when this seat is the restarter (I-15), not before ``go_after`` (I-37)."""
        if view["go_seat"] != self.seat:
            return None
        delay = max(self.reaction.sample("go"), int(view["go_after"]) - now)
        return Go(self.seat, now + delay), delay

    def _insert(self, view: dict[str, JSON], now: int, pos: int) -> tuple[Request, int]:
        delay = self.reaction.sample("sort", len(view["hand"]))
        return Insert(self.seat, now + delay, pos), delay


class RandomBot(_Base):
    """Does something legal-looking at random: grabs any top card, inserts anywhere,
    calls or plays stop cards by chance. The baseline the heuristic must beat."""

    name = "random"

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        phase = view["phase"]
        if phase == "waiting_go":
            return self._go(view, now)
        held = view["held"]
        if held is not None and phase in ("running", "interrupted"):
            return self._insert(view, now, self.rng.below(len(view["hand"]) + 1))
        if phase != "running":
            return None
        seat, sample = self.seat, self.reaction.sample
        options: list[tuple[str, int, str]] = []
        for stack, top in enumerate(view["tops"]):
            if top is not None:
                options.append(("grab", stack, top))
                if top[0] == "S":
                    options.append(("call", stack, top))
        options += [("play", 0, c) for c in view["hand"] if c[0] == "S"]
        if not options:
            return None
        verb, stack, card = options[self.rng.below(len(options))]
        if verb == "grab":
            delay = sample("reach")
            return Grab(seat, now + delay, stack, card), delay
        delay = sample("shout")
        if verb == "call":
            return CallStop(seat, now + delay, stack, card), delay
        return PlayStop(seat, now + delay, card), delay


def colour_counts(view: dict[str, JSON]) -> list[dict[str, int]]:
    """Each seat's colour-card count per colour, the held cards included (they will be in
    the hand by the evaluation, IA-11); stop cards never count (I-17)."""
    result: list[dict[str, int]] = []
    for kinds, held in zip(view["hand_kinds"], view["held_cards"], strict=True):
        counts = {c: n for c, n in kinds.items() if c[0] != "S"}
        if held is not None:
            kind = _kind(held)
            if kind[0] != "S":
                counts[kind] = counts.get(kind, 0) + 1
        result.append(counts)
    return result


def stop_advantage(counts: list[dict[str, int]], seat: int, colour: str | None) -> float:
    """How much an evaluation of ``colour`` (None: superstop) hurts the others more than
    ``seat``: the others' mean minus points minus seat's own (I-12, I-18)."""
    if colour is None:
        totals = [sum(c.values()) for c in counts]
    else:
        totals = [c.get(colour, 0) for c in counts]
    low = min(totals)
    hits = [1.0 if n == low else 0.0 for n in totals]
    mine = hits[seat]
    others = (sum(hits) - mine) / (len(hits) - 1)
    return others - mine


class HeuristicBot(_Base):
    """Plays the way a sensible person does.

    - keeps its hand sorted: a grabbed card goes next to its colour, stop cards to the
      right; a split block is mended first;
    - calls a visible stop, or plays one from its hand, when the evaluation hurts the
      others more than itself (:func:`stop_advantage` > 0);
    - otherwise snatches a visible stop card (so nobody can call it against it now, and it
      can play it later), else grabs the colour in which it stands lowest compared to the
      others, so that it is never the minimum when a stop turns up.
    """

    name = "heuristic"

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        phase = view["phase"]
        if phase == "waiting_go":
            return self._go(view, now)
        held = view["held"]
        hand: list[str] = view["hand"]
        if held is not None and phase in ("running", "interrupted"):
            return self._insert(view, now, sorted_position(hand, held))
        if phase != "running":
            return None
        seat, sample = self.seat, self.reaction.sample
        fix = sorting_move(hand)
        if fix is not None:
            delay = sample("sort", len(hand))
            return Move(seat, now + delay, fix[0], fix[1]), delay
        counts = colour_counts(view)
        tops: list[str | None] = view["tops"]
        stop_tops = [(s, c) for s, c in enumerate(tops) if c is not None and c[0] == "S"]
        for stack, card in stop_tops:
            if stop_advantage(counts, seat, _colour(_kind(card))) > 0:
                delay = sample("shout")
                return CallStop(seat, now + delay, stack, card), delay
        for card in hand:
            if card[0] == "S" and stop_advantage(counts, seat, _colour(_kind(card))) > 0:
                delay = sample("shout")
                return PlayStop(seat, now + delay, card), delay
        choice = self._best_grab(counts, tops, stop_tops)
        if choice is None:
            return None
        delay = sample("reach")
        return Grab(seat, now + delay, choice, tops[choice]), delay

    def _best_grab(
        self,
        counts: list[dict[str, int]],
        tops: list[str | None],
        stop_tops: list[tuple[int, str]],
    ) -> int | None:
        if stop_tops:
            return stop_tops[0][0]
        mine = counts[self.seat]
        best, best_value = None, -math.inf
        for stack, card in enumerate(tops):
            if card is None:
                continue
            colour = _kind(card)
            own = mine.get(colour, 0)
            lowest_other = min(
                (c.get(colour, 0) for s, c in enumerate(counts) if s != self.seat), default=0
            )
            # The lower this seat stands in the colour, the more a card of it is worth;
            # far ahead, another card of it is nearly worthless.
            value = float(lowest_other - own) + self.rng.random() * 0.1
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

__all__ = [
    "DEFAULT_TIMINGS",
    "HeuristicBot",
    "RandomBot",
    "ReactionTimes",
    "StopItBot",
    "Timing",
    "colour_counts",
    "sorted_position",
    "sorting_move",
    "stop_advantage",
]
