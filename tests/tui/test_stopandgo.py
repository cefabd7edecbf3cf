"""The Stop & Go terminal game, driven with Textual's pilot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import RichLog, Static

from stoptable.cli.replay import replay_file
from stoptable.games.stopandgo import Move, load_default_map
from stoptable.tui.stopandgo import StopGoApp, describe, draw_map, explain

SHORT = {"destination_count": 2}


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game saves its record at the end into the working directory: keep it in tmp."""
    monkeypatch.chdir(tmp_path)


def message(app: StopGoApp) -> str:
    return str(app.query_one("#message", Static).render())


def one_line(text: str) -> str:
    """What Rich printed at the terminal's width, its folded lines joined again."""
    return "".join(text.splitlines())


def log_text(app: StopGoApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


async def test_a_refused_path_is_explained_and_changes_nothing() -> None:
    app = StopGoApp(["heuristic"], seed=5, options=SHORT, bot_delay=0)
    async with app.run_test(size=(150, 45)) as pilot:
        before = app.state.to_json()
        game_map = app.state.game_map
        here = game_map.index[before["cars"][0]["pos"]]
        far = next(
            s for s in range(len(game_map.ids)) if s != here and s not in game_map.neighbours[here]
        )
        for ch in f"move {game_map.ids[far]}":
            await pilot.press("space" if ch == " " else ch)
        await pilot.press("enter")
        await pilot.pause()
        assert "Refused" in message(app)
        assert "not neighbours" in message(app)
        assert app.state.to_json() == before
        await pilot.press("9", "9", "enter")
        assert "there is no move 99" in message(app)
        assert app.state.to_json() == before


async def test_standing_still_keeps_the_car_and_passes_the_turn() -> None:
    app = StopGoApp(["random", "random"], seed=7, options=SHORT, bot_delay=0)
    async with app.run_test(size=(150, 45)) as pilot:
        pos = app.state.cars[0].pos
        roll = app.state.rolled
        await pilot.press("0", "enter")
        await pilot.pause()
        assert app.state.cars[0].pos == pos
        assert f"P0 (you) throws {roll}: stand still" in log_text(app)
        assert app.state.turn == 0 and app.state.rolled is not None  # the bots have played


async def test_the_map_shows_cars_options_and_the_destination() -> None:
    app = StopGoApp(["heuristic"], seed=1, bot_delay=0)
    async with app.run_test(size=(150, 45)):
        drawing = str(app.query_one("#map", Static).render())
        assert "◆" in drawing and "market" in drawing
        moves = str(app.query_one("#movelist", Static).render())
        assert "1." in moves and "stand still" in moves
        status = str(app.query_one("#status", Static).render())
        assert f"Destination {app.state.active}" in status


def test_text_helpers() -> None:
    game_map = load_default_map()
    view = {"dial": 0, "active": 5, "cars": [{"pos": game_map.ids[game_map.market], "prev": None}]}
    text = draw_map(game_map, view).plain
    assert len(text.splitlines()) == 21
    assert " 5" in text and "●0" in text
    assert describe(game_map, ("a",)) == "stand still"
    assert "red" in explain(["red"]) and "U-turn" in explain(["u_turn"])


async def test_input_during_the_bots_turns_is_refused() -> None:
    app = StopGoApp(["heuristic", "heuristic"], seed=4, options=SHORT, bot_delay=30)
    async with app.run_test(size=(150, 45)) as pilot:
        await pilot.press("1", "enter")
        await pilot.pause()
        assert app.state.turn == 2  # seat 1 has played, seat 2 waits for its timer
        before = app.state.to_json()
        await pilot.press("1", "enter")
        assert "wait" in message(app)
        assert app.state.to_json() == before


def breaking_path(app: StopGoApp) -> tuple[str, ...] | None:
    """A path from the human's car that breaks only traffic rules, if the throw allows one."""
    state = app.state
    game_map = state.game_map
    start = state.cars[app.human].pos
    roll = state.rolled or 0
    stack = [(start,)]
    while stack:
        path = stack.pop()
        if len(path) > 1:
            move = Move(app.human, tuple(game_map.ids[s] for s in path))
            hard, traffic = state.reasons(move)
            if not hard and traffic:
                return move.path
        if len(path) <= roll:
            stack.extend((*path, n) for n in game_map.neighbours[path[-1]])
    return None


async def test_G16_fine_mode_gives_a_ticket_for_a_violation() -> None:
    options = {**SHORT, "enforcement": "fine"}
    app = StopGoApp(["random"], seed=3, options=options, bot_delay=0)
    async with app.run_test(size=(150, 45)) as pilot:
        for _ in range(60):
            path = breaking_path(app)
            if path is not None:
                break
            await pilot.press("0", "enter")
        assert path is not None
        pos = app.state.cars[0].pos
        app.submit("move " + " ".join(path))
        await pilot.pause()
        assert app.state.cars[0].tickets == 1
        assert app.state.cars[0].pos == pos
        assert "breaks a traffic rule" in log_text(app) and "ticket 1" in log_text(app)


async def test_a_small_terminal_shows_the_map_around_your_car() -> None:
    app = StopGoApp(["heuristic"], seed=1, bot_delay=0)
    async with app.run_test(size=(80, 24)):
        drawing = str(app.query_one("#map", Static).render())
        lines = drawing.splitlines()
        assert len(lines) <= 16 and max(len(line) for line in lines) <= 30
        assert "◆2" in drawing  # the window holds the market, where both cars stand


async def test_G20_a_whole_game_against_bots_ends_and_saves_a_record_that_replays_to_it(
    tmp_path: Path,
) -> None:
    """One whole game against bots (it was two, seeds 2 and 4, with half the checks each):
    every decision is seat 0's with a roll, the end is announced and saved, input after
    the end is refused, one Ctrl+Q leaves, and the record replays to the final state."""
    path = tmp_path / "g.jsonl"
    app = StopGoApp(["heuristic", "random"], seed=4, options=SHORT, bot_delay=0, record_path=path)
    async with app.run_test(size=(150, 45)) as pilot:
        for _ in range(400):
            if app.state.over:
                break
            assert app.state.turn == app.human and app.state.rolled is not None
            await pilot.press("1" if app.options_list else "0", "enter")
            await pilot.pause()
        assert app.state.over
        assert "Game over" in message(app) and "Record saved" in message(app)
        assert sum(app.state.scores()) == 2
        final = app.state.to_json()
        await pilot.press("1", "enter")
        assert "The game is over" in message(app)
        await pilot.press("ctrl+q")  # the game is over: one press leaves
        await pilot.pause()
    assert app.return_code == 0
    header = json.loads(path.read_text().splitlines()[0])
    assert header["options"] == SHORT and header["seats"] == 3 and header["seed"] == 4
    result = replay_file(path)
    assert result.exit_code == 0 and result.output is not None
    assert result.output["phase"] == "game_over"
    assert result.output["scores"] == app.state.scores()
    assert result.state is not None and result.state.to_json() == final


async def test_help_save_and_quit_are_typed_commands(tmp_path: Path) -> None:
    app = StopGoApp(["random"], seed=3, options=SHORT, bot_delay=0)
    async with app.run_test(size=(150, 45)) as pilot:
        assert "? for help" in message(app)
        await pilot.press("question_mark", "enter")
        await pilot.pause()
        assert "How to play" in log_text(app) and "stand still" in log_text(app)
        await pilot.press("1", "enter")
        await pilot.pause()
        for ch in "save mid.jsonl":
            await pilot.press("space" if ch == " " else ch)
        await pilot.press("enter")
        await pilot.pause()
        assert "Record saved" in message(app)
        lines = (tmp_path / "mid.jsonl").read_text().splitlines()
        assert json.loads(lines[1]) == {"chance": "roll", "value": json.loads(lines[1])["value"]}
        assert replay_file(tmp_path / "mid.jsonl").exit_code == 0
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert (tmp_path / "stopandgo-3.jsonl").exists()
        await pilot.press("q", "enter")
        await pilot.pause()
        assert app.return_code is None and "again leaves" in message(app)
        await pilot.press("q", "enter")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_status_says_where_each_car_stands() -> None:
    """At the start every car is on the market, hidden under one symbol on the map: the
    status panel names each car's space."""
    app = StopGoApp(["heuristic", "random"], seed=3, options=SHORT, bot_delay=0)
    async with app.run_test(size=(150, 45)) as pilot:
        await pilot.pause()
        status = str(app.query_one("#status", Static).render())
        view = app.state.view(0)
        for seat, car in enumerate(view["cars"]):
            name = app.names[seat]
            assert any(
                name in line and f"at {car['pos']}" in line for line in status.splitlines()
            ), (seat, status)


async def test_leaving_a_game_in_progress_asks_once_then_saves_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As in Stop it!: the first quit only asks, anything else typed forgets it, the second
    saves the record (which replays) and names its path in the terminal after the exit."""
    path = tmp_path / "left.jsonl"
    app = StopGoApp(["random"], seed=5, options=SHORT, bot_delay=0, record_path=path)
    async with app.run_test(size=(150, 45)) as pilot:
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code is None and not path.exists()
        assert "again leaves" in message(app) and str(path) in message(app)
        await pilot.press("question_mark", "enter")  # something else: ask again
        await pilot.pause()
        for ch in "quit":
            await pilot.press(ch)
        await pilot.press("enter")
        await pilot.pause()
        assert app.return_code is None and not path.exists()
        await pilot.press("ctrl+q")
        await pilot.pause()
        final = app.state.to_json()
    assert app.return_code == 0
    assert f"Stop & Go: the record is saved in {path}" in one_line(capsys.readouterr().err)
    result = replay_file(path)
    assert result.exit_code == 0 and result.state is not None
    assert result.state.to_json() == final


async def test_a_record_that_cannot_be_saved_on_leaving_keeps_the_game_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "no-such-folder" / "left.jsonl"
    app = StopGoApp(["random"], seed=5, options=SHORT, bot_delay=0, record_path=path)
    async with app.run_test(size=(150, 45)) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code is None and "could not save" in message(app)
        await pilot.press("ctrl+q")  # a third time: leave without the record
        await pilot.pause()
    assert app.return_code == 0 and not path.exists()
