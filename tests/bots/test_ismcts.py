"""ISMCTS: budgets and names, the search itself, and small legal games of every game."""

from __future__ import annotations

from typing import Any

import pytest

from stoptable.bots.base import bot_names, make_bot
from stoptable.bots.ismcts import Budget, parse_budget
from stoptable.core.driver import TurnDriver
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.state import new_game as new_stop
from stoptable.games.stopandgo import new_game as new_stopandgo


def test_ismcts_is_registered_for_the_turn_based_games() -> None:
    for game in ("stop", "stopandgo"):
        assert "ismcts" in bot_names(game)


def test_budget_names_parse() -> None:
    assert parse_budget(None) == Budget()
    assert parse_budget("7") == Budget(iterations=7)
    assert parse_budget("20ms") == Budget(iterations=None, ms=20.0)
    with pytest.raises(ValueError, match="not an ISMCTS budget"):
        parse_budget("lots")
    with pytest.raises(ValueError):
        Budget(iterations=0)
    assert make_bot("stop", "ismcts:9", 0, 1).budget == Budget(iterations=9)
    with pytest.raises(ValueError, match="takes no parameter"):
        make_bot("stop", "heuristic:9", 0, 1)


class Watch:
    """Wraps a bot: checks every choice is one of the legal actions, counts choices."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.choices = 0
        self.reads_view = True

    def act(self, view: Any, legal: Any) -> Any:
        choice = self.bot.act(view, legal)
        assert choice in list(legal)
        self.choices += 1
        return choice


def test_stop_round_with_a_tiny_budget_is_legal_and_deterministic() -> None:
    """abacus-en, 4 seats, one ISMCTS seat with 4 iterations a decision: the round ends,
    every choice was legal, and the same seeds give the same round."""

    def play() -> tuple[list[int], int]:
        state = new_stop("abacus-en", 4, 11, {})
        bots = [make_bot("stop", "heuristic", s, 100 + s) for s in range(4)]
        watch = Watch(make_bot("stop", "ismcts:4", 1, 7))
        bots[1] = watch
        StopDriver(state, bots).play_round()
        assert state.round_scores is not None
        return list(state.round_scores), watch.choices

    first = play()
    assert first[1] > 0
    assert play() == first


def test_stopandgo_game_with_a_tiny_budget_is_legal() -> None:
    """Three destinations, 3 seats, the synchronous driver's plain views and full path
    lists: the game ends and every ISMCTS choice was legal."""
    state = new_stopandgo(seats=3, seed=5, options={"destination_count": 3})
    watch = Watch(make_bot("stopandgo", "ismcts:3", 0, 2))
    bots = [watch, make_bot("stopandgo", "heuristic", 1, 3), make_bot("stopandgo", "random", 2, 4)]
    TurnDriver(state).play(bots)
    assert state.result() is not None
    assert watch.choices > 0


def test_stopandgo_simulator_forms_are_searched_too() -> None:
    """The simulator hands SeatView and LegalMoves; the bot answers with a legal Move."""
    from stoptable.sim.stopandgo import play_game

    result = play_game(["ismcts:2", "heuristic"], 4, options={"destination_count": 2})
    assert result.finished


def test_the_search_keeps_the_policy_choice_when_nothing_is_sure() -> None:
    """With two iterations no paired difference is significant: ISMCTS plays what its
    rollout policy (the heuristic) plays."""
    from stoptable.bots.ismcts_stop import StopSearch
    from stoptable.core.rng import Rng

    state = new_stop("abacus-en", 4, 3, {})
    driver = StopDriver(state)
    decision = driver.decision()
    assert decision is not None
    view = state.view(decision.seat)
    glue = StopSearch(4)
    from stoptable.bots.ismcts import search

    choice, root = search(glue, view, decision.seat, decision.legal, Budget(2), Rng(1))
    assert choice == glue.default(view, decision.seat, decision.legal, Rng(1))
    assert root.children


def test_stopit_game_in_the_simulator_with_a_tiny_budget() -> None:
    """The real-time bot searches its grabs and calls inside observe: a whole simulated
    game ends, and the same seeds give the same game (its record included)."""
    from stoptable.sim.stopit_tournament import play_game

    assert "ismcts" in bot_names("stopit")
    bots = ["ismcts:4", "heuristic", "heuristic"]
    first = play_game(bots, 6, record=True)
    assert first.termination in ("supply_empty", "stacks_exhausted")
    assert play_game(bots, 6, record=True).record == first.record


def test_a_deeper_tree_searches_the_own_later_decisions() -> None:
    """depth 3: nodes below the root's children hold this seat's later decisions only."""
    from stoptable.bots.ismcts import search
    from stoptable.bots.ismcts_stop import StopSearch
    from stoptable.core.rng import Rng

    state = new_stop("abacus-en", 4, 3, {})
    decision = StopDriver(state).decision()
    assert decision is not None
    view = state.view(decision.seat)
    _, root = search(
        StopSearch(4), view, decision.seat, decision.legal, Budget(30, depth=3), Rng(2)
    )
    below = [n for child in root.children.values() for n in child.children.values()]
    assert below and all(n.seat == decision.seat for n in below)
    assert sum(c.visits for c in root.children.values()) == 30 // len(root.children) * len(
        root.children
    )


def test_stop_match_to_the_target_score_with_a_tiny_budget() -> None:
    """A whole abacus-en match (target 30) through the registry's driver: every round is
    dealt and played to the end, and every ISMCTS choice is legal."""
    from stoptable.games import spec

    stop = spec("stop")
    state = stop.new("abacus-en", 3, 4, {"target_score": 30})
    watch = Watch(make_bot("stop", "ismcts:16", 2, 9))
    bots = [make_bot("stop", "heuristic", 0, 1), make_bot("stop", "random", 1, 2), watch]
    assert stop.driver is not None
    stop.driver(state).play(bots)
    assert state.result() is not None and watch.choices > 0


def test_stop_ismcts_remembers_its_views_and_rewards_the_edge_over_the_others() -> None:
    """The bot feeds every view it is shown (forced ones too) to its SeatMemory, which
    :func:`infer` uses for the hand it gives away in an exchange; a walk's rollout rewards
    each seat by how far its minus points are below the others' mean, so the seat that went
    out (0 points) has the best reward."""
    from stoptable.bots.ismcts_stop import SCORE_SCALE, IsmctsBot, StopSearch, edge
    from stoptable.core.rng import Rng

    state = new_stop("abacus-en", 4, 11, {})
    bots: list[Any] = [make_bot("stop", "heuristic", s, 100 + s) for s in range(4)]
    ismcts = make_bot("stop", "ismcts:4", 1, 7)
    assert isinstance(ismcts, IsmctsBot)
    bots[1] = ismcts
    StopDriver(state, bots).play_round()
    memory = ismcts.memory
    assert memory.round == state.round and len(memory.hands) > 1
    assert len(memory.events) >= len(memory.hands)

    fresh = new_stop("abacus-en", 4, 3, {})
    decision = StopDriver(fresh).decision()
    assert decision is not None
    walk = StopSearch(4).walk(fresh.view(decision.seat), decision.seat, decision.legal, Rng(5))
    assert walk is not None
    rewards = walk.rollout()
    scores = walk.state.round_scores
    assert scores is not None
    assert rewards == edge(list(scores))
    mean_others = [(sum(scores) - s) / 3 for s in scores]
    assert rewards == [
        max(-1.0, min(1.0, (m - s) / SCORE_SCALE)) for m, s in zip(mean_others, scores, strict=True)
    ]
    assert rewards.index(max(rewards)) == scores.index(min(scores))


class ToyWalk:
    """A one-decision game: action ``a`` is worth ``means[a]`` plus noise that every action
    of one iteration shares (the seed of the walk), plus a little of its own."""

    def __init__(self, means: list[float], seed: int, counts: list[int]) -> None:
        from stoptable.core.rng import Rng

        self.means, self.rng, self.counts = means, Rng(seed), counts
        self.action = -1

    def decision(self) -> None:
        return None

    def apply(self, action: int) -> None:
        self.action = action
        self.counts[action] += 1

    def rollout(self) -> list[float]:
        shared = self.rng.random() - 0.5
        own = (self.rng.random() - 0.5) * 0.2
        return [max(-1.0, min(1.0, self.means[self.action] + shared + own))]


class ToySearch:
    """The :class:`~stoptable.bots.ismcts.Search` glue of :class:`ToyWalk` (policy: 0)."""

    def __init__(self, means: list[float]) -> None:
        self.means = means
        self.counts = [0] * len(means)

    def walk(self, view: Any, seat: int, legal: Any, rng: Any) -> ToyWalk:
        return ToyWalk(self.means, rng.below(2**31), self.counts)

    def key(self, action: Any) -> Any:
        return action

    def default(self, view: Any, seat: int, legal: Any, rng: Any) -> int:
        return 0


@pytest.mark.parametrize("race", [False, True])
def test_the_search_finds_a_clearly_better_action_and_keeps_the_policy_among_equals(
    race: bool,
) -> None:
    from stoptable.bots.ismcts import search
    from stoptable.core.rng import Rng

    better = ToySearch([0.0, 0.0, 0.15, 0.0, 0.0])
    found = [
        search(better, None, 0, range(5), Budget(400), Rng(s), race=race)[0] for s in range(10)
    ]
    assert found.count(2) >= 9
    equal = ToySearch([0.0] * 5)
    kept = [search(equal, None, 0, range(5), Budget(400), Rng(s), race=race)[0] for s in range(20)]
    assert kept.count(0) >= 18
    assert sum(equal.counts) <= 20 * 400 + 20 * 5


def test_a_race_tests_its_rival_on_fresh_rollouts_of_the_two_actions_only() -> None:
    """The second stage walks only the policy's choice and the first stage's best rival,
    so those two get most of the budget; the others only the first stage's share."""
    from stoptable.bots.ismcts import search
    from stoptable.core.rng import Rng

    glue = ToySearch([0.0, 0.0, 0.15, 0.0, 0.0])
    choice, _ = search(glue, None, 0, range(5), Budget(400), Rng(7), race=True)
    assert choice == 2
    assert glue.counts[0] == glue.counts[2] == 40 + 100
    assert glue.counts[1] == glue.counts[3] == glue.counts[4] == 40
