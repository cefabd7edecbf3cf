"""StopState on the core protocol: steps (cancel window, deal), actors, to_move, the chance
lines its events carry, and what ``legal_actions`` may name (issue 12)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.bots.base import make_bot
from stoptable.core.errors import RecordError
from stoptable.core.protocol import Step, StepKind
from stoptable.core.records import RecordWriter, replay_lines
from stoptable.core.rng import Rng
from stoptable.games import replayer
from stoptable.games.stop import Accept, Cancel, Interject, Play, StopState, parse_card
from stoptable.games.stop.actions import StopAction
from stoptable.games.stop.cards import DECK_CARDS
from stoptable.games.stop.driver import StopDriver
from stoptable.games.stop.randomplay import step
from stoptable.games.stop.records import record_header
from stoptable.games.stop.state import new_game
from tests.games.stop.helpers import random_options

RULESETS = st.sampled_from(["abacus-en", "abacus-ja"])
SEEDS = st.integers(min_value=0, max_value=2**32)

EXCHANGE = {
    "hands": [["RExch", "B1", "B2"], ["R0", "G2"], ["Y5", "Y6"]],
    "discard": ["R3"],
    "draw_pile": ["B3", "B5"],
    "turn": 0,
}


def _window() -> StopState:
    state = StopState.from_position("abacus-en", 3, EXCHANGE)
    state.apply(Play(0, (parse_card("RExch"),), mode="left"))
    return state


def test_S39_an_open_cancel_window_is_a_window_step() -> None:
    state = _window()
    assert state.next_step() == Step(StepKind.WINDOW, "cancel_window", seat=0)
    assert state.to_move() is None  # no turn before the exchange
    assert state.actors() == [1]  # P1 holds R0; nobody else may do anything now
    assert state.turn_seat() == 1  # records.md §4.5: left(exchanger)
    events = state.run_step(state.next_step())  # type: ignore[arg-type]
    assert [ev.kind for ev in events] == ["exchange"] and events[0].line is None
    assert state.next_step() is None and state.to_move() == 1
    assert sorted(c.code for c in state.hands[1]) == ["B1", "B2"]


def test_S41_run_step_refuses_a_step_that_is_not_due() -> None:
    state = _window()
    with pytest.raises(ValueError):
        state.run_step(Step(StepKind.CHANCE, "deal"))
    with pytest.raises(ValueError):
        state.run_step(Step(StepKind.WINDOW, "cancel_window", seat=0), ["R1"])
    fresh = new_game("abacus-en", 2, 1)
    assert fresh.next_step() is None
    with pytest.raises(ValueError):
        fresh.run_step(Step(StepKind.WINDOW, "cancel_window", seat=0))


def _finish_round(state: StopState, seed: int) -> None:
    rng = Rng(seed)
    while state.phase in ("playing", "closing"):
        step(state, rng)


def test_S56_round_over_asks_for_the_deal_and_game_over_for_nothing() -> None:
    state = new_game("abacus-en", 3, 5, {"target_score": 1000})
    _finish_round(state, 5)
    assert state.phase == "round_over"
    assert state.next_step() == Step(StepKind.CHANCE, "deal")
    assert state.to_move() is None and state.actors() == [] and state.turn is None
    order = [c.code for c in reversed(DECK_CARDS)]
    events = state.run_step(state.next_step(), order)  # type: ignore[arg-type]
    assert [ev.kind for ev in events] == ["deal"]
    assert events[0].line == {"chance": "shuffle", "order": order}
    assert "order" not in json.dumps(events[0].for_seat(0))  # a line is never shown
    assert state.round == 2 and state.phase == "playing" and state.next_step() is None
    ended = new_game("abacus-en", 2, 5, {"target_score": 1})
    _finish_round(ended, 5)
    assert ended.phase == "game_over" and ended.next_step() is None and ended.actors() == []


def test_S56_a_seeded_deal_reports_the_deck_it_dealt() -> None:
    state = new_game("abacus-en", 2, 8, {"target_score": 1000})
    _finish_round(state, 8)
    copy = state.copy()
    line = state.run_step(state.next_step())[0].line  # type: ignore[arg-type]
    assert line is not None and len(line["order"]) == 112
    copy.run_step(copy.next_step(), list(line["order"]))  # type: ignore[arg-type]
    assert copy.to_json() == state.to_json()
    with pytest.raises(RecordError):
        copy.start_next_round(["R1"])


def test_S61_actors_are_offers_then_calls_then_the_seat_to_move() -> None:
    """P1 plays R6: P3 (R9) and P0 (R6) may interject, in S-61 order, then P2 is on turn."""
    position = {
        "hands": [["R6", "B1"], ["R6", "G2", "G3"], ["Y5", "Y7"], ["R9", "B8"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B3", "B5"],
        "turn": 1,
    }
    state = StopState.from_position("abacus-en", 4, position)
    assert state.actors() == [1] and state.to_move() == 1
    state.apply(Play(1, (parse_card("R6"),)))
    assert state.actors() == [3, 0, 2] and state.to_move() == 2


def test_S26_S61_seats_with_open_ja_obligations_come_before_the_seat_to_move() -> None:
    position = {
        "hands": [["B4"], ["G2", "G3", "Y1"], ["Y5", "Y7"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B3", "B5"],
        "turn": 1,
        "obligations": [{"seat": 0, "kind": "achtung", "placed": 0}],
    }
    state = StopState.from_position("abacus-ja", 3, position)
    assert state.actors() == [0, 1] and state.to_move() == 1


def _cards(action: StopAction) -> tuple[Any, ...]:
    if isinstance(action, Play):
        return action.cards
    if isinstance(action, Interject | Cancel):
        return (action.card,)
    if isinstance(action, Accept) and action.reveal_play is not None:
        return (action.reveal_play,)
    return ()


def test_S39_S61_issue_12_seed_0_lists_no_card_of_the_hand_to_come() -> None:
    """Issue 12's example: 3-seat abacus-en, seed 0. In every cancel window each seat's
    legal actions are cancels and standalone calls only, naming cards of its own hand."""
    state = new_game("abacus-en", 3, 0)
    rng = Rng(0)
    windows = 0
    while state.phase in ("playing", "closing"):
        if state.next_step() is not None:
            windows += 1
            for seat in range(3):
                hand = state.view(seat)["hand"]
                for action in state.legal_actions(seat):
                    assert isinstance(action, Cancel), action
                    assert action.card.code in hand
        step(state, rng, take=0.4)
    assert windows > 10


@settings(max_examples=40, deadline=None)
@given(RULESETS, st.integers(min_value=2, max_value=10), SEEDS, st.booleans())
def test_S39_S61_legal_actions_name_only_cards_of_the_own_hand(
    ruleset: str, seats: int, seed: int, mixed: bool
) -> None:
    """Issue 12: at every step, every card named by any seat's legal actions is in that
    seat's hand as its own view shows it (never a hand an exchange is about to hand over)."""
    options = random_options(Rng(seed)) if mixed else None
    state = new_game(ruleset, seats, seed, options)
    rng = Rng(seed + 1)
    for _ in range(400):
        if state.phase not in ("playing", "closing"):
            break
        window = state.next_step() is not None
        for seat in range(seats):
            hand = state.view(seat)["hand"]
            assert isinstance(hand, list)
            for action in state.legal_actions(seat):
                for card in _cards(action):
                    assert card.code in hand, (seat, action, hand)
                if window:
                    assert type(action).__name__ in ("Cancel", "CallAchtung", "CallStop")
        step(state, rng, take=0.4, drop_calls=0.2)


