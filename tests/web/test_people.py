"""People at a table in the browser (protocol.md §8, issue 19): the lobby seats the creator,
two people and a spectator see each other's names and chat (one is refused for chatting too
fast, the spectator cannot chat), both play again and meet at the next table in the same
seats; the Japanese interface plays a Stop round to the end; no page state shows an
internal name or raw JSON; every press on Stop it!'s Go! and stacks reaches the server."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import require_game
from tests.web.helpers import game_data, join, seq, wait_seq_above, wait_state
from tests.web.support import Server
from tests.web.test_stop_table import Player
from tests.web.words import mark_catalogues, no_internal_names, unmarked

QUICK = {"deal_size": 3, "target_score": 1, "interjection_grace_ms": 100, "cancel_window_ms": 200}
"""A Stop match that one short round ends."""


@pytest.fixture
def ja_page(new_page: Any) -> Any:
    """``ja_page()``: a page in a fresh context whose browser prefers Japanese."""
    return lambda width=1280, height=800: new_page(width, height, locale="ja-JP")


def play_to_the_end(
    players: list[Player], limit_s: float = 90, check: Callable[[Any], None] | None = None
) -> None:
    """Every player clicks until the match ends; ``check(page)`` runs on each state seen."""
    end = time.monotonic() + limit_s
    first = players[0].page
    while game_data(first, "over") != "1":
        if time.monotonic() > end:
            raise AssertionError("the match did not end")
        if check is not None:
            for p in players:
                check(p.page)
        acted = False
        for p in players:
            before = seq(p.page)
            pick = p.page.locator("#st-picker button[data-pick]:not([data-pick=close])")
            if pick.count():  # a picker left open (Draw X's reveal-and-play in abacus-ja)
                with contextlib.suppress(PlaywrightTimeout):
                    pick.first.click(timeout=1000)
                acted = True
            elif p.step():
                acted = True
                wait_seq_above(p.page, before, 1.5)
        if not acted:
            first.wait_for_timeout(30)


def test_the_lobby_seats_the_creator(server: Server, new_page: Any) -> None:
    require_game("stop")
    page = new_page()
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    page.select_option("#game", "stop")
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "change")
    page.wait_for_selector("#bot-2")
    page.select_option("#bot-2", "easy")
    page.fill("#creator-name", "Ann <b>")
    no_internal_names(page)
    page.click("#create-btn")
    page.wait_for_url(re.compile(r"/t/[0-9a-f]+$"))
    page.wait_for_selector(".who.seated")
    wait_state(page)
    assert "Ann <b>" in page.inner_text("#who")
    assert "Bot 3 (easy)" in page.inner_text("#st-seats")
    assert page.locator("#st-seats b").count() == 0  # a name is text, never markup
    no_internal_names(page)


def test_the_lobby_explains_a_seat_count_instead_of_changing_it(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    page.select_option("#game", "stop")
    page.fill("#seats", "99")
    page.dispatch_event("#seats", "change")
    page.wait_for_selector("#seats-note.bad-note")
    assert page.input_value("#seats") == "99"
    assert "2" in page.inner_text("#seats-note") and "10" in page.inner_text("#seats-note")


def test_names_chat_and_play_again(server: Server, new_page: Any) -> None:
    require_game("stop")
    made = server.request(
        "POST",
        "/api/tables",
        {
            "game": "stop",
            "seats": 2,
            "bots": [None, None],
            "options": QUICK,
            "bot_delay_ms": 0,
            "round_pause_ms": 300,
            "seed": 3,
            "creator": {"seat": 0, "name": "Ann"},
        },
    )
    table = made["table"]
    ann, bea, watcher = new_page(), new_page(), new_page()
    watcher.goto(f"{server.url}/t/{table}?watch")
    wait_state(watcher)
    ann.goto(server.url)  # the creator's token, as the lobby keeps it
    ann.evaluate(
        "([t, s]) => localStorage.setItem('stoptable:seat:' + t, JSON.stringify(s))",
        [table, {"seat": 0, "token": made["token"], "name": "Ann"}],
    )
    ann.goto(f"{server.url}/t/{table}")
    ann.wait_for_selector(".who.seated")
    # the waiting note names who is there; the join form is not offered to a seated person
    assert "Ann" in watcher.inner_text("#waiting")
    join(bea, server.url, table, 1, "Bea")
    for page in (ann, bea, watcher):
        page.wait_for_selector("#st-seats :text('Bea')")
        assert "Ann" in page.inner_text("#st-seats")
        no_internal_names(page)
    # chat: everyone sees it, the spectator may not write, too fast is refused with a reason
    ann.fill(".chat-input", "hello <i>Bea</i>")
    ann.press(".chat-input", "Enter")
    for page in (ann, bea, watcher):
        page.wait_for_selector(".chat-log li:has-text('hello <i>Bea</i>')")
        assert page.locator(".chat-log i").count() == 0
    assert watcher.locator(".chat-form").is_hidden()
    assert "seat" in watcher.inner_text(".chat-note")
    for i in range(6):
        bea.click(".chat-react >> nth=0") if i % 2 else bea.fill(".chat-input", f"m{i}")
        if not i % 2:
            bea.press(".chat-input", "Enter")
        bea.wait_for_timeout(60)
    bea.wait_for_selector(".chat-note:has-text('10 seconds')")
    assert ann.locator(".chat-log li").count() == 6  # Ann's and Bea's first five
    # mute folds the chat away and counts what arrives meanwhile
    watcher.click(".chat-mute")
    ann.fill(".chat-input", "one more")
    ann.press(".chat-input", "Enter")
    watcher.wait_for_selector(".chat-mute:has-text('1')")
    # play to the end, then both play again and meet at the next table
    play_to_the_end([Player(ann, 0), Player(bea, 1)])
    for page in (ann, bea, watcher):
        page.wait_for_selector("dialog#over[open]")
        assert "Ann" in page.inner_text("dialog#over") and "Bea" in page.inner_text("dialog#over")
        no_internal_names(page)
    assert watcher.locator("#play-again").count() == 0
    ann.click("#play-again")
    ann.wait_for_url(lambda url: re.search(r"/t/[0-9a-f]+$", url) and table not in url)
    nxt = ann.url.rsplit("/", 1)[1]
    assert nxt != table
    ann.wait_for_selector(".who.seated")
    bea.wait_for_selector("#again-note:has-text('Ann')")
    bea.click("#play-again")
    bea.wait_for_url(f"{server.url}/t/{nxt}")
    for page, name in ((ann, "Ann"), (bea, "Bea")):
        page.wait_for_selector(".who.seated")
        wait_state(page)
        assert name in page.inner_text("#who")
    info = server.request("GET", f"/api/tables/{nxt}")
    assert [p["name"] for p in info["players"]] == ["Ann", "Bea"]
    assert info["phase"] == "playing"
    # chat stays open at the finished table: the watcher still gets goodbyes there
    watcher.click(".chat-mute")
    watcher.wait_for_selector(".chat-log li:has-text('one more')")
    # the replay: lines in words, names, the chat read-only
    watcher.goto(f"{server.url}/t/{table}/replay")
    watcher.wait_for_selector("#st-seats .seat")
    watcher.wait_for_selector(".chat-log li:has-text('one more')")
    assert watcher.locator(".chat-form").is_hidden()
    for step in range(6):
        no_internal_names(watcher)
        assert "Ann" in watcher.inner_text("#st-seats")
        watcher.click("#prev" if step % 2 else "#first")
        watcher.click("#next")
    # the log follows the slider: at the start only the deal, at the end the whole round
    watcher.click("#last")
    watcher.wait_for_function("() => document.querySelectorAll('#st-log li').length > 3")
    watcher.click("#first")
    watcher.wait_for_selector("#count:has-text('0 /')")
    watcher.wait_for_function("() => document.querySelectorAll('#st-log li').length <= 1")


def test_the_japanese_interface_plays_a_stop_round(server: Server, ja_page: Any) -> None:
    """On the Japanese rulebook's ruleset, with the catalogues marked: every state of the
    round shows only catalogue words. Seed 3 deals the person a Draw X to take by revealing
    the hand (abacus-ja's reveal_and_play): the accept button offers the plays to pick."""
    require_game("stop")
    table = server.create(
        "stop",
        2,
        [None, "heuristic"],
        ruleset="abacus-ja",
        options=QUICK,
        round_pause_ms=300,
        seed=3,
    )
    page = ja_page()
    mark_catalogues(page)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#join-name")
    assert page.evaluate("() => document.documentElement.lang") == "ja"
    assert "このテーブルに参加" in page.inner_text("#join")
    page.fill("#join-name", "あおい")
    page.click("#join-form button[value='0']")
    page.wait_for_selector(".who.seated")
    wait_state(page)

    def only_catalogue_words(p: Any) -> None:
        assert not unmarked(p, ["あおい"]), unmarked(p, ["あおい"])

    only_catalogue_words(page)
    play_to_the_end([Player(page, 0)], check=only_catalogue_words)
    page.wait_for_selector("dialog#over[open]")
    text = page.inner_text("dialog#over")
    assert "ゲーム終了" in text and "あおい" in text
    only_catalogue_words(page)
    page.click("#over-close")
    assert "第1ゲーム" in page.inner_text("#st-scores")
    only_catalogue_words(page)
    # the switch is remembered: English from now on, in this browser
    page.select_option("#lang", "en")
    page.wait_for_load_state()
    page.wait_for_selector("html[lang=en]")
    page.goto(server.url)
    page.wait_for_selector("#create #game")
    assert page.evaluate("() => document.documentElement.lang") == "en"


def test_every_press_on_stop_it_reaches_the_server(server: Server, new_page: Any) -> None:
    """Presses of 30-250 ms on Go! and the stacks while three bots play: each one sends an
    action (the server then accepts it or says why not); none is lost to a redraw."""
    require_game("stopit")
    options = {"minus_supply": 15, "min_pause_ms": 100, "go_timeout_ms": 4000}
    bots: list[str | None] = [None, "heuristic", "heuristic", "heuristic"]
    table = server.create("stopit", 4, bots, options=options, bot_delay_ms=300)
    page = new_page()
    sent: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda f: sent.append(str(f)) if '"action"' in str(f) else None
        ),
    )
    join(page, server.url, table, 0, "Ann")
    presses = 0
    go_presses = 0
    durations = [30, 80, 120, 170, 250]
    end = time.monotonic() + 40
    while presses < 14 or go_presses < 1:
        assert time.monotonic() < end, (presses, go_presses)
        if game_data(page, "over") == "1":
            break
        target = None
        go = page.locator("#si-phase button[data-act=go]")
        if go.count():
            target = go
            go_presses += 1
        elif game_data(page, "phase") == "running":
            target = page.locator(f"#si-stacks button.grab >> nth={presses % 5}")
        if target is None:
            page.wait_for_timeout(30)
            continue
        box = target.bounding_box()
        if box is None:
            continue
        before = len(sent)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_timeout(durations[presses % len(durations)])
        page.mouse.up()
        presses += 1
        deadline = time.monotonic() + 5  # the frame's report lags on a loaded machine
        while len(sent) == before and time.monotonic() < deadline:
            page.wait_for_timeout(10)
        assert len(sent) == before + 1, f"press {presses} sent {len(sent) - before} actions"
        no_internal_names(page)
    assert presses >= 10


