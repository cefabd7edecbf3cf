"""The Stop terminal game, driven with Textual's pilot like a person at the keyboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Input, RichLog, Static

from stoptable.bots.stop import HeuristicBot
from stoptable.core.driver import Decline
from stoptable.core.errors import InvalidNotation
from stoptable.core.records import replay_lines
from stoptable.games import replayer
from stoptable.games.stop.cards import CARDS
from stoptable.tui.stop import StopApp, decision_kind
from stoptable.tui.stop_text import chip_label, hand_rows, pending_text

SIZE = (140, 44)


async def type_line(app: StopApp, pilot: Any, text: str) -> None:
    app.query_one("#command", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


def one_line(text: str) -> str:
    """What Rich printed at the terminal's width, its folded lines joined again."""
    return "".join(text.splitlines())


def log_text(app: StopApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def message(app: StopApp) -> str:
    return str(app.query_one("#message", Static).render())


def replayed(path: Path) -> dict[str, Any]:
    result = replay_lines(path.read_text("utf-8").splitlines(), replayer)
    assert result.exit_code == 0, result
    assert result.output is not None
    out = dict(result.output)
    out.pop("applied")
    return out


async def test_a_whole_round_typed_in_notation_ends_and_is_saved(tmp_path: Path) -> None:
    """A heuristic player types seat 0's choices (card notation, y/n) until the round ends.
    Seed 10's round has every kind of choice (play, draw, interject, accept, cancel,
    decline) in 16 moves of seat 0 (seed 4 had the same kinds in 27)."""
    record = tmp_path / "round.jsonl"
    app = StopApp(bots=["heuristic", "random"], seed=10, record_path=record)
    helper = HeuristicBot(0, 99)
    typed: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(400):
            if app.state.phase != "playing":
                break
            d = app.current
            assert d is not None and d.seat == 0
            choice = helper.act(app.state.view(0), d.legal)
            typed.add(type(choice).__name__)
            await type_line(app, pilot, "n" if isinstance(choice, Decline) else choice.notation())
            assert message(app) == ""
        assert typed == {"Play", "Draw", "Interject", "Accept", "Cancel", "Decline"}
        assert app.state.phase in ("round_over", "game_over")
        assert "Round over" in log_text(app)
        assert "Round over" in str(app.query_one("#prompt", Static).render())
        await type_line(app, pilot, "")  # Enter deals the next round
        assert app.state.round == 2 and app.state.phase == "playing"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert replayed(record) == app.state.to_json()


async def test_an_interjection_is_offered_and_accepted_before_the_next_seat() -> None:
    position = {
        "hands": [["R4", "B1", "G7"], ["R4", "Y9", "B9"], ["G5", "Y5", "B3"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B5", "Y1", "Y2"],
        "turn": 1,
    }
    app = StopApp(bots=["heuristic", "heuristic"], seed=1, position=position)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        d = app.current
        assert d is not None and (d.seat, decision_kind(d)) == (0, "offer")  # P2 has not acted yet
        assert "interject" in str(app.query_one("#prompt", Static).render())
        assert app.state.turn == 2
        await type_line(app, pilot, "y")
        assert "You interjected" in log_text(app)
        assert [c.code for c in app.state.discard][-2:] == ["R4", "R4"]
        assert sorted(c.code for c in app.state.hands[0]) == ["B1", "G7"]


async def test_a_forgotten_achtung_costs_two_cards() -> None:
    position = {
        "hands": [["R4", "B7"], ["G2", "Y9", "B9"], ["G5", "Y5", "B3"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B5", "Y1", "Y2"],
        "turn": 0,
    }
    app = StopApp(bots=["heuristic", "heuristic"], seed=1, position=position)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(app, pilot, "1")  # R4 without "a": one card left, no call (S-26)
        assert "You forgot Achtung!" in log_text(app)
        assert len(app.state.hands[0]) == 3


async def test_an_achtung_call_added_to_the_play_is_not_penalised() -> None:
    position = {
        "hands": [["R4", "B7"], ["G2", "Y9", "B9"], ["G5", "Y5", "B3"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B5", "Y1", "Y2"],
        "turn": 0,
    }
    app = StopApp(bots=["heuristic", "heuristic"], seed=1, position=position)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(app, pilot, "1 a")
        assert "You played" in log_text(app) and "Achtung!" in log_text(app)
        assert "forgot" not in log_text(app)


async def test_bad_input_reprompts_with_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    position = {
        "hands": [["R4", "B7", "GExch"], ["G2", "Y9", "B9"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B5", "Y1", "Y2"],
        "turn": 0,
    }
    app = StopApp(bots=["heuristic"], seed=1, position=position, record_path=tmp_path / "r")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = json.dumps(app.state.to_json(), sort_keys=True)
        lines = len(app.writer.events)
        await type_line(app, pilot, "2")  # B7 on R3
        assert "no_match (S-12)" in message(app) and "B7 does not match R3" in message(app)
        await type_line(app, pilot, "9")
        assert "not a card number" in message(app)
        await type_line(app, pilot, "3")  # a Card Exchange without its direction
        assert "direction" in message(app)
        await type_line(app, pilot, "3 swap 7")  # a seat that does not exist
        assert "no seat 7" in message(app) and "Nothing changed" in message(app)
        await type_line(app, pilot, "p")
        assert "pass_unavailable" in message(app)
        await type_line(app, pilot, "y")
        assert "no offer" in message(app)
        assert json.dumps(app.state.to_json(), sort_keys=True) == before
        assert len(app.writer.events) == lines
        assert app.current is not None and app.current.seat == 0
        await type_line(app, pilot, "1 a")  # and a good line afterwards is taken
        assert message(app) == ""
        assert "R4" in [c.code for c in app.state.discard]


async def test_save_command_writes_a_record_that_replays_to_the_screen_state(
    tmp_path: Path,
) -> None:
    app = StopApp(bots=["heuristic", "heuristic", "random"], seed=8)
    target = tmp_path / "saved.jsonl"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(app, pilot, "d")
        await type_line(app, pilot, f"save {target}")
        assert "Record saved" in log_text(app)
    header = json.loads(target.read_text("utf-8").splitlines()[0])
    assert header["seats"] == 4 and header["seed"] == 8
    assert replayed(target) == app.state.to_json()


async def test_a_card_exchange_cancel_is_offered_and_taken() -> None:
    position = {
        "hands": [["R0", "B1", "G7"], ["RExch", "G5"], ["G6", "Y5", "B3"]],
        "discard": ["R3"],
        "draw_pile": ["B2", "B5", "Y1", "Y2"],
        "turn": 1,
    }
    app = StopApp(bots=["heuristic", "heuristic"], seed=1, position=position)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        d = app.current
        assert d is not None and (d.seat, decision_kind(d)) == (0, "offer")
        assert "Cancel the Card Exchange" in str(app.query_one("#prompt", Static).render())
        await type_line(app, pilot, "y")
        assert "You cancelled the exchange" in log_text(app)
        assert sorted(c.code for c in app.state.hands[0]) == ["B1", "G7"]
        assert "every hand moved" not in log_text(app)  # the exchange never happened


def test_the_input_line_reads_numbers_words_and_the_notation() -> None:
    from stoptable.games.stop import Accept, CallAchtung, Draw, Play, parse_card
    from stoptable.tui.stop_text import Command, parse_input

    hand = ["R4", "B7", "GExch", "FC"]
    fc, r4, gx = parse_card("FC"), parse_card("R4"), parse_card("GExch")
    assert parse_input("1", hand, [], "turn") == Play(0, (r4,))
    assert parse_input("1 a", hand, [], "turn") == Play(0, (r4,), frozenset({"achtung"}))
    assert parse_input("4 1 s", hand, [], "turn") == Play(0, (fc, r4), frozenset({"stop"}))
    assert parse_input("fc 1", hand, [], "turn") == Play(0, (fc, r4))
    assert parse_input("3 swap 2", hand, [], "turn") == Play(0, (gx,), mode="swap", target=2)
    assert parse_input("3 r", hand, [], "turn") == Play(0, (gx,), mode="right")
    assert parse_input("a 2", hand, [], "turn") == Accept(0, frozenset(), parse_card("B7"))
    assert parse_input("d a", hand, [], "turn") == Draw(0, frozenset({"achtung"}))
    assert parse_input("c achtung", hand, [], "turn") == CallAchtung(0)
    assert parse_input("play B7 achtung", hand, [], "turn") == Play(
        0, (parse_card("B7"),), frozenset({"achtung"})
    )
    assert parse_input("save x.jsonl", hand, [], None) == Command("save", "x.jsonl")
    for bad in ("", "4", "9", "1 2", "3", "zap", "y"):
        with pytest.raises(InvalidNotation):
            parse_input(bad, hand, [], "turn")


async def test_ja_draw_x_reveal_and_play_from_the_input_line() -> None:
    position = {
        "hands": [["B3", "G5", "RSkip"], ["G2", "Y9", "B9"], ["G6", "Y5", "B1"]],
        "discard": ["R3", "RDrawX"],
        "draw_pile": ["B2", "B5", "Y1", "Y2", "Y3", "Y4"],
        "turn": 0,
        "pending": {"kind": "drawx", "victim": 0, "colour": "R"},
    }
    app = StopApp(ruleset="abacus-ja", bots=["heuristic", "heuristic"], seed=1, position=position)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "+X" in str(app.query_one("#prompt", Static).render())
        await type_line(app, pilot, "a")  # ja: a number card must be chosen (S-44)
        assert "not_a_number_card" in message(app)
        await type_line(app, pilot, "a 2")  # the hand reads RSkip B3 G5: card 2 is B3
        assert message(app) == "", message(app)
        assert "You revealed" in log_text(app) and "from the revealed hand" in log_text(app)
        assert "You drew 3 cards" in log_text(app)


async def test_S56_a_short_match_ends_with_the_game_over_prompt_at_80x24(tmp_path: Path) -> None:
    """A match to 20 points, played at 80x24: the game-over prompt shows (its '[path]' is
    text, not a style), the record is saved, and the table still shows the turn. Seed 16
    ends the match in its second round after 41 moves of seat 0, so Enter between rounds
    is typed too (seed 6 took 97 moves in a single round: 17 s)."""
    record = tmp_path / "match.jsonl"
    app = StopApp(bots=["random"], seed=16, record_path=record, options={"target_score": 20})
    helper = HeuristicBot(0, 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = str(app.query_one("#table", Static).render())
        assert "top card:" in table and "to act: You" in table
        assert "match to 20" in str(app.query_one("#title", Static).render())
        await type_line(app, pilot, "?")
        assert "How to play" in log_text(app) and "save [path]" in log_text(app)
        rounds_over = 0
        for _ in range(2000):
            if app.state.phase == "game_over":
                break
            if app.state.phase == "round_over":
                rounds_over += 1
                await type_line(app, pilot, "")
                continue
            d = app.current
            assert d is not None and d.seat == 0
            choice = helper.act(app.state.view(0), d.legal)
            await type_line(app, pilot, "n" if isinstance(choice, Decline) else choice.notation())
        assert app.state.phase == "game_over" and rounds_over == 1
        prompt = str(app.query_one("#prompt", Static).render())
        assert "Game over." in prompt and "save [path]" in prompt
        await type_line(app, pilot, "quit")  # the game is over: one quit leaves
    assert app.return_code == 0
    assert replayed(record) == app.state.to_json()


def test_log_sentences_name_the_colour_of_each_card() -> None:
    """Without colours (NO_COLOR, a monochrome terminal) the log still says which card."""
    from rich.text import Text

    from stoptable.tui.stop_text import describe

    play = {"kind": "play", "seat": 1, "cards": ["FC", "Y1"], "calls": []}
    assert Text.from_markup(describe(play, ["you", "bot"])).plain == "P1 played  FC   Y1 "
    drew = {"kind": "draw", "seat": 0, "count": 1, "cards": ["BDrawX"]}
    assert Text.from_markup(describe(drew, ["you"])).plain == "You drew 1 card:  B+X "


def hand_plain(app: StopApp) -> list[str]:
    return str(app.query_one("#hand", Static).render()).splitlines()


async def test_the_hand_names_each_card_with_its_colour_letter() -> None:
    """A red 4 and a blue 4 differ without colours too: the hand shows R4 and B4."""
    app = StopApp(bots=["heuristic"] * 3, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chips, numbers = hand_plain(app)
        assert chips.split() == app.hand == ["R2", "R4", "R9", "B9", "G3", "Y1", "Y9"]
        assert numbers.split() == [str(i) for i in range(1, 8)]
        for i, code in enumerate(app.hand, start=1):  # each number stands under its card
            at = chips.index(f" {code} ")
            assert numbers[at : at + len(code) + 2].strip() == str(i)
        table = str(app.query_one("#table", Static).render())
        assert "top card:  Y0 " in table and "to act: You" in table


async def test_a_large_hand_wraps_at_80_columns_and_scrolls_beyond_three_rows() -> None:
    """21 cards wrap onto two rows of chips, all in view and the table's turn line too;
    40 cards do not fit: the hand scrolls (a scroll bar shows), no card is dropped."""
    extra = ["RSkip", "BExch", "GDrawX", "FC", "Y7", "R0", "B5", "G2", "YSkip", "RDrawX"]
    extra += ["B1", "G8", "YExch", "R3"]
    app = StopApp(bots=["heuristic"] * 3, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.state.hands[0] += [CARDS[code] for code in extra]
        app.refresh_panels()
        await pilot.pause()
        lines = hand_plain(app)
        assert len(lines) == 4 and max(len(line) for line in lines) <= 75
        assert " ".join(lines[0::2]).split() == [chip_label(c) for c in app.hand]
        assert len(app.hand) == 21
        assert " ".join(lines[1::2]).split() == [str(i) for i in range(1, 22)]
        assert "G+X" in " ".join(lines) and "BExch" in " ".join(lines)
        box = app.query_one("#handbox")
        assert box.max_scroll_y == 0
        assert "to act: You" in str(app.query_one("#table", Static).render())
        app.state.hands[0] += [CARDS[code] for code in extra + extra[:5]]
        app.refresh_panels()
        await pilot.pause()
        lines = hand_plain(app)
        assert " ".join(lines[1::2]).split() == [str(i) for i in range(1, 41)]
        assert box.max_scroll_y > 0


def test_hand_rows_wrap_within_the_width_and_mark_playable_cards() -> None:
    from rich.text import Text

    hand = ["R4", "B4", "GExch", "YDrawX", "FC"] * 4
    markup = hand_rows(hand, {"B4"}, 30)
    lines = Text.from_markup(markup).plain.splitlines()
    assert all(len(line) <= 30 for line in lines) and len(lines) % 2 == 0
    assert " ".join(lines[0::2]).split() == ["R4", "B4", "GExch", "Y+X", "FC"] * 4
    assert "[b #facc15] 2  [/]" in markup and "[dim] 1  [/]" in markup


async def test_leaving_a_game_in_progress_asks_once_then_saves_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As in Stop it!: the first quit only asks, anything else typed forgets it, the second
    saves the record (which replays to the screen's state) and names its path in the
    terminal after the exit."""
    record = tmp_path / "left.jsonl"
    app = StopApp(bots=["heuristic", "random"], seed=4, record_path=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(app, pilot, "d")
        await type_line(app, pilot, "quit")
        assert app.return_code is None and not record.exists()
        assert "again leaves" in message(app) and str(record) in message(app)
        await type_line(app, pilot, "?")  # something else: the next quit asks again
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code is None and not record.exists()
        await pilot.press("ctrl+q")
        await pilot.pause()
        final = app.state.to_json()
    assert app.return_code == 0
    assert f"Stop: the record is saved in {record}" in one_line(capsys.readouterr().err)
    assert replayed(record) == final


async def test_a_record_that_cannot_be_saved_on_leaving_keeps_the_game_open(
    tmp_path: Path,
) -> None:
    record = tmp_path / "no-such-folder" / "left.jsonl"
    app = StopApp(bots=["random"], seed=4, record_path=record)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_line(app, pilot, "quit")
        await type_line(app, pilot, "quit")
        assert app.return_code is None and "could not save" in message(app)
        await type_line(app, pilot, "quit")  # a third time: leave without the record
    assert app.return_code == 0 and not record.exists()


async def test_nine_bots_at_80x24_leave_the_table_its_three_lines() -> None:
    """With 10 players the Players panel goes to two columns at 80x24, so every player is
    listed and the table keeps its top card, pending and turn lines in view."""
    app = StopApp(bots=["heuristic"] * 9, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = str(app.query_one("#seats", Static).render()).splitlines()
        names = " ".join(seats)
        assert "You" in names and all(f"P{i} heur" in names for i in range(1, 10))
        assert max(len(line) for line in seats) <= 40  # the panel's inside: nothing wraps
        table = app.query_one("#table", Static)
        assert table.region.height >= 5  # three lines and the border
        assert app.query_one("#seats").region.bottom <= table.region.y
        text = str(table.render())
        assert "top card:" in text and "to act: You" in text
        pending = app.state.view(0)["pending"]
        assert Text.from_markup(pending_text(pending, app.names)).plain in text
