"""Stop it! bots: they act from their view only, keep hands sorted, and beat random play."""

from __future__ import annotations

from typing import Any

from stoptable.bots.base import bot_names, make_bot
from stoptable.bots.stopit import (
    HeuristicBot,
    RandomBot,
    evaluation_counts,
    sorted_position,
    sorting_move,
    stop_advantage,
)
from stoptable.games.stopit import CallStop, Go, Grab, Insert, Move, PlayStop, StopItState
from stoptable.games.stopit.evaluation import is_sorted
from stoptable.games.stopit.ruleset import sim_ruleset
from stoptable.sim.stopit_tournament import run_tournament


def position(**fields: Any) -> StopItState:
    stacks = fields.pop("stacks")
    fields["stacks"] = stacks + [[] for _ in range(5 - len(stacks))]
    fields.setdefault("phase", "running")
    seats = len(fields["hands"])
    return StopItState.from_position(sim_ruleset(), seats, fields)


def test_both_bots_are_registered() -> None:
    assert {"random", "heuristic"} <= set(bot_names("stopit"))
    assert isinstance(make_bot("stopit", "heuristic", 1, 5), HeuristicBot)
    assert isinstance(make_bot("stopit", "random", 0, 5), RandomBot)


def test_sorted_position_keeps_colour_blocks_and_stops_right() -> None:
    hand = ["red#1", "red#2", "blue#1", "STOP-red#1"]
    assert sorted_position(hand, "red#3") == 2
    assert sorted_position(hand, "blue#2") == 3
    assert sorted_position(hand, "green#1") == 3
    assert sorted_position(hand, "SUPER#1") == 4
    kinds = {c: c.partition("#")[0] for c in [*hand, "red#3", "blue#2", "green#1"]}
    for card in ("red#3", "blue#2", "green#1"):
        new = list(hand)
        new.insert(sorted_position(hand, card), card)
        assert is_sorted(new, kinds)


def test_sorting_move_mends_a_split_block() -> None:
    hand = ["red#1", "blue#1", "red#2", "green#1"]
    move = sorting_move(hand)
    assert move == (2, 1)
    hand.insert(move[1], hand.pop(move[0]))
    assert sorting_move(hand) is None


def test_stop_advantage_counts_held_cards_and_ignores_stop_cards() -> None:
    state = position(
        stacks=[["STOP-red#1"]],
        hands=[["red#1", "red#2"], ["STOP-red#2"], ["red#3"]],
        held=[None, None, "red#4"],
    )
    view = state.view(0)
    red = evaluation_counts(view, "red")
    assert red == [2, 0, 2]
    assert stop_advantage(red, 0) == 0.5
    assert stop_advantage(red, 1) == -1.0
    assert evaluation_counts(view, None) == [2, 0, 2]
    assert stop_advantage([1, 1, 1], 0) == 0.0


def test_heuristic_calls_a_stop_that_hurts_the_others() -> None:
    state = position(stacks=[["STOP-red#1"], ["blue#1"]], hands=[["red#1"], []])
    answer = HeuristicBot(0, 1).observe(state.view(0), 100)
    assert answer is not None
    request, delay = answer
    assert request == CallStop(0, 100 + delay, 0, "STOP-red#1")
    assert 100 <= delay < 1000


def test_heuristic_snatches_a_stop_it_would_lose_on() -> None:
    state = position(stacks=[["blue#1"], ["STOP-red#1"]], hands=[[], ["red#1"]])
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None
    assert answer[0] == Grab(0, answer[1], 1, "STOP-red#1")


def test_heuristic_plays_a_held_stop_when_it_pays() -> None:
    state = position(stacks=[["blue#1"]], hands=[["green#1", "STOP-blue#1"], ["green#2"]])
    answer = HeuristicBot(1, 1).observe(state.view(1), 0)
    assert answer is not None and isinstance(answer[0], Grab)
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None
    # Blue: P0 holds none and P1 none: both get a card, no gain; grab instead.
    assert isinstance(answer[0], Grab)
    state = position(stacks=[["blue#1"]], hands=[["blue#2", "STOP-blue#1"], ["green#2"]])
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None and answer[0] == PlayStop(0, answer[1], "STOP-blue#1")


def test_heuristic_grabs_the_colour_it_is_lowest_in() -> None:
    state = position(
        stacks=[["red#9"], ["blue#9"]],
        hands=[["red#1", "red#2", "blue#1"], ["blue#2", "blue#3"]],
    )
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None and answer[0] == Grab(0, answer[1], 1, "blue#9")


