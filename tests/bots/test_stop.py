"""Stop bots: legal choices only, decisions from the view alone, heuristic beats random."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.bots.base import bot_names, make_bot
from stoptable.bots.stop import HeuristicBot
from stoptable.core.driver import Decline
from stoptable.games.stop import Accept, Draw, Interject, Play, StopState, parse_card
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.state import new_game
from stoptable.sim.stats import paired_difference
from stoptable.sim.stop import simulate


class Checked:
    """Wraps a bot: checks every choice is in the legal list and the view is untouched."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.decisions = 0

    def act(self, view: dict[str, Any], legal: list[Any]) -> Any:
        before = copy.deepcopy(view)
        choice = self.bot.act(view, legal)
        assert choice in legal, (choice, legal)
        assert view == before, "a bot must not change its view"
        self.decisions += 1
        return choice


def test_both_bots_are_registered() -> None:
    assert {"random", "heuristic"} <= set(bot_names("stop"))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    seats=st.integers(2, 6),
    ruleset=st.sampled_from(["abacus-en", "abacus-ja"]),
    names=st.lists(st.sampled_from(["random", "heuristic"]), min_size=6, max_size=6),
)
def test_bots_only_return_legal_actions(
    seed: int, seats: int, ruleset: str, names: list[str]
) -> None:
    bots = [Checked(make_bot("stop", names[i], i, seed + i)) for i in range(seats)]
    state = new_game(ruleset, seats, seed)
    StopDriver(state, bots).play_round()
    assert state.phase in ("round_over", "game_over")
    assert sum(b.decisions for b in bots) > 0


def _position(other_hand: list[str], draw_pile: list[str]) -> dict[str, Any]:
    return {
        "hands": [["R4", "R2", "B7", "GExch", "Y0"], other_hand, ["G5", "Y5", "B1"]],
        "discard": ["R3"],
        "draw_pile": draw_pile,
        "turn": 0,
    }


@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_bots_decide_from_the_view_alone(name: str) -> None:
    """Two states that differ only in what seat 0 cannot see give seat 0 the same view,
    and a bot with the same seed makes the same choice in both."""
    a = StopState.from_position("abacus-en", 3, _position(["B9", "G2", "YSkip"], ["R1", "B5"]))
    b = StopState.from_position("abacus-en", 3, _position(["FC", "R8", "G0"], ["G9", "Y3"]))
    view_a, view_b = a.view(0), b.view(0)
    assert view_a == view_b
    assert json.loads(json.dumps(view_a)) == view_a  # plain JSON: nothing else rides along
    choice_a = make_bot("stop", name, 0, 7).act(view_a, a.legal_actions(0))
    choice_b = make_bot("stop", name, 0, 7).act(view_b, b.legal_actions(0))
    assert choice_a == choice_b


def test_heuristic_sheds_costly_cards_and_never_draws_while_it_can_play() -> None:
    state = StopState.from_position("abacus-en", 3, _position(["B9"], ["R1", "B5"]))
    choice = HeuristicBot(0, 1).act(state.view(0), state.legal_actions(0))
    assert isinstance(choice, Play)
    assert choice.card is parse_card("R2")  # 20 points beat R4's 4; a draw is never chosen


def test_heuristic_interjects_and_keeps_its_only_zero() -> None:
    bot = HeuristicBot(0, 1)
    view: dict[str, Any] = {"seat": 0, "hand": ["R4", "Y0", "B1"], "hand_sizes": [3, 5]}
    take = Interject(0, parse_card("R4"))
    assert bot.act(view, [take, Decline(0)]) is take
    zero = Interject(0, parse_card("Y0"))
    assert isinstance(bot.act(view, [zero, Decline(0)]), Decline)


def test_heuristic_extends_a_draw_two_and_defends_a_draw_x_with_a_zero() -> None:
    bot = HeuristicBot(1, 3)
    view: dict[str, Any] = {
        "seat": 1,
        "ruleset": "abacus-en",
        "hand": ["R0", "B2", "G7"],
        "hand_sizes": [4, 3],
        "pending": {"kind": "draw2", "count": 2, "victim": 1, "colour": "R"},
    }
    extend, defend, accept = Play(1, (parse_card("B2"),)), Play(1, (parse_card("R0"),)), Accept(1)
    assert bot.act(view, [defend, extend, accept]) == extend
    view["pending"] = {"kind": "drawx", "victim": 1, "colour": "R"}
    assert bot.act(view, [defend, accept]) == defend


