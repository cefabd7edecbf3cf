"""ISMCTS for Stop: sampling, walking a sample under the S-61 driver, rollouts and rewards.

A determinization is :func:`stoptable.games.stop.sample.determinize` of the bot's view,
dealt by the :class:`~stoptable.games.stop.sample.Belief` that
:func:`~stoptable.games.stop.sample.infer` reads from the public log and from what the bot
remembers of its earlier views (a :class:`~stoptable.games.stop.sample.SeatMemory` fed
every view it is shown, forced moves included, so that it knows the hand it gives away in
a Card Exchange); uniform hands made the search plan against hands nobody could hold.
The walk runs it in the game's own :class:`~stoptable.games.stop.driver.StopDriver`, so
interjection and cancel offers are decisions in the tree like turns are. The root is the
decision the bot was asked: offers to seats before it in the S-61 order were declined in
the real game, so the walk declines them in the sample too. Calls (S-26, S-28) are made
without search, as the heuristic makes them: not making one only costs a penalty.

The horizon is the end of the round; each seat's reward is how far its round score (minus
points, lower is better) is below the others' mean, scaled into [-1, 1] (``edge``). The
rollout policy is the heuristic bot for every seat, reading the sampled state directly
(:class:`RolloutBot`). The root decision runs in two stages (``search(race=True)``): with
one stage the search was level with the heuristic (-0.47 [-3.55, +2.60] minus points a
round over 400 deals), because it took the luckiest of several noisy means for an
improvement; with two, at the default 240 iterations, it beats it by +4.39 [+2.14, +6.64]
over 600 deals (docs/tournaments.md has the runs).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Final

from stoptable.bots.base import register_bot
from stoptable.bots.ismcts import Budget, parse_budget, search
from stoptable.bots.stop import HeuristicBot
from stoptable.core.driver import Decline
from stoptable.core.protocol import JSON
from stoptable.core.rng import Rng
from stoptable.games.stop.actions import CallAchtung, CallStop
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.sample import Belief, Sampler, SeatMemory, determinize, infer
from stoptable.games.stop.state import StopState

DEFAULT_BUDGET: Final = Budget(iterations=240)
"""``ismcts`` without a budget: what was measured against the heuristic bot."""
SCORE_SCALE: Final = 40.0
"""Minus points that make a reward of 1 (a round's scores spread over tens of points)."""


def edge(scores: list[int]) -> list[float]:
    """Each seat's reward for a round: its score's distance below the others' mean."""
    total, n = sum(scores), len(scores)
    return [max(-1.0, min(1.0, ((total - s) / (n - 1) - s) / SCORE_SCALE)) for s in scores]


class RolloutBot:
    """The heuristic bot of one seat of a sampled state, reading the state where its view
    would show it (:meth:`HeuristicBot.act_state`): the same choices without building a
    JSON view per decision, which cost a third of a rollout. The driver hands it no view."""

    __slots__ = ("bot", "state")
    reads_view = False

    def __init__(self, bot: HeuristicBot, state: StopState) -> None:
        self.bot = bot
        self.state = state

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        return self.bot.act_state(self.state, legal)


class StopWalk:
    """One sampled Stop round, walked from the bot's decision to the end of the round."""

    __slots__ = ("driver", "rollout_bots", "seat", "state")

    def __init__(self, driver: StopDriver, rollout_bots: Sequence[Any], seat: int) -> None:
        self.driver = driver
        self.state = driver.state
        self.rollout_bots = rollout_bots
        self.seat = seat

    def decision(self) -> tuple[int, Sequence[Any]] | None:
        driver = self.driver
        while True:
            d = driver.decision()
            if d is None:
                return None
            legal = d.legal
            call = next((a for a in legal if isinstance(a, CallAchtung | CallStop)), None)
            if call is not None:
                driver.submit_quietly(call)
            elif len(legal) == 1:
                driver.submit_quietly(legal[0])
            elif d.seat != self.seat:
                driver.submit_quietly(self.rollout_bots[d.seat].act({}, legal))
            else:
                return d.seat, legal

    def apply(self, action: Any) -> None:
        self.driver.submit_quietly(action)

    def rollout(self) -> list[float]:
        driver = self.driver
        driver.bots = self.rollout_bots
        driver.play_round()
        scores = self.state.round_scores
        assert scores is not None
        return edge(list(scores))


class StopSearch:
    """The :class:`~stoptable.bots.ismcts.Search` glue of Stop."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.belief: Belief | None = None
        """The belief of the decision being searched (None: infer it from each view)."""
        self.sampler: Sampler | None = None
        """The sampler of the decision being searched (None: :func:`determinize` each time)."""

    def default(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        return HeuristicBot(seat, rng.below(2**31)).act(view, legal)

    def walk(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> StopWalk | None:
        sampler = self.sampler
        if sampler is not None and sampler.view is view:
            state = sampler.sample(rng)
        else:
            state = determinize(view, seat, rng, self.belief)
        bots = [RolloutBot(HeuristicBot(s, rng.below(2**31)), state) for s in range(self.seats)]
        driver = StopDriver(state, deal_rounds=False)
        optional = any(isinstance(a, Decline) for a in legal)
        while True:
            d = driver.decision()
            if d is None:
                return None
            if d.seat == seat and d.optional == optional:
                return StopWalk(driver, bots, seat)
            if not d.optional:
                return None
            driver.submit(Decline(d.seat))

    def key(self, action: Any) -> Hashable:
        key: Hashable = action
        return key


class IsmctsBot:
    """ISMCTS for Stop: searches each real choice, makes calls and forced moves at once."""

    name = "ismcts"
    thinks_long = True
    """Searches for hundreds of milliseconds a decision: the server asks it off its loop."""

    def __init__(self, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.budget = budget or DEFAULT_BUDGET
        self._search: StopSearch | None = None
        self.memory = SeatMemory()

    def act(self, view: dict[str, JSON], legal: Sequence[Any]) -> Any:
        if view.get("phase") in ("playing", "closing"):
            self.memory.observe(view)
        if len(legal) == 1:
            return legal[0]
        call = next((a for a in legal if isinstance(a, CallAchtung | CallStop)), None)
        if call is not None:
            return call
        if self._search is None:
            self._search = StopSearch(int(view["seats"]))
        self._search.belief = belief = infer(view, self.memory)
        self._search.sampler = Sampler(view, self.seat, belief)
        choice, _ = search(self._search, view, self.seat, legal, self.budget, self.rng, race=True)
        return choice


def make(seat: int, seed: int, budget: str | None = None) -> IsmctsBot:
    """The registry's factory: ``ismcts`` or ``ismcts:<budget>`` (:func:`parse_budget`)."""
    return IsmctsBot(seat, seed, parse_budget(budget) if budget else None)


register_bot("stop", "ismcts", make)
