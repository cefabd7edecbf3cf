"""Stop in the browser: two people and two bots play a round to its end by clicking, with an
interjection and a forgotten call, while a spectator watches and never receives a hand."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import require_game
from tests.web.helpers import join, seq, wait_seq_above, wait_state
from tests.web.support import Server

SEED = 8
"""A deal in which the two people get an interjection (the bots' play is seeded too)."""
FAST = {"interjection_grace_ms": 150, "cancel_window_ms": 300, "deal_size": 4}


class Player:
    def __init__(self, page: Any, seat: int) -> None:
        self.page = page
        self.seat = seat
        self.interjected = 0
        self.forgot = False
        self.penalised = ""  # the text that explained the forgotten call

    def hand(self) -> int:
        return int(self.page.locator("#st-hand .card").count())

    def step(self) -> bool:
        """One action by clicking, if the page offers one; False if there is nothing to do
        (or the button went away before the click: the table moved on)."""
        try:
            return self._step()
        except PlaywrightTimeout:
            return False

    def pick(self) -> None:
        """The first choice of a picker the last click opened, if any."""
        pick = self.page.locator("#st-picker button[data-pick]:not([data-pick=close])")
        if pick.count():
            pick.first.click(timeout=1000)

    def _step(self) -> bool:
        page = self.page
        if page.locator("#st-controls button.interject.lit").count():
            page.click("#st-controls button.interject.lit", timeout=1000)
            self.interjected += 1
            return True
        if not page.locator(".seat.me.turn").count():
            return False
        playable = page.locator("#st-hand .card.playable")
        if playable.count():
            toggle = page.locator("#st-controls .toggle.call")
            pressed = toggle.get_attribute("aria-pressed") == "true"
            if self.hand() == 2 and not self.forgot:
                self.forgot = True  # play the second-to-last card without “Achtung!”
                if pressed:
                    toggle.click(timeout=1000)
            elif self.hand() <= 2 and not pressed:
                toggle.click(timeout=1000)
            playable.first.click(timeout=1000)
            self.pick()
            return True
        for act in ("accept", "draw", "pass", "call_achtung", "call_stop", "cancel"):
            button = page.locator(f"#st-controls button[data-act={act}]")
            if button.count():
                button.first.click(timeout=1000)
                self.pick()  # a Draw X taken by revealing the hand offers a choice
                return True
        return False


def rounds_over(page: Any) -> int:
    """How many finished rounds the page's match table lists."""
    return int(page.locator("#st-scores tbody th:has-text('Round ')").count())


def test_two_people_two_bots_play_a_round_with_a_spectator(server: Server, new_page: Any) -> None:
    require_game("stop")
    table = server.create(
        "stop",
        4,
        [None, None, "heuristic", "heuristic"],
        options=FAST,
        round_pause_ms=300,
        seed=SEED,
    )
    watcher = new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    watcher.goto(f"{server.url}/t/{table}?watch")
    a, b = new_page(), new_page()
    join(a, server.url, table, 0, "Ann")
    join(b, server.url, table, 1, "Bob")
    wait_state(watcher)
    players = [Player(a, 0), Player(b, 1)]
    end = time.monotonic() + 75
    # Whole rounds, until a round has ended in which the people's clicks included an
    # interjection and a forgotten call (a seeded deal usually needs one round, or a few).
    goal: int | None = None
    while goal is None or rounds_over(a) < goal:
        assert time.monotonic() < end, "no round with an interjection and a forgotten call"
        done = sum(p.interjected for p in players) and any(p.penalised for p in players)
        if goal is None and done:
            goal = rounds_over(a) + 1
        acted = False
        for p in players:
            before = seq(p.page)
            if p.step():
                acted = True
                wait_seq_above(p.page, before, 1.5)
            told = p.page.locator(".toast.warn", has_text="forgot")
            if p.forgot and not p.penalised and told.count():
                p.penalised = told.first.inner_text()
        if not acted:
            a.wait_for_timeout(30)
    # The round ended on every page, the spectator's too: its scores are in the match table.
    for page in (b, watcher):
        page.wait_for_selector("#st-scores tbody th:has-text('Round 1')")
    # The forgotten call was explained with its rule, and someone interjected by clicking.
    assert any(p.penalised for p in players), "no forgotten call was explained"
    toasts = " ".join(p.penalised for p in players if p.penalised)
    assert "S-26" in toasts or "S-27" in toasts
    assert sum(p.interjected for p in players) >= 1, "nobody interjected"
    # The spectator never saw a hand: none drawn, none received.
    assert watcher.locator("#st-hand .card").count() == 0
    assert "Watching" in watcher.inner_text("#st-hand")
    assert frames and not any('"hand":["' in f or '"hand": ["' in f for f in frames)


def test_match_table_after_a_late_join_sums_the_rounds_the_log_no_longer_shows(
    server: Server, new_page: Any
) -> None:
    """S-55: a page opened after several rounds cannot see their `round_end` events in the
    view's log any more; it shows them as one row, the totals less the rounds it knows."""
    require_game("stop")
    table = server.create(
        "stop",
        2,
        ["heuristic", "heuristic"],
        options={"target_score": 1000, "interjection_grace_ms": 0, "cancel_window_ms": 0},
        round_pause_ms=0,
    )
    server.wait_phase(table, "over")  # dozens of rounds: the view's log holds the last few
    page = new_page()
    page.goto(f"{server.url}/t/{table}?watch")
    wait_state(page)
    earlier = page.locator("#st-scores tbody tr.earlier")
    earlier.wait_for()
    assert earlier.locator("th").inner_text().startswith("Round")
    rows = page.locator("#st-scores tbody tr")
    sums = [0, 0]
    totals: list[int] = []
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = [int(c.replace(",", "")) for c in row.locator("td").all_inner_texts()]
        if "total" in (row.get_attribute("class") or ""):
            totals = cells
        else:
            sums = [a + b for a, b in zip(sums, cells, strict=True)]
    assert totals and sums == totals


def test_S41_card_exchange_picker_offers_each_mode_and_back_closes_it(
    server: Server, new_page: Any
) -> None:
    """Seed 1 deals P0 the first turn with a yellow Card Exchange on a yellow 0: clicking it
    opens the picker with one button per legal mode; Back closes it; a mode plays it, and the
    exchange itself reaches the log although its events carry the seq of the play's line (the
    cancel window closing has no line of its own, protocol §3: the page once dropped them)."""
    require_game("stop")
    table = server.create(
        "stop", 3, [None, "heuristic", "heuristic"], seed=1, options={"cancel_window_ms": 300}
    )
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    page.wait_for_selector(".seat.me.turn")
    page.click("#st-hand .card[data-card='YExch']")
    picker = page.locator("#st-picker")
    picker.wait_for()
    modes = picker.locator("button[data-pick]:not([data-pick=close])").all_inner_texts()
    assert any("hands go left" in m for m in modes), modes
    assert any("hands go right" in m for m in modes), modes
    page.click("#st-picker button[data-pick=close]")
    assert picker.is_hidden()
    assert page.locator("#st-hand .card[data-card='YExch']").count() == 1  # nothing was sent
    page.click("#st-hand .card[data-card='YExch']")
    page.click("#st-picker button:has-text('hands go left')")
    page.wait_for_selector("#st-log li:has-text('Card Exchange: hands go left')")