def test_heuristic_picks_the_exchange_direction_that_brings_the_smaller_hand() -> None:
    bot = HeuristicBot(0, 5)
    view: dict[str, Any] = {
        "seat": 0,
        "ruleset": "abacus-en",
        "hand": ["RExch", "B8", "G8", "Y8", "B9", "G9"],
        "hand_sizes": [6, 2, 9],
        "pending": None,
    }
    exch = parse_card("RExch")
    left, right = Play(0, (exch,), mode="left"), Play(0, (exch,), mode="right")
    # left: every hand moves left, so seat 0 receives seat 2's nine cards; right: seat 1's two
    assert bot.act(view, [left, right, Draw(0)]) == right


def test_heuristic_mean_round_score_is_lower_than_each_random_bot() -> None:
    """The deterministic small version of the 2,000-round requirement (150 seeded rounds)."""
    report = simulate(["heuristic", "random", "random", "random"], 150, seed=11, rounds_only=True)
    base = report.seat_round_scores(0)
    for seat in (1, 2, 3):
        diff = paired_difference(report.seat_round_scores(seat), base)
        assert diff.low > 0, (seat, str(diff))


@pytest.mark.parametrize(
    ("ruleset", "options", "shed"),
    [
        ("abacus-en", {}, "R8"),
        ("abacus-en", {"six_nine_value": "nine"}, "R6"),
        ("abacus-ja", {}, "R6"),
        ("abacus-ja", {"six_nine_value": "face"}, "R8"),
    ],
)
def test_S4_S53_heuristic_values_a_six_by_the_option_not_the_ruleset_name(
    ruleset: str, options: dict[str, Any], shed: str
) -> None:
    """R6 is worth 9 under ``six_nine_value=nine`` (more than R8's 8) and 6 under ``face``:
    the bot sheds the costlier card whichever preset the option overrides."""
    position = {
        "hands": [["R6", "R8", "B1", "G1"], ["B9", "G2", "Y4"], ["G5", "Y5", "B4"]],
        "discard": ["R3"],
        "draw_pile": ["R1", "B5"],
        "turn": 0,
    }
    state = StopState.from_position(ruleset, 3, position, options=options)
    choice = HeuristicBot(0, 1).act(state.view(0), state.legal_actions(0))
    assert isinstance(choice, Play) and choice.card is parse_card(shed)


class BothWays:
    """A heuristic bot that decides from the view and, from an equal generator, from the
    state (``act_state``), and fails if the two ever differ."""

    def __init__(self, seat: int, seed: int, state: StopState) -> None:
        self.bot = HeuristicBot(seat, seed)
        self.state = state
        self.decisions = 0

    def act(self, view: dict[str, Any], legal: list[Any]) -> Any:
        twin = HeuristicBot(self.bot.seat, 0)
        twin.rng = self.bot.rng.copy()
        from_state = twin.act_state(self.state, legal)
        choice = self.bot.act(view, legal)
        assert from_state == choice, (choice, from_state, view)
        self.decisions += 1
        return choice


@pytest.mark.parametrize(
    ("ruleset", "seats", "options"),
    [
        ("abacus-en", 4, {}),
        ("abacus-en", 2, {"six_nine_value": "nine"}),
        ("abacus-ja", 5, {}),
        ("abacus-ja", 10, {"six_nine_value": "face"}),
    ],
)
def test_heuristic_decides_alike_from_its_view_and_from_the_state(
    ruleset: str, seats: int, options: dict[str, Any]
) -> None:
    """``act_state`` (the search rollouts' fast path) makes exactly ``act``'s choices."""
    decisions = 0
    for seed in range(4):
        state = new_game(ruleset, seats, seed, options)
        bots = [BothWays(s, seed * 100 + s, state) for s in range(seats)]
        StopDriver(state).play(bots)
        decisions += sum(b.decisions for b in bots)
    assert decisions > 500
