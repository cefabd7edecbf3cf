"""Stop bots: ``random`` and ``heuristic`` (registered for ``stoptable.bots.base``).

A bot sees exactly what a seat sees: the view of ``state.view(seat)`` and the legal actions
of that seat. In the synchronous driver (S-61) an interjection or cancel *offer* is a
decision too; its legal list holds the interjections or cancels plus
:class:`~stoptable.core.driver.Decline`, the driver-only "no thanks" of S-58 that never
reaches the engine or a record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol

from mypy_extensions import mypyc_attr

from stoptable.bots.base import register_bot
from stoptable.core.driver import Decline
from stoptable.core.protocol import JSON
from stoptable.core.rng import Rng
from stoptable.games.stop.actions import (
    Accept,
    CallAchtung,
    CallStop,
    Cancel,
    Draw,
    Interject,
    Pass,
    Play,
)
from stoptable.games.stop.cards import DRAWX, EXCH, SKIP, Card, parse_card
from stoptable.games.stop.ruleset import PRESETS

if TYPE_CHECKING:
    from stoptable.games.stop.state import StopState

CARD_COST: Final = 12.0
"""Rough minus points of an unknown card: the 112-card deck averages about 13.3 points."""


class RandomBot:
    """Uniform over the legal actions (an offer's :class:`Decline` included)."""

    name = "random"
    reads_view = False
    picks_listed = True
    """:meth:`act` returns an object of ``legal`` itself, never a copy or anything else: a
    driver may apply it without looking for it in the list (``StopDriver.play_round``)."""
    picks_uniform = True
    """:meth:`act` is exactly ``legal[int(self.uniform() * len(legal))]``: a driver may draw
    the pick itself (``StopDriver._play_lean``) instead of calling :meth:`act`. A subclass
    that picks otherwise must set it False."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.uniform = self.rng.random_function()
        """``self.rng``'s own draw: ``int(uniform() * n)`` is ``rng.below(n)``, one call less."""

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        return legal[int(self.uniform() * len(legal))]


def _nine(view: dict[str, JSON]) -> bool:
    """Whether every 6/9 is worth 9 (``six_nine_value``, S-4): the view's option overrides
    decide, else the named preset's value (a house rule may differ from its preset)."""
    options = view.get("options")
    if isinstance(options, dict) and "six_nine_value" in options:
        return bool(options["six_nine_value"] == "nine")
    preset = PRESETS.get(str(view.get("ruleset")))
    return preset is not None and preset.six_nine_value == "nine"


class Seen(NamedTuple):
    """What the heuristic reads of a seat's view: its hand, every hand size, the pending
    effect, and whether 6/9 are worth 9. A view gives it (:meth:`HeuristicBot.act`), and so
    does a state read only where the view would show it (:meth:`HeuristicBot.act_state`,
    for search rollouts, where a JSON view per decision cost more than the rest)."""

    me: int
    hand: list[Card]
    sizes: list[int]
    pending: PendingLike | None
    nine: bool


class PendingLike(Protocol):
    """The fields of a pending effect the heuristic reads (S-63 shows them all)."""

    @property
    def kind(self) -> str: ...
    @property
    def victim(self) -> int | None: ...
    @property
    def exchanger(self) -> int | None: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def target(self) -> int | None: ...


class _ViewPending(NamedTuple):
    kind: str
    victim: int | None
    exchanger: int | None
    mode: str | None
    target: int | None


def _int_or_none(value: JSON) -> int | None:
    return None if value is None else int(str(value))


def seen_of_view(view: dict[str, JSON]) -> Seen:
    """:class:`Seen` from a seat's JSON view."""
    hand = view["hand"]
    sizes = view["hand_sizes"]
    assert isinstance(hand, list) and isinstance(sizes, list)
    raw = view.get("pending")
    pending = None
    if isinstance(raw, dict):
        mode = raw.get("mode")
        pending = _ViewPending(
            str(raw["kind"]),
            _int_or_none(raw.get("victim")),
            _int_or_none(raw.get("exchanger")),
            None if mode is None else str(mode),
            _int_or_none(raw.get("target")),
        )
    return Seen(
        int(str(view["seat"])),
        [parse_card(str(code)) for code in hand],
        [int(str(s)) for s in sizes],
        pending,
        _nine(view),
    )


def seen_of_state(state: StopState, seat: int) -> Seen:
    """:class:`Seen` of ``seat`` read from ``state``: the same facts as its view (its own
    hand, the hand sizes, the public pending effect, the rules) and nothing else."""
    return Seen(
        seat,
        list(state.hands[seat]),
        [len(h) for h in state.hands],
        state.pending,
        state.rules.six_nine_value == "nine",
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed by ismcts and tests
class HeuristicBot:
    """A rule-of-thumb player that reads only its view.

    It interjects whenever it can (but keeps its only 0 of a colour for defence), answers
    a Draw Two with a 2 and a Skip with a Skip, defends Draw Two and Draw X with a 0,
    sheds its most costly cards first, prefers attacks when the next seat is close to
    going out, picks the Card Exchange direction or ja swap target that hands it the
    smallest hand (hand sizes are public, S-63), never draws while it can play, and always
    makes its calls (the legal list already carries the calls that avoid a penalty).
    """

    name = "heuristic"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)

    # ------------------------------------------------------------------ entry

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        calls = [a for a in legal if isinstance(a, CallAchtung | CallStop)]
        if calls:
            return calls[0]
        return self.decide(seen_of_view(view), legal)

    def act_state(self, state: StopState, legal: Sequence[Any]) -> Any:
        """The choice :meth:`act` makes on ``state.view(self.seat)``, read from the state
        without building the view (a test holds the two equal)."""
        for a in legal:
            if isinstance(a, CallAchtung | CallStop):
                return a
        return self.decide(seen_of_state(state, self.seat), legal)

    def decide(self, seen: Seen, legal: Sequence[Any]) -> Any:
        """The choice among ``legal`` (no call among them) from what the seat sees."""
        decline = next((a for a in legal if isinstance(a, Decline)), None)
        if decline is not None:
            return self._offer(seen, legal, decline)
        pending = seen.pending
        if pending is not None and pending.victim == seen.me:
            return self._respond(seen, legal, pending.kind)
        return self._turn(seen, legal)

    # ---------------------------------------------------------------- helpers

    def _noise(self) -> float:
        return self.rng.random() * 1e-3

    def _received(self, seen: Seen, mode: str | None, target: int | None) -> int:
        """The size of the hand this seat would hold after an exchange (S-41)."""
        me = seen.me
        sizes = seen.sizes
        n = len(sizes)
        if mode == "left":
            return sizes[(me - 1) % n]
        if mode == "right":
            return sizes[(me + 1) % n]
        return sizes[target] if target is not None else sizes[me]

    # ----------------------------------------------------------------- offers

    def _offer(self, seen: Seen, legal: Sequence[Any], decline: Decline) -> Any:
        hand = seen.hand
        for action in legal:
            if isinstance(action, Interject):
                card = action.card
                zeros = sum(1 for c in hand if c is card)
                if card.rank != 0 or len(hand) == 1 or zeros > 1:
                    return action
            elif isinstance(action, Cancel):
                pending = seen.pending
                if pending is None:
                    continue
                me = seen.me
                exchanger = pending.exchanger
                mode = pending.mode
                target = pending.target
                if mode == "swap" and me != exchanger:
                    assert exchanger is not None
                    received = seen.sizes[exchanger]
                else:
                    received = self._received(seen, str(mode), target)
                if received > len(hand) - 1:
                    return action
        return decline

    # -------------------------------------------------------------- responses

    def _respond(self, seen: Seen, legal: Sequence[Any], kind: str) -> Any:
        nine = seen.nine
        plays = [a for a in legal if isinstance(a, Play)]
        extend = [a for a in plays if a.card.rank != 0]
        zeros = [a for a in plays if a.card.rank == 0]
        if kind in ("draw2", "skip") and extend:
            return max(extend, key=lambda a: a.card.value(nine) + self._noise())
        if kind != "skip" and zeros:
            return zeros[0]
        accepts = [a for a in legal if isinstance(a, Accept)]
        if len(accepts) > 1 or (accepts and accepts[0].reveal_play is not None):
            # ja Draw X: the revealed card is shed and its value drawn (S-44).
            def cost(a: Accept) -> float:
                card = a.reveal_play
                assert card is not None
                count = 2 if card.rank == 2 else card.value(nine)
                return count * CARD_COST - card.value(nine) + self._noise()

            return min(accepts, key=cost)
        if accepts:
            return accepts[0]
        return legal[0]

    # ------------------------------------------------------------ normal turn

    def _turn(self, seen: Seen, legal: Sequence[Any]) -> Any:
        hand = seen.hand
        sizes = seen.sizes
        nxt = sizes[(seen.me + 1) % len(sizes)]
        best: Any = None
        best_score = -CARD_COST  # what a draw costs
        fallback: Any = None
        for action in legal:
            if isinstance(action, Draw | Pass):
                fallback = action
                continue
            if isinstance(action, Play):
                cards = action.cards
                mode, target = action.mode, action.target
            elif isinstance(action, Interject):
                cards, mode, target = (action.card,), None, None
            else:
                continue
            score = self._score(seen, hand, cards, mode, target, nxt)
            if score > best_score:
                best, best_score = action, score
        if best is not None:
            return best
        if fallback is not None:
            return fallback
        return legal[self.rng.below(len(legal))]

    def _score(
        self,
        seen: Seen,
        hand: list[Card],
        cards: tuple[Card, ...],
        mode: str | None,
        target: int | None,
        nxt: int,
    ) -> float:
        nine = seen.nine
        card = cards[-1]
        left = len(hand) - len(cards)
        score = float(sum(c.value(nine) for c in cards))
        if left == 0:
            return 1000.0
        if left == 1:
            score += 15.0
        if card.rank == 0:
            score -= 8.0  # a 0 is worth keeping for defence (S-31)
        if card.rank in (2, SKIP, DRAWX):
            score += 30.0 if nxt <= 2 else 4.0
        if card.rank == EXCH:
            received = self._received(seen, mode, target)
            score += (left - received) * CARD_COST
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        score += 0.5 * sum(1 for c in rest if c.colour == card.colour)
        return score + self._noise()


register_bot("stop", "random", RandomBot)
register_bot("stop", "heuristic", HeuristicBot)