def test_sound_is_off_until_switched_on_and_remembered(server: Server, new_page: Any) -> None:
    require_game("stop")
    table = server.create("stop", 2, [None, "easy"], options=QUICK, round_pause_ms=300)
    page = new_page()
    join(page, server.url, table, 0, "Ann")
    switch = page.locator("#sound")
    assert switch.get_attribute("aria-pressed") == "false" and "off" in switch.inner_text()
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true" and "on" in switch.inner_text()
    me = Player(page, 0)
    for _ in range(100):  # play until our turn comes round again: it sounds
        if switch.get_attribute("data-last") or game_data(page, "over") == "1":
            break
        before = seq(page)
        if me.step():
            wait_seq_above(page, before, 1.5)
        else:
            page.wait_for_timeout(30)
    assert switch.get_attribute("data-last") in ("turn", "stop", "evaluation")
    page.reload()
    page.wait_for_selector("#sound[aria-pressed=true]")


def test_a_message_typed_as_one_sits_down_is_not_lost(server: Server, new_page: Any) -> None:
    """The chat form opens with the click on Sit, while the seat's own connection is still
    on its way: a message sent then waits for that connection instead of failing, and the
    watcher's state is not taken for the seat's (protocol.md §8)."""
    require_game("stop")
    table = server.create("stop", 2, [None, "normal"])
    page = new_page()
    page.goto(f"{server.url}/t/{table}")
    wait_state(page)  # the watcher's state, before sitting down
    page.fill("#join-name", "Ann")
    page.click("#join-form button[value='0']")
    page.fill(".chat-input", "Hello at once")  # waits only for the form to show
    page.press(".chat-input", "Enter")
    page.wait_for_selector(".chat-log li:has-text('Hello at once')", timeout=10_000)
    assert page.locator(".chat-note").is_hidden()
    wait_state(page)
    assert page.locator(".who.seated").count() == 1
