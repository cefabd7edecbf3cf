"""The lobby creates each game with rule options, and shows bad options as errors."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import require_game
from tests.web.helpers import join
from tests.web.support import Server

# (game, seats, option, value, what the table then shows)
CASES = [
    ("stop", 3, "deal_size", "5", ("#st-hand .card", 5)),
    ("stopit", 2, "minus_supply", "5", ("#si-phase", "5 minus cards left")),
    ("stopandgo", 2, "destination_count", "4", ("#sg-move", "")),
]


def create_in_lobby(page: Any, url: str, game: str, seats: int, option: str, value: str) -> None:
    page.goto(url + "/")
    page.select_option("#game", game)
    page.fill("#seats", str(seats))
    page.dispatch_event("#seats", "change")
    page.fill("#creator-name", "Ann")
    page.click("summary:has-text('All rules')")
    page.fill(f"#opt-{option}", value)
    page.click("summary:has-text('For tests')")
    page.fill("#bot_delay_ms", "0")
    page.click("#create-btn")


@pytest.mark.parametrize(("game", "seats", "option", "value", "check"), CASES)
def test_lobby_creates_each_game_with_options(
    server: Server, new_page: Any, game: str, seats: int, option: str, value: str, check: Any
) -> None:
    require_game(game)
    page = new_page()
    create_in_lobby(page, server.url, game, seats, option, value)
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    info = server.request("GET", f"/api/tables/{table}")
    # the creator sits at seat 0 at once (protocol §8); the other seats are normal bots
    assert info["game"] == game and info["seats"] == seats and info["free_seats"] == []
    assert info["players"][0]["name"] == "Ann"
    assert all(p["bot"] == "normal" for p in info["players"][1:])
    page.wait_for_selector(".who.seated")
    where, expected = check
    if isinstance(expected, int):
        page.wait_for_function(
            f"() => document.querySelectorAll('{where}').length === {expected}", timeout=5000
        )
    else:
        assert expected in page.inner_text(where)
    # The table is listed in the lobby, with a share link.
    page.goto(server.url + "/")
    page.wait_for_selector(f"li[data-table='{table}'] button.copy")


def test_lobby_shows_bad_options_as_errors(server: Server, new_page: Any) -> None:
    require_game("stop")
    page = new_page()
    create_in_lobby(page, server.url, "stop", 3, "deal_size", "-1")
    page.wait_for_selector("#create-error:not([hidden])")
    text = page.inner_text("#create-error")
    # the server's refusal names the option: said with its label and range, not its id
    assert "Cards dealt" in text and "not created" in text and "Allowed: 1 to" in text
    assert "deal_size" not in text
    assert page.url.endswith("/")
    page.fill("#opt-deal_size", "seven")
    page.evaluate("() => { document.getElementById('create-error').hidden = true; }")
    page.click("#create-btn")
    page.wait_for_selector("#create-error:not([hidden]):has-text('Cards dealt')")


def test_a_turn_clock_is_shown_and_runs(server: Server, new_page: Any) -> None:
    require_game("stopandgo")
    clock = {"turn_s": 30, "bank_s": 90}
    table = server.create("stopandgo", 2, [None, "heuristic"], clock=clock)
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    page.wait_for_selector("#clock:not([hidden]) .bank.running")
    text = page.inner_text("#clock")
    assert "30 s a turn" in text and "Ann (you)" in text and "Bot 2" in text
    first = page.inner_text("#clock .bank.running")
    assert first.startswith("Ann (you) ▶ 0:") and first.endswith(" + 1:30"), first
    page.wait_for_timeout(1200)
    # the turn's 30 s count down first; the bank waits, even when a state comes meanwhile
    now = page.inner_text("#clock .bank.running")
    assert now != first and now.endswith(" + 1:30"), (first, now)


def test_the_bank_runs_once_the_turn_allowance_is_spent(server: Server, new_page: Any) -> None:
    require_game("stopandgo")
    table = server.create("stopandgo", 2, [None, "heuristic"], clock={"turn_s": 0.5, "bank_s": 90})
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    page.wait_for_selector("#clock:not([hidden]) .bank.running")
    page.wait_for_timeout(2500)  # 0.5 s of turn, then 2 s of bank
    text = page.inner_text("#clock .bank.running")
    assert "+" not in text and text.startswith("Ann (you) ▶ 1:2"), text  # below 1:30 now
    label = page.get_attribute("#clock .bank.running", "aria-label") or ""
    assert "of this turn" not in label and "seconds in the bank" in label, label
