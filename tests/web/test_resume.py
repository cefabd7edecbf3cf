"""Coming back: a reload keeps the seat and the state (each game); a server killed and
started again on the same database, and the page carries on by itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import require_game
from tests.web.helpers import game_data, join, seq, wait_seq_above, wait_state
from tests.web.support import Server

HAND = {"stop": "#st-hand .card", "stopit": "#si-hand .sicard", "stopandgo": "#sg-cars tbody tr"}


def hand_of(page: Any, game: str) -> list[str]:
    cards = page.locator(HAND[game])
    return [cards.nth(i).get_attribute("aria-label") or "" for i in range(cards.count())]


@pytest.mark.parametrize("game", ["stop", "stopit", "stopandgo"])
def test_reload_resumes_seat_and_state(server: Server, new_page: Any, game: str) -> None:
    require_game(game)
    seats = 3
    options = {"min_pause_ms": 0} if game == "stopit" else {}
    delay = 300 if game == "stopit" else 0
    table = server.create(
        game, seats, [None, "heuristic", "heuristic"], options=options, bot_delay_ms=delay
    )
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    if game == "stopit":
        page.wait_for_selector("#si-phase button[data-act=go]")
        page.keyboard.press("g")
        page.wait_for_function(
            "() => document.querySelector('#game').dataset.phase !== 'waiting_go'"
        )
        for k in range(4):
            page.keyboard.press(str(1 + k))
            page.wait_for_timeout(80)
    page.wait_for_timeout(200)
    if game == "stopandgo":
        page.wait_for_selector("#sg-map svg .hit")  # as after the reload: the cars are drawn
    before = hand_of(page, game)
    page.reload()
    wait_state(page)
    assert page.inner_text(".who") == "you are Ann"
    assert page.locator("#join").is_hidden()
    if game == "stopit":
        assert before and hand_of(page, game) == before  # nobody else changes our hand
    elif game == "stop":
        # Only seat 0 may act first or a bot already played: our cards are the same or
        # we are waiting on our own turn; either way the seat's hand is shown again.
        assert len(hand_of(page, game)) >= 1
        assert hand_of(page, game) == before or seq(page) > 0
    else:
        page.wait_for_selector("#sg-map svg .hit")
        assert hand_of(page, game) == before


def test_server_killed_and_restarted_the_page_carries_on(server: Server, new_page: Any) -> None:
    require_game("stop")
    table = server.create("stop", 2, [None, "heuristic"], options={"interjection_grace_ms": 0})
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    page.wait_for_selector(".seat.me.turn")
    at = seq(page)
    server.kill()
    page.wait_for_selector("#banner:not([hidden])")
    assert "reconnecting" in page.inner_text("#banner")
    server.start()
    page.wait_for_selector("#banner", state="hidden", timeout=15_000)
    assert seq(page) == at
    # Carry on with the keyboard: D draws (abacus-en lets the player on turn draw), or
    # → Enter plays the first card of the hand when a Skip or Draw Two is aimed at us.
    if page.locator("#st-controls button[data-act=draw]").count():
        page.keyboard.press("d")
    else:
        page.keyboard.press("x")
    assert wait_seq_above(page, at, 5)
    assert game_data(page, "phase") in ("playing", "closing", "round_over")
