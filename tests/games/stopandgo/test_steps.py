"""Chance as an explicit step (core.protocol): the die is ``next_step``/``run_step``, and
``to_move``/``actors`` say who may act; the view starts with the shared header."""

from __future__ import annotations

import pytest

from stoptable.core.driver import write_lines
from stoptable.core.errors import IllegalAction
from stoptable.core.protocol import Step, StepKind
from stoptable.core.records import RecordWriter
from stoptable.games.stopandgo import Move, new_game


def test_G5_a_roll_is_the_chance_step_of_the_seat_on_turn() -> None:
    state = new_game(seats=3, seed=2)
    step = state.next_step()
    assert step == Step(StepKind.CHANCE, "roll", seat=0)
    assert (state.to_move(), state.actors()) == (None, [])  # the roll is pending
    events = state.run_step(step)
    assert events[0].kind == "roll" and events[0].line == {
        "chance": "roll", "value": state.rolled,
    }  # fmt: skip
    assert state.next_step() is None
    assert (state.to_move(), state.actors()) == (0, [0])
    state.apply(Move(0, ("M",)))
    assert state.next_step() == Step(StepKind.CHANCE, "roll", seat=1)


@pytest.mark.parametrize("value", [1, 6])
def test_G5_GA19_a_given_roll_of_1_or_6_turns_the_dial_first(value: int) -> None:
    state = new_game(seats=2, seed=0)
    step = state.next_step()
    assert step is not None
    events = state.run_step(step, value)
    assert [e.kind for e in events] == ["roll", "dial"] and state.dial == 1
    assert events[0].line == {"chance": "roll", "value": value} and events[1].line is None
    assert state.rolled == value


def test_run_step_draws_from_the_seed_like_roll_did() -> None:
    a, b = new_game(seats=2, seed=9), new_game(seats=2, seed=9)
    step = a.next_step()
    assert step is not None
    a.run_step(step)
    b.roll()
    assert a == b


def test_run_step_refuses_what_is_not_this_games_step_or_roll() -> None:
    state = new_game(seats=2, seed=1)
    with pytest.raises(ValueError, match="no timer step"):
        state.run_step(Step(StepKind.TIMER, "sort_grace", at=5))
    with pytest.raises(ValueError, match="seat 0's"):
        state.run_step(Step(StepKind.CHANCE, "roll", seat=1))
    step = state.next_step()
    assert step is not None
    for bad in (0, 7, "3", True, 2.0):
        with pytest.raises(ValueError):
            state.run_step(step, bad)
    state.run_step(step, 4)
    with pytest.raises(IllegalAction) as err:
        state.run_step(step, 4)
    assert err.value.reason == "already_rolled" and state.rolled == 4


def test_no_step_and_no_actor_once_the_game_is_over() -> None:
    state = new_game(seats=2, seed=1, options={"stall_turns": 1})
    step = state.next_step()
    assert step is not None
    state.run_step(step, 2)
    state.apply(Move(0, ("M",)))
    assert state.termination == "stalled"
    assert (state.next_step(), state.to_move(), state.actors()) == (None, None, [])


def test_the_roll_lines_of_run_step_make_a_record_that_replays() -> None:
    from stoptable.core.records import replay_lines
    from stoptable.games import replayer

    state = new_game(seats=2, seed=5, options={"destination_count": 2})
    writer = RecordWriter(
        {"format": "stoptable-record/1", "game": "stopandgo", "ruleset": "stopgo-standard",
         "options": {"destination_count": 2}, "seats": 2, "seed": 99}
    )  # fmt: skip
    for _ in range(30):
        step = state.next_step()
        if step is None:
            break
        write_lines(writer, state.run_step(step))
        seat = state.to_move()
        assert seat is not None
        move = state.legal_actions(seat)[-1]
        state.apply(move)
        writer.add(move.to_json())
    # The header's seed differs: every roll comes from the record's chance lines.
    result = replay_lines(writer.lines(), replayer)
    assert result.exit_code == 0 and result.output is not None
    assert result.output["cars"] == state.to_json()["cars"]


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_the_view_starts_with_the_shared_header(seat: int | None) -> None:
    state = new_game(seats=2, seed=3)
    view = state.view(seat)
    assert list(view)[:5] == ["game", "ruleset", "seats", "phase", "seat"]
    assert (view["game"], view["ruleset"], view["seats"], view["phase"], view["seat"]) == (
        "stopandgo", "stopgo-standard", 2, "playing", seat,
    )  # fmt: skip
    assert (view["still_turns"], view["termination"]) == (0, None)
    assert "deck" not in view and view["deck_size"] == len(state.deck)
    assert dict(state.seat_view(seat)) == view
