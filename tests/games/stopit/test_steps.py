"""Time as protocol steps (records.md §5.4): ``next_step``/``run_step``, ``actors``/``to_move``.

Each timer kind is taken as a step, carries the clock line a driver writes for it, and
does what the same clock line does in replay; a request stamped at or after a due timer
still fires it first.
"""

from __future__ import annotations

from typing import Any

import pytest

from stoptable.core.errors import IllegalAction, InvalidNotation, RecordError
from stoptable.core.protocol import Step, StepKind
from stoptable.games.stopit import CallStop, Go, Grab, Insert, PlayStop, Ruleset, StopItState
from tests.games.stopit.scenario import clock, header, output, run, stacks


def state_with(options: dict[str, object], seats: int = 2, **position: object) -> StopItState:
    rules = Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **options})
    position.setdefault("hands", [[] for _ in range(seats)])
    return StopItState.from_position(rules, seats, position)  # type: ignore[arg-type]


def interrupted(options: dict[str, object] | None = None) -> StopItState:
    """P1 holds blue#1 when P0 calls Stop at 200: the grace runs to 200 + sort_grace_ms."""
    state = state_with(
        options or {}, phase="running", stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"])
    )
    state.apply(Grab(1, 100, 1, "blue#1"))
    state.apply(CallStop(0, 200, 0, "STOP-red#1"))
    return state


def take(state: StopItState) -> tuple[Step, list[Any]]:
    step = state.next_step()
    assert step is not None
    return step, state.run_step(step)


def replayed(head_position: dict[str, Any], *lines: dict[str, Any]) -> dict[str, Any]:
    head = header(**head_position)
    head["options"] = {"min_pause_ms": 0}
    return output(head, *lines)


def test_sort_grace_step_inserts_evaluates_and_carries_its_clock_line() -> None:
    state = interrupted()
    assert (state.actors(), state.to_move()) == ([1], None)
    step, events = take(state)
    assert step == Step(StepKind.TIMER, "sort_grace", at=3200)
    assert [e.kind for e in events] == ["auto_insert", "evaluation"]
    assert events[0].line == {"clock": 3200}
    assert all(e.line is None for e in events[1:])
    assert "line" not in events[0].for_seat(0)  # a record line, never shown to a seat
    assert (state.phase, state.clock, state.hands[1]) == ("waiting_go", 3200, ["blue#1"])
    assert (state.actors(), state.to_move()) == ([0], 0)


def test_go_timeout_step_sends_go_for_the_go_seat() -> None:
    state = interrupted()
    take(state)
    step, events = take(state)
    assert step == Step(StepKind.TIMER, "go_timeout", at=13200, seat=0)
    assert [(e.kind, e.seat, dict(e.public)) for e in events] == [("go", None, {"auto": True})]
    assert events[0].line == {"clock": 13200}
    assert (state.phase, state.last_go, state.actors()) == ("running", 13200, [0, 1])
    assert state.next_step() is None


def test_endgame_step_ends_a_game_nobody_stops() -> None:
    state = state_with(
        {}, phase="running", stacks=stacks(S1=["red#1"], S5=[]), hands=[[], ["STOP-blue#1"]]
    )
    state.apply(Grab(0, 10, 0, "red#1"))
    step, events = take(state)
    assert (step.name, step.at, step.seat) == ("endgame", 15010, None)
    assert [e.kind for e in events] == ["game_over"]
    assert events[0].line == {"clock": 15010}
    outcome = state.result()
    assert outcome is not None and outcome.termination == "stacks_exhausted"
    assert (state.next_step(), state.actors(), state.to_move()) == (None, [], None)


def test_a_step_does_what_its_clock_line_does_in_replay() -> None:
    position: dict[str, Any] = {
        "phase": "running",
        "stacks": stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"]),
    }
    state = interrupted()
    lines: list[dict[str, Any]] = [
        {"seat": 1, "type": "grab", "stack": "S2", "expect_id": "blue#1", "t": 100},
        {"seat": 0, "type": "call_stop", "stack": "S1", "expect_id": "STOP-red#1", "t": 200},
    ]
    for _ in range(2):
        _step, events = take(state)
        lines.append(dict(events[0].line or {}))
    assert lines[2:] == [clock(3200), clock(13200)]
    assert replayed(position, *lines) == {**state.to_json(), "applied": 4}


