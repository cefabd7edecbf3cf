"""ISMCTS for Stop & Go: the deck order is sampled, the dice are the sample's own chance.

A determinization is :func:`stoptable.games.stopandgo.sample.determinize` of the view (the
face-down deck shuffled); the walk rolls the die from the sample's own generator, so each
iteration also samples the dice. Moves are keyed by their outcome, the end space and the
space before it (G-15: two paths with the same pair leave the same state), so a listing of
every path and the engine's one-path-per-outcome listing search alike.

The horizon is :data:`HORIZON_ROUNDS` rounds of turns; a seat's reward is what it
collected in them compared to the others' mean, plus a small credit for being nearer the
face-up destination (the heuristic's cost-to-go) at the horizon. The rollout policy is the
heuristic bot for every seat, and the other seats play it in the tree too (the tree holds
the bot's own decisions only).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any, Final

from stoptable.bots.base import register_bot
from stoptable.bots.ismcts import Budget, parse_budget, search
from stoptable.bots.stopandgo import FAR, HeuristicBot, map_of, plan_for
from stoptable.core.rng import Rng
from stoptable.games.stopandgo.board import NO_SPACE
from stoptable.games.stopandgo.sample import determinize
from stoptable.games.stopandgo.state import StopGoState
from stoptable.games.stopandgo.views import SeatView

HORIZON_ROUNDS: Final = 6
"""How many rounds of turns a walk looks ahead before it is scored."""
DISTANCE_WEIGHT: Final = 0.05
"""Reward per step of cost-to-go nearer the face-up destination than the others' mean."""


def _score(state: StopGoState) -> list[int]:
    return state.scores()


class GoWalk:
    """One sampled Stop & Go game, walked for a few rounds from the bot's decision."""

    __slots__ = ("bots", "limit", "seat", "start", "state", "turns")

    def __init__(
        self, state: StopGoState, bots: Sequence[HeuristicBot], limit: int, seat: int
    ) -> None:
        self.seat = seat
        self.state = state
        self.bots = bots
        self.limit = limit
        self.turns = 0
        self.start = _score(state)

    def _roll(self) -> None:
        state = self.state
        step = state.next_step()
        if step is not None:
            state.run_step(step)

    def decision(self) -> tuple[int, Sequence[Any]] | None:
        state = self.state
        while not state.over and self.turns < self.limit:
            self._roll()
            seat = state.turn
            legal = state.legal_moves(seat)
            if len(legal) > 1:
                if seat == self.seat:
                    return seat, legal
                state.apply(self.bots[seat].act(SeatView(state, seat), legal))
            else:
                state.apply(legal[0])
            self.turns += 1
        return None

    def apply(self, action: Any) -> None:
        self.state.apply(action)
        self.turns += 1

    def rollout(self) -> list[float]:
        state, bots = self.state, self.bots
        while not state.over and self.turns < self.limit:
            self._roll()
            seat = state.turn
            legal = state.legal_moves(seat)
            move = legal[0] if len(legal) == 1 else bots[seat].act(SeatView(state, seat), legal)
            state.apply(move)
            self.turns += 1
        gains = [now - then for now, then in zip(_score(state), self.start, strict=True)]
        near = self._nearness()
        n = len(gains)
        total_gain, total_near = sum(gains), sum(near)
        rewards = []
        for gain, close in zip(gains, near, strict=True):
            edge = gain - (total_gain - gain) / (n - 1)
            edge += DISTANCE_WEIGHT * (close - (total_near - close) / (n - 1))
            rewards.append(math.tanh(edge))
        return rewards

    def _nearness(self) -> list[float]:
        """Minus each car's cost-to-go to the face-up destination (0 when none is up)."""
        state = self.state
        if state.over or state.active is None:
            return [0.0] * state.seats
        plan = plan_for(state.game_map)
        target = state.game_map.destination_space[state.active]
        near = []
        for car in state.cars:
            cost = plan.value(
                (car.prev if car.prev != NO_SPACE else NO_SPACE, car.pos), target, state.dial
            )
            near.append(-min(cost, 30.0) if cost < FAR else -30.0)
        return near


class GoSearch:
    """The :class:`~stoptable.bots.ismcts.Search` glue of Stop & Go."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.limit = HORIZON_ROUNDS * seats

    def default(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        return HeuristicBot(seat, rng.below(2**31)).act(view, legal)

    def walk(self, view: Any, seat: int, legal: Sequence[Any], rng: Rng) -> GoWalk | None:
        game_map = view.game_map if type(view) is SeatView else map_of(view)
        state = determinize(view, seat, rng, game_map)
        bots = [HeuristicBot(s, rng.below(2**31)) for s in range(self.seats)]
        return GoWalk(state, bots, self.limit, seat)

    def key(self, action: Any) -> Hashable:
        path: tuple[str, ...] = action.path
        return path[-2:]


class IsmctsBot:
    """ISMCTS for Stop & Go (reads a plain view or the simulator's SeatView)."""

    name = "ismcts"
    thinks_long = True
    """Searches for hundreds of milliseconds a decision: the server asks it off its loop."""

    def __init__(self, seat: int, seed: int, budget: Budget | None = None) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.budget = budget or Budget()
        self._search: GoSearch | None = None

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if self._search is None:
            seats = len(view.cars) if type(view) is SeatView else int(view["seats"])
            self._search = GoSearch(seats)
        choice, _ = search(self._search, view, self.seat, legal, self.budget, self.rng)
        return choice


def make(seat: int, seed: int, budget: str | None = None) -> IsmctsBot:
    """The registry's factory: ``ismcts`` or ``ismcts:<budget>`` (:func:`parse_budget`)."""
    return IsmctsBot(seat, seed, parse_budget(budget))


register_bot("stopandgo", "ismcts", make)
