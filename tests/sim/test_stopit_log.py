"""The readable lines of a Stop it! table (live log and watch mode)."""

from __future__ import annotations

from stoptable.games.stopit import Go
from stoptable.live.machine import Happening
from stoptable.sim.stopit_log import chip, describe
from stoptable.sim.stopit_tournament import play_game


def test_describe_names_grabs_calls_evaluations_and_the_end() -> None:
    seen: list[Happening] = []
    play_game(["heuristic", "random", "random"], 6, watch=seen.append)
    you = ["You", "P1 random", "P2 random"]
    text = [line.plain for h in seen for line in describe(h, you)]
    assert any(t.startswith("You grab ") for t in text)
    assert any(t.startswith("P1 random grabs ") for t in text)
    assert any("STOP" in t for t in text)
    assert sum(t.startswith("Evaluation of ") for t in text) >= 1
    assert text[-1].startswith("GAME OVER.")
    rejected = next(h for h in seen if h.error is not None)
    assert describe(rejected, you) == []


def test_chips_show_colour_stop_and_superstop_cards() -> None:
    assert chip("red#3").plain == " red "
    assert chip("STOP-blue#1", wide=True).plain == " STOP blue "
    assert chip("SUPER#2", wide=True).plain == " SUPERSTOP "
    assert chip(None).plain == " · "


def test_game_over_line_names_each_seats_minus_points() -> None:
    seen: list[Happening] = []
    result = play_game(["random", "random"], 3, options={"minus_supply": 2}, watch=seen.append)
    names = ["You", "P1 random"]
    last = [line.plain for h in seen for line in describe(h, names)][-1]
    points = ", ".join(f"{n} {p}" for n, p in zip(names, result.scores, strict=True))
    assert last.startswith(f"GAME OVER. Minus points: {points}; winner: ")


def test_I55_an_explicit_first_go_seat_option_wins_over_the_rotation() -> None:
    seen: list[Happening] = []
    options = {"first_go_seat": 1}
    play_game(["random", "random"], 5, first_go_seat=0, options=options, watch=seen.append)
    go = next(h for h in seen if isinstance(h.request, Go) and h.error is None)
    assert go.seat == 1
