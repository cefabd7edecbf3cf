"""The live Stop it! game, driven by Textual's pilot and a fake clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import RichLog

from stoptable.cli.replay import replay_file
from stoptable.games.stopit import Ruleset, StopItState
from stoptable.tui.stopit import StopItApp, status_line

SIZE = (110, 40)


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def position(**fields: Any) -> StopItState:
    stacks = fields.pop("stacks")
    fields["stacks"] = stacks + [[] for _ in range(5 - len(stacks))]
    return StopItState.from_position(
        Ruleset.preset("stopit-standard"), len(fields["hands"]), fields
    )


def make(tmp_path: Path, bots: list[str], **kw: Any) -> tuple[StopItApp, FakeClock]:
    clock = FakeClock()
    app = StopItApp(bots, clock=clock, auto_tick=False, record_path=tmp_path / "game.jsonl", **kw)
    return app, clock


async def wait(app: StopItApp, clock: FakeClock, pilot: Any, seconds: float) -> None:
    """Let ``seconds`` of wall clock pass in 0.1 s ticks."""
    for _ in range(round(seconds * 10)):
        clock.t += 0.1
        app.tick()
    await pilot.pause()


async def test_grab_then_insert_where_the_cursor_is(tmp_path: Path) -> None:
    state = position(
        stacks=[["red#1", "blue#1"], ["red#2"]], hands=[["red#3", "green#1"], []], phase="running"
    )
    app, _clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        assert state.held[0] == "red#1"
        assert app.cursor == 1  # suggested: after the red block
        await pilot.press("right", "right", "left", "right", "enter")
        assert state.held[0] is None
        assert state.hands[0] == ["red#3", "green#1", "red#1"]
        await pilot.press("2", "enter")
        assert state.hands[0] == ["red#3", "green#1", "red#1", "red#2"]
        assert "grab" in "".join(line.plain for line in app.lines)


async def test_I10_call_a_visible_stop_with_s_and_go_with_g(tmp_path: Path) -> None:
    state = position(
        stacks=[["red#1"], ["STOP-blue#1", "green#1"]],
        hands=[["blue#2"], ["red#2"]],
        phase="running",
    )
    app, clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert state.phase == "waiting_go" and state.go_seat == 0
        assert state.last_evaluation is not None
        assert state.last_evaluation["awarded"] == [0, 1]
        assert any("Evaluation of blue" in line.plain for line in app.lines)
        await pilot.press("g")
        assert "Not now" in app.message and state.phase == "waiting_go"  # min pause
        clock.t += 2.0
        await pilot.press("g")
        assert state.phase == "running"


async def test_I35_interrupted_by_a_bot_then_insert_in_the_grace(tmp_path: Path) -> None:
    state = position(
        stacks=[["red#1"], ["STOP-blue#1"], ["green#1"]], hands=[[], ["blue#2"]], phase="running"
    )
    app, clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        assert state.held[0] == "red#1"
        await wait(app, clock, pilot, 1.5)
        assert state.phase == "interrupted"  # P1 called Stop blue while we held red
        assert "insert your card now" in str(app.query_one("#status").render())
        await pilot.press("enter")
        assert state.hands[0] == ["red#1"]
        assert state.phase == "waiting_go" and state.go_seat == 1
        assert state.minus_cards == [1, 0]


async def test_bots_grab_while_the_human_waits(tmp_path: Path) -> None:
    app, clock = make(tmp_path, ["heuristic", "random"], seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert app.state.phase == "running"
        before = app.state.stack_total
        await wait(app, clock, pilot, 4.0)
        assert app.state.hands[0] == [] and app.state.held[0] is None
        assert app.state.stack_total < before
        grabs = sum(" grabs " in line.plain for line in app.lines)
        assert grabs >= 3 and before - app.state.stack_total >= grabs


async def test_bad_keys_are_ignored_with_a_message(tmp_path: Path) -> None:
    app, _clock = make(tmp_path, ["heuristic"], seed=2)
    async with app.run_test(size=SIZE) as pilot:
        snapshot = app.state.to_json()
        await pilot.press("x")
        assert "does nothing" in app.message
        await pilot.press("1")
        assert "not_running" in app.message
        await pilot.press("enter")
        assert "Nothing to insert" in app.message
        await pilot.press("p")
        assert "no stop card" in app.message
        assert app.state.to_json() == snapshot


async def test_I17_play_a_stop_card_and_move_a_card(tmp_path: Path) -> None:
    state = position(
        stacks=[["red#1"]],
        hands=[["red#2", "green#1", "red#3", "STOP-green#1", "SUPER#1"], ["green#2"]],
        phase="running",
    )
    app, _clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")  # the cursor is at 0: pick red#2 ...
        await pilot.press("right", "enter")  # ... and put it at index 1
        assert state.hands[0][:3] == ["green#1", "red#2", "red#3"]
        await pilot.press("p")
        assert app.prefix == "play"
        await pilot.press("1")
        assert state.removed == ["STOP-green#1"]
        assert state.last_evaluation is not None and state.last_evaluation["colour"] == "green"
        await pilot.press("w")
    # A game from a position is recorded from that position and replays to the same state.
    result = replay_file(tmp_path / "game.jsonl")
    assert result.exit_code == 0 and result.output is not None
    assert {k: v for k, v in result.output.items() if k != "applied"} == state.to_json()


async def test_I20_a_small_game_to_the_end_saves_a_replayable_record(tmp_path: Path) -> None:
    """Seat 0 grabs and inserts (3 times each with seed 10) until the game is over. Seed 9
    played 13 of each: the same checks, four times the ticks (9 s against 2 s)."""
    app, clock = make(tmp_path, ["heuristic", "random"], seed=10, options={"minus_supply": 3})
    pressed = {"grab": 0, "insert": 0}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        for _ in range(300):
            if app.state.phase == "game_over":
                break
            view = app.state.view(0)
            if view["phase"] == "running" and view["held"] is None:
                stack = next(i for i, c in enumerate(view["tops"]) if c is not None)
                await pilot.press(str(stack + 1))
                pressed["grab"] += 1
            elif view["held"] is not None:
                await pilot.press("enter")
                pressed["insert"] += 1
            elif view["go_seat"] == 0:
                await pilot.press("g")
            await wait(app, clock, pilot, 0.5)
        assert app.state.phase == "game_over"
        assert pressed["grab"] >= 3 and pressed["insert"] >= 3
        assert "Game over" in app.message
        scores = ", ".join(
            f"{n} {v}" for n, v in zip(["You", "P1", "P2"], app.state.scores, strict=True)
        )
        assert f"Minus points: {scores}." in app.message
        await pilot.press("1")
        assert "over" in app.message
    path = tmp_path / "game.jsonl"
    header = json.loads(path.read_text("utf-8").splitlines()[0])
    assert header["options"] == {"minus_supply": 3, "min_pause_ms": 2000}
    result = replay_file(path)
    assert result.exit_code == 0 and result.output is not None
    assert {k: v for k, v in result.output.items() if k != "applied"} == app.state.to_json()


async def test_w_saves_the_record_mid_game(tmp_path: Path) -> None:
    app, clock = make(tmp_path, ["heuristic"], seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "2")
        await wait(app, clock, pilot, 2.0)
        await pilot.press("enter", "w")
        assert app.saved and "saved" in app.message
        result = replay_file(tmp_path / "game.jsonl")
        assert result.exit_code == 0 and result.output is not None
        assert result.output["hands"] == app.state.to_json()["hands"]


async def test_I21_empty_stacks_show_the_endgame_countdown(tmp_path: Path) -> None:
    state = position(stacks=[], hands=[["red#1", "STOP-blue#1"], ["blue#2"]], phase="running")
    app, clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "stacks empty" in str(app.query_one("#status").render())
        await wait(app, clock, pilot, 16.0)
        assert state.phase == "game_over"  # nobody played a stop card for 15 s
        assert "Game over" in app.message


def test_I4_the_first_go_has_no_countdown_later_ones_do() -> None:
    state = StopItState.new_game(Ruleset.preset("stopit-standard"), 3, 1)
    view = state.view(0)
    assert view["phase"] == "waiting_go" and view["go_deadline"] is None
    line = status_line(view, 20_000, ["You", "P1", "P2"]).plain
    assert "Go: you: press g" in line and "auto in" not in line
    later = {**view, "go_deadline": 25_000}
    assert "auto in 5s" in status_line(later, 20_000, ["You", "P1", "P2"]).plain


async def test_q_asks_once_more_then_leaves_and_saves_help_is_on_question_mark(
    tmp_path: Path,
) -> None:
    app, _ = make(tmp_path, ["heuristic"], seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        lines = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
        assert "How to play" in lines and "q twice leaves" in lines
        await pilot.press("g", "q")
        assert "Press q again" in app.message and app.is_running
        await pilot.press("1")  # any other key cancels the question
        assert app.prefix is None
        await pilot.press("q", "q")
        await pilot.pause()
    assert app.return_code == 0
    assert replay_file(tmp_path / "game.jsonl").exit_code == 0


async def test_ctrl_q_asks_once_like_q_then_saves(tmp_path: Path) -> None:
    app, _ = make(tmp_path, ["heuristic"], seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "ctrl+q")
        await pilot.pause()
        assert "Press q again" in app.message and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0
    assert replay_file(tmp_path / "game.jsonl").exit_code == 0


async def test_IA2_keys_reach_every_stack_when_stack_count_is_above_five(tmp_path: Path) -> None:
    ruleset = Ruleset.preset("stopit-standard").with_options({"stack_count": 7})
    stacks: list[list[str]] = [[] for _ in range(7)]
    stacks[6] = ["red#1"]
    state = StopItState.from_position(
        ruleset, 2, {"stacks": stacks, "hands": [["red#3"], []], "phase": "running"}
    )
    app, _clock = make(tmp_path, ["heuristic"], state=state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("8")  # no eighth stack: nothing happens
        assert state.held[0] is None
        await pilot.press("7")
        assert state.held[0] == "red#1"