def _replayed(writer: RecordWriter) -> dict[str, Any]:
    result = replay_lines(writer.lines(), replayer)
    assert result.exit_code == 0, result
    assert result.output is not None
    out = dict(result.output)
    out.pop("applied")
    return out


@settings(max_examples=15, deadline=None)
@given(RULESETS, st.integers(min_value=2, max_value=6), SEEDS)
def test_S16_S56_a_record_with_every_chance_line_replays_whatever_the_seed(
    ruleset: str, seats: int, seed: int
) -> None:
    """The driver writes each event's ``line`` (every reshuffle and deal, with its order)
    before the action's line. The record then replays to the same state, and still does
    when the header's seed is changed and the first deal is given as a ``deck``: every
    chance outcome after setup is in the record."""
    names = ["random", "heuristic"]
    bots = [make_bot("stop", names[(s + seed) % 2], s, seed + s) for s in range(seats)]
    state = new_game(ruleset, seats, seed, {"target_score": 150})
    deck = list(DECK_CARDS)
    Rng(seed).shuffle(deck)  # what new_game dealt from
    writer = RecordWriter(record_header(state, seed))
    driver = StopDriver(state, bots, writer)
    driver.play(bots)
    assert state.phase == "game_over"
    final = state.to_json()
    assert _replayed(writer) == final
    reseeded = RecordWriter({**writer.header, "seed": seed + 1, "deck": [c.code for c in deck]})
    reseeded.events = writer.events
    assert _replayed(reseeded) == final
    chance = [e for e in writer.events if "chance" in e]
    assert all(isinstance(e.get("order"), list) for e in chance)


def test_views_start_with_the_shared_header() -> None:
    state = new_game("abacus-ja", 3, 2, {"target_score": 80})
    for seat in (0, 2, None):
        view = state.view(seat)
        assert list(view)[:5] == ["game", "ruleset", "seats", "phase", "seat"]
        assert (view["game"], view["ruleset"], view["seats"], view["seat"]) == (
            "stop",
            "abacus-ja",
            3,
            seat,
        )
        assert view["options"] == {"target_score": 80} and view["target_score"] == 80


def test_a_discard_list_changes_in_place_only_by_appends() -> None:
    """The invariant ``StopState.discard`` documents and the research env's encoder relies
    on (``rl.stop_codec.StateEncoder`` adds only the cards appended since it last counted a
    pile): while the pile is the same list object, what it held before is its prefix.
    Random ja and en games with dropped calls, so late Stops take cards back (checked to
    happen), reshuffles and new rounds replace the pile."""
    late_stops = 0
    for ruleset, seed in [(r, s) for r in ("abacus-ja", "abacus-en") for s in range(12)]:
        state = new_game(ruleset, 3, seed, {"target_score": 150})
        rng = Rng(seed)
        pile, seen = state.discard, list(state.discard)
        for _ in range(600):
            if state.phase == "game_over":
                break
            if state.phase == "round_over":
                state.start_next_round()
            else:
                action = step(state, rng, take=0.5, drop_calls=0.3)
                late_stops += type(action).__name__ == "CallStop"
            if state.discard is pile:
                assert state.discard[: len(seen)] == seen, (ruleset, seed)
            pile, seen = state.discard, list(state.discard)
    assert late_stops > 0
