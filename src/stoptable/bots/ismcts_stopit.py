"""ISMCTS for Stop it!: searched at each observation, in real time, one level deep.

A Stop it! bot is observed (I-51) rather than asked to choose among legal actions, so the
search runs inside ``observe``: when the game is running, the bot holds no card and its
hand is in order, the candidates are the heuristic's own request, a grab of every other
visible top, a call of every visible stop card and a play of every stop card in hand.
Each iteration samples a determinization
(:func:`stoptable.games.stopit.sample.determinize`: hand orders, ids and the cards under
the tops) and plays every candidate on it with the same seeds: the candidate arrives after
its reaction time, every seat (this one included, afterwards) plays the heuristic bot on a
small discrete-event loop of its own, the model of the table, until the next evaluation is
over (or :data:`HORIZON_MS` later). The reward is how many minus points the evaluation
cost the others (their mean) more than this seat. The tree is the root alone: after its
first request the bot's next choice is a new observation, searched anew.

Everything else (inserts, sorting moves, Go) is the heuristic's.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable, Sequence
from contextlib import suppress
from typing import Any, Final

from stoptable.bots.base import register_bot
from stoptable.bots.ismcts import Budget, parse_budget, search
from stoptable.bots.stopit import HeuristicBot
from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import JSON
from stoptable.core.rng import Rng
from stoptable.games.stopit.actions import CallStop, Grab, Insert, Move, PlayStop, Request
from stoptable.games.stopit.sample import determinize
from stoptable.games.stopit.state import StopItState

HORIZON_MS: Final = 5_000
"""The longest a rollout looks ahead when no evaluation comes."""
DEFAULT_BUDGET: Final = Budget(iterations=48)
"""Walks per searched observation (shared among the candidates)."""

_OBSERVE: Final = 0
_ARRIVAL: Final = 1


class ItWalk:
    """One sampled table, with one candidate request of the searching seat in flight."""

    __slots__ = ("bots", "evaluations", "limit", "queue", "seat", "seq", "start", "state")

    def __init__(self, state: StopItState, bots: list[HeuristicBot], seat: int) -> None:
        self.state = state
        self.bots = bots
        self.seat = seat
        self.queue: list[tuple[int, int, int, int, Request | None]] = []
        self.seq = 0
        self.start = state.scores
        self.evaluations = len(state.removed), state.last_evaluation
        self.limit = state.clock + HORIZON_MS

    def decision(self) -> tuple[int, Sequence[Any]] | None:
        return None  # one level: the next choice is a new observation

    def _push(self, t: int, kind: int, seat: int, request: Request | None) -> None:
        self.seq += 1
        heapq.heappush(self.queue, (t, self.seq, kind, seat, request))

    def apply(self, action: Any) -> None:
        self._push(action.t, _ARRIVAL, self.seat, action)
        now = self.state.clock
        for other, bot in enumerate(self.bots):
            if other != self.seat:
                self._push(now + bot.reaction.sample("perceive"), _OBSERVE, other, None)

    def rollout(self) -> list[float]:
        state, queue, bots = self.state, self.queue, self.bots
        busy = [False] * len(bots)
        busy[self.seat] = True
        before = state.last_evaluation
        while state.phase != "game_over" and queue and state.clock <= self.limit:
            timer = state.next_step()
            if timer is not None and timer.at is not None and timer.at <= queue[0][0]:
                state.run_step(timer)
            else:
                t, _, kind, seat, request = heapq.heappop(queue)
                if kind == _ARRIVAL:
                    assert request is not None
                    busy[seat] = False
                    with suppress(IllegalAction):  # a lost race (stale), as in the table
                        state.apply(request)
                    self._observe(seat, t, busy)
                    for other in range(len(bots)):
                        if not busy[other] and other != seat:
                            busy[other] = True
                            wait = bots[other].reaction.sample("perceive")
                            self._push(t + wait, _OBSERVE, other, None)
                else:
                    busy[seat] = False
                    self._observe(seat, t, busy)
            if state.last_evaluation is not before and state.phase != "interrupted":
                break
        gains = [now - then for now, then in zip(state.scores, self.start, strict=True)]
        total, n = sum(gains), len(gains)
        return [math.tanh(((total - g) / (n - 1) - g) / 2) for g in gains]

    def _observe(self, seat: int, t: int, busy: list[bool]) -> None:
        if busy[seat]:
            return
        answer = self.bots[seat].observe(self.state.view(seat), max(t, self.state.clock))
        if answer is not None:
            request, _ = answer
            busy[seat] = True
            self._push(request.t, _ARRIVAL, seat, request)


class ItSearch:
    """The :class:`~stoptable.bots.ismcts.Search` glue of Stop it!."""

    def __init__(self, seats: int) -> None:
        self.seats = seats

    def default(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        return legal[0]  # the heuristic's own request comes first

    def walk(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> ItWalk | None:
        try:
            state = determinize(view, seat, rng)
        except ValueError:
            return None
        bots = [HeuristicBot(k, rng.below(2**31)) for k in range(self.seats)]
        return ItWalk(state, bots, seat)

    def key(self, action: Any) -> Hashable:
        return (
            type(action).__name__,
            getattr(action, "stack", None),
            getattr(action, "card", None),
        )


class IsmctsBot(HeuristicBot):
    """The heuristic bot, with its choices of grab, call and stop play searched."""

    name = "ismcts"
    lean_view = False  # the search reads the whole view (determinize, ``seats``)
    thinks_long = True
    """A searched observation takes tens of ms: a server asks it in a worker thread."""

    def __init__(self, seat: int, seed: int, budget: Budget | None = None) -> None:
        super().__init__(seat, seed)
        self.budget = budget or DEFAULT_BUDGET
        self.search_rng = Rng(seed ^ 0x5EED)
        self._search: ItSearch | None = None

    def observe(self, view: dict[str, JSON], now: int) -> tuple[Request, int] | None:
        answer = super().observe(view, now)
        if (
            answer is None
            or view["phase"] != "running"
            or view["held"] is not None
            or isinstance(answer[0], Insert | Move)
        ):
            return answer
        candidates: list[tuple[Request, int]] = [answer]
        seat, sample = self.seat, self.reaction.sample
        for stack, card in enumerate(view["tops"]):
            if card is None:
                continue
            delay = sample("reach")
            candidates.append((Grab(seat, now + delay, stack, card), delay))
            if card[0] == "S":
                delay = sample("shout")
                candidates.append((CallStop(seat, now + delay, stack, card), delay))
        for card in view["hand"]:
            if card[0] == "S":
                delay = sample("shout")
                candidates.append((PlayStop(seat, now + delay, card), delay))
        if self._search is None:
            self._search = ItSearch(int(view["seats"]))
        requests = [c[0] for c in candidates]
        choice, _ = search(self._search, view, seat, requests, self.budget, self.search_rng)
        return candidates[requests.index(choice)]


def make(seat: int, seed: int, budget: str | None = None) -> IsmctsBot:
    """The registry's factory: ``ismcts`` or ``ismcts:<budget>`` (:func:`parse_budget`)."""
    return IsmctsBot(seat, seed, parse_budget(budget) if budget else None)


register_bot("stopit", "ismcts", make)
