"""Invariants of the Stop it! engine over random games (a naive seeded request driver)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.games.stopit import (
    MINUS_CARDS,
    CallStop,
    Go,
    Grab,
    Insert,
    PlayStop,
    Ruleset,
    StopItState,
    kind_of,
    standard_deck,
)
from stoptable.games.stopit.cards import count_row
from stoptable.games.stopit.pacing import PACING
from stoptable.games.stopit.views import LEAN_KEYS, KindCounts, lean_look, lean_of
from stoptable.live.machine import line_of
from tests.games.stopit.driver import Attempt, play
from tests.support import replay

SETTINGS = settings(max_examples=30, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**32)
SEATS = st.integers(min_value=2, max_value=6)
OPTIONS = st.sampled_from(
    [
        {},
        {"drop_penalty": "fumble", "sort_grace_ms": 300},
        {"false_stop_penalty": "minus_card"},
        {"stack_count": 3, "go_timeout_ms": 500, "endgame_timeout_ms": 700},
        {"sort_check_every_evaluation": False, "stop_cards_ignored_in_sort_check": False},
    ]
)
DECK = sorted(standard_deck())


def components(state: StopItState) -> tuple[list[str], int]:
    cards = [c for s in state.stacks for c in s] + [c for h in state.hands for c in h]
    cards += [c for c in state.held if c is not None] + state.removed
    return sorted(cards), state.supply + sum(state.minus_cards)


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_all_150_components_are_conserved(seed: int, seats: int, options: dict[str, Any]) -> None:
    def check(attempt: Attempt, state: StopItState) -> None:
        cards, minus = components(state)
        assert cards == DECK
        assert minus == MINUS_CARDS
        assert len(cards) + minus == 150

    play(seed, seats, options, on_step=check)


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_count_rows_follow_the_kind_counts(seed: int, seats: int, options: dict[str, Any]) -> None:
    """StopItState.rows (the bots' int-coded counts) are count_row of the kind counts at
    every step, and views and lean looks carry the rows of their own counts."""

    def check(attempt: Attempt, state: StopItState) -> None:
        assert state.rows == [count_row(counts) for counts in state.counts]
        kinds = state.view(0)["hand_kinds"]
        assert isinstance(kinds, KindCounts) and type(kinds) is not list
        assert kinds.rows == [count_row(counts) for counts in kinds]
        assert lean_look(state, 0)[4] is kinds
        assert json.dumps(kinds) == json.dumps(list(kinds))

    play(seed, seats, options, on_step=check)


def expected_kinds(hand: list[str]) -> dict[str, int]:
    return dict(Counter(kind_of(c) for c in hand))


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_a_view_shows_what_I38_allows_and_nothing_else(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    handed_out: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def check(attempt: Attempt, state: StopItState) -> None:
        # A view never changes once handed out, though views share parts with the state.
        for old, snapshot in handed_out:
            assert old == snapshot
        viewer = attempt.request.seat
        view = state.view(viewer)
        handed_out[:] = [(view, copy.deepcopy(view))]
        assert state.copy().view(viewer) == view  # the cached parts are never stale
        assert view["hand"] == state.hands[viewer]
        assert view["held"] == state.held[viewer]
        assert view["held_cards"] == state.held
        assert [dict(k) for k in view["hand_kinds"]] == [expected_kinds(h) for h in state.hands]
        assert view["tops"] == [s[-1] if s else None for s in state.stacks]
        shuffled = state.copy()
        for other in range(seats):
            if other != viewer:
                shuffled.hands[other].reverse()
        assert shuffled.view(viewer) == view
        spectator = state.view(None)
        assert spectator["hand"] is None and spectator["held"] is None
        assert {k: v for k, v in spectator.items() if k not in ("hand", "held", "seat")} == {
            k: v for k, v in view.items() if k not in ("hand", "held", "seat")
        }
        # The bots' lean look is the same knowledge, key for key (no hidden card in it);
        # all of it but the hand and the held cards (the state's own lists, see lean_look)
        # stays as handed out.
        look = lean_look(state, viewer)
        assert look[2] is state.hands[viewer] and look[5] is state.held
        public = dict(zip(LEAN_KEYS, look, strict=True))
        del public["hand"], public["held_cards"]
        handed_out.append((public, copy.deepcopy(public)))
        assert look == lean_of(view)
        assert dict(zip(LEAN_KEYS, look, strict=True)) == {key: view[key] for key in LEAN_KEYS}
        assert lean_look(shuffled, viewer) == look

    play(seed, seats, options, on_step=check, max_steps=600)


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_a_rejected_request_changes_nothing(seed: int, seats: int, options: dict[str, Any]) -> None:
    rejected = 0

    def check(attempt: Attempt, state: StopItState) -> None:
        nonlocal rejected
        if attempt.accepted:
            return
        rejected += 1
        assert attempt.error is not None and attempt.error.reason
        assert state == attempt.before
        assert state.to_json() == attempt.before.to_json()

    play(seed, seats, options, on_step=check, max_steps=800, illegal_share=0.5)
    assert rejected > 0


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_random_games_end(seed: int, seats: int, options: dict[str, Any]) -> None:
    game = play(seed, seats, options)
    assert game.state.phase == "game_over", game.steps
    outcome = game.state.result()
    assert outcome is not None
    assert list(outcome.scores) == game.state.scores
    assert outcome.winners == tuple(
        s for s, score in enumerate(outcome.scores) if score == min(outcome.scores)
    )


@settings(max_examples=15, deadline=None)
@given(SEEDS, SEATS, OPTIONS)
def test_same_seed_and_requests_give_the_same_record_and_state(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    first, second = play(seed, seats, options), play(seed, seats, options)
    assert first.events == second.events
    assert first.state == second.state
    assert first.state.to_json() == second.state.to_json()
    result = replay(first.header, *first.events)
    assert result.exit_code == 0, result.message
    assert result.output == {**first.state.to_json(), "applied": len(first.events)}
    assert result.state == first.state


def position_of(state: StopItState) -> dict[str, Any]:
    data = state.to_json()
    position = {k: data[k] for k in ("stacks", "hands", "held", "supply", "minus_cards")}
    position.update(
        extra_points=data["extra_points"],
        phase=data["phase"],
        clock=data["clock"],
    )
    if data["go_seat"] is not None:
        position["go_seat"] = data["go_seat"]
    return position


@SETTINGS
@given(SEEDS, SEATS)
def test_json_state_round_trips_through_position(seed: int, seats: int) -> None:
    ruleset = Ruleset.preset("stopit-standard", min_pause_ms=0)
    checked = 0

    def check(attempt: Attempt, state: StopItState) -> None:
        nonlocal checked
        if state.phase not in ("waiting_go", "running") or attempt.request.seat != 0:
            return
        position = json.loads(json.dumps(position_of(state)))
        again = StopItState.from_position(ruleset, seats, position)
        want = {**state.to_json(), "removed": [], "last_evaluation": None}
        assert again.to_json() == want
        checked += 1

    play(seed, seats, on_step=check, max_steps=400)
    assert checked > 0


@settings(max_examples=20, deadline=None)
@given(SEEDS, SEATS)
def test_legal_actions_are_accepted(seed: int, seats: int) -> None:
    def check(attempt: Attempt, state: StopItState) -> None:
        for seat in range(seats):
            for action in state.legal_actions(seat, exhaustive=True)[:40]:
                state.copy().apply(action)

    play(seed, seats, on_step=check, max_steps=150)


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_I38_IA20_legal_actions_name_only_cards_the_seat_sees(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    """Issue 12: a seat's legal actions never name a card its own view does not show - a
    stop card it plays is in its hand as its view shows it, a grab or a call names the top
    of that stack as its view shows it - and never depend on another seat's hidden hand
    order. The seats with something to do are among ``actors()``."""

    def check(attempt: Attempt, state: StopItState) -> None:
        acting = []
        for seat in range(seats):
            view = state.view(seat)
            hand, tops = view["hand"], view["tops"]
            legal = state.legal_actions(seat)
            for action in legal:
                assert action.seat == seat
                if isinstance(action, PlayStop):
                    assert action.card_id in hand
                elif isinstance(action, Grab | CallStop):
                    assert action.expect_id is not None
                    assert action.expect_id == tops[action.stack]
                elif isinstance(action, Insert):
                    assert view["held"] is not None and 0 <= action.pos <= len(hand)
                else:
                    assert isinstance(action, Go) and view["go_seat"] == seat
            shuffled = state.copy()
            for other in range(seats):
                if other != seat:
                    shuffled.hands[other].reverse()
            assert shuffled.legal_actions(seat) == legal
            if legal:
                acting.append(seat)
        actors = state.actors()
        assert set(acting) <= set(actors)
        if state.phase == "running":
            assert actors == list(range(seats))  # some may have nothing left to grab
        else:
            assert acting == actors or state.phase == "waiting_go"
        to_move = state.to_move()
        assert to_move == (state.go_seat if state.phase == "waiting_go" else None)
        assert to_move is None or actors[-1] == to_move

    play(seed, seats, options, on_step=check, max_steps=400)


@settings(max_examples=15, deadline=None)
@given(SEEDS, SEATS, OPTIONS)
def test_legal_lines_are_the_client_lines_of_legal_actions(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    """``legal_lines`` (what a server sends each person after every change, built without
    the requests and shared between seats) is ``line_of`` of each legal action, in order,
    and serialises to the same JSON text; a copy lists the same lines."""

    def check(attempt: Attempt, state: StopItState) -> None:
        fresh = state.copy()  # no cached lines
        for seat in range(seats):
            expected = [line_of(a) for a in state.legal_actions(seat)]
            lines = state.legal_lines(seat)
            assert lines == expected
            assert json.dumps(lines) == json.dumps(expected)
            assert fresh.legal_lines(seat) == expected

    play(seed, seats, options, on_step=check, max_steps=200)


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_lost_race_refuses_as_apply_does(seed: int, seats: int, options: dict[str, Any]) -> None:
    """``lost_race`` (the simulator's refusal without an error object) says True only for
    a request that ``apply`` refuses as a lost race - a grab as stale or empty_stack, a
    grab, Stop call or played stop card as interrupted or not_running - and leaves the state
    exactly as that refusal does; in the cases it answers (the game running with cards on
    the stacks for a stale grab; interrupted or waiting for Go for the others) it never
    misses one."""

    def check(attempt: Attempt, state: StopItState) -> None:
        request, before = attempt.request, attempt.before
        trial = before.copy()
        error = attempt.error
        if trial.lost_race(request):
            assert error is not None
            assert type(request) in (Grab, CallStop, PlayStop)
            allowed = ("interrupted", "not_running")
            if type(request) is Grab and before.phase == "running":
                allowed = ("stale", "empty_stack")
            assert error.reason in allowed
            assert trial == state and trial.to_json() == state.to_json()
            return
        assert trial == before and trial.to_json() == before.to_json()
        if error is None or request.t < before.clock:
            return
        if type(request) is Grab and before.phase == "running" and before.stack_total:
            assert error.reason not in ("stale", "empty_stack")
        due = before.next_timer()
        if before.phase in ("interrupted", "waiting_go") and (due is None or due > request.t):
            assert type(request) not in (Grab, CallStop, PlayStop)

    play(seed, seats, options, on_step=check, max_steps=600, illegal_share=0.5)


def test_lost_race_refuses_the_second_grab_of_a_card() -> None:
    state = StopItState.new_game(Ruleset.from_options("stopit-standard", {}), 3, 5)
    state.apply(Go(0, 2_000))
    top = state.stacks[0][-1]
    state.apply(Grab(1, 2_100, 0, top))
    late = Grab(2, 2_150, 0, top)
    before = state.copy()
    assert state.lost_race(late) and state.clock == 2_150
    before.clock = 2_150
    assert state == before and state.to_json() == before.to_json()
    assert not state.lost_race(Grab(0, 2_200, 0, state.stacks[0][-1]))


@SETTINGS
@given(SEEDS, SEATS, OPTIONS)
def test_pacing_timers_idle_only_while_the_game_goes_on(
    seed: int, seats: int, options: dict[str, Any]
) -> None:
    """The live machine's reaction loop asks ``over`` only when ``timers_idle`` is False
    (core.game.RealtimePolicy): idle timers mean no step is due and the game is not over."""

    def check(attempt: Attempt, state: StopItState) -> None:
        for seen in (attempt.before, state):
            if PACING.timers_idle(seen):
                assert not PACING.over(seen) and seen.next_step() is None

    game = play(seed, seats, options, on_step=check, max_steps=300)
    if PACING.over(game.state):
        assert not PACING.timers_idle(game.state)