def test_heuristic_inserts_sorted_mends_and_sends_go() -> None:
    state = position(stacks=[["red#9"]], hands=[["red#1", "blue#1"], []], held=["red#2", None])
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None and answer[0] == Insert(0, answer[1], 1)
    state = position(stacks=[["red#9"]], hands=[["red#1", "blue#1", "red#2"], []])
    answer = HeuristicBot(0, 1).observe(state.view(0), 0)
    assert answer is not None and answer[0] == Move(0, answer[1], 2, 1)
    state = position(stacks=[["red#9"]], hands=[[], []], phase="waiting_go", go_seat=1)
    assert HeuristicBot(0, 1).observe(state.view(0), 0) is None
    answer = HeuristicBot(1, 1).observe(state.view(1), 50)
    assert answer == (Go(1, 1050), 1000)


def test_bots_read_only_their_view() -> None:
    state = StopItState.new_game(sim_ruleset(), 3, 2)
    view = state.view(1)
    assert "hands" not in view and view["hand"] == state.hands[1]
    for name in ("heuristic", "random"):
        bot = make_bot("stopit", name, 1, 3)
        assert bot.observe(view, 0) is None  # waiting for P0's Go


def test_random_bot_is_seeded() -> None:
    state = position(stacks=[["red#1"], ["STOP-blue#1"], ["green#1"]], hands=[["red#2"], []])
    a = [RandomBot(0, 4).observe(state.view(0), 0) for _ in range(1)]
    b = [RandomBot(0, 4).observe(state.view(0), 0) for _ in range(1)]
    assert a == b


def test_heuristic_beats_random_bots() -> None:
    report = run_tournament(["heuristic", "random", "random", "random"], 8, seed=0)
    heuristic, *randoms = report.lines
    assert all(heuristic.minus.mean < r.minus.mean for r in randoms)
    assert heuristic.win_share > 0.5


def test_heuristic_requests_are_never_malformed_for_its_own_hand() -> None:
    from stoptable.games.stopit.spec import SPEC as STOPIT
    from stoptable.live.machine import Happening
    from stoptable.live.virtual import VirtualTable

    reasons: list[str] = []

    def note(happening: Happening) -> None:
        if happening.error is not None:
            reasons.append(happening.error.reason)

    for seed in range(6):
        state = StopItState.new_game(sim_ruleset(), 4, seed)
        bots = {k: make_bot("stopit", "heuristic", k, seed * 8 + k) for k in range(4)}
        VirtualTable(STOPIT, state, bots, listener=note).run()
    # Lost races and grabs cut short by a stop happen; a wrong hand index or a stop card
    # the bot no longer holds never does.
    assert reasons and set(reasons) <= {"stale", "interrupted", "not_running", "held_empty"}


def _sorted_position_by_scan(hand: list[str], card: str) -> int:
    """sorted_position as a plain scan from the right, to check the string search against."""
    if card[0] == "S":
        return len(hand)
    prefix = card[: card.index("#") + 1]
    first_stop = len(hand)
    for index in range(len(hand) - 1, -1, -1):
        if hand[index].startswith(prefix):
            return index + 1
        if hand[index][0] == "S":
            first_stop = index
    return first_stop


def test_sorted_position_agrees_with_a_scan_on_random_hands() -> None:
    import random

    from stoptable.games.stopit.cards import standard_deck

    deck = standard_deck()
    rng = random.Random(11)
    for _ in range(2000):
        hand = rng.sample(deck, rng.randrange(0, 20))
        if rng.random() < 0.5:
            hand.sort(key=lambda c: (c[0] == "S", c.partition("#")[0]))
        card = rng.choice(deck)
        assert sorted_position(hand, card) == _sorted_position_by_scan(hand, card)


def test_bot_module_docstring_examples() -> None:

    import stoptable.bots.stopit as module
    from tests.support import run_doctests

    result = run_doctests(module)
    assert result.attempted > 0 and result.failed == 0


def test_reaction_samples_match_the_library_lognormal() -> None:
    """sample() writes random.gauss out; the library's draws must come out the same."""
    from stoptable.bots.stopit import _GAUSS_WRITTEN_OUT, Component, ReactionTimes
    from stoptable.core.rng import Rng

    assert _GAUSS_WRITTEN_OUT
    fast, library = ReactionTimes(Rng(9)), ReactionTimes(Rng(9))
    library._random = None  # the fallback: calls random.gauss itself
    components: list[Component] = ["perceive", "reach", "sort", "shout", "go"]
    for k in range(500):
        component = components[k % 5]
        assert fast.sample(component, k % 17) == library.sample(component, k % 17)
