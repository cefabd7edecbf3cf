"""Stop bots: ``random`` and ``heuristic`` (registered for ``stoptable.bots.base``).

A bot sees exactly what a seat sees: the view of ``state.view(seat)`` and the legal actions
of that seat. In the synchronous driver (S-61) an interjection or cancel *offer* is a
decision too; its legal list holds the interjections or cancels plus
:class:`~stoptable.core.driver.Decline`, the driver-only "no thanks" of S-58 that never
reaches the engine or a record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

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

CARD_COST: Final = 12.0
"""Rough minus points of an unknown card: the 112-card deck averages about 13.3 points."""


class RandomBot:
    """Uniform over the legal actions (an offer's :class:`Decline` included)."""

    name = "random"
    reads_view = False

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        return legal[self.rng.below(len(legal))]


def _nine(view: dict[str, JSON]) -> bool:
    """Whether every 6/9 is worth 9 (``six_nine_value``, S-4): the view's option overrides
    decide, else the named preset's value (a house rule may differ from its preset)."""
    options = view.get("options")
    if isinstance(options, dict) and "six_nine_value" in options:
        return bool(options["six_nine_value"] == "nine")
    preset = PRESETS.get(str(view.get("ruleset")))
    return preset is not None and preset.six_nine_value == "nine"


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
        decline = next((a for a in legal if isinstance(a, Decline)), None)
        if decline is not None:
            return self._offer(view, legal, decline)
        pending = view.get("pending")
        if isinstance(pending, dict) and pending.get("victim") == view["seat"]:
            return self._respond(view, legal, str(pending["kind"]))
        return self._turn(view, legal)

    # ---------------------------------------------------------------- helpers

    def _hand(self, view: dict[str, JSON]) -> list[Card]:
        hand = view["hand"]
        assert isinstance(hand, list)
        return [parse_card(code) for code in hand]

    def _sizes(self, view: dict[str, JSON]) -> list[int]:
        sizes = view["hand_sizes"]
        assert isinstance(sizes, list)
        return [int(s) for s in sizes]

    def _noise(self) -> float:
        return self.rng.random() * 1e-3

    def _received(self, view: dict[str, JSON], mode: str | None, target: int | None) -> int:
        """The size of the hand this seat would hold after an exchange (S-41)."""
        me = int(str(view["seat"]))
        sizes = self._sizes(view)
        n = len(sizes)
        if mode == "left":
            return sizes[(me - 1) % n]
        if mode == "right":
            return sizes[(me + 1) % n]
        return sizes[target] if target is not None else sizes[me]

    # ----------------------------------------------------------------- offers

    def _offer(self, view: dict[str, JSON], legal: Sequence[Any], decline: Decline) -> Any:
        hand = self._hand(view)
        for action in legal:
            if isinstance(action, Interject):
                card = action.card
                zeros = sum(1 for c in hand if c is card)
                if card.rank != 0 or len(hand) == 1 or zeros > 1:
                    return action
            elif isinstance(action, Cancel):
                pending = view.get("pending")
                if not isinstance(pending, dict):
                    continue
                me = int(str(view["seat"]))
                exchanger = pending.get("exchanger")
                mode = pending.get("mode")
                target = pending.get("target")
                if mode == "swap" and me != exchanger:
                    received = self._sizes(view)[int(str(exchanger))]
                else:
                    received = self._received(
                        view, str(mode), None if target is None else int(str(target))
                    )
                if received > len(hand) - 1:
                    return action
        return decline

    # -------------------------------------------------------------- responses

    def _respond(self, view: dict[str, JSON], legal: Sequence[Any], kind: str) -> Any:
        nine = _nine(view)
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

    def _turn(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        nine = _nine(view)
        hand = self._hand(view)
        sizes = self._sizes(view)
        me = int(str(view["seat"]))
        nxt = sizes[(me + 1) % len(sizes)]
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
            score = self._score(hand, cards, mode, target, view, nine, nxt)
            if score > best_score:
                best, best_score = action, score
        if best is not None:
            return best
        if fallback is not None:
            return fallback
        return legal[self.rng.below(len(legal))]

    def _score(
        self,
        hand: list[Card],
        cards: tuple[Card, ...],
        mode: str | None,
        target: int | None,
        view: dict[str, JSON],
        nine: bool,
        nxt: int,
    ) -> float:
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
            received = self._received(view, mode, target)
            score += (left - received) * CARD_COST
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        score += 0.5 * sum(1 for c in rest if c.colour == card.colour)
        return score + self._noise()


register_bot("stop", "random", RandomBot)
register_bot("stop", "heuristic", HeuristicBot)
