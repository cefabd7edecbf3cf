"""Stop it! in the browser: one person and three bots play a whole game; the person grabs
with the keys and the mouse, says Go, calls Stop! and ends on the game-over screen."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

from tests.web.conftest import require_game
from tests.web.helpers import game_data, join
from tests.web.support import Server

FAST = {
    "minus_supply": 4,
    "min_pause_ms": 100,
    "go_timeout_ms": 1500,
    "sort_grace_ms": 300,
    "endgame_timeout_ms": 1500,
}


def test_one_person_three_bots_play_to_the_end(server: Server, new_page: Any) -> None:
    require_game("stopit")
    bots: list[str | None] = [None, "heuristic", "heuristic", "heuristic"]
    # Real-time bots with no thinking time would empty the stacks before a person can move.
    table = server.create("stopit", 4, bots, options=FAST, bot_delay_ms=250)
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    grabs = stops = held = 0
    end = time.monotonic() + 60
    while game_data(page, "over") != "1":
        assert time.monotonic() < end, "the game did not end"
        phase = game_data(page, "phase")
        if phase == "waiting_go" and page.locator("#si-phase button[data-act=go]").count():
            page.keyboard.press("g")
        elif phase == "running":
            stop = page.locator("#si-stacks button.stop-call.lit")
            if stop.count() and stops < 2:
                page.keyboard.press("s")
                stops += 1
            else:
                page.keyboard.press(str(1 + grabs % 5))
                grabs += 1
        held = max(held, page.locator("#si-hand .sicard").count())
        page.wait_for_timeout(40)
    page.wait_for_selector("dialog#over[open]")
    assert "Game over" in page.inner_text("dialog#over")
    href = page.get_attribute("#download-record", "href")
    assert href
    with urllib.request.urlopen(server.url + href) as res:
        lines = res.read().decode().splitlines()
    assert '"game":"stopit"' in lines[0].replace(" ", "")
    assert grabs > 0 and held > 0, "the person never got a card"
    # Every hand was shown at the last evaluation.
    page.click("#over-close")
    assert page.locator("#si-eval table").count() == 1
    # The replay viewer steps through the finished game as a spectator saw it.
    page.goto(f"{server.url}/t/{table}/replay")
    page.wait_for_selector("#si-stacks .stack")
    total = int(page.inner_text("#count").split("/")[1])
    assert total == len(lines) - 1
    page.click("#first")
    page.wait_for_selector("#count:has-text('0 /')")
    assert page.locator("#si-hand .sicard").count() == 0  # a spectator sees no hand order
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#count:has-text('1 /')")
    assert "Event 1" in page.inner_text("#event")