def test_next_step_is_stable_until_the_state_changes() -> None:
    state = interrupted()
    first = state.next_step()
    assert first is not None and state.next_step() is first
    state.apply(Insert(1, 300, 0))  # the last held card: the evaluation runs at once
    second = state.next_step()
    assert second is not None and second.name == "go_timeout" and second.at == 10300


def test_run_step_refuses_a_step_that_is_not_due_next() -> None:
    state = interrupted()
    step = state.next_step()
    assert step is not None
    with pytest.raises(ValueError, match="not the next step"):
        state.run_step(Step(StepKind.TIMER, "sort_grace", at=9999))
    with pytest.raises(ValueError, match="no outcome"):
        state.run_step(step, outcome=1)
    state.run_step(step)
    with pytest.raises(ValueError, match="not the next step"):
        state.run_step(step)  # already taken


def test_a_timer_due_at_the_request_time_fires_first() -> None:
    state = state_with(
        {"sort_grace_ms": 0},
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"]),
    )
    state.apply(Grab(1, 10, 1, "blue#1"))
    state.apply(CallStop(0, 20, 0, "STOP-red#1"))
    step = state.next_step()
    assert state.phase == "interrupted" and step is not None and step.at == 20
    with pytest.raises(IllegalAction) as info:
        state.apply(Insert(1, 20, 0))
    assert info.value.reason == "held_empty"
    assert (state.phase, state.hands[1]) == ("waiting_go", ["blue#1"])


def test_two_timers_due_at_once_fire_in_one_step() -> None:
    state = interrupted({"go_timeout_ms": 0})
    step, events = take(state)
    assert step.name == "sort_grace"
    assert [e.kind for e in events] == ["auto_insert", "evaluation", "go"]
    assert [e.line for e in events] == [{"clock": 3200}, None, None]
    assert state.phase == "running"


def test_time_never_goes_back() -> None:
    state = state_with({}, phase="running", stacks=stacks(S1=["red#1"]), clock=100)
    with pytest.raises(RecordError):
        state.apply(Go(0, 99))
    with pytest.raises(InvalidNotation, match="seat 2 does not exist"):
        state.apply(Go(2, 100))
    with pytest.raises(InvalidNotation, match="stack S4 does not exist"):
        StopItState.from_position(
            Ruleset.preset("stopit-standard", stack_count=3),
            2,
            {"stacks": [[], [], ["red#1"]], "hands": [[], []], "phase": "running"},
        ).apply(Grab(0, 5, 3, None))


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
    assert state.next_step() is None
    assert (state.phase, state.actors(), state.to_move()) == ("waiting_go", [0], 0)


def test_actors_in_each_phase() -> None:
    state = state_with(
        {},
        3,
        phase="running",
        stacks=stacks(S1=["STOP-red#1", "red#1"], S2=["blue#1"]),
        hands=[[], [], ["SUPER#1"]],
    )
    assert (state.actors(), state.to_move()) == ([0, 1, 2], None)
    state.apply(Grab(1, 100, 1, "blue#1"))
    state.apply(PlayStop(2, 150, "SUPER#1"))
    assert (state.phase, state.actors(), state.to_move()) == ("interrupted", [1], None)
    # A position may leave a card held while waiting for Go: its holder may still insert.
    waiting = state_with({}, 3, stacks=stacks(S1=["red#1"]), held=[None, "red#2", None], go_seat=1)
    assert (waiting.actors(), waiting.to_move()) == ([1], 1)
    other = state_with({}, 3, stacks=stacks(S1=["red#1"]), held=["red#2", None, None], go_seat=2)
    assert (other.actors(), other.to_move()) == ([0, 2], 2)
