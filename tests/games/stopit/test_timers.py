"""Timers on the engine's clock (records.md §5.4): due timers fire before a request is checked."""

from __future__ import annotations

import pytest

from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.games.stopit import CallStop, Go, Grab, Insert, Ruleset, StopItState
from tests.games.stopit.scenario import header, output, run, stacks


def state_with(options: dict[str, object], **position: object) -> StopItState:
    rules = Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **options})
    position.setdefault("hands", [[], []])
    return StopItState.from_position(rules, 2, position)  # type: ignore[arg-type]


def test_timers_fire_in_order_and_report_their_events() -> None:
    state = state_with(
        {}, phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"])
    )
    state.apply(Grab(1, 100, 1, "blue#1"))
    state.apply(CallStop(0, 200, 0, "STOP-red#1"))
    assert state.next_timer() == 3200
    events = state.advance_to(50000)
    assert [e.kind for e in events] == ["auto_insert", "evaluation", "go"]
    assert events[2].public == {"auto": True} and events[2].seat is None
    assert (state.phase, state.clock, state.last_go) == ("running", 50000, 13200)
    assert state.next_timer() is None


def test_a_timer_due_at_the_request_time_fires_first() -> None:
    state = state_with(
        {"sort_grace_ms": 0},
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"]),
    )
    state.apply(Grab(1, 10, 1, "blue#1"))
    state.apply(CallStop(0, 20, 0, "STOP-red#1"))
    assert (state.phase, state.next_timer()) == ("interrupted", 20)
    with pytest.raises(IllegalAction) as info:
        state.apply(Insert(1, 20, 0))
    assert info.value.reason == "held_empty"
    assert (state.phase, state.hands[1]) == ("waiting_go", ["blue#1"])


def test_time_never_goes_back() -> None:
    state = state_with({}, phase="running", stacks=stacks(S1=["red#1"]), clock=100)
    with pytest.raises(RecordError):
        state.advance_to(99)
    with pytest.raises(RecordError):
        state.apply(Go(0, 99))
    with pytest.raises(InvalidNotation, match="seat 2 does not exist"):
        state.apply(Go(2, 100))


def test_a_running_position_with_nothing_left_is_over() -> None:
    data = output(header(phase="running", stacks=stacks(S5=[])))
    assert (data["phase"], data["winners"]) == ("game_over", [0, 1])
    # I-21 holds in waiting_go too: the position is over at setup, so a Go is too late.
    waiting = output(header(stacks=stacks(S5=[])))
    assert (waiting["phase"], waiting["go_seat"], waiting["winners"]) == ("game_over", None, [0, 1])
    late = run(header(stacks=stacks(S5=[])), {"seat": 0, "type": "go", "t": 5})
    assert late.exit_code == 2 and late.output is not None
    assert late.output["error"]["reason"] == "game_over"


def test_the_first_go_has_no_timeout() -> None:
    state = StopItState.new_game(Ruleset.preset("stopit-standard"), 3, seed=2)
    assert state.next_timer() is None
    state.advance_to(10**6)
    assert state.phase == "waiting_go"
